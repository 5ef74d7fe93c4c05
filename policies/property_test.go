package policies_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// randomWorkload draws n jobs for a machine of capacity c, submitted every
// gap seconds on average (a small gap overloads the machine): bursts of equal
// submit times, run times from 0, estimates that are exact, generous, too
// short (kills) or missing, and now and then a job too large for the machine
// or without processors. Jobs belong to four users, drawn from a stream of
// their own so the rest of the workload does not depend on them.
func randomWorkload(rng *rand.Rand, n int, c sim.Resources, gap int) []sim.Record {
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		if rng.IntN(3) > 0 {
			t += sim.Time(rng.IntN(3 * gap))
		}
		run := sim.Time(rng.IntN(1000))
		if rng.IntN(20) == 0 {
			run = 0
		}
		var est sim.Time
		switch rng.IntN(10) {
		case 0:
			est = sim.Missing
		case 1, 2:
			est = run / 2 // killed at its estimate
		case 3:
			est = run
		default:
			est = run + sim.Time(rng.IntN(2000))
		}
		procs := 1 + rng.Int64N(c[sim.Procs])
		switch rng.IntN(50) {
		case 0:
			procs = c[sim.Procs] + 1
		case 1:
			procs = 0
		}
		var opts []simtest.Opt
		if c[sim.Memory] > 0 {
			opts = append(opts, simtest.Mem(rng.Int64N(c[sim.Memory]+1)))
		}
		recs[i] = simtest.J(int64(i+1), t, run, est, procs, opts...)
	}
	users := rand.New(rand.NewPCG(rng.Uint64(), 1))
	for i := range recs {
		recs[i].User = int32(users.IntN(4))
	}
	return recs
}

// propertyPolicies are the golden policies and fairshare variants that
// make decay, dominant shares and target shares matter on small random
// workloads.
var propertyPolicies = append(slices.Clip(goldenPolicies),
	goldenPolicy{"fairshare-fifo-dominant", "fcfs", []string{"order=fairshare", "half_life=60", "usage=dominant"}, simtest.Checks{}},
	goldenPolicy{"fairshare-easy-short", "easy", []string{"order=fairshare", "half_life=300", "shares=0:4,3:0.5"}, simtest.Checks{MaxOpen: 1}},
	goldenPolicy{"fairshare-conservative-dominant", "conservative", []string{"order=fairshare", "half_life=200", "usage=dominant", "shares=1:2"}, simtest.Checks{PromiseOnWait: true}},
	// The accuracy order under the other two disciplines, and PSP with a
	// short window and pessimistic new users, whose priorities move often.
	goldenPolicy{"accuracy-fifo", "fcfs", []string{"order=accuracy"}, simtest.Checks{}},
	goldenPolicy{"accuracy-conservative", "conservative", []string{"order=accuracy", "accuracy_window=3"}, simtest.Checks{PromiseOnWait: true}},
	goldenPolicy{"psp-short-window", "psp", []string{"accuracy_window=2", "new_user_priority=1"}, simtest.Checks{MaxOpen: 1}},
	// Maui's priorities re-rank the queue between passes: reservations are
	// overtaken, released and made again.
	goldenPolicy{"maui-mixed", "maui", []string{"xfactor_weight=20", "proc_weight=-0.5", "fairshare_weight=1", "half_life=300", "reservation_depth=3"}, simtest.Checks{MaxOpen: 3}},
	goldenPolicy{"maui-mixed-nobackfill", "maui", []string{"xfactor_weight=50", "fairshare_weight=2", "half_life=100", "shares=2:3", "reservation_depth=2", "backfill=false"}, simtest.Checks{MaxOpen: 2}},
	goldenPolicy{"maui-depth0", "maui", []string{"reservation_depth=0", "proc_weight=1"}, simtest.Checks{}},
	// MEASY in fairshare order with a short memory and unequal shares: the
	// head of its merged list is overtaken, its promise withdrawn.
	goldenPolicy{"fairshare-measy-short", "fairshare-measy", []string{"half_life=300", "shares=0:4,3:0.5"}, simtest.Checks{MaxOpen: 1}},
	// Slurm with every limit biting: priorities by age recomputed every
	// 50 s, a short window, few jobs tested, one per user, a shallow main
	// scheduler; and Slurm planning at every pass, exactly.
	goldenPolicy{"slurm-limits", "slurm", []string{"priority_calc_period=50", "priority_max_age=500", "bf_window=300", "bf_max_job_test=3",
		"bf_max_job_user=1", "default_queue_depth=2", "bf_interval=20", "sched_interval=45", "bf_resolution=30"}, simtest.Checks{}},
	goldenPolicy{"slurm-exact", "slurm", []string{"bf_interval=0", "bf_resolution=1", "bf_window=0", "bf_max_job_test=0"}, simtest.Checks{}},
)

