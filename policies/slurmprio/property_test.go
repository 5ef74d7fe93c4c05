package slurmprio

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// world is a small random workload played on a pool by a greedy
// highest-priority-first scheduler, calling the calculator as a policy
// would: Finished, Submitted, Update (also at every Next()), Started.
type world struct {
	jobs    []*sim.Job
	runtime []sim.Time
	procs   int64
}

func randomWorld(r *rand.Rand) world {
	w := world{procs: 32}
	n := 20 + r.IntN(60)
	at := sim.Time(0)
	for i := range n {
		at += sim.Time(r.IntN(400))
		j := job(i, at, 1+r.Int64N(16), int32(r.IntN(6)), int32(r.IntN(3)))
		j.Queue, j.Partition = int32(r.IntN(4)), int32(r.IntN(3))
		j.Estimate = sim.Time(1 + r.IntN(3000))
		w.jobs = append(w.jobs, j)
		w.runtime = append(w.runtime, sim.Time(r.IntN(int(j.Estimate)+1)))
	}
	return w
}

func randomParams(r *rand.Rand) Params {
	w := func() int64 {
		switch r.IntN(8) {
		case 0:
			return math.MaxUint32
		case 1, 2, 3:
			return 0
		}
		return r.Int64N(10001)
	}
	p := Params{
		WeightAge: w(), WeightFairshare: w(), WeightJobSize: w(),
		WeightPartition: w(), WeightQOS: w(), WeightAccuracy: w(),
		MaxAge: sim.Time(1 + r.IntN(5000)), FavorSmall: r.IntN(2) == 0,
		DecayHalfLife: sim.Time(r.IntN(5000)), CalcPeriod: sim.Time(1 + r.IntN(600)),
		Fairshare: []string{"fair_tree", "classic"}[r.IntN(2)],
		Shares:    "0:5,1:1,2:0,0/1:3", PartitionFactor: "0:3,1:1", QOSPriority: "1:10,2:5",
	}
	return p
}

// play runs w and calls check after every update with the waiting jobs in
// arrival order.
func (w world) play(t *testing.T, c *Calculator, check func(now sim.Time, waiting []*sim.Job)) {
	t.Helper()
	var waiting []*sim.Job
	type run struct {
		j   *sim.Job
		end sim.Time
	}
	var runs []run
	free, next := w.procs, 0
	for next < len(w.jobs) || len(waiting) > 0 || len(runs) > 0 {
		now := c.Next()
		if next < len(w.jobs) {
			now = min(now, w.jobs[next].Submit)
		}
		for _, r := range runs {
			now = min(now, r.end)
		}
		kept := runs[:0]
		for _, r := range runs {
			if r.end == now {
				c.Finished(now, r.j, w.runtime[r.j.Seq])
				free += r.j.Need[sim.Procs]
				continue
			}
			kept = append(kept, r)
		}
		runs = kept
		for ; next < len(w.jobs) && w.jobs[next].Submit == now; next++ {
			c.Submitted(now, w.jobs[next])
			waiting = append(waiting, w.jobs[next])
		}
		c.Update(now, nil, waiting)
		check(now, waiting)
		order := slices.Clone(waiting)
		slices.SortStableFunc(order, func(x, y *sim.Job) int { return cmp.Compare(c.Priority(y), c.Priority(x)) })
		for _, j := range order {
			if j.Need[sim.Procs] > free {
				continue
			}
			free -= j.Need[sim.Procs]
			c.Started(now, j)
			runs = append(runs, run{j, now + w.runtime[j.Seq]})
			waiting = slices.DeleteFunc(waiting, func(x *sim.Job) bool { return x == j })
		}
	}
}

// TestPriorityBounded: on random workloads and parameters every
// priority is in 1..max(1, sum of the weights), capped at 2³²−1.
func TestPriorityBounded(t *testing.T) {
	for seed := range uint64(40) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 16))
			w := randomWorld(r)
			p := randomParams(r)
			c := newCalc(t, p, Machine{Procs: w.procs})
			sum := p.WeightAge + p.WeightFairshare + p.WeightJobSize + p.WeightPartition + p.WeightQOS + p.WeightAccuracy
			bound := uint32(min(max(sum, 1), math.MaxUint32))
			w.play(t, c, func(now sim.Time, waiting []*sim.Job) {
				for _, j := range waiting {
					if got := c.Priority(j); got < 1 || got > bound {
						t.Fatalf("%+v: at %d job %d has priority %d; want 1..%d", p, now, j.ID, got, bound)
					}
				}
			})
		})
	}
}

// TestAgeOnlyIsArrivalOrder: with the age weight alone, waiting jobs'
// priorities never increase along arrival order (ties allowed), however
// stale they are.
func TestAgeOnlyIsArrivalOrder(t *testing.T) {
	for seed := range uint64(40) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 17))
			w := randomWorld(r)
			p := randomParams(r)
			p.WeightFairshare, p.WeightJobSize, p.WeightPartition, p.WeightQOS, p.WeightAccuracy = 0, 0, 0, 0, 0
			p.WeightAge = 1 + r.Int64N(100000)
			c := newCalc(t, p, Machine{Procs: w.procs})
			w.play(t, c, func(now sim.Time, waiting []*sim.Job) {
				for i := 1; i < len(waiting); i++ {
					a, b := waiting[i-1], waiting[i]
					if c.Priority(a) < c.Priority(b) {
						t.Fatalf("%+v: at %d job %d (submitted %d) has priority %d below job %d's (submitted %d) %d",
							p, now, a.ID, a.Submit, c.Priority(a), b.ID, b.Submit, c.Priority(b))
					}
				}
			})
		})
	}
}
