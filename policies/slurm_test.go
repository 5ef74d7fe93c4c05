package policies_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestSlurmParams: every parameter out of range is refused, the error
// naming it.
func TestSlurmParams(t *testing.T) {
	tests := []struct {
		setting, want string
	}{
		{"default_queue_depth=-1", `parameter "default_queue_depth": -1 is negative`},
		{"sched_interval=-5", `parameter "sched_interval": -5 is negative`},
		{"bf_interval=-1", `parameter "bf_interval": -1 is negative`},
		{"bf_resolution=0", `parameter "bf_resolution": 0 is below 1`},
		{"bf_window=-60", `parameter "bf_window": -60 is negative`},
		{"bf_max_job_test=-1", `parameter "bf_max_job_test": -1 is negative`},
		{"bf_max_job_user=-2", `parameter "bf_max_job_user": -2 is negative`},
		{"priority_calc_period=0", `parameter "priority_calc_period"`},
		{"priority_max_age=-1", `parameter "priority_max_age"`},
	}
	for _, tc := range tests {
		_, err := policies.New("slurm", tc.setting)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("slurm %s: got %v; want an error containing %q", tc.setting, err, tc.want)
		}
	}
	if _, err := policies.New("slurm"); err != nil {
		t.Errorf("slurm with its defaults: %v", err)
	}
}

// slurmCheckSettings are the parameter sets the pass checks run under.
var slurmCheckSettings = [][]string{
	nil,
	{"bf_interval=0", "bf_resolution=1", "bf_window=0", "bf_max_job_test=0"},
	{"bf_interval=10", "bf_resolution=30", "bf_window=200", "bf_max_job_test=4", "bf_max_job_user=2", "default_queue_depth=1"},
}

// checkPass returns an error unless, at the pass, the running jobs to their
// estimated ends (now+1 if past), the jobs the pass started to now plus
// their estimates, and every reservation the backfill made over its span
// fit the capacity c at every instant: no job the pass started delays a
// reservation it made.
func checkPass(c sim.Resources, p policies.BackfillPass) error {
	type span struct {
		from, to sim.Time
		need     sim.Resources
	}
	var spans []span
	for _, a := range p.Running {
		spans = append(spans, span{p.Now, max(a.EstimatedEnd(), p.Now+1), a.Job.Need})
	}
	for _, j := range append(p.Main, p.Started...) {
		spans = append(spans, span{p.Now, p.Now + sim.Span(j.Estimate), j.Need})
	}
	for _, r := range p.Reserved {
		if r.From <= p.Now || r.To <= r.From {
			return fmt.Errorf("t=%d: job %d reserved over [%d,%d)", p.Now, r.Job.ID, r.From, r.To)
		}
		spans = append(spans, span{r.From, r.To, r.Job.Need})
	}
	for _, at := range spans {
		var used sim.Resources
		for _, s := range spans {
			if s.from <= at.from && at.from < s.to {
				used = used.Add(s.need)
			}
		}
		if k, over := used.Exceeds(c); over {
			return fmt.Errorf("t=%d: at %d the started jobs and the reservations need %d of %s, capacity %d",
				p.Now, at.from, used[k], k, c[k])
		}
	}
	return nil
}

// TestSlurmBackfillKeepsReservations checks every backfill pass on random
// workloads, on the pool and on a cluster of nodes: with every job the
// pass started running to its time limit, every reservation it made
// still holds (checkPass). On nodes this is the sum over the nodes; the
// cluster checks the placements (Verify).
func TestSlurmBackfillKeepsReservations(t *testing.T) {
	passes := 0
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 61))
		for _, settings := range slurmCheckSettings {
			name := fmt.Sprintf("seed %d, %v", seed, settings)
			c := simtest.Cluster(1+rng.Int64N(32), 0)
			recs := randomWorkload(rng, 150, c, 20)
			withUsersAndPartitions(rng, recs)
			pol := newCheckedSlurm(t, settings, func(p policies.BackfillPass) {
				passes++
				if err := checkPass(c, p); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			})
			simtest.Run(t, c, pol, recs, sim.Options{}, simtest.Checks{})

			cl, err := nodes.New([]nodes.Group{{Name: "n", Count: 6, Cores: 4, Memory: 100}}, nodes.FirstFit)
			if err != nil {
				t.Fatal(err)
			}
			nrecs := nodeWorkload(rng, 120)
			pol = newCheckedSlurm(t, settings, func(p policies.BackfillPass) {
				passes++
				if err := checkPass(cl.Capacity(), p); err != nil {
					t.Errorf("%s nodes: %v", name, err)
				}
			})
			res, err := sim.Run(cl, pol, sim.NewSliceSource(nrecs), sim.Options{})
			if err != nil {
				t.Fatalf("%s nodes: %v", name, err)
			}
			if err := cl.Verify(res); err != nil {
				t.Errorf("%s nodes: %v", name, err)
			}
		}
	}
	if passes < 1000 {
		t.Errorf("%d backfill passes checked; want at least 1000", passes)
	}
}

