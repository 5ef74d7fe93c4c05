package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/schedsweep/schedsweep/workloads"
)

const sharedWorkloads = "../../../shared/workloads"

// archiveMirror serves the files of sharedWorkloads on the loopback
// interface, by base name, whatever host the client asked for; a name whose
// shared copy is name.gz is served decompressed (Alea's raw files). Files
// we have no copy of are 404. It counts requests.
type archiveMirror struct {
	srv      *httptest.Server
	requests atomic.Int64
	onBody   func() // called after the first half of a body is sent
}

func newArchiveMirror(t *testing.T) *archiveMirror {
	t.Helper()
	needShared(t)
	m := &archiveMirror{}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.requests.Add(1)
		data, err := mirrorFile(path.Base(r.URL.Path))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		if m.onBody == nil {
			w.Write(data)
			return
		}
		w.Write(data[:len(data)/2])
		w.(http.Flusher).Flush()
		m.onBody()
		<-r.Context().Done()
	}))
	t.Cleanup(m.srv.Close)
	return m
}

func mirrorFile(name string) ([]byte, error) {
	if data, err := os.ReadFile(filepath.Join(sharedWorkloads, name)); err == nil {
		return data, nil
	}
	gz, err := os.ReadFile(filepath.Join(sharedWorkloads, name+".gz"))
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// env returns a trace environment whose client reaches only the mirror:
// every request, to the PWA or GitHub, goes to the loopback server.
func (m *archiveMirror) env(vars map[string]string) traceEnv {
	return traceEnv{
		client:   &http.Client{Transport: redirectAll{to: m.srv.Listener.Addr().String(), rt: m.srv.Client().Transport}},
		getenv:   func(k string) string { return vars[k] },
		terminal: func(io.Writer) bool { return false },
	}
}

type redirectAll struct {
	to string
	rt http.RoundTripper
}

func (r redirectAll) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = "http", r.to, r.to
	return r.rt.RoundTrip(out)
}

func fetchCLI(t *testing.T, env traceEnv, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = traceFetch(context.Background(), args, &out, &errb, env)
	return out.String(), errb.String(), err
}

func TestTraceFetch(t *testing.T) {
	m := newArchiveMirror(t)
	cache := filepath.Join(t.TempDir(), "cache")
	env := m.env(nil)
	kth, _ := workloads.LookupTrace("KTH-SP2")

	out, errOut, err := fetchCLI(t, env, "--cache", cache, "kth-sp2")
	if err != nil {
		t.Fatalf("got %v; stderr:\n%s", err, errOut)
	}
	want := filepath.Join(cache, kth.File)
	if out != want+"\n" {
		t.Errorf("stdout %q; want the path %q", out, want)
	}
	for _, line := range []string{
		"KTH-SP2: downloading " + kth.URL + ", 404417 bytes (395 KiB)",
		"KTH-SP2: done, 404417 bytes",
		"KTH-SP2: verified: HTTP 200 OK, 404417 bytes as announced, size as registered, gzip stream intact, sha256 as registered",
		"KTH-SP2: saved " + want,
		"KTH-SP2: please thank Lars Malinowsky",
	} {
		if !strings.Contains(errOut, line) {
			t.Errorf("stderr lacks %q; got:\n%s", line, errOut)
		}
	}
	got, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if shared, _ := os.ReadFile(filepath.Join(sharedWorkloads, kth.File)); !bytes.Equal(got, shared) {
		t.Error("cached file differs from the served one")
	}

	// Again: nothing is downloaded.
	before := m.requests.Load()
	out, errOut, err = fetchCLI(t, env, "KTH-SP2", "--cache", cache)
	if err != nil || out != want+"\n" || !strings.Contains(errOut, "already in the cache") {
		t.Errorf("second fetch: got %v, stdout %q, stderr:\n%s\nwant the path and 'already in the cache'", err, out, errOut)
	}
	if n := m.requests.Load() - before; n != 0 {
		t.Errorf("second fetch made %d requests; want 0", n)
	}
}