// TestRandomWorkloads runs every policy on seeded random workloads: Verify
// holds (simtest.Run checks it), FCFS never lets a job pass an earlier one,
// and a second run gives identical bytes. Fairshare variants included.
func TestRandomWorkloads(t *testing.T) {
	sizes := []int{1, 2, 5, 20, 100, 300}
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 2))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		if seed%2 == 1 {
			c[sim.Memory] = 1 << 20
		}
		n, gap := sizes[int(seed)%len(sizes)], 100
		if seed == 7 {
			// More than one chunk of the engine's job store, at a load that
			// keeps the queue short enough for conservative's compression.
			n, c[sim.Procs], gap = 3000, 64, 300
		}
		recs := randomWorkload(rng, n, c, gap)
		for _, gp := range propertyPolicies {
			if !gp.runs(c) {
				continue
			}
			for _, overrun := range []bool{false, true} {
				opt := sim.Options{AllowOverrun: overrun}
				res, _ := simtest.Run(t, c, gp.new(t), recs, opt, gp.checks)
				again, _ := simtest.Run(t, c, gp.new(t), recs, opt, gp.checks)
				if !bytes.Equal(simtest.Bytes(res), simtest.Bytes(again)) {
					t.Fatalf("seed %d, %s, overrun %v: two runs differ", seed, gp.name, overrun)
				}
				if gp.name == "fcfs" {
					checkArrivalOrder(t, res)
				}
			}
		}
	}
}

// checkArrivalOrder fails if a job started before one that arrived earlier.
func checkArrivalOrder(t *testing.T, res *sim.Result) {
	t.Helper()
	last := sim.Time(-1)
	for _, o := range res.Jobs {
		if o.State == sim.Rejected {
			continue
		}
		if o.Start < last {
			t.Fatalf("fcfs: job %d starts at %d, before an earlier job's start %d", o.ID, o.Start, last)
		}
		last = o.Start
	}
}

// FuzzSimulate turns bytes into a tiny workload (five bytes a job: gap and,
// in its high bits, user; run time, estimate, processors, memory) and runs
// every policy on it; Verify must hold.
func FuzzSimulate(f *testing.F) {
	f.Add([]byte{8, 0, 10, 10, 4, 0, 0, 10, 20, 8, 0})
	f.Add([]byte{3, 1, 0, 5, 3, 1, 0, 0, 0, 2, 2, 5, 200, 1, 1, 0})
	f.Add([]byte{130, 0, 50, 20, 2, 128, 0, 60, 255, 2, 64})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 1 {
			return
		}
		c := simtest.Cluster(1+int64(data[0]%16), 0)
		if data[0] >= 128 {
			c[sim.Memory] = 128
		}
		data = data[1:]
		var recs []sim.Record
		var at sim.Time
		for i := 0; i+5 <= len(data) && len(recs) < 64; i += 5 {
			at += sim.Time(data[i] % 16)
			est := sim.Time(data[i+2])
			if est == 255 {
				est = sim.Missing
			}
			recs = append(recs, simtest.J(int64(len(recs)+1), at, sim.Time(data[i+1]), est,
				int64(data[i+3]%20), simtest.Mem(int64(data[i+4]%160)), simtest.User(int32(data[i]/16%4))))
		}
		for _, gp := range propertyPolicies {
			if !gp.runs(c) {
				continue
			}
			simtest.Run(t, c, gp.new(t), recs, sim.Options{}, gp.checks)
			simtest.Run(t, c, gp.new(t), recs, sim.Options{AllowOverrun: true}, gp.checks)
		}
	})
}

