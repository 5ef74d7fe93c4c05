package workloads

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// readAll reads every record of an SWF stream.
func readAll(t *testing.T, name string, data []byte, opt SWFOptions) ([]sim.Record, error) {
	t.Helper()
	r := NewSWFReader(bytes.NewReader(data), name, opt)
	var recs []sim.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rec builds the record of a line of lineOf with the given fields.
func rec(f func(*sim.Record)) sim.Record {
	r := sim.Record{
		Job:     sim.Job{ID: -1, User: -1, Group: -1, Queue: -1, Partition: -1, Estimate: -1},
		Runtime: -1, Status: -1, Preceding: -1, Think: -1,
	}
	f(&r)
	return r
}

func TestReaderRecords(t *testing.T) {
	tinyJob7 := "7 1905 -1 900 8 -1 2048 8 1800 4096 1 3 2 3 1 1 3 60"
	tests := []struct {
		name string
		opt  SWFOptions
		in   string
		want sim.Record
	}{
		{"tiny job 7", SWFOptions{}, tinyJob7, sim.Record{
			Job: sim.Job{ID: 7, User: 3, Group: 2, Queue: 1, Partition: 1, Submit: 1905,
				Estimate: 1800, Need: sim.Resources{sim.Procs: 8}},
			Runtime: 900, Status: 1, Preceding: 3, Think: 60}},
		{"all missing", SWFOptions{}, lineOf(nil), rec(func(r *sim.Record) {})},
		{"requested procs first", SWFOptions{}, lineOf(map[int]string{5: "4", 8: "6"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 6 })},
		{"requested falls back to allocated", SWFOptions{}, lineOf(map[int]string{5: "4"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 4 })},
		{"requested zero falls back", SWFOptions{}, lineOf(map[int]string{5: "4", 8: "0"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 4 })},
		{"no procs at all", SWFOptions{}, lineOf(map[int]string{5: "0", 8: "0"}),
			rec(func(r *sim.Record) {})},
		{"allocated procs", SWFOptions{Procs: AllocatedProcs}, lineOf(map[int]string{5: "4", 8: "6"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 4 })},
		{"allocated ignores requested", SWFOptions{Procs: AllocatedProcs}, lineOf(map[int]string{8: "6"}),
			rec(func(r *sim.Record) {})},
		{"no memory by default", SWFOptions{}, lineOf(map[int]string{8: "2", 7: "100", 10: "200"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 2 })},
		{"requested memory KB per proc", SWFOptions{Memory: RequestedMemory},
			lineOf(map[int]string{8: "2", 7: "100", 10: "200"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 2, sim.Memory: 200 * 1024 * 2} })},
		{"used memory KB per proc", SWFOptions{Memory: UsedMemory},
			lineOf(map[int]string{8: "2", 7: "100", 10: "200"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 2, sim.Memory: 100 * 1024 * 2} })},
		{"used memory decimal rounds up", SWFOptions{Memory: UsedMemory},
			lineOf(map[int]string{8: "3", 7: "0.0001"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 3, sim.Memory: 3} })},
		{"requested memory bytes per job", SWFOptions{Memory: RequestedMemory, MemoryUnit: BytesPerJob},
			lineOf(map[int]string{8: "64", 10: "68719476736"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 64, sim.Memory: 68719476736} })},
		{"used memory bytes per job", SWFOptions{Memory: UsedMemory, MemoryUnit: BytesPerJob},
			lineOf(map[int]string{8: "4", 7: "1000.5"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 4, sim.Memory: 1001} })},
		{"used memory KB per job", SWFOptions{Memory: UsedMemory, MemoryUnit: KBPerJob},
			lineOf(map[int]string{8: "16", 7: "61537656"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 16, sim.Memory: 61537656 * 1024} })},
		{"requested memory KB per job", SWFOptions{Memory: RequestedMemory, MemoryUnit: KBPerJob},
			lineOf(map[int]string{8: "4", 10: "2048"}),
			rec(func(r *sim.Record) { r.Need = sim.Resources{sim.Procs: 4, sim.Memory: 2048 * 1024} })},
		{"missing memory is zero", SWFOptions{Memory: RequestedMemory},
			lineOf(map[int]string{8: "4"}),
			rec(func(r *sim.Record) { r.Need[sim.Procs] = 4 })},
		{"memory of a job without procs", SWFOptions{Memory: RequestedMemory},
			lineOf(map[int]string{10: "100"}), rec(func(r *sim.Record) {})},
		{"int32 limits", SWFOptions{},
			lineOf(map[int]string{12: "2147483647", 13: "0", 15: "2147483647", 16: "0"}),
			rec(func(r *sim.Record) { r.User, r.Group, r.Queue, r.Partition = 1<<31-1, 0, 1<<31-1, 0 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, "t.swf", []byte(tc.in), tc.opt)
			if err != nil {
				t.Fatalf("reading %q with %+v: %v", tc.in, tc.opt, err)
			}
			if diff := cmp.Diff([]sim.Record{tc.want}, got); diff != "" {
				t.Errorf("reading %q with %+v (-want +got):\n%s", tc.in, tc.opt, diff)
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	job := "1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1\n"
	tests := []struct {
		name string
		opt  SWFOptions
		in   string
		want string // the whole message
	}{
		{"user overflows int32", SWFOptions{}, job + lineOf(map[int]string{12: "2147483648"}),
			`t.swf:2: field 12 (user id): "2147483648" overflows int32`},
		{"group overflows int32", SWFOptions{}, job + lineOf(map[int]string{13: "2147483648"}),
			`t.swf:2: field 13 (group id): "2147483648" overflows int32`},
		{"queue overflows int32", SWFOptions{}, lineOf(map[int]string{15: "4294967296"}),
			`t.swf:1: field 15 (queue number): "4294967296" overflows int32`},
		{"partition overflows int32", SWFOptions{}, "\n\n" + lineOf(map[int]string{16: "2147483648"}),
			`t.swf:3: field 16 (partition number): "2147483648" overflows int32`},
		{"KB overflow", SWFOptions{Memory: RequestedMemory}, lineOf(map[int]string{8: "1", 10: "9007199254740993"}),
			`t.swf:1: field 10 (requested memory): "9007199254740993" KB overflows int64 bytes`},
		{"KB times procs overflow", SWFOptions{Memory: RequestedMemory}, lineOf(map[int]string{8: "1048576", 10: "9007199254740"}),
			`t.swf:1: field 10 (requested memory): 9223372036853760 bytes per processor × 1048576 processors overflows int64`},
		{"used memory overflow", SWFOptions{Memory: UsedMemory, MemoryUnit: BytesPerJob}, lineOf(map[int]string{7: "1e19"}),
			`t.swf:1: field 7 (used memory): "10000000000000000000" overflows int64 bytes`},
		{"KB per job overflow", SWFOptions{Memory: RequestedMemory, MemoryUnit: KBPerJob}, lineOf(map[int]string{8: "1", 10: "9007199254740993"}),
			`t.swf:1: field 10 (requested memory): "9007199254740993" KB overflows int64 bytes`},
		{"bad procs option", SWFOptions{Procs: 9}, job, "t.swf: invalid SWFOptions.Procs 9"},
		{"bad memory option", SWFOptions{Memory: 9}, job, "t.swf: invalid SWFOptions.Memory 9"},
		{"bad unit option", SWFOptions{MemoryUnit: 9}, job, "t.swf: invalid SWFOptions.MemoryUnit 9"},
		{"not gzip after all", SWFOptions{}, "\x1f\x8bnot gzip", "t.swf: gzip: invalid header"},
		{"submit stays required", SWFOptions{NegativeAsMissing: true}, lineOf(map[int]string{2: "-3"}),
			`t.swf:1: field 2 (submit time): "-3" is negative`},
		{"status stays checked", SWFOptions{NegativeAsMissing: true}, lineOf(map[int]string{11: "9"}),
			`t.swf:1: field 11 (status): "9" is not a status (-1 to 5)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll(t, "t.swf", []byte(tc.in), tc.opt)
			if err == nil || err.Error() != tc.want {
				t.Errorf("reading %q with %+v: got error %v; want %q", tc.in, tc.opt, err, tc.want)
			}
		})
	}
}

func TestReaderNegativeAsMissing(t *testing.T) {
	in := "1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1\n" +
		lineOf(map[int]string{1: "2", 4: "-1359980917", 7: "-2.5", 8: "4"}) + "\n"
	r := NewSWFReader(strings.NewReader(in), "w.swf", SWFOptions{NegativeAsMissing: true})
	var got []sim.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("reading %q: %v", in, err)
		}
		got = append(got, rec)
	}
	if len(got) != 2 || got[1].Runtime != -1 || got[1].Need[sim.Procs] != 4 {
		t.Errorf("reading %q: got %+v; want 2 records, the second with run time -1 and 4 procs", in, got)
	}
	var msgs []string
	for _, pe := range r.Repaired() {
		msgs = append(msgs, pe.Error())
	}
	want := []string{
		`w.swf:2: field 4 (run time): "-1359980917" is negative`,
		`w.swf:2: field 7 (used memory): "-2.5" is negative`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("Repaired() after reading %q (-want +got):\n%s", in, diff)
	}
}

// TestReaderFraming checks that line endings, blank and comment lines,
// long lines and compression do not change what is read, nor line numbers.
func TestReaderFraming(t *testing.T) {
	j1 := "1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1"
	j2 := "2 30 -1 120 1 -1 256 1 300 512 1 2 1 2 2 1 -1 -1"
	j3 := "3 40 -1 120 1 -1 256 1 300 512 1 2 1 2 2 1 -1 -1"
	long := j2 + " {" + strings.Repeat("1241,", 40000) + "1241} q_1d 1:ppn=64"
	longComment := "; Note: " + strings.Repeat("x", 200000)
	tests := []struct {
		name string
		in   string
		ids  []sim.JobID
	}{
		{"plain", j1 + "\n" + j2 + "\n", []sim.JobID{1, 2}},
		{"no final newline", j1 + "\n" + j2, []sim.JobID{1, 2}},
		{"crlf", j1 + "\r\n" + j2 + "\r\n", []sim.JobID{1, 2}},
		{"crlf no final newline", j1 + "\r\n" + j2, []sim.JobID{1, 2}},
		{"tabs", strings.ReplaceAll(j1, " ", "\t") + "\n", []sim.JobID{1}},
		{"blank and comment lines", "\n; c\n" + j1 + "\n  \n\t\n; between\n   ; indented\n" + j2 + "\n\n", []sim.JobID{1, 2}},
		{"long line", j1 + "\n" + long + "\n" + j3 + "\n", []sim.JobID{1, 2, 3}},
		{"long last line without newline", j1 + "\n" + long, []sim.JobID{1, 2}},
		{"long header comment", longComment + "\n" + j1 + "\n", []sim.JobID{1}},
		{"empty", "", nil},
		{"only comments", "; Version: 2\n;\n", nil},
	}
	for _, tc := range tests {
		for _, gz := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/gzip=%v", tc.name, gz), func(t *testing.T) {
				data := []byte(tc.in)
				if gz {
					data = gzipped(t, data)
				}
				recs, err := readAll(t, "f.swf", data, SWFOptions{})
				if err != nil {
					t.Fatalf("reading %.60q: %v", tc.in, err)
				}
				var ids []sim.JobID
				for _, r := range recs {
					ids = append(ids, r.ID)
				}
				if diff := cmp.Diff(tc.ids, ids); diff != "" {
					t.Errorf("reading %.60q: job ids (-want +got):\n%s", tc.in, diff)
				}
				// An error on the last line must name its number.
				bad := tc.in
				if bad != "" && !strings.HasSuffix(bad, "\n") {
					bad += "\n"
				}
				bad += "9 9 9"
				want := fmt.Sprintf("f.swf:%d: has 3 fields", strings.Count(bad, "\n")+1)
				data = []byte(bad)
				if gz {
					data = gzipped(t, data)
				}
				if _, err := readAll(t, "f.swf", data, SWFOptions{}); err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Errorf("reading %.60q + a bad line: got error %v; want prefix %q", tc.in, err, want)
				}
			})
		}
	}
}

func TestReaderLineLimit(t *testing.T) {
	in := "1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1\n" + strings.Repeat("7", 300000) + "\n"
	r := NewSWFReader(strings.NewReader(in), "big.swf", SWFOptions{})
	r.maxLine = 100000
	if _, err := r.Next(); err != nil {
		t.Fatalf("first line: %v", err)
	}
	_, err := r.Next()
	want := "big.swf:2: line is longer than 100000 bytes"
	if err == nil || err.Error() != want {
		t.Errorf("got error %v; want %q", err, want)
	}
	if _, again := r.Next(); again != err {
		t.Errorf("after an error: got %v; want the same error again", again)
	}
}

// failReader fails every read, and counts them.
type failReader struct{ reads int }

var errDisk = errors.New("disk on fire")

func (f *failReader) Read([]byte) (int, error) { f.reads++; return 0, errDisk }

func TestReaderIO(t *testing.T) {
	t.Run("constructor reads nothing", func(t *testing.T) {
		f := &failReader{}
		r := NewSWFReader(f, "x.swf", SWFOptions{})
		if f.reads != 0 {
			t.Fatalf("NewSWFReader: got %d reads; want 0", f.reads)
		}
		_, err := r.Header()
		if !errors.Is(err, errDisk) || !strings.HasPrefix(err.Error(), "x.swf: ") {
			t.Errorf("Header on a failing reader: got %v; want errDisk wrapped with the name", err)
		}
	})
	t.Run("truncated gzip", func(t *testing.T) {
		z := gzipped(t, []byte(strings.Repeat("1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1\n", 1000)))
		_, err := readAll(t, "cut.swf.gz", z[:len(z)-10], SWFOptions{})
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), "cut.swf.gz: ") {
			t.Errorf("reading a truncated gzip stream: got %v; want io.ErrUnexpectedEOF wrapped with the name", err)
		}
	})
	t.Run("errors stick, the header stays", func(t *testing.T) {
		in := "; MaxProcs: 8\n" + lineOf(map[int]string{5: "-7"}) + "\n" + lineOf(nil) + "\n"
		r := NewSWFReader(strings.NewReader(in), "s.swf", SWFOptions{})
		_, err := r.Next()
		want := `s.swf:2: field 5 (allocated processors): "-7" is negative`
		if err == nil || err.Error() != want {
			t.Fatalf("Next on %q: got %v; want %q", in, err, want)
		}
		if _, again := r.NextLine(); again != err {
			t.Errorf("NextLine after an error: got %v; want %v", again, err)
		}
		if h, herr := r.Header(); herr != nil || h.MaxProcs != 8 {
			t.Errorf("Header after a job error: got %+v, %v; want MaxProcs 8", h, herr)
		}
	})
	t.Run("EOF stays EOF", func(t *testing.T) {
		r := NewSWFReader(strings.NewReader(""), "e.swf", SWFOptions{})
		for i := range 3 {
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("Next #%d on an empty file: got %v; want io.EOF", i, err)
			}
		}
	})
}

func TestReaderAllocs(t *testing.T) {
	line := "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	data := []byte(strings.Repeat(line, 2000))
	r := NewSWFReader(bytes.NewReader(data), "a.swf", SWFOptions{Memory: RequestedMemory, MemoryUnit: BytesPerJob})
	if _, err := r.Next(); err != nil { // set-up allocates
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Next: got %v allocations per line; want 0", n)
	}
}

// TestBadFixtures reads each testdata/swf/bad file, which marks its fault
// with a "; ERROR: <message part>" line just before the offending line.
func TestBadFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/swf/bad/*.swf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad fixtures: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wantLine, want := 0, ""
			for i, l := range strings.Split(string(data), "\n") {
				if s, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "; ERROR: "); ok {
					wantLine, want = i+2, s
					break
				}
			}
			if want == "" {
				t.Fatalf("%s has no \"; ERROR: \" marker", name)
			}
			_, err = readAll(t, name, data, SWFOptions{})
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("reading %s: got error %v; want a *ParseError", name, err)
			}
			if pe.File != name || pe.Line != wantLine {
				t.Errorf("reading %s: got error at %s:%d; want %s:%d", name, pe.File, pe.Line, name, wantLine)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("reading %s: got error %q; want it to contain %q", name, err, want)
			}
			if prefix := fmt.Sprintf("%s:%d: ", name, wantLine); !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("reading %s: got error %q; want prefix %q", name, err, prefix)
			}
		})
	}
}

// TestOptionNames checks that every SWF option value has one name and
// nothing else does: experiment files and the command line read them.
func TestOptionNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		last  int
	}{
		{ProcsFieldNames(), int(AllocatedProcs)},
		{MemoryFieldNames(), int(UsedMemory)},
		{MemoryUnitNames(), int(KBPerJob)},
	} {
		seen := map[string]bool{}
		for _, n := range tc.names {
			if n == "" || seen[n] {
				t.Errorf("%q: empty or repeated name", tc.names)
			}
			seen[n] = true
		}
		if len(tc.names) != tc.last+1 {
			t.Errorf("%q: %d names for %d values", tc.names, len(tc.names), tc.last+1)
		}
	}
}

// TestReaderSubmitOrder checks that a job submitted before the one above it
// is an error naming the line and wrapping sim.ErrSourceOrder, as SWF sorts
// jobs by submit time and sim.Source promises that order; before, the
// reader passed such a job on and the engine's error named neither file
// nor line.
func TestReaderSubmitOrder(t *testing.T) {
	in := lineOf(map[int]string{1: "1", 2: "0"}) + "\n" +
		lineOf(map[int]string{1: "2", 2: "100"}) + "\n" +
		"; a comment\n" +
		lineOf(map[int]string{1: "3", 2: "100"}) + "\n" + // equal is fine
		lineOf(map[int]string{1: "4", 2: "50"}) + "\n"
	recs, err := readAll(t, "u.swf", []byte(in), SWFOptions{})
	want := `u.swf:5: field 2 (submit time): "50" is before the previous job's 100 (line 4): submit times go backwards`
	if err == nil || err.Error() != want {
		t.Errorf("reading %q: got error %v; want %q", in, err, want)
	}
	if !errors.Is(err, sim.ErrSourceOrder) {
		t.Errorf("reading %q: error %v does not wrap sim.ErrSourceOrder", in, err)
	}
	if len(recs) != 3 {
		t.Errorf("reading %q: got %d records before the error; want 3", in, len(recs))
	}
}
