package workloads

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
)

// FetchProgress may be implemented by the progress writer given to Fetch.
// Fetch writes every byte it receives to the writer; through these methods
// it also says which file the bytes belong to and how each one ended.
type FetchProgress interface {
	io.Writer
	// Begin is called once the server has answered for url, before the
	// body is read. size is the expected length in bytes, -1 if unknown.
	Begin(url string, size int64)
	// Done is called for each file that is verified and in place, or that
	// was in the cache already (f.Cached).
	Done(f FetchedFile)
}

// FetchedFile describes a file Fetch put into, or found in, the cache.
type FetchedFile struct {
	URL    string
	Path   string   // the file in the cache
	Size   int64    // bytes
	SHA256 string   // hex; computed from the bytes received, or "" for a cached file whose sum is not registered
	Checks []string // what was verified, in order, e.g. "gzip stream intact"
	Cached bool     // found in the cache; nothing was downloaded
}

// remoteFile is one file of a trace to download.
type remoteFile struct {
	name, url, sha256 string
	size              int64
}

func (t ArchiveTrace) remoteFiles() []remoteFile {
	fs := []remoteFile{{t.File, t.URL, t.SHA256, t.Size}}
	if t.MachinesFile != "" {
		fs = append(fs, remoteFile{t.MachinesFile, t.MachinesURL, t.MachinesSHA256, t.MachinesSize})
	}
	return fs
}

// Fetch downloads trace t, and its machines file if it has one, into the
// cache directory dir (created if missing), and returns the path of the
// trace file. A trace already in the cache (see CachedPath) whose sum, when
// registered, still matches is not downloaded again; Fetch then returns its
// path at once, and a FetchProgress learns of it through Done. A nil client
// means http.DefaultClient; progress may be nil.
//
// Each file is written to a temporary file in dir while its bytes are
// hashed and copied to progress. Fetch then checks, in order: the HTTP
// status (200), that the announced Content-Length and the registered size
// agree, that the body was complete (bytes received against Content-Length
// and against the registered size), that a gzip file decompresses to its end
// with a correct checksum, and the sha256 when registered. Only when every
// file of the trace passed are they synced, closed and renamed into place,
// the machines file first. On any failure, or when ctx is cancelled, every
// temporary file is removed, nothing new is left in dir, and the error says
// which check failed for which URL; a cancellation wraps ctx.Err().
func Fetch(ctx context.Context, c *http.Client, t ArchiveTrace, dir string, progress io.Writer) (path string, err error) {
	if c == nil {
		c = http.DefaultClient
	}
	if dir == "" {
		return "", fmt.Errorf("fetching %s: no cache directory given", t.Name)
	}
	files := t.remoteFiles()
	for _, f := range files {
		if err := checkFileName(f.name); err != nil {
			return "", fmt.Errorf("fetching %s: %w", t.Name, err)
		}
		if f.url == "" {
			return "", fmt.Errorf("fetching %s: no download address for %s", t.Name, f.name)
		}
	}
	reporter, _ := progress.(FetchProgress)
	if path, ok := CachedPath(dir, t); ok {
		cached := files
		if name := filepath.Base(path); name != t.File {
			// The other form (CachedPath), which no registered sum or
			// size describes.
			cached = append([]remoteFile{{name: name, url: files[0].url}}, files[1:]...)
		}
		done, err := cachedFiles(dir, cached)
		if err != nil {
			return "", fmt.Errorf("fetching %s: %w", t.Name, err)
		}
		if done != nil {
			for _, d := range done {
				if reporter != nil {
					reporter.Done(d)
				}
			}
			return path, nil
		}
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", fmt.Errorf("fetching %s: creating the cache: %w", t.Name, err)
	}
	var tmps []string
	defer func() {
		if err != nil {
			for _, tmp := range tmps {
				os.Remove(tmp)
			}
		}
	}()
	done := make([]FetchedFile, len(files))
	for i, f := range files {
		tmp, ff, err := download(ctx, c, f, dir, progress, reporter)
		if tmp != "" {
			tmps = append(tmps, tmp)
		}
		if err != nil {
			return "", fmt.Errorf("fetching %s: %w", t.Name, err)
		}
		done[i] = ff
	}
	// The trace file goes last, so a trace in place always has its machines
	// file beside it.
	for i := len(files) - 1; i >= 0; i-- {
		if err := os.Rename(tmps[i], done[i].Path); err != nil {
			return "", fmt.Errorf("fetching %s: moving %s into place: %w", t.Name, files[i].name, err)
		}
	}
	if reporter != nil {
		for _, d := range done {
			reporter.Done(d)
		}
	}
	return done[0].Path, nil
}

// checkFileName rejects names that would leave the cache directory.
func checkFileName(name string) error {
	if name == "" || name == "." || name == ".." || filepath.Base(name) != name || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("file name %q is not a plain file name", name)
	}
	return nil
}

// cachedFiles describes the cached files of a trace, checking registered
// sums. It returns nil, nil when a sum no longer matches, so that the trace
// is downloaded again.
func cachedFiles(dir string, files []remoteFile) ([]FetchedFile, error) {
	out := make([]FetchedFile, len(files))
	for i, f := range files {
		path := filepath.Join(dir, f.name)
		ff := FetchedFile{URL: f.url, Path: path, Cached: true, Checks: []string{"in the cache"}}
		if f.sha256 != "" {
			sum, n, err := hashFile(path)
			if err != nil {
				return nil, err
			}
			if !strings.EqualFold(sum, f.sha256) {
				return nil, nil
			}
			ff.SHA256, ff.Size = sum, n
			ff.Checks = append(ff.Checks, "sha256 matches the registry")
		} else if fi, err := os.Stat(path); err == nil {
			ff.Size = fi.Size()
		}
		out[i] = ff
	}
	return out, nil
}

