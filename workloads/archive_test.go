package workloads

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestArchiveTableIsSound(t *testing.T) {
	hexSum := regexp.MustCompile(`^[0-9a-f]{64}$`)
	names, files := map[string]bool{}, map[string]bool{}
	for _, tr := range ArchiveTraces() {
		t.Run(tr.Name, func(t *testing.T) {
			if names[strings.ToLower(tr.Name)] {
				t.Errorf("name %q is registered twice (ignoring case)", tr.Name)
			}
			names[strings.ToLower(tr.Name)] = true
			for _, f := range tr.remoteFiles() {
				if files[f.name] {
					t.Errorf("file %q belongs to two traces", f.name)
				}
				files[f.name] = true
				if err := checkFileName(f.name); err != nil {
					t.Error(err)
				}
				if !strings.HasPrefix(f.url, "https://") || !strings.HasSuffix(f.url, "/"+f.name) {
					t.Errorf("URL %q: want https, ending in /%s", f.url, f.name)
				}
				if f.sha256 != "" && !hexSum.MatchString(f.sha256) {
					t.Errorf("sha256 %q of %s is not 64 lower-case hex digits", f.sha256, f.name)
				}
			}
			if tr.Procs <= 0 || tr.Nodes <= 0 || tr.Procs < tr.Nodes {
				t.Errorf("got %d processors on %d nodes; want both positive, processors ≥ nodes", tr.Procs, tr.Nodes)
			}
			if tr.Acknowledge == "" || tr.Cite == "" || tr.Page == "" {
				t.Errorf("acknowledgement, citation or page missing: %+v", tr)
			}
		})
	}
	for _, want := range []string{"LANL-CM5", "METACENTRUM-2009-2", "METACENTRUM-2013-3", "KTH-SP2",
		"SDSC-SP2", "CTC-SP2", "HPC2N", "SDSC-BLUE", "wagap-2013"} {
		if !names[strings.ToLower(want)] {
			t.Errorf("%s is not registered", want)
		}
	}
}

func TestArchiveTracesReturnsACopy(t *testing.T) {
	a := ArchiveTraces()
	a[0].URL = "https://example.invalid/x"
	if b := ArchiveTraces(); b[0].URL == a[0].URL {
		t.Error("changing the returned slice changed the registry")
	}
}

// The registered sums must be those of the shared copies that are the
// archive's exact files.
func TestArchiveSumsMatchSharedCopies(t *testing.T) {
	for _, name := range []string{"KTH-SP2", "wagap-2013"} {
		tr, err := LookupTrace(name)
		if err != nil {
			t.Fatal(err)
		}
		if sum, n := sumOf(servedFile(t, tr.File)); sum != tr.SHA256 || n != tr.Size {
			t.Errorf("%s: shared copy of %s has sha256 %s, %d bytes; registry has %s, %d", name, tr.File, sum, n, tr.SHA256, tr.Size)
		}
		if tr.MachinesFile != "" {
			if sum, n := sumOf(servedFile(t, tr.MachinesFile)); sum != tr.MachinesSHA256 || n != tr.MachinesSize {
				t.Errorf("%s: %s has sha256 %s, %d bytes; registry has %s, %d", name, tr.MachinesFile, sum, n, tr.MachinesSHA256, tr.MachinesSize)
			}
		}
	}
}

func TestLookupTraceEveryName(t *testing.T) {
	for _, want := range ArchiveTraces() {
		for _, typed := range []string{want.Name, strings.ToLower(want.Name), strings.ToUpper(want.Name)} {
			got, err := LookupTrace(typed)
			if err != nil {
				t.Errorf("LookupTrace(%q): %v", typed, err)
				continue
			}
			if got.Name != want.Name || got.URL != want.URL {
				t.Errorf("LookupTrace(%q) = %s (%s); want %s (%s)", typed, got.Name, got.URL, want.Name, want.URL)
			}
		}
	}
}

