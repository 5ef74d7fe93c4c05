package results_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// ran is rec's outcome after it ran from start to end.
func ran(rec sim.Record, start, end sim.Time, st sim.State) sim.Outcome {
	return sim.Outcome{Record: rec, Start: start, End: end, State: st}
}

// rejected is rec's outcome when the engine refused it for reason r.
func rejected(rec sim.Record, r sim.Reason) sim.Outcome {
	return sim.Outcome{Record: rec, Start: -1, End: -1, State: sim.Rejected, Reason: r}
}

// handResult is a run worked out by hand on 4 processors and 1000 bytes of
// memory. The jobs that ran, with (wait, response, slowdown, bounded
// slowdown):
//
//	1  user 7  finished   0  10  10/10 = 1     1
//	2  user 3  killed     5   7   7/2  = 3.5   max(1, 7/10) = 1
//	3  user 7  finished  30  50  50/20 = 2.5   2.5
//	6  user 3  finished   0   0   0/1  = 0     1   (zero run time, estimate filled)
//
// Job 4 (unknown user, no run time) and job 5 (user 3, too large) are
// rejected.
func handResult() *sim.Result {
	filled := simtest.J(6, 50, 0, 0, 1, simtest.User(3))
	res := &sim.Result{
		Policy:   "easy",
		Capacity: simtest.Cluster(4, 1000),
		Jobs: []sim.Outcome{
			ran(simtest.J(1, 0, 10, 20, 2, simtest.User(7), simtest.Mem(100)), 0, 10, sim.Finished),
			ran(simtest.J(2, 5, 30, 2, 4, simtest.User(3)), 10, 12, sim.Killed),
			ran(simtest.J(3, 0, 20, 20, 1, simtest.User(7)), 30, 50, sim.Finished),
			rejected(simtest.J(4, 1, -1, -1, 8), sim.NoRuntime),
			rejected(simtest.J(5, 2, 5, 5, 9, simtest.User(3)), sim.TooLarge),
			ran(filled, 50, 50, sim.Finished),
		},
		Finished: 3, Killed: 1, Rejected: 2, EstimatesFilled: 1,
	}
	res.Jobs[5].EstimateFilled = true
	res.RejectedBy[sim.NoRuntime], res.RejectedBy[sim.TooLarge] = 1, 1
	return res
}

var handInfo = results.RunInfo{
	Key: "r0001", Experiment: "smoke", Seed: math.MaxUint64,
	Params: []results.Param{
		{Name: "workload", Value: results.StringValue("lublin")},
		{Name: "policy", Value: results.StringValue("easy")},
		{Name: "load_factor", Value: results.FloatValue(0.8)},
		{Name: "replicate", Value: results.IntValue(1)},
	},
}

func TestNewRunRow(t *testing.T) {
	got := results.NewRunRow(handInfo, handResult(), 1500*time.Millisecond)
	want := results.RunRow{
		RunInfo: handInfo,
		Jobs:    6, Finished: 3, Killed: 1, Rejected: 2, JobsMeasured: 6,
		Makespan: 50,
		// 2×10 + 4×2 + 1×20 + 1×0 = 48 processor-seconds of 4 × 50;
		// 100 bytes × 10 s of 1000 × 50.
		Utilization: 0.24, MemoryUtilization: 0.02,
		// The same 48 processor-seconds over 4 × 50, the submits' span
		// (0 to the filled job's 50): here the makespan too.
		OfferedLoad: 0.24,
		// Sorted waits 0 0 5 30: nearest-rank median is the 2nd, p95 the 4th.
		Wait:            results.Stats{Mean: 8.75, Median: 0, P95: 30},
		Response:        results.Stats{Mean: 16.75, Median: 7, P95: 50},
		Slowdown:        results.Stats{Mean: 1.75, Median: 1, P95: 3.5},
		BoundedSlowdown: results.Stats{Mean: 1.375, Median: 1, P95: 2.5},
		WallSeconds:     1.5,
	}
	if d := cmp.Diff(want, got, cmp.Comparer(approx)); d != "" {
		t.Errorf("NewRunRow(hand-built result) (-want +got):\n%s", d)
	}
	// The summary cmd prints is unchanged by the new metrics.
	s := results.Summarize(handResult(), results.DefaultTau)
	if s.MeanWait != got.Wait.Mean || s.MeanBoundedSlowdown != got.BoundedSlowdown.Mean {
		t.Errorf("Summarize means %v, %v; want the row's %v, %v", s.MeanWait, s.MeanBoundedSlowdown, got.Wait.Mean, got.BoundedSlowdown.Mean)
	}
	// A two-tier run's counters pass through.
	tiers := handResult()
	tiers.Tiers = sim.TierCounts{Restarts: 4, Migrations: 5, Swaps: 6, LostWork: 7.5}
	got = results.NewRunRow(handInfo, tiers, 1500*time.Millisecond)
	want.Restarts, want.Migrations, want.Swaps, want.LostWork = 4, 5, 6, 7.5
	if d := cmp.Diff(want, got, cmp.Comparer(approx)); d != "" {
		t.Errorf("NewRunRow(two-tier result) (-want +got):\n%s", d)
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(a)) }

func TestNewRunRowNothingRan(t *testing.T) {
	res := &sim.Result{Capacity: simtest.Cluster(4, 0), Rejected: 1,
		Jobs: []sim.Outcome{rejected(simtest.J(1, 0, 5, 5, 8), sim.TooLarge)}}
	got := results.NewRunRow(results.RunInfo{Key: "k"}, res, 0)
	want := results.RunRow{RunInfo: results.RunInfo{Key: "k"}, Jobs: 1, Rejected: 1, JobsMeasured: 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("NewRunRow(all rejected) (-want +got):\n%s", d)
	}
}

