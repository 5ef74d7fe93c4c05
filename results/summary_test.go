package results_test

import (
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

// outcome builds the outcome of a job that ran from start to end on
// dedicated processors: a finished job's run time is end − start, a killed
// job's estimate is (and its run time one second more).
func outcome(id sim.JobID, submit, start, end sim.Time, procs int64, st sim.State) sim.Outcome {
	var o sim.Outcome
	o.ID, o.Submit, o.Start, o.End, o.State = id, submit, start, end, st
	o.Need[sim.Procs] = procs
	switch st {
	case sim.Finished:
		o.Runtime, o.Estimate = end-start, end-start
	case sim.Killed:
		o.Runtime, o.Estimate = end-start+1, end-start
	}
	return o
}

func TestSummarize(t *testing.T) {
	res := &sim.Result{
		Capacity: sim.Resources{4, 0, 0},
		Jobs: []sim.Outcome{
			outcome(1, 0, 0, 10, 2, sim.Finished),  // wait 0, response 10, bsld 1
			outcome(2, 5, 10, 12, 4, sim.Killed),   // wait 5, response 7, run 2 < tau: 7/10 -> 1
			outcome(3, 0, 30, 50, 1, sim.Finished), // wait 30, response 50, run 20: 2.5
			outcome(4, 1, -1, -1, 8, sim.Rejected),
		},
		Finished: 2, Killed: 1, Rejected: 1,
	}
	s := results.Summarize(res, results.DefaultTau)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"mean wait", s.MeanWait, 35.0 / 3},
		{"mean response", s.MeanResponse, 67.0 / 3},
		{"mean bounded slowdown", s.MeanBoundedSlowdown, 4.5 / 3},
		{"makespan", float64(s.Makespan), 50},
		// held: 2×10 + 4×2 + 1×20 = 48 processor-seconds of 4 × 50.
		{"processor utilization", s.Utilization[sim.Procs], 48.0 / 200},
		{"memory utilization without memory", s.Utilization[sim.Memory], 0},
		// The same 48 processor-seconds of 4 × 5, the span of the
		// submits 0 … 5 (the rejected job's included).
		{"span", float64(s.Span), 5},
		{"processor offered load", s.OfferedLoad[sim.Procs], 48.0 / 20},
		{"memory offered load without memory", s.OfferedLoad[sim.Memory], 0},
	}
	for _, tc := range tests {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s: got %v; want %v", tc.name, tc.got, tc.want)
		}
	}
	if s.Jobs != 4 || s.Finished != 2 || s.Killed != 1 || s.Rejected != 1 {
		t.Errorf("counts: got %d/%d/%d/%d; want 4/2/1/1", s.Jobs, s.Finished, s.Killed, s.Rejected)
	}
}

func TestSummarizeNothingRan(t *testing.T) {
	res := &sim.Result{Capacity: sim.Resources{4}, Jobs: []sim.Outcome{outcome(1, 0, -1, -1, 8, sim.Rejected)}, Rejected: 1}
	s := results.Summarize(res, results.DefaultTau)
	if s.MeanWait != 0 || s.Makespan != 0 || s.Utilization[sim.Procs] != 0 || s.OfferedLoad[sim.Procs] != 0 {
		t.Errorf("got %+v; want zero metrics when no job ran", s)
	}
}

// TestSummarizeSlowedJob: on the two-tier machine a job may take longer
// than its work; slowdown and utilization count its work (Outcome.Work),
// not the time it held its processors.
func TestSummarizeSlowedJob(t *testing.T) {
	o := outcome(1, 0, 0, 40, 2, sim.Finished)
	o.Runtime, o.Estimate = 20, 30 // 20 s of work done in 40 s, in the background
	res := &sim.Result{Capacity: sim.Resources{4}, Jobs: []sim.Outcome{o}, Finished: 1}
	s := results.Summarize(res, results.DefaultTau)
	if s.MeanBoundedSlowdown != 2 || s.MeanSlowdown != 2 {
		t.Errorf("slowdowns %v, %v; want 2 (40 s for 20 s of work)", s.MeanSlowdown, s.MeanBoundedSlowdown)
	}
	if want := 2.0 * 20 / (4 * 40); s.Utilization[sim.Procs] != want {
		t.Errorf("utilization %v; want %v", s.Utilization[sim.Procs], want)
	}
}

// TestSummarizeRejectedFirst: makespan starts at the run's first submit,
// the origin of its utilization series, even when the job submitted first
// was rejected; so utilization × makespan is the processor-seconds the
// series counts over the same span.
func TestSummarizeRejectedFirst(t *testing.T) {
	res := &sim.Result{
		Capacity: sim.Resources{4},
		Jobs: []sim.Outcome{
			outcome(1, 0, -1, -1, 8, sim.Rejected), // too large, submitted first
			outcome(2, 100, 100, 160, 2, sim.Finished),
			outcome(3, 130, 160, 190, 4, sim.Finished),
		},
		Finished: 2, Rejected: 1,
	}
	s := results.Summarize(res, results.DefaultTau)
	if s.Makespan != 190 {
		t.Errorf("makespan %d; want 190 (last end 190 − first submit 0, of the rejected job)", s.Makespan)
	}
	// 2×60 + 4×30 = 240 processor-seconds of 4 × 190.
	if want := 240.0 / (4 * 190); math.Abs(s.Utilization[sim.Procs]-want) > 1e-12 {
		t.Errorf("utilization %v; want %v", s.Utilization[sim.Procs], want)
	}
	// The same work over the submits' span, 0 … 130, the rejected job's
	// submit included: 240 of 4 × 130.
	if want := 240.0 / (4 * 130); math.Abs(s.OfferedLoad[sim.Procs]-want) > 1e-12 {
		t.Errorf("offered load %v; want %v", s.OfferedLoad[sim.Procs], want)
	}
	const bucket = 60
	pts := results.Utilization(res, bucket)
	var held float64 // processor-seconds over capacity, from the series
	for i, p := range pts {
		held += p.Procs * float64(min(bucket, int64(s.Makespan)-int64(i)*bucket))
	}
	if want := s.Utilization[sim.Procs] * float64(s.Makespan); math.Abs(held-want) > 1e-9 {
		t.Errorf("utilization series over %d buckets holds %v processor-seconds per processor; runs' utilization × makespan is %v", len(pts), held, want)
	}
}
