package workloads

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// outcome builds an outcome of a job with 4 processors submitted at 100.
func outcome(f func(*sim.Outcome)) sim.Outcome {
	o := sim.Outcome{
		Record: sim.Record{
			Job: sim.Job{ID: 1, User: 3, Group: 2, Queue: 1, Partition: 5, Submit: 100,
				Estimate: 900, Need: sim.Resources{sim.Procs: 4}},
			Runtime: 600, Status: 1, Preceding: -1, Think: -1,
		},
		Start: 110, End: 710, State: sim.Finished,
	}
	f(&o)
	return o
}

func TestWriteOutcome(t *testing.T) {
	tests := []struct {
		name string
		in   sim.Outcome
		want string
	}{
		{"finished", outcome(func(o *sim.Outcome) {}),
			"1 100 10 600 4 -1 -1 4 900 -1 1 3 2 -1 1 5 -1 -1"},
		{"killed", outcome(func(o *sim.Outcome) { o.Runtime, o.End, o.State = 2000, 1010, sim.Killed }),
			"1 100 10 900 4 -1 -1 4 900 -1 0 3 2 -1 1 5 -1 -1"},
		{"rejected", outcome(func(o *sim.Outcome) {
			o.Start, o.End, o.State, o.Reason = -1, -1, sim.Rejected, sim.TooLarge
		}), "1 100 -1 -1 -1 -1 -1 4 900 -1 5 3 2 -1 1 5 -1 -1"},
		{"rejected without procs", outcome(func(o *sim.Outcome) {
			o.Start, o.End, o.State, o.Reason, o.Need = -1, -1, sim.Rejected, sim.NoProcessors, sim.Resources{}
		}), "1 100 -1 -1 -1 -1 -1 -1 900 -1 5 3 2 -1 1 5 -1 -1"},
		{"estimate filled", outcome(func(o *sim.Outcome) { o.Estimate, o.EstimateFilled = 600, true }),
			"1 100 10 600 4 -1 -1 4 -1 -1 1 3 2 -1 1 5 -1 -1"},
		{"memory KB per processor", outcome(func(o *sim.Outcome) { o.Need[sim.Memory] = 4 * 2048 * 1024 }),
			"1 100 10 600 4 -1 -1 4 900 2048 1 3 2 -1 1 5 -1 -1"},
		{"memory rounds up", outcome(func(o *sim.Outcome) { o.Need[sim.Memory] = 4097 }),
			"1 100 10 600 4 -1 -1 4 900 2 1 3 2 -1 1 5 -1 -1"},
		{"dependency", outcome(func(o *sim.Outcome) { o.Preceding, o.Think = 7, 60 }),
			"1 100 10 600 4 -1 -1 4 900 -1 1 3 2 -1 1 5 7 60"},
		{"unknown ids", outcome(func(o *sim.Outcome) { o.User, o.Group, o.Queue, o.Partition = -1, -1, -1, -1 }),
			"1 100 10 600 4 -1 -1 4 900 -1 1 -1 -1 -1 -1 -1 -1 -1"},
		// Field 6 carries CPU usage in workloads (WriteRecord), not in
		// schedules: a killed or rejected job did not use its trace's CPU time.
		{"cpu usage not written", outcome(func(o *sim.Outcome) { o.CPUUsage = 0.5 }),
			"1 100 10 600 4 -1 -1 4 900 -1 1 3 2 -1 1 5 -1 -1"},
		{"rejected with cpu usage", outcome(func(o *sim.Outcome) {
			o.Start, o.End, o.State, o.Reason, o.CPUUsage = -1, -1, sim.Rejected, sim.TooLarge, 0.5
		}), "1 100 -1 -1 -1 -1 -1 4 900 -1 5 3 2 -1 1 5 -1 -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := NewSWFWriter(&b)
			if err := w.WriteOutcome(&tc.in); err != nil {
				t.Fatalf("WriteOutcome(%+v): %v", tc.in, err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tc.want+"\n" {
				t.Errorf("WriteOutcome(%+v): got %q; want %q", tc.in, got, tc.want+"\n")
			}
		})
	}
}

func TestWriteOutcomeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   sim.Outcome
		want string
	}{
		{"no state", outcome(func(o *sim.Outcome) { o.State = 0 }), "writing job 1: unknown state state(0)"},
		{"start before submit", outcome(func(o *sim.Outcome) { o.Start = 95 }),
			`writing job 1: field 3 (wait time): "-5" is negative`},
		{"negative think", outcome(func(o *sim.Outcome) { o.Think = -4 }),
			`writing job 1: field 18 (think time): "-4" is negative`},
		{"no submit", outcome(func(o *sim.Outcome) { o.Submit, o.Start, o.End = -1, 10, 20 }),
			`writing job 1: field 2 (submit time): "-1" means missing, but the submit time is required`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := NewSWFWriter(&b)
			err := w.WriteOutcome(&tc.in)
			if err == nil || err.Error() != tc.want {
				t.Errorf("WriteOutcome(%+v): got error %v; want %q", tc.in, err, tc.want)
			}
			if err := w.Flush(); err != nil || b.Len() != 0 {
				t.Errorf("WriteOutcome(%+v) failed but wrote %q", tc.in, b.String())
			}
		})
	}
}