// newCheckedSlurm builds the slurm policy with settings, telling f of
// each backfill pass.
func newCheckedSlurm(t *testing.T, settings []string, f func(policies.BackfillPass)) *policies.Slurm {
	t.Helper()
	pol, err := policies.NewSlurm(*slurmParams(t, settings))
	if err != nil {
		t.Fatal(err)
	}
	pol.SetCheck(f)
	return pol
}

// TestSlurmCheckCatchesDelay: checkPass fails a pass whose started job
// runs into a reservation.
func TestSlurmCheckCatchesDelay(t *testing.T) {
	j1 := &sim.Job{ID: 1, Estimate: 100, Need: sim.Resources{2}}
	j2 := &sim.Job{ID: 2, Estimate: 50, Need: sim.Resources{2}}
	bad := policies.BackfillPass{Now: 10, Started: []*sim.Job{j1}, Reserved: []policies.Span{{Job: j2, From: 50, To: 100}}}
	if checkPass(sim.Resources{3}, bad) == nil {
		t.Error("a started job overlapping a reservation beyond the capacity passed the check")
	}
	if err := checkPass(sim.Resources{4}, bad); err != nil {
		t.Errorf("the same pass on 4 processors: %v", err)
	}
}

// slurmExact are the settings under which slurm plans like conservative
// backfilling: age priority (arrival order), a plan at every pass, no
// window, no job test limit, exact spans.
var slurmExact = []string{"bf_interval=0", "bf_resolution=1", "bf_window=0", "bf_max_job_test=0"}

// TestSlurmConservative states the relation between slurm under
// slurmExact and conservative backfilling: when every job runs exactly
// its estimate (of at least one second), so that no reservation is ever
// compressed, the schedules are equal job for job, on the pool and on a
// cluster of nodes. When jobs end early they differ: conservative keeps
// and compresses its reservations, slurm plans from scratch in priority
// order (the golden slurm-vs-conservative works a case); the test
// reports how many jobs start elsewhere on random workloads.
func TestSlurmConservative(t *testing.T) {
	exact, differ, total := 0, 0, 0
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 62))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		if seed%2 == 1 {
			c[sim.Memory] = 1 << 20
		}
		recs := randomWorkload(rng, 200, c, []int{5, 50, 200}[seed%3])
		exactRecs := make([]sim.Record, len(recs))
		for i, r := range recs {
			r.Estimate = max(r.Estimate, 1)
			r.Runtime = r.Estimate
			exactRecs[i] = r
		}
		for _, w := range []struct {
			recs  []sim.Record
			equal bool
		}{{exactRecs, true}, {recs, false}} {
			slurm := runLines(t, c, "slurm", slurmExact, w.recs)
			cons := runLines(t, c, "conservative", nil, w.recs)
			if w.equal {
				if d := cmp.Diff(cons, slurm); d != "" {
					t.Errorf("seed %d, exact estimates: slurm differs from conservative (-conservative +slurm):\n%s", seed, d)
				}
				exact += len(recs)
				continue
			}
			for i := range slurm {
				if slurm[i] != cons[i] {
					differ++
				}
			}
			total += len(recs)
		}
	}
	// The golden slurm-vs-conservative's case: conservative starts job 4
	// at once, slurm after job 3.
	tc := loadCase(t, casePath("slurm-vs-conservative"))
	if got := runLines(t, tc.capacity, "conservative", nil, tc.jobs)[3]; got != "4 177 212 231 1 finished" {
		t.Errorf("conservative on slurm-vs-conservative: job 4 %q; want it started at 212", got)
	}
	t.Logf("exact estimates: %d jobs equal; early ends: %d of %d jobs start elsewhere", exact, differ, total)
	if differ == 0 {
		t.Error("no difference with early ends: the relation the doc comment states would be wrong")
	}
}

// TestSlurmConservativeNodes: with exact estimates slurm equals
// conservative backfilling on a cluster of nodes too, placements aside.
func TestSlurmConservativeNodes(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 63))
		recs := nodeWorkload(rng, 150)
		for i := range recs {
			recs[i].Runtime = recs[i].Estimate
		}
		var got [2][]string
		for k, name := range []string{"slurm", "conservative"} {
			cl, err := nodes.New([]nodes.Group{{Name: "n", Count: 6, Cores: 4, Memory: 100, GPUs: 2}}, nodes.FirstFit)
			if err != nil {
				t.Fatal(err)
			}
			settings := slurmExact
			if name != "slurm" {
				settings = nil
			}
			pol, err := policies.New(name, settings...)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(cl, pol, sim.NewSliceSource(recs), sim.Options{})
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			got[k] = scheduleLines(res)
		}
		if d := cmp.Diff(got[1], got[0]); d != "" {
			t.Errorf("seed %d: slurm differs from conservative on nodes (-conservative +slurm):\n%s", seed, d)
		}
	}
}

// runLines runs the registered policy with settings on a pool of
// capacity c, checked by Verify, and renders its schedule.
func runLines(t *testing.T, c sim.Resources, name string, settings []string, recs []sim.Record) []string {
	t.Helper()
	pol, err := policies.New(name, settings...)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := simtest.Run(t, c, pol, recs, sim.Options{}, registryChecks(t, name, settings))
	return scheduleLines(res)
}

