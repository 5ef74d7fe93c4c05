package simtest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// schedule returns a correct schedule of four jobs on two processors, built
// by hand: job 1 (both processors) runs 0–10; job 2 is killed at its
// estimate 3 after starting at 10, as promised on arrival; job 3 is too
// large; job 4 runs 10–12 beside job 2.
func schedule(t *testing.T) (*sim.Result, *simtest.Recorder, simtest.Checks) {
	t.Helper()
	J := simtest.J
	out := func(r sim.Record, seq int, start, end sim.Time, s sim.State) sim.Outcome {
		r.Seq = seq
		return sim.Outcome{Record: r, Start: start, End: end, State: s}
	}
	rejected := out(J(3, 1, 4, 4, 3), 2, -1, -1, sim.Rejected)
	rejected.Reason = sim.TooLarge
	res := &sim.Result{
		Policy:   "by-hand",
		Capacity: simtest.Cluster(2, 0),
		Jobs: []sim.Outcome{
			out(J(1, 0, 10, 10, 2), 0, 0, 10, sim.Finished),
			out(J(2, 0, 5, 3, 1), 1, 10, 13, sim.Killed),
			rejected,
			out(J(4, 1, 2, 2, 1), 3, 10, 12, sim.Finished),
		},
		Finished: 2, Killed: 1, Rejected: 1,
	}
	res.RejectedBy[sim.TooLarge] = 1
	rec := &simtest.Recorder{Events: []simtest.Event{{Kind: simtest.Promise, Time: 0, Seq: 1, At: 10}}}
	chk := simtest.Checks{Jobs: 4, MaxOpen: 1}
	if err := simtest.Verify(res, rec, chk); err != nil {
		t.Fatalf("the untouched schedule fails: %v", err)
	}
	return res, rec, chk
}

// TestVerifyCatches breaks a correct schedule in one place at a time and
// checks that Verify says what broke.
func TestVerifyCatches(t *testing.T) {
	promise := func(at, seq int, start sim.Time) simtest.Event {
		return simtest.Event{Kind: simtest.Promise, Time: sim.Time(at), Seq: seq, At: start}
	}
	tests := []struct {
		name  string
		spoil func(res *sim.Result, rec *simtest.Recorder, chk *simtest.Checks)
		want  string
	}{
		{"a job left out", func(_ *sim.Result, _ *simtest.Recorder, chk *simtest.Checks) { chk.Jobs = 5 },
			"result holds 4 jobs; the source gave 5"},
		{"out of arrival order", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[1].Seq = 7 },
			"job 2: at position 1 has Seq 7"},
		{"counts disagree", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Finished = 3 },
			"counts finished/killed/rejected are 3/1/1; the jobs say 2/1/1"},
		{"a rejected job with times", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[2].Start = 3 },
			"job 3: rejected without a reason or with times"},
		{"a rejected job without a reason", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[2].Reason = sim.NoReason },
			"job 3: rejected without a reason or with times"},
		{"a finished job with a reason", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[0].Reason = sim.TooLarge },
			"job 1: ran but has rejection reason"},
		{"finished early", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[0].End = 9 },
			"job 1: finished after 9 s; its run time is 10 s"},
		{"ran past its estimate", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[3].Estimate = 1 },
			"job 4: ran 2 s past its estimate 1 s without being killed"},
		{"killed late", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[1].End = 14 },
			"job 2: killed after 4 s; its estimate is 3 s"},
		{"killed with overruns allowed", func(_ *sim.Result, _ *simtest.Recorder, chk *simtest.Checks) { chk.AllowOverrun = true },
			"job 2: killed (estimate 3 s, run time 5 s, overruns allowed true)"},
		{"a start before the submission", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) { res.Jobs[3].Submit = 11 },
			"job 4: starts at 10 before its submission at 11"},
		{"over capacity", func(res *sim.Result, _ *simtest.Recorder, _ *simtest.Checks) {
			res.Jobs[3].Start, res.Jobs[3].End = 8, 10
		}, "t=8: job 4 starts and procs in use is 3, capacity 2"},
		{"a promise missed", func(_ *sim.Result, rec *simtest.Recorder, _ *simtest.Checks) { rec.Events[0].At = 9 },
			"job 2: started at 10, later than its promise 9"},
		{"a promise moved later", func(_ *sim.Result, rec *simtest.Recorder, _ *simtest.Checks) {
			rec.Events = append(rec.Events, promise(1, 1, 11))
		}, "job 2: promise moved later, from 10 to 11, at t=1"},
		{"a promise after the start", func(_ *sim.Result, rec *simtest.Recorder, _ *simtest.Checks) {
			rec.Events = append(rec.Events, promise(11, 1, 10))
		}, "job 2: promised at t=11 after it started at 10"},
		{"a withdrawal without a promise", func(_ *sim.Result, rec *simtest.Recorder, _ *simtest.Checks) {
			rec.Events = append(rec.Events, simtest.Event{Kind: simtest.Withdraw, Time: 1, Seq: 3})
		}, "job 4: withdrawn at t=1 without an open promise"},
		{"two promises open", func(_ *sim.Result, rec *simtest.Recorder, _ *simtest.Checks) {
			rec.Events = append(rec.Events, promise(1, 3, 10))
		}, "t=1: 2 promises open at once, at most 1 allowed"},
		{"no promise on arrival", func(_ *sim.Result, _ *simtest.Recorder, chk *simtest.Checks) { chk.PromiseOnWait = true },
			"job 4: waited from 1 to 10 without a promise made on arrival"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, rec, chk := schedule(t)
			rec.Events = slices.Clone(rec.Events)
			tc.spoil(res, rec, &chk)
			err := simtest.Verify(res, rec, chk)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an error containing %q", err, tc.want)
			}
		})
	}
}