func TestTraceFetchMachinesAndEnvCache(t *testing.T) {
	m := newArchiveMirror(t)
	cache := t.TempDir()
	out, errOut, err := fetchCLI(t, m.env(map[string]string{cacheEnv: cache}), "wagap-2013")
	if err != nil {
		t.Fatalf("got %v; stderr:\n%s", err, errOut)
	}
	if out != filepath.Join(cache, "wagap-2013.swf")+"\n" {
		t.Errorf("stdout %q; want the trace in $%s", out, cacheEnv)
	}
	for _, f := range []string{"wagap-2013.swf", "wagap-2013.swf.machines"} {
		if _, err := os.Stat(filepath.Join(cache, f)); err != nil {
			t.Errorf("%s not cached: %v", f, err)
		}
	}
}

func TestTraceFetchFailureLeavesNothing(t *testing.T) {
	m := newArchiveMirror(t) // has no copy of LANL-CM5: 404
	cache := t.TempDir()
	out, _, err := fetchCLI(t, m.env(nil), "--cache", cache, "LANL-CM5", "KTH-SP2")
	if err == nil || !strings.Contains(err.Error(), `server answered "404 Not Found"`) ||
		!strings.Contains(err.Error(), "l_lanl_cm5/LANL-CM5-1994-4.1-cln.swf.gz") {
		t.Fatalf("got %v; want the 404 and the URL", err)
	}
	if errors.As(err, new(usageError)) {
		t.Error("a failed download is a usage error; want a plain failure (exit 1)")
	}
	// The other trace is still fetched; the failed one left nothing.
	kth, _ := workloads.LookupTrace("KTH-SP2")
	if out != filepath.Join(cache, kth.File)+"\n" {
		t.Errorf("stdout %q; want only the KTH-SP2 path", out)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries; want only %s", len(entries), kth.File)
	}
}

func TestTraceFetchInterrupted(t *testing.T) {
	m := newArchiveMirror(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.onBody = cancel // Ctrl-C in the middle of the transfer
	cache := t.TempDir()
	var out, errb bytes.Buffer
	err := traceFetch(ctx, []string{"--cache", cache, "KTH-SP2", "wagap-2013"}, &out, &errb, m.env(nil))
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errInterrupted) || !strings.Contains(err.Error(), "interrupted; nothing of KTH-SP2 was saved") {
		t.Fatalf("got %v; want an interruption (exit 130) wrapping context.Canceled", err)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 || out.Len() != 0 {
		t.Errorf("after the interruption: %d cache entries, stdout %q; want none", len(entries), out.String())
	}
}

func TestTraceFetchBadInput(t *testing.T) {
	m := newArchiveMirror(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cache", t.TempDir()}, "want at least one trace NAME"},
		{[]string{"--cache", t.TempDir(), "KTH-SP3"}, `unknown trace "KTH-SP3" (did you mean "KTH-SP2"?); known traces: LANL-CM5`},
		{[]string{"--cache"}, "flag needs an argument"},
	} {
		_, _, err := fetchCLI(t, m.env(nil), tc.args...)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v; want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	if n := m.requests.Load(); n != 0 {
		t.Errorf("bad input made %d requests; want 0", n)
	}
}

func TestTraceFetchProgressBar(t *testing.T) {
	m := newArchiveMirror(t)
	env := m.env(nil)
	env.terminal = func(io.Writer) bool { return true }
	_, errOut, err := fetchCLI(t, env, "--cache", t.TempDir(), "KTH-SP2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "KTH-SP2-1996-2.1-cln.swf.gz") || !strings.Contains(errOut, "100%") ||
		!strings.Contains(errOut, "KTH-SP2: verified:") {
		t.Errorf("stderr lacks a finished bar and the verification; got:\n%s", errOut)
	}
}

func TestTraceList(t *testing.T) {
	needShared(t)
	cache := t.TempDir()
	kth, _ := workloads.LookupTrace("KTH-SP2")
	shared, err := os.ReadFile(filepath.Join(sharedWorkloads, kth.File))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, kth.File), shared, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := traceList([]string{"--cache", cache}, &out, &errb, traceEnv{getenv: func(string) string { return "" }}); err != nil {
		t.Fatal(err)
	}
	// The table's lines, with runs of spaces squeezed.
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	table := strings.Join(lines, "\n")
	for _, want := range []string{
		"cache: " + cache,
		"NAME MACHINE CACHED FILE",
		"KTH-SP2 100 procs, 100 nodes yes KTH-SP2-1996-2.1-cln.swf.gz",
		"LANL-CM5 1024 procs, 1024 nodes, 32 MiB/node no LANL-CM5-1994-4.1-cln.swf.gz",
		"wagap-2013 2176 procs, 68 nodes no wagap-2013.swf + wagap-2013.swf.machines",
		"Please thank:",
		"KTH-SP2 Lars Malinowsky, Swedish Royal Institute of Technology (KTH), who provided the SP2 log",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("output lacks %q; got:\n%s", want, out.String())
		}
	}

	out.Reset()
	if err := traceList([]string{"-v", "--cache", cache}, &out, &errb, traceEnv{getenv: func(string) string { return "" }}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"url:         " + kth.URL, "cite:        D. G. Feitelson", "unverified:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-v output lacks %q", want)
		}
	}
}

