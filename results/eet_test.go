package results_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// eets returns the EETs of e's jobs.
func eets(e *results.EET) []sim.Time {
	out := make([]sim.Time, len(e.Jobs))
	for i, j := range e.Jobs {
		out[i] = j.EET
	}
	return out
}

// mustEET computes the EETs of res under rule, failing t on an error.
func mustEET(t testing.TB, res *sim.Result, rule results.CapacityRule) *results.EET {
	t.Helper()
	e, err := results.ComputeEET(res, rule)
	if err != nil {
		t.Fatalf("ComputeEET(%v rule): %v", rule.Sharing, err)
	}
	return e
}

// handRun is a sim.Result on capacity c of jobs that ran as given.
func handRun(c sim.Resources, jobs ...sim.Outcome) *sim.Result {
	res := &sim.Result{Capacity: c, Jobs: jobs}
	for i := range res.Jobs {
		res.Jobs[i].Seq = i
		switch res.Jobs[i].State {
		case sim.Finished:
			res.Finished++
		case sim.Killed:
			res.Killed++
		case sim.Rejected:
			res.Rejected++
		}
	}
	return res
}

// TestEETPaperExample is the worked example of section 3.2 (Table 1, Fig. 2):
// expected capacity 3; job 1 arrives at 0 and needs 2 units for 4 s, job 2
// arrives at 1 and needs 2 units for 1 s. Job 1 consumes 2 of the 3 units
// over [0, 4): EET 4. Job 2 finds 1 unit at time 1 and 1 at time 2: EET 3.
// The capacity is 3 either fixed or as the equal share of a 3-processor
// machine with one user.
func TestEETPaperExample(t *testing.T) {
	res := handRun(simtest.Cluster(3, 0),
		ran(simtest.J(1, 0, 4, 4, 2, simtest.User(1)), 0, 4, sim.Finished),
		ran(simtest.J(2, 1, 1, 1, 2, simtest.User(1)), 4, 5, sim.Finished),
	)
	for _, tc := range []struct {
		name string
		rule results.CapacityRule
	}{
		{"fixed 3", results.Fixed(sim.Resources{sim.Procs: 3})},
		{"equal share of 3 processors", results.CapacityRule{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEET(t, res, tc.rule)
			want := []results.JobEET{{EET: 4, Tardiness: 0}, {EET: 3, Tardiness: 2}}
			if d := cmp.Diff(want, e.Jobs); d != "" {
				t.Errorf("Table 1's jobs (-want +got):\n%s", d)
			}
			if u, _ := e.User(1); u.Capacity[sim.Procs] != (results.Ratio{Num: 3, Den: 1}) {
				t.Errorf("capacity %v; want 3/1", u.Capacity[sim.Procs])
			}
		})
	}
}

// TestEETFigure3 builds the schedule of the paper's Figure 3 with FCFS: two
// users, each with the two jobs of Table 1, on 6 processors, so an equal
// share of 3 each. Jobs 1 and 3 run on [0, 4), job 2 on [1, 2), and job 4,
// which has to wait for job 2, on [2, 3): every EET (4, 4, 3, 3) is met,
// though job 4 waited.
func TestEETFigure3(t *testing.T) {
	recs := []sim.Record{
		simtest.J(1, 0, 4, 4, 2, simtest.User(1)),
		simtest.J(3, 0, 4, 4, 2, simtest.User(2)),
		simtest.J(2, 1, 1, 1, 2, simtest.User(1)),
		simtest.J(4, 1, 1, 1, 2, simtest.User(2)),
	}
	res, _ := simtest.Run(t, simtest.Cluster(6, 0), policies.NewFCFS(), recs, sim.Options{}, simtest.Checks{})
	var starts []sim.Time
	for _, o := range res.Jobs {
		starts = append(starts, o.Start)
	}
	if d := cmp.Diff([]sim.Time{0, 0, 1, 2}, starts); d != "" {
		t.Fatalf("FCFS starts (-Figure 3 +got):\n%s", d)
	}
	e := mustEET(t, res, results.CapacityRule{})
	if d := cmp.Diff([]sim.Time{4, 4, 3, 3}, eets(e)); d != "" {
		t.Errorf("EETs (-want +got):\n%s", d)
	}
	for _, u := range e.Users {
		if u.Capacity[sim.Procs] != (results.Ratio{Num: 3, Den: 1}) || u.Violated != 0 || u.VEETShare != 0 || u.WeightedTardiness != 0 {
			t.Errorf("user %d: capacity %v, %d violated, VEET %v, WT %d; want 3/1 and no violation",
				u.User, u.Capacity[sim.Procs], u.Violated, u.VEETShare, u.WeightedTardiness)
		}
	}
}

