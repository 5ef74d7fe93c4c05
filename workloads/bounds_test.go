package workloads

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestParseLineBounds checks each bounded field at its bound (read) and one
// past it (a *ParseError wrapping ErrOverBound that names field and value).
func TestParseLineBounds(t *testing.T) {
	maxT := strconv.FormatInt(MaxTime, 10)
	overT := strconv.FormatInt(MaxTime+1, 10)
	maxP := strconv.FormatInt(MaxProcs, 10)
	overP := strconv.FormatInt(MaxProcs+1, 10)
	tests := []struct {
		name  string
		field int
		ok    string // accepted
		over  string // rejected
	}{
		{"submit", fieldSubmit, maxT, overT},
		{"wait", fieldWait, maxT, overT},
		{"run time", fieldRuntime, maxT, overT},
		{"run time of the issue", fieldRuntime, maxT, "9223372036854775000"},
		{"requested time", fieldReqTime, maxT, overT},
		{"think time", fieldThink, maxT, overT},
		{"average cpu time", fieldAvgCPUTime, maxT, "4294967295.5"},
		{"cpu time exponent", fieldAvgCPUTime, "4.294967295e9", "1e300"},
		{"allocated processors", fieldAllocProcs, maxP, overP},
		{"requested processors", fieldReqProcs, maxP, "9223372036854775807"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := lineOf(map[int]string{tc.field: tc.ok})
			l, err := ParseLine([]byte(in))
			if err != nil {
				t.Fatalf("ParseLine(%q) at the bound: %v", in, err)
			}
			if perr := checkLine(&l); perr != nil {
				t.Errorf("checkLine of %q at the bound: %v", in, perr)
			}
			in = lineOf(map[int]string{tc.field: tc.over})
			_, err = ParseLine([]byte(in))
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrOverBound) {
				t.Fatalf("ParseLine(%q): got %v; want a *ParseError wrapping ErrOverBound", in, err)
			}
			want := `"` + tc.over + `" is over the bound of `
			if pe.Field != tc.field || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseLine(%q): got field %d, %q; want field %d and %q", in, pe.Field, err, tc.field, want)
			}
		})
	}
}

func TestCheckLineBounds(t *testing.T) {
	l := missingLine
	l.Runtime = MaxTime + 1
	if perr := checkLine(&l); perr == nil || !errors.Is(perr, ErrOverBound) || perr.Field != fieldRuntime {
		t.Errorf("checkLine with run time %d: got %v; want field 4 over the bound", l.Runtime, perr)
	}
	l = missingLine
	l.AvgCPUTime = 1e12
	if perr := checkLine(&l); perr == nil || !errors.Is(perr, ErrOverBound) || perr.Field != fieldAvgCPUTime {
		t.Errorf("checkLine with cpu time %v: got %v; want field 6 over the bound", l.AvgCPUTime, perr)
	}
}

// TestReaderOverflowReproducer reads the file of issue 20: run and
// requested time 9223372036854775000. Before the bounds it read fine and
// the engine's end times wrapped around.
func TestReaderOverflowReproducer(t *testing.T) {
	in := "; MaxProcs: 8\n" +
		"1 0 -1 100 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 10 -1 9223372036854775000 1 -1 -1 1 9223372036854775000 -1 1 1 1 -1 -1 -1 -1 -1\n"
	_, err := readAll(t, "big.swf", []byte(in), SWFOptions{})
	want := `big.swf:3: field 4 (run time): "9223372036854775000" is over the bound of 4294967295 s`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v; want prefix %q", err, want)
	}
}

func TestReaderMaxJobs(t *testing.T) {
	in := strings.Repeat(lineOf(map[int]string{1: "1"})+"\n", 3)
	r := NewSWFReader(strings.NewReader(in), "many.swf", SWFOptions{})
	r.maxJobs = 2
	for range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
	}
	_, err := r.Next()
	if want := "many.swf:3: more than 2 job lines"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("third job of at most 2: got %v; want prefix %q", err, want)
	}
}

