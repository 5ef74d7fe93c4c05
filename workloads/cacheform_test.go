package workloads

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCachedPathOtherForm checks that a trace is found in the cache in
// either form, NAME.swf or NAME.swf.gz, whichever the registry names: a
// folder of .swf.gz files missed wagap-2013, registered uncompressed.
func TestCachedPathOtherForm(t *testing.T) {
	wagap, kth := mustLookup(t, "wagap-2013"), mustLookup(t, "KTH-SP2")
	// The machines file's registered sum is checked: use the real one.
	machines, err := os.ReadFile("../../shared/workloads/" + wagap.MachinesFile)
	if err != nil {
		t.Skipf("the shared workloads are not beside the checkout: %v", err)
	}
	tests := []struct {
		name  string
		trace ArchiveTrace
		files map[string]int // file name to size (of zeros, but the machines file)
		want  string         // "" for not cached
	}{
		{"wagap compressed", wagap, map[string]int{"wagap-2013.swf.gz": 100, wagap.MachinesFile: int(wagap.MachinesSize)}, "wagap-2013.swf.gz"},
		{"wagap as registered", wagap, map[string]int{"wagap-2013.swf": int(wagap.Size), "wagap-2013.swf.gz": 100, wagap.MachinesFile: int(wagap.MachinesSize)}, "wagap-2013.swf"},
		{"wagap compressed without machines", wagap, map[string]int{"wagap-2013.swf.gz": 100}, ""},
		{"kth uncompressed", kth, map[string]int{"KTH-SP2-1996-2.1-cln.swf": 100}, "KTH-SP2-1996-2.1-cln.swf"},
		{"kth neither", kth, map[string]int{"KTH-SP2.swf": 100}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, size := range tt.files {
				data := make([]byte, size)
				if name == wagap.MachinesFile {
					data = machines
				}
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path, ok := CachedPath(dir, tt.trace)
			if got := map[bool]string{true: filepath.Base(path)}[ok]; got != tt.want {
				t.Errorf("got %q, %v; want %q", path, ok, tt.want)
			}
			if tt.want == "" || tt.want == tt.trace.File {
				return // the registered form: Fetch checks its sum
			}
			if p, _, err := ResolveTrace(dir, tt.trace.Name); err != nil || p != path {
				t.Errorf("ResolveTrace: %q, %v; want %q", p, err, path)
			}
			// Fetch finds it too, and asks for nothing.
			ts := newTraceServer(t)
			var rec recorder
			p, err := Fetch(context.Background(), ts.Client(), ts.at(tt.trace, "ok"), dir, &rec)
			if err != nil || p != path || ts.requests.Load() != 0 || len(rec.done) == 0 || !rec.done[0].Cached {
				t.Errorf("Fetch: %q, %v, %d requests, done %+v; want the cached %q and no request", p, err, ts.requests.Load(), rec.done, path)
			}
		})
	}
}
