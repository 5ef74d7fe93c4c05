package policies_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

func newAccuracy(t *testing.T, c policies.AccuracyConfig) *policies.Accuracy {
	t.Helper()
	a, err := policies.NewAccuracy(c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAccuracyPriority follows one user's priority through a window of
// three jobs, worked by hand: the mean of the last three accuracies, by
// Table 1.
func TestAccuracyPriority(t *testing.T) {
	a := newAccuracy(t, policies.AccuracyConfig{Window: 3, NewUser: 2})
	if got := a.Priority(7); got != 2 {
		t.Fatalf("unseen user: priority %d; want the new users' 2", got)
	}
	steps := []struct {
		run, est sim.Time
		want     int // priority after the job ends
	}{
		{10, 100, 1},  // 0.1: mean 0.1
		{90, 100, 3},  // 0.9: (0.1 + 0.9)/2 = 0.5
		{0, 50, 2},    // 0 (ran no time): (0.1 + 0.9 + 0)/3 ≈ 0.33
		{80, 80, 4},   // 1; 0.1 leaves the window: (0.9 + 0 + 1)/3 ≈ 0.63
		{70, 50, 4},   // past its estimate, capped at 1: (0 + 1 + 1)/3 ≈ 0.67
		{100, 100, 5}, // (1 + 1 + 1)/3
	}
	for i, s := range steps {
		j := &sim.Job{ID: sim.JobID(i + 1), Seq: i, User: 7, Estimate: s.est}
		a.Submitted(sim.Time(i), j)
		if i == 0 {
			if got := a.Priority(7); got != 2 {
				t.Fatalf("user with no ended job: priority %d; want 2", got)
			}
		}
		a.Started(sim.Time(i), nil, []*sim.Job{j})
		a.Finished(sim.Time(i)+s.run, j, s.run)
		if got := a.Priority(7); got != s.want {
			t.Errorf("after job %d (ran %d of %d): priority %d; want %d", i+1, s.run, s.est, got, s.want)
		}
	}
}

// TestAccuracyClassBoundary: a mean exactly on a class boundary is in the
// class above it, as Table 1's intervals say, even where float64 sums
// round it below (0.2 + 0 + 1 sums to 1.1999…, a third of which is under
// 0.4). Each step is one user's jobs (run, estimate), window the user's
// whole list.
func TestAccuracyClassBoundary(t *testing.T) {
	tests := []struct {
		name string
		jobs [][2]sim.Time
		want int
	}{
		{"0.2", [][2]sim.Time{{0, 1}, {0, 1}, {3, 5}}, 2},
		{"0.4", [][2]sim.Time{{1, 5}, {0, 20}, {20, 5}}, 3},
		{"0.6", [][2]sim.Time{{7, 10}, {7, 10}, {7, 10}, {3, 10}}, 4},
		{"0.8", [][2]sim.Time{{1, 1}, {1, 1}, {2, 5}}, 5},
		{"just under 0.4", [][2]sim.Time{{1, 5}, {0, 20}, {999_999_999, 1_000_000_000}}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAccuracy(t, policies.AccuracyConfig{Window: len(tc.jobs), NewUser: 5})
			for i, job := range tc.jobs {
				j := &sim.Job{ID: sim.JobID(i + 1), Seq: i, User: 1, Estimate: job[1]}
				a.Submitted(0, j)
				a.Started(0, nil, []*sim.Job{j})
				a.Finished(job[0], j, job[0])
			}
			if got := a.Priority(1); got != tc.want {
				t.Errorf("jobs (run, estimate) %v: priority %d; want %d", tc.jobs, got, tc.want)
			}
		})
	}
}

// TestAccuracySort checks the shape of the order on a hand-made queue:
// priorities high to low, arrival within a priority.
func TestAccuracySort(t *testing.T) {
	a := newAccuracy(t, policies.DefaultAccuracyConfig())
	// User 1 ends a job at 0.1 (a1), user 2 at 0.5 (a3); user 3 is new (5).
	for i, u := range []struct {
		user     int32
		run, est sim.Time
	}{{1, 10, 100}, {2, 50, 100}} {
		j := &sim.Job{ID: sim.JobID(100 + i), Seq: i, User: u.user, Estimate: u.est}
		a.Submitted(0, j)
		a.Started(0, nil, []*sim.Job{j})
		a.Finished(u.run, j, u.run)
	}
	var q []*sim.Job
	for i, u := range []int32{1, 2, 3, 1, 3, 2} {
		j := &sim.Job{ID: sim.JobID(i + 1), Seq: i + 2, User: u}
		a.Submitted(200, j)
		q = append(q, j)
	}
	a.Sort(200, q)
	if diff := gocmp.Diff([]sim.JobID{3, 5, 2, 6, 1, 4}, ids(q)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestAccuracyPanicsUnobserved: jobs never submitted cannot be ranked.
func TestAccuracyPanicsUnobserved(t *testing.T) {
	a := newAccuracy(t, policies.DefaultAccuracyConfig())
	defer func() {
		if recover() == nil {
			t.Error("Sort of jobs never submitted did not panic")
		}
	}()
	a.Sort(0, []*sim.Job{{Seq: 0, User: 1}, {Seq: 1, User: 2}})
}

func TestNewAccuracyErrors(t *testing.T) {
	for _, c := range []policies.AccuracyConfig{
		{Window: 0, NewUser: 5},
		{Window: policies.MaxAccuracyWindow + 1, NewUser: 5},
		{Window: 10, NewUser: 0},
		{Window: 10, NewUser: 6},
	} {
		if _, err := policies.NewAccuracy(c); err == nil {
			t.Errorf("NewAccuracy(%+v): no error", c)
		}
	}
}

// checkedAccuracy is an Accuracy whose every Sort is checked against the
// definition, recomputed from the jobs that ended: each user's priority is
// the class of the mean psp.Accuracy of their last window ended jobs,
// psp.MeanClass (new users: newUser); the sorted queue is a permutation of the queue ordered
// by (priority high to low, arrival).
type checkedAccuracy struct {
	*policies.Accuracy
	t       *testing.T
	window  int
	newUser int
	ended   map[int32][]psp.Ended
	mixed   *int // Sorts of queues holding more than one priority
}

func (c *checkedAccuracy) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	c.Accuracy.Finished(now, j, actual)
	c.ended[j.User] = append(c.ended[j.User], psp.Ended{Run: actual, Estimate: j.Estimate})
}

func (c *checkedAccuracy) priority(user int32) int {
	acc := c.ended[user]
	if len(acc) == 0 {
		return c.newUser
	}
	return psp.MeanClass(acc[max(0, len(acc)-c.window):])
}

func (c *checkedAccuracy) Sort(now sim.Time, q []*sim.Job) {
	want := slices.Clone(q)
	slices.SortStableFunc(want, func(a, b *sim.Job) int {
		return cmp.Or(cmp.Compare(c.priority(b.User), c.priority(a.User)), cmp.Compare(a.Seq, b.Seq))
	})
	if len(want) > 1 && c.priority(want[0].User) != c.priority(want[len(want)-1].User) {
		*c.mixed++
	}
	c.Accuracy.Sort(now, q)
	if !slices.Equal(want, q) {
		c.t.Fatalf("t=%d: queue %v; want %v by (priority, arrival)", now, ids(q), ids(want))
	}
}

// TestAccuracySortDefinition runs the three disciplines over random
// workloads, which have kills, zero-length jobs, missing estimates and
// overruns, with every Sort checked against the definition.
func TestAccuracySortDefinition(t *testing.T) {
	mixed := 0
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 6))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 200, c, 30)
		cfg := policies.AccuracyConfig{Window: 1 + rng.IntN(12), NewUser: 1 + rng.IntN(5)}
		for _, mk := range []func(policies.Order) sim.Policy{
			func(o policies.Order) sim.Policy { return policies.NewList("fcfs/accuracy", o) },
			func(o policies.Order) sim.Policy { return policies.NewEASY(o) },
			func(o policies.Order) sim.Policy { return policies.NewConservative(o) },
		} {
			for _, overrun := range []bool{false, true} {
				o := &checkedAccuracy{newAccuracy(t, cfg), t, cfg.Window, cfg.NewUser, map[int32][]psp.Ended{}, &mixed}
				simtest.Run(t, c, mk(o), recs, sim.Options{AllowOverrun: overrun}, simtest.Checks{})
			}
		}
	}
	if mixed < 100 {
		t.Errorf("only %d sorts of queues with more than one priority; the test does not exercise the order", mixed)
	}
	t.Logf("%d sorts of queues with more than one priority", mixed)
}