// TestEETCases are small cases worked out by hand. Unless a case says
// otherwise every job is user 1's and ran from its submit time.
func TestEETCases(t *testing.T) {
	at := func(rec sim.Record) sim.Outcome {
		return ran(rec, rec.Submit, rec.Submit+rec.Runtime, sim.Finished)
	}
	mem := simtest.Mem
	u := simtest.User(1)
	tests := []struct {
		name string
		c    sim.Resources // the machine
		rule results.CapacityRule
		jobs []sim.Outcome
		want []sim.Time
	}{
		{"a job wider than the share becomes narrower and longer: 6 × 2 s at 3 per second",
			simtest.Cluster(6, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{at(simtest.J(1, 10, 2, 2, 6, u))}, []sim.Time{14}},
		{"a narrow job keeps its width and does not become shorter",
			simtest.Cluster(6, 0), results.Fixed(sim.Resources{6}),
			[]sim.Outcome{at(simtest.J(1, 10, 5, 5, 1, u))}, []sim.Time{15}},
		{"a later job fills the hole an earlier one left",
			// Job 1 holds 2 of 3 on [0, 10); job 2 (1 × 4) takes the third
			// unit on [0, 4); job 3 (2 × 3, arriving at 2) gets 0 on [2, 4),
			// 1 on [4, 10) and is done at 10: 6 units.
			simtest.Cluster(3, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{at(simtest.J(1, 0, 10, 10, 2, u)), at(simtest.J(2, 0, 4, 4, 1, u)), at(simtest.J(3, 2, 3, 3, 2, u))},
			[]sim.Time{10, 4, 10}},
		{"the last second takes only what is left (literal Algorithm 1 would give job 3 EET 4)",
			// Job 2 (2 × 2) gets 1 at 0, 2 at 1 and the 1 it still needs at 2,
			// leaving 2 at time 2 for job 3.
			simtest.Cluster(3, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{at(simtest.J(1, 0, 1, 1, 2, u)), at(simtest.J(2, 0, 2, 2, 2, u)), at(simtest.J(3, 2, 1, 1, 2, u))},
			[]sim.Time{1, 3, 3}},
		{"memory binds: the EET is the latest over the kinds",
			// Processors (4): job 2 takes 1 of the 3 left, EET 2. Memory (10):
			// job 1 holds all of it until 5, then job 2 takes 5 per second
			// for 2 s: EET 7.
			simtest.Cluster(8, 20), results.Fixed(simtest.Cluster(4, 10)),
			[]sim.Outcome{at(simtest.J(1, 0, 5, 5, 1, u, mem(10))), at(simtest.J(2, 0, 2, 2, 1, u, mem(5)))},
			[]sim.Time{5, 7}},
		{"processors bind when memory is plentiful",
			simtest.Cluster(8, 20), results.Fixed(simtest.Cluster(2, 10)),
			[]sim.Outcome{at(simtest.J(1, 0, 3, 3, 4, u, mem(1)))}, []sim.Time{6}},
		{"a kind the user has no capacity of is left out",
			simtest.Cluster(8, 20), results.Fixed(sim.Resources{4}),
			[]sim.Outcome{at(simtest.J(1, 0, 3, 3, 2, u, mem(20)))}, []sim.Time{3}},
		{"zero run time: the EET is the arrival",
			simtest.Cluster(3, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{at(simtest.J(1, 7, 0, 0, 3, u))}, []sim.Time{7}},
		{"a killed job counts its run in the schedule, its estimate",
			simtest.Cluster(3, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{ran(simtest.J(1, 0, 100, 10, 3, u), 5, 15, sim.Killed)}, []sim.Time{10}},
		{"a rejected job has no EET and takes no capacity",
			simtest.Cluster(3, 0), results.Fixed(sim.Resources{3}),
			[]sim.Outcome{rejected(simtest.J(1, 0, 10, 10, 4, u), sim.TooLarge), at(simtest.J(2, 0, 2, 2, 3, u))},
			[]sim.Time{-1, 2}},
		{"a fractional equal share: 2 processors among 3 users, 2/3 each",
			// User 1's job, 1 × 2: 2 units at 2/3 per second, 3 s.
			simtest.Cluster(2, 0), results.CapacityRule{},
			[]sim.Outcome{at(simtest.J(1, 0, 2, 2, 1, u)), at(simtest.J(2, 0, 1, 1, 1, simtest.User(2))),
				at(simtest.J(3, 0, 1, 1, 1, simtest.User(3)))},
			[]sim.Time{3, 2, 2}},
		{"users with id -1 are one user",
			simtest.Cluster(2, 0), results.CapacityRule{},
			[]sim.Outcome{at(simtest.J(1, 0, 2, 2, 2)), at(simtest.J(2, 0, 2, 2, 2)), at(simtest.J(3, 0, 2, 2, 2, u))},
			// Two users, 1 processor each: -1's jobs take 4 s each in turn.
			[]sim.Time{4, 8, 4}},
		{"a user whose every job was rejected gets no share",
			simtest.Cluster(2, 0), results.CapacityRule{},
			[]sim.Outcome{at(simtest.J(1, 0, 2, 2, 2, u)), rejected(simtest.J(2, 0, 2, 2, 4, simtest.User(2)), sim.TooLarge)},
			[]sim.Time{2, -1}},
		{"a per-user capacity replaces the share",
			simtest.Cluster(4, 0), results.CapacityRule{Users: map[int32]sim.Resources{1: {1}}},
			[]sim.Outcome{at(simtest.J(1, 0, 2, 2, 2, u)), at(simtest.J(2, 0, 2, 2, 2, simtest.User(2)))},
			[]sim.Time{4, 2}},
		{"proportional share: a user whose jobs ran for 0 s has no work and no share, and needs none",
			simtest.Cluster(8, 0), results.CapacityRule{Sharing: results.ProportionalShare},
			[]sim.Outcome{at(simtest.J(1, 0, 6, 6, 4, u)), at(simtest.J(2, 3, 0, 0, 4, simtest.User(2)))},
			[]sim.Time{6, 3}},
		{"proportional share: 24 and 8 processor-seconds, so 6 and 2 of 8 processors",
			// An equal share would give 6 s and 2 s.
			simtest.Cluster(8, 0), results.CapacityRule{Sharing: results.ProportionalShare},
			[]sim.Outcome{at(simtest.J(1, 0, 3, 3, 8, u)), at(simtest.J(2, 0, 2, 2, 4, simtest.User(2)))},
			[]sim.Time{4, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := mustEET(t, handRun(tc.c, tc.jobs...), tc.rule)
			if d := cmp.Diff(tc.want, eets(e)); d != "" {
				t.Errorf("EETs (-want +got):\n%s", d)
			}
		})
	}
}

// TestUserMeasures checks Formulas 1–3 on a run worked out by hand. Both
// users have a fixed capacity of 2. User 1's jobs (submit, processors, run)
// and schedule:
//
//	1  0  2  10   ran 0–10    EET 10  T 0   2 per second on [0, 10)
//	2  0  1   4   ran 10–14   EET 14  T 0   nothing left until 10, then 1 per second
//	3  0  2   3   ran 14–17   EET 15  T 2   1 per second on [10, 14), then 2 at 14
//	4  5  8   2   rejected
//
// User 2's one job (1, 1, 3) ran 2–5: EET 4, T 1.
func TestUserMeasures(t *testing.T) {
	res := handRun(simtest.Cluster(4, 0),
		ran(simtest.J(1, 0, 10, 10, 2, simtest.User(1)), 0, 10, sim.Finished),
		ran(simtest.J(2, 0, 4, 4, 1, simtest.User(1)), 10, 14, sim.Finished),
		ran(simtest.J(3, 0, 3, 3, 2, simtest.User(1)), 14, 17, sim.Finished),
		ran(simtest.J(5, 1, 3, 3, 1, simtest.User(2)), 2, 5, sim.Finished),
		rejected(simtest.J(4, 5, 2, 2, 8, simtest.User(1)), sim.TooLarge),
	)
	e := mustEET(t, res, results.Fixed(sim.Resources{2}))
	wantJobs := []results.JobEET{{10, 0}, {14, 0}, {15, 2}, {4, 1}, {-1, -1}}
	if d := cmp.Diff(wantJobs, e.Jobs); d != "" {
		t.Errorf("jobs (-want +got):\n%s", d)
	}
	two := [sim.MaxKinds]results.Ratio{{Num: 2, Den: 1}, {Num: 0, Den: 1}, {Num: 0, Den: 1}}
	wantUsers := []results.UserEET{
		// VEET = 1/3; WT = 2 processors × 2 s.
		{User: 1, Capacity: two, Jobs: 4, Ran: 3, Violated: 1, VEETShare: 1.0 / 3, Tardiness: 2, WeightedTardiness: 4},
		{User: 2, Capacity: two, Jobs: 1, Ran: 1, Violated: 1, VEETShare: 1, Tardiness: 1, WeightedTardiness: 1},
	}
	if d := cmp.Diff(wantUsers, e.Users); d != "" {
		t.Errorf("users (-want +got):\n%s", d)
	}
}

// refEET is Algorithm 1 second by second, with the last second taking only
// what the job still needs (as ComputeEET does): one user's jobs, in
// arrival order, on a capacity of num/den units, amounts in 1/den units.
func refEET(submit []sim.Time, need []int64, run []sim.Time, num, den int64) []sim.Time {
	used := map[sim.Time]int64{}
	out := make([]sim.Time, len(submit))
	for j := range submit {
		work := need[j] * den * int64(run[j])
		t := submit[j]
		for work > 0 {
			c := min(num-used[t], need[j]*den, work)
			used[t] += c
			work -= c
			t++
		}
		out[j] = t
	}
	return out
}

// TestEETAgainstAlgorithm1 compares ComputeEET with refEET on random jobs
// of one user, on processors and memory, with fixed and fractional shares.
func TestEETAgainstAlgorithm1(t *testing.T) {
	for seed := range uint64(1000) {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 1 + rng.IntN(40)
		c := simtest.Cluster(1+rng.Int64N(8), 1+rng.Int64N(8))
		var jobs []sim.Outcome
		var at sim.Time
		for i := range n {
			at += sim.Time(rng.IntN(4))
			run := sim.Time(rng.IntN(20))
			rec := simtest.J(int64(i+1), at, run, run, 1+rng.Int64N(c[sim.Procs]), simtest.User(1),
				simtest.Mem(rng.Int64N(c[sim.Memory]+1)))
			jobs = append(jobs, ran(rec, at, at+run, sim.Finished))
		}
		// Fractional: the machine shared among 1 to 3 users (the others
		// have one tiny job each, after user 1's).
		others := rng.IntN(3)
		for k := range others {
			rec := simtest.J(int64(n+k+1), at, 1, 1, 1, simtest.User(int32(k+2)))
			jobs = append(jobs, ran(rec, at, at+1, sim.Finished))
		}
		res := handRun(c, jobs...)
		e := mustEET(t, res, results.CapacityRule{})
		want := make([]sim.Time, n)
		for i := range want {
			want[i] = math.MinInt64
		}
		for _, k := range []sim.Kind{sim.Procs, sim.Memory} {
			var submit, run []sim.Time
			var need []int64
			var idx []int
			for i := range n {
				if o := res.Jobs[i]; o.Need[k] > 0 {
					submit, need, run, idx = append(submit, o.Submit), append(need, o.Need[k]), append(run, o.End-o.Start), append(idx, i)
				}
			}
			for x, v := range refEET(submit, need, run, c[k], int64(1+others)) {
				want[idx[x]] = max(want[idx[x]], v)
			}
		}
		if d := cmp.Diff(want, eets(e)[:n]); d != "" {
			t.Fatalf("seed %d, capacity %v, %d users: EETs (-Algorithm 1 +ComputeEET):\n%s", seed, c, 1+others, d)
		}
	}
}

func TestComputeEETErrors(t *testing.T) {
	good := handRun(simtest.Cluster(4, 0), ran(simtest.J(1, 0, 2, 2, 1, simtest.User(1)), 0, 2, sim.Finished))
	huge := handRun(simtest.Cluster(4, math.MaxInt64),
		ran(simtest.J(1, 0, math.MaxInt64/2, math.MaxInt64/2, 1, simtest.Mem(math.MaxInt64)), 0, math.MaxInt64/2, sim.Finished))
	tests := []struct {
		name string
		res  *sim.Result
		rule results.CapacityRule
		want string
	}{
		{"negative fixed capacity", good, results.Fixed(sim.Resources{-1}), "fixed capacity has negative procs -1"},
		{"zero fixed capacity", good, results.Fixed(sim.Resources{}), "fixed capacity is zero on every kind"},
		{"negative user capacity", good, results.CapacityRule{Users: map[int32]sim.Resources{1: {2, -3}}},
			"capacity of user 1 has negative memory -3"},
		{"unknown sharing", good, results.CapacityRule{Sharing: 9}, "unknown capacity sharing sharing(9)"},
		{"zero user capacity", good, results.CapacityRule{Users: map[int32]sim.Resources{1: {}}},
			"capacity of user 1 is zero on every kind"},
		{"a job that ends before it starts", handRun(simtest.Cluster(4, 0), ran(simtest.J(1, 0, 2, 2, 1), 5, 3, sim.Finished)),
			results.CapacityRule{}, "job 1: ran from 5 to 3, submitted at 0: the result is corrupt"},
		{"overflow", huge, results.Fixed(simtest.Cluster(4, 1)), "job 1: EET arithmetic overflows"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := results.ComputeEET(tc.res, tc.rule)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v; want one saying %q", err, tc.want)
			}
		})
	}
}

// handEET is handResult's EETs under EqualShare: users 3 and 7 ran jobs,
// so each expects 2 processors and 500 bytes (see TestHandEET).
func handEET(t testing.TB) *results.EET {
	t.Helper()
	e, err := results.ComputeEET(handResult(), results.CapacityRule{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestHandEET works out handResult's EETs (its jobs are not in arrival
// order; ComputeEET takes each user's in submit order): user 7's job 1 (2 processors,
// 100 bytes, 10 s) fits its share, EET 10; job 3 (1 processor, 20 s) gets
// nothing until 10, then 1 per second: EET 30, ended 50, T 20. User 3's
// job 2 (4 processors, killed after 2 s) takes 2 per second: EET 9, ended
// 12, T 3; job 6 runs for 0 s: EET 50, its arrival.
func TestHandEET(t *testing.T) {
	e := handEET(t)
	want := []results.JobEET{{10, 0}, {9, 3}, {30, 20}, {-1, -1}, {-1, -1}, {50, 0}}
	if d := cmp.Diff(want, e.Jobs); d != "" {
		t.Errorf("handResult's EETs (-want +got):\n%s", d)
	}
	share := [sim.MaxKinds]results.Ratio{{Num: 2, Den: 1}, {Num: 500, Den: 1}, {Num: 0, Den: 1}}
	none := [sim.MaxKinds]results.Ratio{{Num: 0, Den: 1}, {Num: 0, Den: 1}, {Num: 0, Den: 1}}
	wantUsers := []results.UserEET{
		{User: -1, Capacity: none, Jobs: 1},
		{User: 3, Capacity: share, Jobs: 3, Ran: 2, Violated: 1, VEETShare: 0.5, Tardiness: 3, WeightedTardiness: 12},
		{User: 7, Capacity: share, Jobs: 2, Ran: 2, Violated: 1, VEETShare: 0.5, Tardiness: 20, WeightedTardiness: 20},
	}
	if d := cmp.Diff(wantUsers, e.Users); d != "" {
		t.Errorf("handResult's users (-want +got):\n%s", d)
	}
}