// sortEveryPass is ShortestFirst without Compare, so the disciplines sort it
// afresh at every pass instead of keeping it sorted.
type sortEveryPass struct{}

func (sortEveryPass) Name() string { return "shortest-first" }
func (sortEveryPass) Sort(now sim.Time, q []*sim.Job) {
	policies.ShortestFirst{}.Sort(now, q)
}

// TestStaticOrderKeptSorted checks that keeping a static order sorted across
// passes gives the same schedules as sorting at every pass.
func TestStaticOrderKeptSorted(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 300, c, 50)
		pairs := []struct {
			name       string
			kept, each sim.Policy
		}{
			{"list", policies.NewList("sjf", policies.ShortestFirst{}), policies.NewList("sjf", sortEveryPass{})},
			{"easy", policies.NewEASY(policies.ShortestFirst{}), policies.NewEASY(sortEveryPass{})},
			{"conservative", policies.NewConservative(policies.ShortestFirst{}), policies.NewConservative(sortEveryPass{})},
		}
		for _, p := range pairs {
			kept, _ := simtest.Run(t, c, p.kept, recs, sim.Options{}, simtest.Checks{})
			each, _ := simtest.Run(t, c, p.each, recs, sim.Options{}, simtest.Checks{})
			if diff := cmp.Diff(string(simtest.Bytes(each)), string(simtest.Bytes(kept))); diff != "" {
				t.Fatalf("seed %d, %s: kept-sorted queue differs from sorting each pass (-each +kept):\n%s", seed, p.name, diff)
			}
		}
	}
}

// TestFairshareOneUser: when every job is one user's, fairshare order is
// arrival order, so each fairshare discipline gives its plain schedule.
func TestFairshareOneUser(t *testing.T) {
	pairs := []struct{ plain, fair string }{
		{"fcfs", "fairshare-fifo"},
		{"easy", "fairshare-easy"},
		{"conservative", "fairshare-conservative"},
	}
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 4))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 200, c, 50)
		for i := range recs {
			recs[i].User = 5
		}
		for _, p := range pairs {
			fair := golden(t, p.fair)
			sameSchedule(t, fmt.Sprintf("seed %d, one user's jobs", seed), c, recs,
				fair.new(t, "half_life=100"), golden(t, p.plain).new(t), fair.checks)
		}
	}
}

// sameSchedule runs policies got and want on recs and machine c and fails
// t, naming what, unless they give the same schedule; both must pass
// Verify with checks.
func sameSchedule(t *testing.T, what string, c sim.Resources, recs []sim.Record, got, want sim.Policy, checks simtest.Checks) {
	t.Helper()
	g, _ := simtest.Run(t, c, got, recs, sim.Options{}, checks)
	w, _ := simtest.Run(t, c, want, recs, sim.Options{}, checks)
	if diff := cmp.Diff(scheduleLines(w), scheduleLines(g)); diff != "" {
		t.Fatalf("%s: schedules differ (-%s +%s):\n%s", what, want.Name(), got.Name(), diff)
	}
}

// golden returns the golden policy called name.
func golden(t *testing.T, name string) goldenPolicy {
	t.Helper()
	for _, gp := range goldenPolicies {
		if gp.name == name {
			return gp
		}
	}
	t.Fatalf("no golden policy %q", name)
	return goldenPolicy{}
}
