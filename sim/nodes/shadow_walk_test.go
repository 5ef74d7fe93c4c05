package nodes_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// oneNodeWorkload is n random jobs most of which ask for one node (cores
// and memory on it, as PBS's nodes=1:ppn=P), the rest for a few nodes or
// for tasks; estimates mostly well above the run time, so that jobs end
// before the ends a shadow walk counts on.
func oneNodeWorkload(rng *rand.Rand, n int, cores int32, mem int64) []sim.Record {
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		t += sim.Time(rng.IntN(20))
		run := 1 + sim.Time(rng.IntN(300))
		est := run + sim.Time(rng.IntN(400))
		if rng.IntN(8) == 0 {
			est = max(1, run/2)
		}
		nn, per := int32(1), 1+rng.Int32N(cores)
		switch rng.IntN(10) {
		case 0:
			nn = 2 + rng.Int32N(2)
		case 1:
			r := simtest.J(int64(i+1), t, run, est, 1+rng.Int64N(int64(2*cores)))
			r.Need[sim.Memory] = rng.Int64N(mem)
			recs[i] = r
			continue
		}
		r := simtest.J(int64(i+1), t, run, est, int64(nn*per))
		r.Shape = sim.Shape{Nodes: nn, PerNode: per, Exclusive: rng.IntN(15) == 0, MemPerNode: rng.Int64N(mem + 1)}
		recs[i] = r
	}
	return recs
}

// batchWorkload is oneNodeWorkload in batches of 2 to 8 jobs that arrive
// together and ask the same with the same estimate (as job arrays do),
// each running for its own time within it: the jobs of a batch that
// start together end, by their estimates, at one time, but one by one.
func batchWorkload(rng *rand.Rand, n int, cores int32, mem int64) []sim.Record {
	recs := oneNodeWorkload(rng, n, cores, mem)
	for i := 0; i < len(recs); {
		k := min(len(recs)-i, 2+rng.IntN(7))
		for b := i + 1; b < i+k; b++ {
			r := &recs[b]
			r.Submit, r.Estimate, r.Need, r.Shape = recs[i].Submit, recs[i].Estimate, recs[i].Need, recs[i].Shape
			r.Runtime = 1 + sim.Time(rng.Int64N(int64(r.Estimate)))
		}
		i += k
	}
	return recs
}

// shadowCase draws, for seed, the cluster and the workload that
// TestShadowAgainstWalk and TestKeepsAgainstPlacement run: one node group,
// a second with GPUs for odd seeds; jobs of one node mostly, of every
// shape every third seed. cores and mem are the first group's.
func shadowCase(rng *rand.Rand, seed uint64) (groups []nodes.Group, cores int32, mem int64, recs []sim.Record) {
	cores, mem = 2+rng.Int32N(15), 8+rng.Int64N(56)
	groups = []nodes.Group{{Name: "a", Count: 2 + rng.IntN(10), Cores: int64(cores), Memory: mem}}
	if seed%2 == 1 {
		groups = append(groups, nodes.Group{Name: "b", Count: 1 + rng.IntN(4), Cores: 2 * int64(cores), Memory: 2 * mem, GPUs: 2})
	}
	recs = oneNodeWorkload(rng, 300, cores, mem)
	if seed%3 == 2 {
		recs = shapedWorkload(rng, 200)
	}
	return groups, cores, mem, recs
}

// TestShadowAgainstWalk runs EASY on random clusters and workloads (jobs
// of one node mostly, alone or in batches, and jobs of every shape),
// first and best fit, some with overruns, and compares every answer of
// the look-ahead's Shadow, and the nodes it leaves at the shadow time,
// with a plain walk from scratch: the answers it keeps from the walk
// before, across starts and ends, must be the walk's.
func TestShadowAgainstWalk(t *testing.T) {
	seeds := uint64(30)
	if testing.Short() {
		seeds = 6
	}
	var calls, kept int
	for seed := range seeds {
		for _, fit := range []nodes.Fit{nodes.FirstFit, nodes.BestFit} {
			groups, cores, mem, recs := shadowCase(rand.New(rand.NewPCG(seed, 15)), seed)
			batches := batchWorkload(rand.New(rand.NewPCG(seed, 17)), 300, cores, mem)
			for i, recs := range [][]sim.Record{recs, batches} {
				name := fmt.Sprintf("seed %d fit %d batches %v", seed, fit, i == 1)
				n := checkShadows(t, name, groups, fit, recs, seed%4 == 3)
				calls, kept = calls+n.Calls, kept+n.Kept
			}
		}
	}
	// The comparison means something only if walks were kept.
	if calls == 0 || kept*10 < calls {
		t.Errorf("%d answers of Shadow, %d of them kept: want at least a tenth kept", calls, kept)
	}
	t.Logf("%d answers of Shadow, %d of them kept", calls, kept)
}

// checkShadows runs EASY on recs on a new cluster of groups and compares
// every answer of Shadow with a plain walk (nodes.CheckShadows).
func checkShadows(t *testing.T, name string, groups []nodes.Group, fit nodes.Fit, recs []sim.Record, overrun bool) *nodes.ShadowCounts {
	t.Helper()
	c, err := nodes.New(groups, fit)
	if err != nil {
		t.Fatal(err)
	}
	var first error
	n := nodes.CheckShadows(c, func(err error) {
		if first == nil {
			first = err
		}
	})
	res, err := sim.Run(c, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{AllowOverrun: overrun})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if first != nil {
		t.Fatalf("%s: %v", name, first)
	}
	if err := c.Verify(res); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}
