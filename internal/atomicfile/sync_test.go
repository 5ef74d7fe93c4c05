package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// recordSyncs replaces the sync seams for the test: each call is appended
// to the returned log as "file NAME" (the temporary file's base name) or
// "dir PATH", and fails with failFile or failDir when set.
func recordSyncs(t *testing.T, failFile, failDir error) *[]string {
	t.Helper()
	var log []string
	oldFile, oldDir := syncFile, syncDir
	t.Cleanup(func() { syncFile, syncDir = oldFile, oldDir })
	syncFile = func(f *os.File) error {
		log = append(log, "file "+filepath.Base(f.Name()))
		if failFile != nil {
			return failFile
		}
		return oldFile(f)
	}
	syncDir = func(dir string) error {
		log = append(log, "dir "+dir)
		if failDir != nil {
			return failDir
		}
		return oldDir(dir)
	}
	return &log
}

func write(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write([]byte(s)); return err }
}

// TestCommitSyncs checks the order of a commit: the temporary file is
// synced while it has no other name, then renamed, then its folder synced;
// and that the folders Create makes are synced into their parents.
func TestCommitSyncs(t *testing.T) {
	dir := t.TempDir()
	log := recordSyncs(t, nil, nil)
	path := filepath.Join(dir, "a", "b", "out.txt")
	var renamed bool
	orig := syncDir
	syncDir = func(d string) error {
		if d == filepath.Dir(path) {
			_, err := os.Stat(path)
			renamed = err == nil
		}
		return orig(d)
	}
	if err := WriteFile(path, write("x")); err != nil {
		t.Fatal(err)
	}
	if len(*log) != 4 {
		t.Fatalf("syncs %q; want the two new folders' parents, the file, its folder", *log)
	}
	want := []string{"dir " + dir, "dir " + filepath.Join(dir, "a")}
	if !slices.Equal((*log)[:2], want) {
		t.Errorf("folder syncs before the file %q; want %q", (*log)[:2], want)
	}
	if f := (*log)[2]; f[:len("file .out.txt.tmp-")] != "file .out.txt.tmp-" {
		t.Errorf("third sync %q; want the temporary file", f)
	}
	if (*log)[3] != "dir "+filepath.Dir(path) || !renamed {
		t.Errorf("last sync %q (file in place: %t); want the file's folder, after the rename", (*log)[3], renamed)
	}
	// A second file in the same folder makes no folder: two syncs.
	*log = nil
	if err := WriteFile(path, write("y")); err != nil {
		t.Fatal(err)
	}
	if len(*log) != 2 {
		t.Errorf("rewriting a file: syncs %q; want the file's and its folder's", *log)
	}
}

// TestSyncFailures checks that a failed sync is reported: a failed file
// sync leaves neither the new file nor the temporary one, and keeps the
// old file; a failed folder sync comes after the rename, which it reports.
func TestSyncFailures(t *testing.T) {
	fire := errors.New("disk on fire")
	for _, tc := range []struct {
		name              string
		failFile, failDir error
		want              string // the file's contents afterwards
	}{
		{"file", fire, nil, "old"},
		{"folder", nil, fire, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.txt")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			recordSyncs(t, tc.failFile, tc.failDir)
			err := WriteFile(path, write("new"))
			if err == nil || !errors.Is(err, fire) || !containsAll(err.Error(), path, "disk on fire") {
				t.Errorf("got %v; want an error naming %s and the cause", err, path)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.want {
				t.Errorf("file holds %q; want %q", got, tc.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("folder holds %v; want only out.txt, no temporary file", entries)
			}
		})
	}
	// A failed sync of a new folder: reported, nothing written in it.
	dir := t.TempDir()
	recordSyncs(t, nil, fire)
	if err := WriteFile(filepath.Join(dir, "new", "out.txt"), write("x")); err == nil || !containsAll(err.Error(), "new folder", "disk on fire") {
		t.Errorf("new folder unsynced: got %v; want an error saying so", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "new")); len(entries) != 0 {
		t.Errorf("new folder holds %v after a failed sync; want nothing", entries)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
