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

// TestPooledBuffers writes two files at once, each larger than a buffer, so
// that pooled buffers are reused while another file is open; neither may
// see the other's bytes, and a write after Commit is an error.
func TestPooledBuffers(t *testing.T) {
	dir := t.TempDir()
	want := map[string][]byte{}
	var files []*File
	for i, name := range []string{"a", "b"} {
		data := make([]byte, 3*bufSize+17)
		for k := range data {
			data[k] = byte(k*7 + i)
		}
		want[name] = data
		f, err := Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for off := 0; off < 3*bufSize+17; off += 1000 {
		for i, name := range []string{"a", "b"} {
			if _, err := files[i].Write(want[name][off:min(off+1000, len(want[name]))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("late")); err == nil {
			t.Errorf("%s: a write after Commit gave no error", f.Path())
		}
	}
	// A third file reuses a returned buffer and must start empty.
	if err := WriteFile(filepath.Join(dir, "c"), func(w io.Writer) error { _, err := w.Write([]byte("c")); return err }); err != nil {
		t.Fatal(err)
	}
	want["c"] = []byte("c")
	for name, data := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(data) {
			t.Errorf("%s: %d bytes differ from the %d written", name, len(got), len(data))
		}
	}
}