func TestUserRows(t *testing.T) {
	got := results.UserRows("r0001", handResult(), nil)
	want := []results.UserRow{
		{RunKey: "r0001", User: -1, Jobs: 1},
		// Recent accuracy: user 3's job 2 was killed at its 2 s estimate
		// (1) and job 6 asked for 0 s and ran 0 s (1); user 7 ran 10 of 20
		// s and 20 of 20 s: (0.5 + 1)/2.
		{RunKey: "r0001", User: 3, Jobs: 3, Ran: 2, MeanWait: 2.5, MeanResponse: 3.5, MeanBoundedSlowdown: 1, RecentAccuracy: 1},
		{RunKey: "r0001", User: 7, Jobs: 2, Ran: 2, MeanWait: 15, MeanResponse: 30, MeanBoundedSlowdown: 1.75, RecentAccuracy: 0.75},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("UserRows(hand-built result) (-want +got):\n%s", d)
	}
	// With EETs (TestHandEET): each user has the measures of UserEET.
	got = results.UserRows("r0001", handResult(), handEET(t))
	want[0].HasEET = true
	want[1].HasEET, want[1].EETViolated, want[1].WeightedTardiness = true, 1, 12
	want[2].HasEET, want[2].EETViolated, want[2].WeightedTardiness = true, 1, 20
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("UserRows(hand-built result, its EETs) (-want +got):\n%s", d)
	}
	for i, w := range []float64{0, 0.5, 0.5} {
		if v := got[i].VEETShare(); v != w {
			t.Errorf("user %d: VEETShare() = %g; want %g", got[i].User, v, w)
		}
	}
}

// TestRecentAccuracy: a user's recent accuracy is the mean over the ten
// jobs that ended last, whatever order they arrived in, ties by start and
// then arrival. Worked by hand: eleven jobs of user 1, each asking for
// 100 s.
func TestRecentAccuracy(t *testing.T) {
	res := &sim.Result{Capacity: simtest.Cluster(16, 0)}
	add := func(id int64, start, run sim.Time) {
		o := ran(simtest.J(id, 0, run, 100, 1, simtest.User(1)), start, start+run, sim.Finished)
		o.Seq = len(res.Jobs)
		res.Jobs = append(res.Jobs, o)
	}
	// Jobs 1 and 2 end last (at 1000, accuracy 0.9 and 0.5); jobs 3-9
	// end at 100-700 (accuracy 0.5); jobs 11 and 12 both end at 50, 11
	// started at 0 (accuracy 0.5), 12 at 40 (accuracy 0.1): 11 is the
	// earlier of the two and alone falls out of the window. (Dropping 12
	// instead gives 0.54; the last ten by arrival, 0.46.)
	add(1, 910, 90)
	add(2, 950, 50)
	for id := int64(3); id <= 9; id++ {
		add(id, sim.Time(id-2)*100-50, 50)
	}
	add(11, 0, 50)
	add(12, 40, 10)
	rows := results.UserRows("k", res, nil)
	want := (0.9 + 0.5 + 7*0.5 + 0.1) / 10
	if len(rows) != 1 || !approx(rows[0].RecentAccuracy, want) {
		t.Fatalf("rows %+v; want one user with recent accuracy %v", rows, want)
	}
}

// TestRecentAccuracyBoundary: a mean on a class boundary reads as the
// boundary, so psp.Class gives Table 1's class: accuracies 0.2, 0 and 1
// (a job that ran past its estimate with overruns allowed) sum in float64
// to 0.3999…, class a2, where the mean 0.4 is a3.
func TestRecentAccuracyBoundary(t *testing.T) {
	res := &sim.Result{Capacity: simtest.Cluster(16, 0)}
	for i, j := range []struct{ run, est sim.Time }{{1, 5}, {0, 20}, {20, 5}} {
		o := ran(simtest.J(int64(i+1), 0, j.run, j.est, 1, simtest.User(1)), 0, j.run, sim.Finished)
		o.Seq = i
		res.Jobs = append(res.Jobs, o)
	}
	rows := results.UserRows("k", res, nil)
	if len(rows) != 1 || rows[0].RecentAccuracy != 0.4 {
		t.Fatalf("rows %+v; want one user with recent accuracy exactly 0.4", rows)
	}
}

func TestSlowdown(t *testing.T) {
	tests := []struct {
		response, run sim.Time
		want          float64
	}{
		{10, 10, 1}, {7, 2, 3.5}, {0, 0, 0}, {5, 0, 5}, {3, 1, 3},
	}
	for _, tc := range tests {
		if got := results.Slowdown(tc.response, tc.run); got != tc.want {
			t.Errorf("Slowdown(%d, %d) = %v; want %v", tc.response, tc.run, got, tc.want)
		}
	}
}

func TestRunRowJSONRoundTrip(t *testing.T) {
	row := results.NewRunRow(handInfo, handResult(), 1234567*time.Microsecond)
	row.Params = append(row.Params,
		results.Param{Name: "whole_float", Value: results.FloatValue(1)},
		results.Param{Name: "tiny", Value: results.FloatValue(math.SmallestNonzeroFloat64)},
		results.Param{Name: "big_int", Value: results.IntValue(math.MinInt64)},
		results.Param{Name: "flag", Value: results.BoolValue(false)},
		results.Param{Name: "empty", Value: results.StringValue("")},
	)
	b, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	var back results.RunRow
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	if d := cmp.Diff(row, back); d != "" {
		t.Errorf("RunRow after a JSON round trip (-want +got):\n%s\njson: %s", d, b)
	}
	if !strings.Contains(string(b), `{"Name":"whole_float","Value":{"float":1}}`) {
		t.Errorf("json %s; want the whole float tagged as a float", b)
	}
}