// TestSlurmNodesPinned is a hand-worked schedule on a cluster of two
// nodes of two cores (first fit): a reservation pins a node, the job
// starts on it, and a job backfilled beside it ends before it comes.
//
//	t=0  1 (1 node × 2 cores, 100 s) on n0; 2 (1 × 1, 50 s) on n1
//	t=1  3 (1 × 2, 100 s): no node has 2 free cores: n1 is free at 50,
//	     3 is reserved there, [50,150) on n1
//	t=2  4 (1 × 1, 40 s): n1's free core until 42 < 50: backfilled on n1
//	t=3  5 (1 × 1, 100 s): n1's cores are 3's from 50, n0 frees at 100:
//	     reserved on n0 at 100
//	t=50 2 ends: 3 starts on n1, as reserved
//	t=100 1 ends: 5 starts on n0
func TestSlurmNodesPinned(t *testing.T) {
	cl, err := nodes.New([]nodes.Group{{Name: "n", Count: 2, Cores: 2}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	job := func(id, submit, run int64, n, per int32) sim.Record {
		r := simtest.J(id, sim.Time(submit), sim.Time(run), sim.Time(run), int64(n*per))
		r.Shape = sim.Shape{Nodes: n, PerNode: per}
		return r
	}
	recs := []sim.Record{job(1, 0, 100, 1, 2), job(2, 0, 50, 1, 1), job(3, 1, 100, 1, 2), job(4, 2, 40, 1, 1), job(5, 3, 100, 1, 1)}
	pol, err := policies.New("slurm", "priority_weight_age=0", "bf_interval=0", "bf_resolution=1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cl, pol, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Verify(res); err != nil {
		t.Error(err)
	}
	want := []string{"1 0 0 100 n0", "2 0 0 50 n1", "3 1 50 150 n1", "4 2 2 42 n1", "5 3 100 200 n0"}
	var got []string
	for i, o := range res.Jobs {
		got = append(got, fmt.Sprintf("%d %d %d %d n%d", o.ID, o.Submit, o.Start, o.End, cl.Where(i)[0].Node))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("slurm on two nodes (-want +got):\n%s", d)
	}
}

// TestSlurmOneNodeAsPool: on a cluster of one node, jobs of shape tasks
// anywhere are placed as on the pool of its cores, so every backfill pass
// reserves the same spans on both, rounded to bf_resolution, including
// reservations held past a short job's estimate (the rounded span longer
// than the exact one, nodes.Profile.ReserveTo), and every job starts at
// the same time.
func TestSlurmOneNodeAsPool(t *testing.T) {
	const cores = 8
	settings := [][]string{nil, {"bf_interval=0"}, {"bf_interval=0", "bf_resolution=45", "bf_window=600"}}
	longer := 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 16))
		var recs []sim.Record
		var at sim.Time
		for id := range int64(120) {
			at += sim.Time(rng.IntN(40))
			est := 1 + sim.Time(rng.IntN(150))
			recs = append(recs, simtest.J(id+1, at, 1+sim.Time(rng.Int64N(int64(est))), est, 1+rng.Int64N(cores)))
		}
		for _, set := range settings {
			name := fmt.Sprintf("seed %d, %v", seed, set)
			pool := slurmPasses(t, sim.NewPool(sim.Resources{sim.Procs: cores}), set, recs)
			cl, err := nodes.New([]nodes.Group{{Name: "n", Count: 1, Cores: cores}}, nodes.FirstFit)
			if err != nil {
				t.Fatal(err)
			}
			one := slurmPasses(t, cl, set, recs)
			longer += pool.longer
			if d := cmp.Diff(pool.passes, one.passes); d != "" {
				t.Errorf("%s: reservations on the pool (-) and on one node (+):\n%s", name, d)
			}
			if d := cmp.Diff(pool.starts, one.starts); d != "" {
				t.Errorf("%s: starts on the pool (-) and on one node (+):\n%s", name, d)
			}
		}
	}
	if longer < 100 {
		t.Errorf("%d reservations held past their job's estimate; want at least 100", longer)
	}
}

// slurmRun is what TestSlurmOneNodeAsPool compares of a run: every
// reservation of every backfill pass, every job's start, and how many
// reservations last longer than their job's estimate.
type slurmRun struct {
	passes []string
	starts []sim.Time
	longer int
}

// slurmPasses runs the slurm policy under settings on model over recs.
func slurmPasses(t *testing.T, model sim.Model, settings []string, recs []sim.Record) slurmRun {
	t.Helper()
	var r slurmRun
	pol := newCheckedSlurm(t, settings, func(p policies.BackfillPass) {
		for _, rv := range p.Reserved {
			r.passes = append(r.passes, fmt.Sprintf("t=%d job %d [%d,%d)", p.Now, rv.Job.ID, rv.From, rv.To))
			if rv.To > rv.From+sim.Span(rv.Job.Estimate) {
				r.longer++
			}
		}
	})
	res, err := sim.Run(model, pol, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatalf("%v: %v", settings, err)
	}
	for _, o := range res.Jobs {
		r.starts = append(r.starts, o.Start)
	}
	return r
}
