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
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// servedFile returns what the test server serves as name: a file of
// sharedTraces, or the decompressed name.gz when only that is there (Alea's
// files are stored compressed here but served raw). It skips the test when
// the shared traces are absent.
func servedFile(tb testing.TB, name string) []byte {
	tb.Helper()
	if _, err := os.Stat(sharedTraces); err != nil {
		tb.Skipf("no shared traces: %v", err)
	}
	data, err := serverFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func sumOf(b []byte) (string, int64) {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), int64(len(b))
}

// traceServer serves the shared files on the loopback interface, at
// /MODE/NAME, where MODE says how to misbehave. A NAME whose shared copy is
// NAME.gz is served decompressed (Alea's raw files).
type traceServer struct {
	*httptest.Server
	requests atomic.Int64
}

func newTraceServer(t *testing.T) *traceServer {
	t.Helper()
	if _, err := os.Stat(sharedTraces); err != nil {
		t.Skipf("no shared traces: %v", err)
	}
	ts := &traceServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.requests.Add(1)
		mode, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		data, err := serverFile(name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		length := strconv.Itoa(len(data))
		switch mode {
		case "ok":
			w.Header().Set("Content-Length", length)
			w.Write(data)
		case "chunked": // no Content-Length
			w.Write(data[:len(data)/2])
			w.(http.Flusher).Flush()
			w.Write(data[len(data)/2:])
		case "short": // announces the whole file, sends half, and closes
			w.Header().Set("Content-Length", length)
			w.Write(data[:len(data)/2])
		case "hijack": // the connection dies mid-body
			conn, bw, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\nContent-Length: %s\r\nContent-Type: application/octet-stream\r\n\r\n", length)
			bw.Write(data[:len(data)/3])
			bw.Flush()
			conn.Close()
		case "corrupt": // right length, damaged bytes
			bad := bytes.Clone(data)
			for i := len(bad) / 2; i < len(bad)/2+16; i++ {
				bad[i] ^= 0x55
			}
			w.Header().Set("Content-Length", length)
			w.Write(bad)
		case "html": // an error page with status 200
			io.WriteString(w, "<html><body>Moved. Please update your bookmarks.</body></html>\n")
		case "stall": // sends a little, then waits for the client to give up
			w.Header().Set("Content-Length", length)
			w.Write(data[:1<<12])
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "500":
			http.Error(w, "internal error", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

func serverFile(name string) ([]byte, error) {
	if strings.ContainsAny(name, `/\`) {
		return nil, os.ErrNotExist
	}
	if data, err := os.ReadFile(filepath.Join(sharedTraces, name)); err == nil {
		return data, nil
	}
	gz, err := os.ReadFile(filepath.Join(sharedTraces, name+".gz"))
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// at returns t with its URLs on the test server, in mode.
func (ts *traceServer) at(t ArchiveTrace, mode string) ArchiveTrace {
	t.URL = ts.URL + "/" + mode + "/" + t.File
	if t.MachinesFile != "" {
		t.MachinesURL = ts.URL + "/ok/" + t.MachinesFile
	}
	return t
}

// recorder is a FetchProgress that remembers what it was told.
type recorder struct {
	bytes   int64
	begun   []string
	sizes   []int64
	done    []FetchedFile
	onWrite func()
}

func (r *recorder) Write(p []byte) (int, error) {
	r.bytes += int64(len(p))
	if r.onWrite != nil {
		r.onWrite()
	}
	return len(p), nil
}
func (r *recorder) Begin(url string, size int64) {
	r.begun = append(r.begun, url)
	r.sizes = append(r.sizes, size)
}
func (r *recorder) Done(f FetchedFile) { r.done = append(r.done, f) }

func mustLookup(t *testing.T, name string) ArchiveTrace {
	t.Helper()
	tr, err := LookupTrace(name)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestFetchSuccess(t *testing.T) {
	ts := newTraceServer(t)
	kth := mustLookup(t, "KTH-SP2")
	want := servedFile(t, kth.File)
	for _, mode := range []string{"ok", "chunked"} {
		t.Run(mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache", "traces") // Fetch creates it
			var rec recorder
			path, err := Fetch(context.Background(), ts.Client(), ts.at(kth, mode), dir, &rec)
			if err != nil {
				t.Fatal(err)
			}
			if path != filepath.Join(dir, kth.File) {
				t.Errorf("got path %q; want %q", path, filepath.Join(dir, kth.File))
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("cached file differs from the served one (%d bytes; want %d)", len(got), len(want))
			}
			if names := dirNames(t, dir); len(names) != 1 {
				t.Errorf("cache holds %q; want only %s", names, kth.File)
			}
			if rec.bytes != kth.Size || len(rec.begun) != 1 || rec.sizes[0] != kth.Size || len(rec.done) != 1 {
				t.Fatalf("progress saw %d bytes, Begin %v %v, %d Done; want %d bytes, one Begin with the size, one Done",
					rec.bytes, rec.begun, rec.sizes, len(rec.done), kth.Size)
			}
			d := rec.done[0]
			if d.Cached || d.SHA256 != kth.SHA256 || d.Path != path || !strings.Contains(strings.Join(d.Checks, ", "), "gzip stream intact, sha256 as registered") {
				t.Errorf("Done got %+v; want a fresh download, verified by gzip and sha256", d)
			}
		})
	}
}

func TestFetchCachedIsNotDownloadedAgain(t *testing.T) {
	ts := newTraceServer(t)
	kth := ts.at(mustLookup(t, "KTH-SP2"), "ok")
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), ts.Client(), kth, dir, nil); err != nil {
		t.Fatal(err)
	}
	before := ts.requests.Load()
	var rec recorder
	path, err := Fetch(context.Background(), ts.Client(), kth, dir, &rec)
	if err != nil {
		t.Fatal(err)
	}
	if n := ts.requests.Load() - before; n != 0 {
		t.Errorf("second Fetch made %d requests; want 0", n)
	}
	if len(rec.done) != 1 || !rec.done[0].Cached || rec.done[0].Path != path || rec.bytes != 0 {
		t.Errorf("got Done %+v and %d progress bytes; want one cached file and no bytes", rec.done, rec.bytes)
	}

	// A cached file whose sum no longer matches is downloaded again.
	bad := make([]byte, kth.Size)
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Fetch(context.Background(), ts.Client(), kth, dir, nil); err != nil {
		t.Fatal(err)
	}
	if n := ts.requests.Load() - before; n != 1 {
		t.Errorf("re-fetching a damaged cache made %d requests; want 1", n)
	}
	got, _ := os.ReadFile(path)
	if sum, _ := sumOf(got); sum != kth.SHA256 {
		t.Errorf("damaged cache file not replaced: sha256 %s", sum)
	}
}

func TestFetchWithMachinesFile(t *testing.T) {
	ts := newTraceServer(t)
	wagap := mustLookup(t, "wagap-2013")
	dir := t.TempDir()
	var rec recorder
	path, err := Fetch(context.Background(), ts.Client(), ts.at(wagap, "ok"), dir, &rec)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := CachedPath(dir, wagap); !ok || p != path {
		t.Errorf("CachedPath = %q, %v; want %q, true", p, ok, path)
	}
	groups, err := readMachinesFile(filepath.Join(dir, wagap.MachinesFile))
	if err != nil {
		t.Fatal(err)
	}
	if c := Capacity(groups); c[0] != wagap.Procs {
		t.Errorf("machines file gives %d processors; registry says %d", c[0], wagap.Procs)
	}
	if len(rec.done) != 2 || len(dirNames(t, dir)) != 2 {
		t.Errorf("got %d Done calls and files %q; want the trace and its machines file", len(rec.done), dirNames(t, dir))
	}
}

func readMachinesFile(path string) ([]NodeGroup, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMachines(bufio.NewReader(f), filepath.Base(path))
}

func TestFetchFailuresLeaveNothing(t *testing.T) {
	ts := newTraceServer(t)
	kth := mustLookup(t, "KTH-SP2")
	wagap := mustLookup(t, "wagap-2013")
	tests := []struct {
		name  string
		trace ArchiveTrace
		want  string // in the error
	}{
		{"checksum mismatch", func() ArchiveTrace {
			tr := ts.at(kth, "ok")
			tr.SHA256 = strings.Repeat("0", 64)
			return tr
		}(), "sha256 mismatch"},
		{"size differs from registry", func() ArchiveTrace {
			tr := ts.at(kth, "ok")
			tr.Size++
			return tr
		}(), "server announces 404417 bytes; the registered file has 404418"},
		{"truncated body", ts.at(kth, "short"), "closed after 202208 of 404417 bytes"},
		{"interrupted transfer", ts.at(kth, "hijack"), "transfer interrupted"},
		{"server error", ts.at(kth, "500"), `server answered "500 Internal Server Error"`},
		{"not found", ts.at(kth, "nowhere"), `server answered "404 Not Found"`},
		{"corrupt gzip", func() ArchiveTrace {
			tr := ts.at(kth, "corrupt")
			tr.SHA256 = "" // only the gzip check can catch it
			return tr
		}(), "gzip stream corrupt"},
		{"not gzip", func() ArchiveTrace {
			tr := ts.at(kth, "html")
			tr.SHA256, tr.Size = "", 0
			return tr
		}(), `not gzip data, though the name ends in .gz: it starts with "<html>`},
		{"machines file missing", func() ArchiveTrace {
			tr := ts.at(wagap, "ok")
			tr.MachinesURL = ts.URL + "/500/" + tr.MachinesFile
			return tr
		}(), "500 Internal Server Error"},
		{"bad file name", func() ArchiveTrace {
			tr := ts.at(kth, "ok")
			tr.File = "../escape.swf.gz"
			return tr
		}(), "not a plain file name"},
	}
	if _, err := Fetch(context.Background(), ts.Client(), ts.at(kth, "ok"), "", nil); err == nil ||
		!strings.Contains(err.Error(), "no cache directory") {
		t.Errorf("empty cache directory: got %v; want an error", err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, err := Fetch(context.Background(), ts.Client(), tc.trace, dir, &recorder{})
			if err == nil {
				t.Fatalf("Fetch succeeded with %q; want an error containing %q", path, tc.want)
			}
			t.Logf("error: %v", err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q; want it to contain %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), ts.URL) && tc.name != "bad file name" {
				t.Errorf("got %q; want it to name the URL", err)
			}
			if names := dirNames(t, dir); len(names) != 0 {
				t.Errorf("cache holds %q after the failure; want nothing", names)
			}
		})
	}
}

func TestFetchCancelled(t *testing.T) {
	ts := newTraceServer(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{onWrite: cancel} // give up once bytes flow
	_, err := Fetch(ctx, ts.Client(), ts.at(mustLookup(t, "KTH-SP2"), "stall"), dir, rec)
	t.Logf("error: %v", err)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want an error wrapping context.Canceled", err)
	}
	if rec.bytes == 0 {
		t.Error("cancelled before any byte arrived; the test meant to cancel mid-transfer")
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("cache holds %q after cancellation; want nothing", names)
	}
}
