package workloads

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReaderContent checks the messages for files that are not SWF text:
// each names what is wrong instead of leaving the caller to find no
// MaxProcs in an empty header.
func TestReaderContent(t *testing.T) {
	job := lineOf(map[int]string{1: "1", 4: "10", 5: "1"}) + "\n"
	garbage := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	corrupt := gzipped(t, []byte(strings.Repeat(job, 100)))
	for i := 12; i < len(corrupt)-8; i++ {
		corrupt[i] ^= 0x55 // damage the deflate data, keep the gzip header
	}
	tests := []struct {
		name string
		in   []byte
		want string // error prefix; "" for none
	}{
		{"binary", append([]byte("; Version: 2\n; MaxProcs: 8\nab\x00cd"), job...),
			"f.swf:3: byte 0x00 at column 3 is a control character: the file is binary data, not SWF text"},
		{"zeros", make([]byte, 10000), "f.swf:1: byte 0x00 at column 1 is a control character"},
		{"gzip of garbage", gzipped(t, garbage), "f.swf:1: byte 0x"},
		{"corrupt gzip", corrupt, "f.swf: corrupt gzip stream: "},
		{"not swf text", []byte("<!DOCTYPE html>\n<html>\n" + job), `f.swf:1: field 1 (job number): "<!DOCTYPE" is not a number`},
		{"csv", []byte("id,submit,run\n1,0,10\n"), `f.swf:1: field 1 (job number): "id,submit,run" is not a number`},
		{"bom then header", append(append([]byte{0xef, 0xbb, 0xbf}, "; MaxProcs: 8\n"...), job...), ""},
		{"bom then job", append([]byte{0xef, 0xbb, 0xbf}, job...), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewSWFReader(bytes.NewReader(tc.in), "f.swf", SWFOptions{})
			h, err := r.Header()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Header: %v", err)
				}
				if _, err := r.Next(); err != nil {
					t.Errorf("Next: %v", err)
				}
				if strings.Contains(tc.name, "header") && h.MaxProcs != 8 {
					t.Errorf("header after a byte-order mark: got MaxProcs %d; want 8", h.MaxProcs)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Header: got %v; want prefix %q", err, tc.want)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("Next after a Header error: got %v; want the same error", again)
			}
		})
	}
}

func TestReaderBOMInside(t *testing.T) {
	in := lineOf(nil) + "\n\ufeff" + lineOf(nil) + "\n"
	_, err := readAll(t, "b.swf", []byte(in), SWFOptions{})
	want := `b.swf:2: field 1 (job number): "\ufeff-1" is not a number: it starts with a UTF-8 byte-order mark (U+FEFF)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v; want %q", err, want)
	}
}

func TestReaderEmpty(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    []byte
		empty bool
	}{
		{"empty", nil, true},
		{"gzip of nothing", gzipped(t, nil), true},
		{"one newline", []byte("\n"), false},
		{"comments only", []byte("; MaxProcs: 4\n"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewSWFReader(bytes.NewReader(tc.in), "e.swf", SWFOptions{})
			if r.Empty() {
				t.Errorf("Empty before reading: got true")
			}
			if _, err := r.Header(); err != nil {
				t.Fatal(err)
			}
			if r.Empty() != tc.empty {
				t.Errorf("Empty: got %v; want %v", r.Empty(), tc.empty)
			}
		})
	}
}

func TestReaderExtraFieldsWarning(t *testing.T) {
	j := lineOf(nil)
	in := "; MaxProcs: 4\n" + j + "\n" + j + " {1241,1241} q_1d 1:ppn=64\n" + j + " x\n" + j + "\n"
	recs, err := readAll(t, "alea.swf", []byte(in), SWFOptions{})
	if err != nil || len(recs) != 4 {
		t.Fatalf("got %d jobs, %v; want 4 and no error", len(recs), err)
	}
	r := NewSWFReader(strings.NewReader(in), "alea.swf", SWFOptions{})
	for range 4 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	var msgs []string
	for _, w := range r.Warnings() {
		msgs = append(msgs, w.Error())
	}
	want := "alea.swf:3: has 21 fields; fields after 18 are ignored (warned once per file)"
	if len(msgs) != 1 || msgs[0] != want {
		t.Errorf("warnings: got %q; want [%q]", msgs, want)
	}
	r = NewSWFReader(strings.NewReader("; MaxProcs: 4\n"+j+"\n"), "std.swf", SWFOptions{})
	r.Next()
	if w := r.Warnings(); len(w) != 0 {
		t.Errorf("warnings of a standard file: got %v; want none", w)
	}
}

// TestReaderHugeLine checks the line bound against a line of 2 MiB and a
// line that never ends.
func TestReaderHugeLine(t *testing.T) {
	in := "; MaxProcs: 4\n" + lineOf(nil) + " " + strings.Repeat("7", 2<<20) + "\n"
	_, err := readAll(t, "big.swf", []byte(in), SWFOptions{})
	want := "big.swf:2: line is longer than 1048576 bytes"
	if err == nil || err.Error() != want {
		t.Errorf("got %v; want %q", err, want)
	}
}

// TestOpenTraceSparse reads a sparse file of 3 GB: the zeros at its start
// must end the read at once, not after gigabytes.
func TestOpenTraceSparse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse.swf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		f.Close()
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	began := time.Now()
	f, err = OpenTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = NewSWFReader(f, "sparse.swf", SWFOptions{}).Header()
	if took := time.Since(began); took > 500*time.Millisecond {
		t.Errorf("took %v; want well under a second", took)
	}
	if want := "sparse.swf:1: byte 0x00 at column 1"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v; want prefix %q", err, want)
	}
}

func TestOpenTraceDevices(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{dir, "but a directory"},
		{os.DevNull, "but a character device"},
		{"/dev/zero", "but a character device"},
	} {
		if _, err := os.Stat(tc.path); err != nil {
			continue // no such device here
		}
		f, err := OpenTrace(tc.path)
		if err == nil {
			f.Close()
		}
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenTrace(%q): got %v; want ErrNotRegular %q", tc.path, err, tc.want)
		}
	}
	// /dev/zero read through another opener still fails at once.
	if f, err := os.Open("/dev/zero"); err == nil {
		defer f.Close()
		_, err := NewSWFReader(f, "zero", SWFOptions{}).Header()
		if want := "zero:1: byte 0x00"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("reading /dev/zero: got %v; want prefix %q", err, want)
		}
	}
}
