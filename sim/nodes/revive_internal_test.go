package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestRevived runs random passes over a queue of jobs of a few requests
// (one node with memory, several nodes, some exclusive, some with GPUs,
// cores anywhere) on random clusters, starting some of the jobs taken,
// leaving others taken but not started (undone at the next call), and
// ending jobs between passes. Before each Fits it asks Revived of the
// job's class: a false must never meet a Fits that accepts. The test
// also asks that Revived says false often, so that it cannot pass by
// reviving every class.
func TestRevived(t *testing.T) {
	var no, yes int
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 21))
		c, groups := randomGPUCluster(t, rng, 16, 64)
		shapes := reviveShapes(rng, groups)
		var queue []*sim.Outcome
		var now sim.Time
		for seq := 0; seq < 1500; {
			for range rng.IntN(4) {
				o := &sim.Outcome{}
				o.Seq, o.Estimate, o.Runtime = seq, 1+sim.Time(rng.IntN(50)), 1+sim.Time(rng.IntN(50))
				sh := shapes[rng.IntN(len(shapes))]
				o.Need, o.Shape = sh.need, sh.shape
				queue = append(queue, o)
				seq++
			}
			took, n, y := revivedPass(t, c.Trial().(*look), rng, queue)
			no, yes = no+n, yes+y
			started := map[*sim.Outcome]bool{}
			for i, o := range took {
				if rng.IntN(5) == 0 || i > 0 && rng.IntN(4) == 0 {
					break // the other takes are undone
				}
				o.Start = now
				if err := c.Apply(now, o, sim.Action{Move: sim.Start}); err != nil {
					t.Fatal(err)
				}
				started[o] = true
			}
			queue = slices.DeleteFunc(queue, func(o *sim.Outcome) bool { return started[o] })
			now = endSome(c, rng, now)
		}
	}
	t.Logf("Revived false %d times, true to a refusal %d times", no, yes)
	if no < 1000 {
		t.Errorf("Revived said false %d times (and true to a refusal %d times): it must rule out many classes", no, yes)
	}
}

// revivedPass asks Revived, then Fits, of every job of queue in turn on
// lk, failing when Revived rules out a job that fits, and takes a third of
// the jobs that fit. It returns the jobs taken, how often Revived said
// false, and how often it said true of a job that did not fit.
func revivedPass(t *testing.T, lk *look, rng *rand.Rand, queue []*sim.Outcome) (took []*sim.Outcome, no, yes int) {
	t.Helper()
	for _, o := range queue {
		cl := lk.Class(&o.Job)
		revived := lk.Revived(cl)
		fits := lk.Fits(&o.Job)
		if fits && !revived {
			t.Fatalf("job %d (class %d, %+v): Revived false, Fits true", o.Seq, cl, o.Shape)
		}
		if !revived {
			no++
		} else if !fits {
			yes++
		}
		if fits && rng.IntN(3) == 0 {
			lk.Take(&o.Job)
			took = append(took, o)
		}
	}
	return took, no, yes
}

type reviveShape struct {
	need  sim.Resources
	shape sim.Shape
}

// reviveShapes draws a few requests the cluster of groups can hold.
func reviveShapes(rng *rand.Rand, groups []Group) []reviveShape {
	var most Group
	for _, g := range groups {
		most.Cores, most.Memory, most.GPUs = max(most.Cores, g.Cores), max(most.Memory, g.Memory), max(most.GPUs, g.GPUs)
		most.Count = max(most.Count, g.Count)
	}
	var out []reviveShape
	for range 6 {
		per := 1 + rng.Int32N(int32(most.Cores))
		var s reviveShape
		switch rng.IntN(4) {
		case 0: // one node
			s.shape = sim.Shape{Nodes: 1, PerNode: per, MemPerNode: rng.Int64N(most.Memory + 1)}
		case 1: // several nodes
			s.shape = sim.Shape{Nodes: 1 + rng.Int32N(2), PerNode: per, GPUsPerNode: int32(rng.Int64N(most.GPUs + 1)),
				Exclusive: rng.IntN(3) == 0}
		case 2: // cores anywhere
			per = 1 + rng.Int32N(2*int32(most.Cores))
		case 3: // tasks with memory
			s.need[sim.Memory] = 1 + rng.Int64N(most.Memory)
		}
		s.need[sim.Procs] = int64(per)
		if s.shape.Nodes > 0 {
			s.need[sim.Procs] *= int64(s.shape.Nodes)
		}
		out = append(out, s)
	}
	return out
}