func TestLookupTraceUnknown(t *testing.T) {
	for _, tc := range []struct{ name, suggest string }{
		{"KTH-SP3", "KTH-SP2"},
		{"lanl_cm5", "LANL-CM5"},
		{"metacentrum-2013", "METACENTRUM-2013-3"},
		{"wagap", "wagap-2013"},
		{"zzzzzzzzzz", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LookupTrace(tc.name)
			if !errors.Is(err, ErrUnknownTrace) {
				t.Fatalf("got %v; want an error wrapping ErrUnknownTrace", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, `"`+tc.name+`"`) || !strings.Contains(msg, "known traces: LANL-CM5, KTH-SP2") {
				t.Errorf("got %q; want the input quoted and the known names", msg)
			}
			switch hint := `did you mean "` + tc.suggest + `"?`; {
			case tc.suggest != "" && !strings.Contains(msg, hint):
				t.Errorf("got %q; want %q", msg, hint)
			case tc.suggest == "" && strings.Contains(msg, "did you mean"):
				t.Errorf("got %q; want no suggestion", msg)
			}
		})
	}
}

func TestResolveTrace(t *testing.T) {
	dir := t.TempDir()
	kth, _ := LookupTrace("KTH-SP2")
	local := filepath.Join(t.TempDir(), "mine.swf")
	if err := os.WriteFile(local, []byte("1 0 -1 1 1 -1 -1 1 1 -1 1 1 1 -1 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// An existing path is used as it is, even in the presence of a name.
	path, tr, err := ResolveTrace(dir, local)
	if err != nil || path != local || tr != nil {
		t.Errorf("ResolveTrace(%q) = %q, %v, %v; want the path, no trace", local, path, tr, err)
	}

	// A registered name that is not cached: the error gives the command.
	_, _, err = ResolveTrace(dir, "kth-sp2")
	if !errors.Is(err, ErrNotCached) || !strings.Contains(err.Error(), "schedsweep trace fetch KTH-SP2") {
		t.Errorf("got %v; want ErrNotCached and the fetch command", err)
	}

	// A cached one resolves to the cache; a wrong size is not cached.
	cached := filepath.Join(dir, kth.File)
	if err := os.WriteFile(cached, []byte("short"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ResolveTrace(dir, "KTH-SP2"); !errors.Is(err, ErrNotCached) {
		t.Errorf("a cached file of the wrong size: got %v; want ErrNotCached", err)
	}
	if err := os.WriteFile(cached, make([]byte, kth.Size), 0o644); err != nil {
		t.Fatal(err)
	}
	path, tr, err = ResolveTrace(dir, "KTH-SP2")
	if err != nil || path != cached || tr == nil || tr.Name != "KTH-SP2" {
		t.Errorf("got %q, %v, %v; want %q and the KTH-SP2 entry", path, tr, err, cached)
	}

	// Neither a file nor a name.
	_, _, err = ResolveTrace(dir, "KTH-SP2.swf")
	if !errors.Is(err, ErrUnknownTrace) {
		t.Fatalf("got %v; want ErrUnknownTrace", err)
	}
	for _, want := range []string{`"KTH-SP2.swf"`, "neither an existing file nor a registered trace name", `did you mean "KTH-SP2"?`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("got %q; want it to contain %q", err, want)
		}
	}

	// A directory is not a trace.
	if _, _, err := ResolveTrace(dir, dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: got %v; want an error saying it is a directory", err)
	}
}

func TestCachedPathNeedsMachinesFile(t *testing.T) {
	dir := t.TempDir()
	wagap, _ := LookupTrace("wagap-2013")
	if err := os.WriteFile(filepath.Join(dir, wagap.File), make([]byte, wagap.Size), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := CachedPath(dir, wagap); ok {
		t.Error("cached without its machines file; want not cached")
	}
	if err := os.WriteFile(filepath.Join(dir, wagap.MachinesFile), make([]byte, wagap.MachinesSize), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, ok := CachedPath(dir, wagap); !ok || p != filepath.Join(dir, wagap.File) {
		t.Errorf("got %q, %v; want the cached path, true", p, ok)
	}
}
