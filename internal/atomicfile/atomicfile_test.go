package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.txt")
	if err := WriteFile(path, func(w io.Writer) error { _, err := w.Write([]byte("hello")); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "hello" {
		t.Errorf("got %q; want hello", got)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v; want 0644", fi.Mode().Perm())
	}
	// A failed write leaves nothing, not even the temporary file, and keeps
	// the earlier file.
	err := WriteFile(path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return errors.New("simulated failure")
	})
	if err == nil {
		t.Fatal("got no error; want the write's")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "sub"))
	if len(entries) != 1 {
		t.Errorf("folder holds %v after a failed write; want only out.txt", entries)
	}
	if got, _ := os.ReadFile(path); string(got) != "hello" {
		t.Errorf("a failed write changed the file to %q", got)
	}
	// A parent that is a file: an error, nothing created.
	if err := WriteFile(filepath.Join(path, "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing under a file: got no error")
	}
}