func TestCheckRecord(t *testing.T) {
	ok := sim.Record{Job: sim.Job{ID: 7, Submit: MaxTime, Estimate: MaxTime,
		Need: sim.Resources{MaxProcs, 1 << 62, MaxProcs}}, Runtime: MaxTime, Think: MaxTime}
	if err := CheckRecord(&ok); err != nil {
		t.Errorf("CheckRecord at the bounds: %v", err)
	}
	tests := []struct {
		name string
		f    func(*sim.Record)
		want string
	}{
		{"submit", func(r *sim.Record) { r.Submit++ }, "job 7: submit time 4294967296 s is over the bound"},
		{"run time", func(r *sim.Record) { r.Runtime = 1 << 62 }, "job 7: run time 4611686018427387904 s is over the bound"},
		{"estimate", func(r *sim.Record) { r.Estimate++ }, "job 7: estimate 4294967296 s is over the bound"},
		{"think", func(r *sim.Record) { r.Think++ }, "job 7: think time"},
		{"procs", func(r *sim.Record) { r.Need[sim.Procs]++ }, "job 7: 1073741825 procs is over the bound"},
		{"gpus", func(r *sim.Record) { r.Need[sim.GPUs]++ }, "job 7: 1073741825 gpus is over the bound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.f(&r)
			err := CheckRecord(&r)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v; want prefix %q", err, tc.want)
			}
			_, err = Bounded(sim.NewSliceSource([]sim.Record{ok, r}), "model m").Next()
			if err != nil {
				t.Fatalf("first, valid record: %v", err)
			}
			src := Bounded(sim.NewSliceSource([]sim.Record{ok, r}), "model m")
			src.Next()
			if _, err := src.Next(); err == nil || !strings.HasPrefix(err.Error(), "model m: "+tc.want) {
				t.Errorf("Bounded: got %v; want prefix %q", err, "model m: "+tc.want)
			}
		})
	}
	if _, err := Bounded(sim.NewSliceSource(nil), "x").Next(); err != io.EOF {
		t.Errorf("Bounded of nothing: got %v; want io.EOF", err)
	}
}

// TestTransformBounds checks that the transforms that stretch times stop
// at MaxTime with an error naming job and factor, instead of wrapping
// around or yielding a time past the bound.
func TestTransformBounds(t *testing.T) {
	job := func(id sim.JobID, submit, run sim.Time, procs int64) sim.Record {
		return sim.Record{Job: sim.Job{ID: id, Submit: submit, Estimate: run, Need: sim.Resources{procs}}, Runtime: run}
	}
	recs := []sim.Record{job(1, 0, 10, 1), job(2, 1e9, 10, 1)}
	lf, err := LoadFactor(sim.NewSliceSource(recs), 0.1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.ReadAll(lf)
	if want := "job 2: load factor 0.1 moves its submit time 1000000000 s after the first job's to 1e+10 s, past the 4294967295 s"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadFactor 0.1: got %v; want prefix %q", err, want)
	}
	lf, _ = LoadFactor(sim.NewSliceSource(recs), 0.25)
	if got, err := sim.ReadAll(lf); err != nil || got[1].Submit != 4e9 {
		t.Errorf("LoadFactor 0.25: got %v, %v; want job 2 at 4e9 s", got, err)
	}

	b, err := BadnessEstimates(sim.NewSliceSource([]sim.Record{job(3, 0, MaxTime, 1)}), 1e300, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.ReadAll(b)
	if want := "job 3: badness factor 1e+300 makes its estimate"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("BadnessEstimates: got %v; want prefix %q", err, want)
	}

	m, err := Merge(4, Named{Name: "wide", Source: sim.NewSliceSource([]sim.Record{job(4, 0, 5, 1), job(5, 1, 1<<31, 8)})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.ReadAll(m)
	if want := "merge: wide: job 2: scaling 8 processors onto 4 stretches a time of 2147483648 s to 4.29e+09 s, over the bound"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Merge: got %v; want prefix %q", err, want)
	}
}