// fcfs starts waiting jobs in arrival order while the first one fits.
type fcfs struct{}

func (fcfs) Name() string { return "fcfs" }

func (fcfs) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	var d sim.Decision
	free := v.Free()
	for _, j := range v.Waiting() {
		if !j.Need.FitsIn(free) {
			break
		}
		free = free.Sub(j.Need)
		d.Start = append(d.Start, j)
	}
	return d, nil
}

// TestWriterRoundTrip simulates a small workload, writes the schedule with
// its header, and reads it back.
func TestWriterRoundTrip(t *testing.T) {
	in := `; Version: 2.2
; MaxProcs: 8
; Note: round trip
1 0 -1 600 4 -1 1024 4 900 2048 1 1 1 1 1 1 -1 -1
2 30 -1 120 1 -1 256 1 -1 512 1 2 1 2 2 1 -1 -1
3 45 -1 1800 8 -1 2048 8 1000 4096 1 3 2 3 1 1 1 60
4 50 -1 60 16 -1 128 16 120 256 1 1 1 1 2 1 -1 -1
5 60 -1 -1 2 -1 128 2 120 256 1 1 1 1 2 1 -1 -1
`
	opt := SWFOptions{Memory: RequestedMemory}
	r := NewSWFReader(strings.NewReader(in), "in.swf", opt)
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(sim.NewPool(sim.Resources{sim.Procs: 8, sim.Memory: 1 << 40}), fcfs{}, r, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := NewSWFWriter(&b)
	if err := w.WriteHeader(h); err != nil {
		t.Fatal(err)
	}
	for i := range res.Jobs {
		if err := w.WriteOutcome(&res.Jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `; Version: 2.2
; MaxProcs: 8
; Note: round trip
1 0 0 600 4 -1 -1 4 900 2048 1 1 1 -1 1 1 -1 -1
2 30 0 120 1 -1 -1 1 -1 512 1 2 1 -1 2 1 -1 -1
3 45 555 1000 8 -1 -1 8 1000 4096 0 3 2 -1 1 1 1 60
4 50 -1 -1 -1 -1 -1 16 120 256 5 1 1 -1 2 1 -1 -1
5 60 -1 -1 -1 -1 -1 2 120 256 5 1 1 -1 2 1 -1 -1
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("simulated schedule of %q (-want +got):\n%s", in, diff)
	}

	back := NewSWFReader(bytes.NewReader(b.Bytes()), "out.swf", opt)
	h2, err := back.Header()
	if err != nil {
		t.Fatal(err)
	}
	if h2.MaxProcs != 8 || len(h2.Notes) != 1 {
		t.Errorf("header read back: got MaxProcs %d, notes %q; want 8, [round trip]", h2.MaxProcs, h2.Notes)
	}
	for i := range res.Jobs {
		o := &res.Jobs[i]
		l, err := back.NextLine()
		if err != nil {
			t.Fatalf("job %d: %v", o.ID, err)
		}
		if sim.JobID(l.JobID) != o.ID || sim.Time(l.Submit) != o.Submit ||
			l.ReqProcs != o.Need[sim.Procs] || l.ReqMemory*l.ReqProcs*1024 != o.Need[sim.Memory] {
			t.Errorf("job %d read back as %+v; want id, submit, procs and memory of %+v", o.ID, l, o)
		}
		if o.State != sim.Rejected && (sim.Time(l.Submit+l.Wait) != o.Start || sim.Time(l.Submit+l.Wait+l.Runtime) != o.End) {
			t.Errorf("job %d read back as %+v; want start %d and end %d", o.ID, l, o.Start, o.End)
		}
	}
	if _, err := back.NextLine(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last job: got %v; want io.EOF", err)
	}
}