func hashFile(path string) (string, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return "", 0, fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// download fetches f into a new temporary file in dir and verifies it. It
// returns the temporary file's name, which the caller removes on failure,
// and, on success, what was verified (Path is where the file belongs).
func download(ctx context.Context, c *http.Client, f remoteFile, dir string, progress io.Writer, reporter FetchProgress) (string, FetchedFile, error) {
	ff := FetchedFile{URL: f.url, Path: filepath.Join(dir, f.name)}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %w", f.url, fmt.Errorf(format, args...))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return "", ff, fmt.Errorf("%s: %w", f.url, err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", ff, fail("%w", canceled(ctx, err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", ff, fail("server answered %q, want 200 OK", resp.Status)
	}
	ff.Checks = append(ff.Checks, "HTTP 200 OK")
	announced := resp.ContentLength // -1 when unknown
	if announced >= 0 && f.size > 0 && announced != f.size {
		return "", ff, fail("server announces %d bytes; the registered file has %d (the archive may have replaced it)", announced, f.size)
	}
	expect := announced
	if expect < 0 && f.size > 0 {
		expect = f.size
	}
	if reporter != nil {
		reporter.Begin(f.url, expect)
	}

	tmp, err := atomicfile.CreateTemp(dir, "."+f.name+".part-*")
	if err != nil {
		return "", ff, fmt.Errorf("%s: creating a temporary file: %w", f.url, err)
	}
	name := tmp.Name()
	closed := false
	defer func() {
		if !closed {
			tmp.Close()
		}
	}()

	h := sha256.New()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	sinks := []io.Writer{fileWriter{bw}, h}
	if progress != nil {
		sinks = append(sinks, progressWriter{progress})
	}
	n, err := io.Copy(io.MultiWriter(sinks...), resp.Body)
	if err != nil {
		var we writeError
		switch {
		case errors.As(err, &we):
			return name, ff, fmt.Errorf("%s: %w", f.url, we.err)
		case errors.Is(err, io.ErrUnexpectedEOF) && expect >= 0:
			return name, ff, fail("transfer interrupted: the connection closed after %d of %d bytes", n, expect)
		default:
			return name, ff, fail("transfer failed after %d bytes: %w", n, canceled(ctx, err))
		}
	}
	if announced >= 0 && n != announced {
		return name, ff, fail("body truncated: got %d bytes, Content-Length announced %d", n, announced)
	}
	if announced >= 0 {
		ff.Checks = append(ff.Checks, fmt.Sprintf("%d bytes as announced", n))
	}
	if f.size > 0 && n != f.size {
		return name, ff, fail("got %d bytes; the registered file has %d", n, f.size)
	}
	if f.size > 0 {
		ff.Checks = append(ff.Checks, "size as registered")
	}
	if err := bw.Flush(); err != nil {
		return name, ff, fmt.Errorf("%s: writing %s: %w", f.url, name, err)
	}
	ff.Size = n

	gz, err := checkGzip(tmp, f.name)
	if err != nil {
		return name, ff, fail("%w", err)
	}
	if gz {
		ff.Checks = append(ff.Checks, "gzip stream intact")
	}
	ff.SHA256 = hex.EncodeToString(h.Sum(nil))
	if f.sha256 != "" {
		if !strings.EqualFold(ff.SHA256, f.sha256) {
			return name, ff, fail("sha256 mismatch: got %s, want %s (the file is corrupt, or the archive replaced it)", ff.SHA256, f.sha256)
		}
		ff.Checks = append(ff.Checks, "sha256 as registered")
	}
	if err := tmp.Sync(); err != nil {
		return name, ff, fmt.Errorf("%s: syncing %s: %w", f.url, name, err)
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return name, ff, fmt.Errorf("%s: closing %s: %w", f.url, name, err)
	}
	return name, ff, nil
}

// canceled returns ctx's error, wrapping err's text, when ctx is done, so
// that callers can test for context.Canceled whatever the transport said.
func canceled(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%v)", cerr, err)
	}
	return err
}

// checkGzip decompresses the file to its end if it is gzip data, which
// checks every member's CRC-32 and length. A name ending in ".gz" must hold
// gzip data. It reports whether the file was gzip.
func checkGzip(f *os.File, name string) (bool, error) {
	var magic [2]byte
	n, _ := f.ReadAt(magic[:], 0)
	isGzip := n == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if !isGzip {
		if strings.HasSuffix(name, ".gz") {
			var head [64]byte
			k, _ := f.ReadAt(head[:], 0)
			return false, fmt.Errorf("not gzip data, though the name ends in .gz: it starts with %q", bytes.TrimSpace(head[:k]))
		}
		return false, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return true, err
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return true, fmt.Errorf("gzip stream corrupt: %w", err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return true, fmt.Errorf("gzip stream corrupt: %w", err)
	}
	if err := zr.Close(); err != nil {
		return true, fmt.Errorf("gzip stream corrupt: %w", err)
	}
	return true, nil
}

// writeError marks a failure to write the temporary file or the progress,
// as opposed to a failure to read the body.
type writeError struct{ err error }

func (e writeError) Error() string { return e.err.Error() }

type fileWriter struct{ w io.Writer }

func (w fileWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		err = writeError{fmt.Errorf("writing the temporary file: %w", err)}
	}
	return n, err
}

type progressWriter struct{ w io.Writer }

func (w progressWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		err = writeError{fmt.Errorf("progress writer: %w", err)}
	}
	return n, err
}
