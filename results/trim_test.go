package results_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
)

func TestTrimKept(t *testing.T) {
	tests := []struct {
		name              string
		trim              results.Trim
		n, wantLo, wantHi int
	}{
		{"none", results.Trim{}, 6, 0, 6},
		{"no jobs", results.Trim{Warmup: 0.5, Cooldown: 0.4}, 0, 0, 0},
		{"floors both ends", results.Trim{Warmup: 0.2, Cooldown: 0.2}, 6, 1, 5},
		{"under one job trims none", results.Trim{Warmup: 0.1, Cooldown: 0.1}, 9, 0, 9},
		{"exact shares", results.Trim{Warmup: 0.25, Cooldown: 0.5}, 8, 2, 4},
		{"sum just under one keeps one", results.Trim{Warmup: 0.5, Cooldown: 0.49}, 100, 50, 51},
		{"one job", results.Trim{Warmup: 0.9}, 1, 0, 1},
		{"out of range still keeps one", results.Trim{Warmup: 1}, 3, 2, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := tc.trim.Kept(tc.n)
			if lo != tc.wantLo || hi != tc.wantHi {
				t.Errorf("%+v.Kept(%d) = %d, %d; want %d, %d", tc.trim, tc.n, lo, hi, tc.wantLo, tc.wantHi)
			}
		})
	}
}

// TestNewRunRowTrimmed measures handResult's jobs 2 to 5 (positions 1 to
// 4): ⌊0.2 × 6⌋ = 1 job left out at each end.
func TestNewRunRowTrimmed(t *testing.T) {
	info := handInfo
	info.Trim = results.Trim{Warmup: 0.2, Cooldown: 0.2}
	got := results.NewRunRow(info, handResult(), 1500*time.Millisecond)
	want := results.RunRow{
		RunInfo: info,
		// Job 2 was killed, job 3 finished, jobs 4 and 5 were rejected.
		Jobs: 6, JobsMeasured: 4, Finished: 1, Killed: 1, Rejected: 2,
		// The schedule's measures still cover every job (TestNewRunRow).
		Makespan: 50, Utilization: 0.24, MemoryUtilization: 0.02, OfferedLoad: 0.24,
		// Job 2: submit 5, start 10, end 12, killed at its 2 s estimate
		// (work 2); job 3: submit 0, start 30, end 50, run 20.
		Wait:            results.Stats{Mean: 17.5, Median: 5, P95: 30},
		Response:        results.Stats{Mean: 28.5, Median: 7, P95: 50},
		Slowdown:        results.Stats{Mean: 3, Median: 2.5, P95: 3.5},
		BoundedSlowdown: results.Stats{Mean: 1.75, Median: 1, P95: 2.5},
		WallSeconds:     1.5,
	}
	if d := cmp.Diff(want, got, cmp.Comparer(approx)); d != "" {
		t.Errorf("NewRunRow(hand-built result, trimmed 0.2/0.2) (-want +got):\n%s", d)
	}
	s := results.SummarizeTrimmed(handResult(), results.DefaultTau, info.Trim)
	if s.Measured != 4 || s.MeanWait != 17.5 || s.Makespan != 50 || s.Jobs != 6 {
		t.Errorf("SummarizeTrimmed: measured %d, mean wait %g, makespan %d, jobs %d; want 4, 17.5, 50, 6",
			s.Measured, s.MeanWait, s.Makespan, s.Jobs)
	}
}

// TestUserRowsTrimmed leaves out handResult's first ⌊0.5 × 6⌋ = 3 jobs:
// user 7 has none left and no row; user 3 keeps the rejected job 5 and job
// 6, which met its EET (TestHandEET), so none of the user's violations is
// measured.
func TestUserRowsTrimmed(t *testing.T) {
	trim := results.Trim{Warmup: 0.5}
	got := results.UserRowsTrimmed("r0001", handResult(), handEET(t), trim)
	want := []results.UserRow{
		{RunKey: "r0001", User: -1, Jobs: 1, HasEET: true},
		// Job 6: submitted, started and ended at 50, asked for 0 s and ran
		// 0 s: bounded slowdown 1, accuracy 1.
		{RunKey: "r0001", User: 3, Jobs: 2, Ran: 1, MeanBoundedSlowdown: 1, RecentAccuracy: 1, HasEET: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("UserRowsTrimmed(hand-built result, warmup 0.5) (-want +got):\n%s", d)
	}
	// Keeping jobs 2 to 5 keeps user 3's violation (job 2, 3 s late on 4
	// processors) and user 7's (job 3, 20 s on 1).
	got = results.UserRowsTrimmed("r0001", handResult(), handEET(t), results.Trim{Warmup: 0.2, Cooldown: 0.2})
	want = []results.UserRow{
		{RunKey: "r0001", User: -1, Jobs: 1, HasEET: true},
		{RunKey: "r0001", User: 3, Jobs: 2, Ran: 1, MeanWait: 5, MeanResponse: 7, MeanBoundedSlowdown: 1, RecentAccuracy: 1,
			HasEET: true, EETViolated: 1, WeightedTardiness: 12},
		{RunKey: "r0001", User: 7, Jobs: 1, Ran: 1, MeanWait: 30, MeanResponse: 50, MeanBoundedSlowdown: 2.5, RecentAccuracy: 1,
			HasEET: true, EETViolated: 1, WeightedTardiness: 20},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("UserRowsTrimmed(hand-built result, 0.2/0.2) (-want +got):\n%s", d)
	}
}