func TestTraceCacheDir(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if d, _ := traceCacheDir("/flag", env("/env")); d != "/flag" {
		t.Errorf("flag and env: got %q; want /flag", d)
	}
	if d, _ := traceCacheDir("", env("/env")); d != "/env" {
		t.Errorf("env only: got %q; want /env", d)
	}
	d, err := traceCacheDir("", env(""))
	if base, berr := os.UserCacheDir(); berr == nil && (err != nil || d != filepath.Join(base, "schedsweep", "traces")) {
		t.Errorf("default: got %q, %v; want schedsweep/traces under %s", d, err, base)
	}
}

func TestResolveTraceArg(t *testing.T) {
	cache := t.TempDir()
	_, _, err := resolveTrace("CTC-SP2", cache, func(string) string { return "" })
	if !errors.Is(err, workloads.ErrNotCached) ||
		!strings.Contains(err.Error(), "schedsweep trace fetch CTC-SP2 --cache "+cache) {
		t.Errorf("got %v; want the fetch command with the same --cache", err)
	}
}

// failingTransport fails every request as an offline machine does.
type failingTransport struct{}

func (failingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, &net.DNSError{Err: "no such host", Name: req.URL.Host, IsNotFound: true}
}

// TestTraceFetchOffline checks that a fetch that cannot reach the archive
// says where to put the files obtained elsewhere: before, it printed the raw
// DNS error alone.
func TestTraceFetchOffline(t *testing.T) {
	cache := t.TempDir()
	env := traceEnv{
		client:   &http.Client{Transport: failingTransport{}},
		getenv:   func(string) string { return "" },
		terminal: func(io.Writer) bool { return false },
	}
	_, _, err := fetchCLI(t, env, "--cache", cache, "KTH-SP2", "wagap-2013")
	if err == nil {
		t.Fatal("fetched offline; want an error")
	}
	kth, _ := workloads.LookupTrace("KTH-SP2")
	wagap, _ := workloads.LookupTrace("wagap-2013")
	for _, want := range []string{
		"no such host",
		"KTH-SP2 could not be reached; with a copy obtained elsewhere, put it in the cache as\n  " + filepath.Join(cache, kth.File) + " (from " + kth.URL + "), or KTH-SP2-1996-2.1-cln.swf",
		"  " + filepath.Join(cache, wagap.File) + " (from " + wagap.URL + "), or wagap-2013.swf.gz\n  " + filepath.Join(cache, wagap.MachinesFile) + " (from " + wagap.MachinesURL + ")",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	// A server that answers, even with an error, is no network problem.
	m := newArchiveMirror(t)
	_, _, err = fetchCLI(t, m.env(nil), "--cache", cache, "LANL-CM5")
	if err == nil || strings.Contains(err.Error(), "could not be reached") {
		t.Errorf("a 404: got %v; want no offline hint", err)
	}
}