// TestAccuracyOnePriority: when every waiting job's user has the same
// priority, the accuracy order is arrival order and each discipline gives
// its plain schedule. Two ways to get there: every estimate exact (every
// user stays at 5), or a single user (kills, zero-length jobs and all).
func TestAccuracyOnePriority(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 200, c, 50)
		params := []string{"order=accuracy"}
		for i := range recs {
			if seed%2 == 0 {
				recs[i].Runtime = max(recs[i].Runtime, 1)
				recs[i].Estimate = recs[i].Runtime
			} else {
				recs[i].User = 3
			}
		}
		if seed%2 == 1 {
			// One user: their priority moves, but every waiting job has it.
			params = append(params, "new_user_priority=1", "accuracy_window=2")
		}
		for _, name := range []string{"fcfs", "easy", "conservative"} {
			plain := golden(t, name)
			acc := goldenPolicy{name + "/accuracy", name, params, plain.checks}
			sameSchedule(t, fmt.Sprintf("seed %d", seed), c, recs, acc.new(t), plain.new(t), plain.checks)
		}
	}
}

// TestPSPFavoursAccurateUsers runs PSP and EASY on the paper's CF
// scenario (workloads.PSP) on a machine small enough to queue: PSP must
// reorder the queue, and it must cut the wait of the accurate users (a
// generator accuracy of 0.6 or more) relative to the least accurate (below
// 0.2) by more than EASY does.
func TestPSPFavoursAccurateUsers(t *testing.T) {
	p := workloads.DefaultPSPParams()
	p.Scenario = "cfg" // half of the users accurate, so both groups are well filled
	gen, err := workloads.NewPSP(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sim.ReadAll(gen)
	if err != nil {
		t.Fatal(err)
	}
	accuracy := map[int32]float64{}
	for _, u := range gen.Users() {
		accuracy[u.ID] = u.Initial
	}
	c := simtest.Cluster(96, 0)
	ratio := map[string]float64{}
	for _, name := range []string{"easy", "psp"} {
		res, _ := simtest.Run(t, c, golden(t, name).new(t), recs, sim.Options{}, golden(t, name).checks)
		var good, bad, nGood, nBad float64
		for _, o := range res.Jobs {
			switch a := accuracy[o.User]; {
			case a >= 0.6:
				good, nGood = good+float64(o.Start-o.Submit), nGood+1
			case a < 0.2:
				bad, nBad = bad+float64(o.Start-o.Submit), nBad+1
			}
		}
		if nGood == 0 || nBad == 0 {
			t.Fatalf("%s: %v accurate and %v inaccurate jobs; want some of each", name, nGood, nBad)
		}
		ratio[name] = (bad / nBad) / (good / nGood)
		t.Logf("%s: mean wait of inaccurate / accurate users' jobs: %.2f", name, ratio[name])
	}
	if !(ratio["psp"] > 1 && ratio["psp"] > ratio["easy"]) {
		t.Errorf("mean wait of inaccurate over accurate users: psp %.2f, easy %.2f; want psp above 1 and above easy", ratio["psp"], ratio["easy"])
	}
}
