// Package atomicfile writes files so that no reader ever sees one half
// written: the bytes go to a temporary file beside the target (named
// ".<name>.tmp-<random>", which no "*.parquet" or "*.json" glob matches),
// renamed into place only when complete, and removed on failure. The
// command line, the runner and the results writers share it.
//
// The rename is atomic on POSIX file systems. To survive a machine crash
// or power loss too, not only a killed process, Commit makes the file
// durable before it names it and the name durable before it returns, as
// SQLite does for its journal:
//
//  1. the temporary file is synced (fsync), so its bytes are on the disk
//     before any name points at them;
//  2. it is renamed over the target;
//  3. the folder is synced, so the new name is on the disk too.
//
// Folders Create makes are synced into their parents as they are made.
// Once Commit returns, a crash leaves the whole new file, never an empty,
// short or zero-filled one under the name: a caller that writes a record
// naming the file (the runner's journal) after Commit has returned can
// trust the file it names.
//
// This holds on Linux (ext4, XFS, btrfs), where fsync of a file reaches
// the disk and fsync of a folder makes its entries durable. On macOS fsync
// reaches the drive but not through the drive's own write cache
// (F_FULLFSYNC would), so a power cut can still lose a recent file; the
// BSDs behave as Linux. Windows cannot open a folder to sync it: step 3 is
// skipped there, and NTFS orders its metadata itself. A file system that
// cannot sync a folder (some network and FUSE mounts answer EINVAL) is
// taken at its word: the folder sync is skipped, the file sync is not.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// bufSize is the write buffer of a File: large enough that a Parquet
// writer's many small writes (page headers, footers) reach the file in few
// system calls, small enough that a sweep writing two files per run does not
// churn megabytes of buffers through the garbage collector. Buffers are
// pooled and reused from file to file.
const bufSize = 64 << 10

var buffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, bufSize) }}

// File is a file being written; Commit moves it into place, Abort drops it.
type File struct {
	path string
	f    *os.File
	w    *bufio.Writer
	done bool
}

// syncFile and syncDir make a file's data and a folder's entries durable;
// tests replace them to see the calls or make them fail.
var (
	syncFile = (*os.File).Sync
	syncDir  = syncFolder
)

// Create starts a file for path, creating missing parent directories.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := mkdirAll(dir); err != nil {
		return nil, err
	}
	f, err := CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	w := buffers.Get().(*bufio.Writer)
	w.Reset(f)
	return &File{path: path, f: f, w: w}, nil
}

// Path returns the path the file will have once committed.
func (a *File) Path() string { return a.path }

// Write writes to the temporary file; after Commit or Abort it is an error.
func (a *File) Write(p []byte) (int, error) {
	if a.done {
		return 0, fmt.Errorf("%s: write after commit or abort", a.path)
	}
	return a.w.Write(p)
}

// Commit flushes the file, syncs it to disk, renames it to its path and
// syncs its folder (see the package comment). On failure before the rename
// the temporary file is removed and nothing appears at the path; a failure
// to sync the folder after the rename is reported, the file in place.
func (a *File) Commit() error {
	if a.done {
		return fmt.Errorf("%s: already committed or aborted", a.path)
	}
	a.done = true
	err := a.w.Flush()
	a.release()
	if err == nil {
		if err = syncFile(a.f); err != nil {
			err = fmt.Errorf("%s: syncing to disk: %w", a.path, err)
		}
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Rename(a.f.Name(), a.path); err != nil {
			err = fmt.Errorf("moving the finished file into place: %w", err)
		}
	}
	if err != nil {
		os.Remove(a.f.Name())
		return err
	}
	if err := syncDir(filepath.Dir(a.path)); err != nil {
		return fmt.Errorf("%s: syncing its folder to disk: %w", a.path, err)
	}
	return nil
}

// mkdirAll makes dir and any missing parents, as os.MkdirAll does, and
// syncs each new folder's parent, so that the folders a file is renamed
// into survive a crash as the file does.
func mkdirAll(dir string) error {
	var made []string // the missing folders, deepest first
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			break
		}
		made = append(made, d)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for i := len(made) - 1; i >= 0; i-- {
		if err := syncDir(filepath.Dir(made[i])); err != nil {
			return fmt.Errorf("%s: syncing the new folder to disk: %w", made[i], err)
		}
	}
	return nil
}

// Abort closes and removes the temporary file; nothing appears at the path.
// It does nothing after Commit or Abort, so it can be deferred.
func (a *File) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.release()
	a.f.Close()
	os.Remove(a.f.Name())
}

// release returns the write buffer to the pool.
func (a *File) release() {
	a.w.Reset(nil)
	buffers.Put(a.w)
	a.w = nil
}

// CreateTemp creates a new file in dir, as os.CreateTemp does (the last
// "*" in pattern becomes a random string), but with the permissions any
// other new file gets, 0666 less the user's umask, rather than 0600: a
// results folder or trace cache shared by a research group (umask 002 in a
// setgid project directory) stays writable by the group, and a private one
// (umask 077) stays private.
func CreateTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: fs.ErrExist}
}

// WriteFile writes path through write, atomically.
func WriteFile(path string, write func(io.Writer) error) error {
	a, err := Create(path)
	if err != nil {
		return err
	}
	defer a.Abort()
	if err := write(a); err != nil {
		return err
	}
	return a.Commit()
}
