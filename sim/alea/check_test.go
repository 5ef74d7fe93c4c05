package alea_test

import (
	"math"
	"os"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// TestAgainstAlea compares FCFS under compat alea on wagap-2013 with the
// per-job output of Alea's own run, job for job, when ALEA_JOBS names
// that file (.ci/alea builds Alea, runs it and sets it), and Alea's EASY
// likewise when ALEA_EASY_JOBS names its output.
// Alea's times are shifted so that the first job arrives at its SWF
// submit time. Alea's start (its clock when the cluster placed the job,
// printed to 0.1 s) must lie in the second the loop started the job, and
// within 0.05 s of the machine's own start tick.
func TestAgainstAlea(t *testing.T) {
	for _, tc := range []struct {
		name, env string
		p         sim.Policy
	}{
		{"fcfs", "ALEA_JOBS", policies.NewFCFS()},
		{"easy", "ALEA_EASY_JOBS", alea.NewEASY()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := os.Getenv(tc.env)
			if path == "" {
				t.Skip(tc.env + " is not set; .ci/alea sets it")
			}
			res, m, _ := runWagap(t, tc.p)
			matchAlea(t, res, m, readAleaJobs(t, path))
		})
	}
}

// matchAlea matches a run with Alea's per-job output.
func matchAlea(t *testing.T, res *sim.Result, m *alea.Machine, want map[sim.JobID]aleaJob) {
	t.Helper()
	var first *sim.Outcome
	for i := range res.Jobs {
		if first == nil || res.Jobs[i].Submit < first.Submit {
			first = &res.Jobs[i]
		}
	}
	shift := float64(first.Submit) - want[first.ID].arrival
	bad := 0
	for i := range res.Jobs {
		o := &res.Jobs[i]
		w, ok := want[o.ID]
		if o.State == sim.Rejected {
			if ok && w.end > w.start {
				t.Errorf("job %d: rejected here, ran in alea", o.ID)
			}
			continue
		}
		if !ok {
			t.Fatalf("job %d: not in alea's output", o.ID)
		}
		if math.Abs(w.arrival+shift-float64(o.Submit)) > 0.01 {
			t.Fatalf("job %d: alea's arrival %.1f (+%.0f) is not submit %d", o.ID, w.arrival, shift, o.Submit)
		}
		at := w.start + shift
		if math.Floor(at) != float64(o.Start) || math.Abs(at-float64(m.StartTick(o.Seq))/alea.Ticks) > 0.05 {
			if bad < 20 {
				t.Errorf("job %d (seq %d, %+v, submit %d): start %d (tick %d); alea %.1f",
					o.ID, o.Seq, o.Shape, o.Submit, o.Start, m.StartTick(o.Seq), at)
			}
			bad++
		}
	}
	t.Logf("%d jobs, %d in alea's output, %d starts differ", len(res.Jobs), len(want), bad)
}
