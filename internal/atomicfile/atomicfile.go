// Package atomicfile writes files so that no reader ever sees one half
// written: the bytes go to a temporary file beside the target (named
// ".<name>.tmp-<random>", which no "*.parquet" or "*.json" glob matches),
// renamed into place only when complete, and removed on failure. The
// command line, the runner and the results writers share it.
//
// The rename is atomic on POSIX file systems; the data is not synced to
// disk first, so a machine crash (not a process kill) can leave an empty
// file behind the new name.
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

// Create starts a file for path, creating missing parent directories.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
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

// Commit flushes the file and renames it to its path. On failure the
// temporary file is removed.
func (a *File) Commit() error {
	if a.done {
		return fmt.Errorf("%s: already committed or aborted", a.path)
	}
	a.done = true
	err := a.w.Flush()
	a.release()
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
	}
	return err
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
