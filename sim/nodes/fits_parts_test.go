package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// randomGPUCluster returns a first-fit cluster of one to three node
// groups of up to 20 nodes each, drawn from rng: nodes of up to cores
// cores, mem memory and two GPUs; and its groups.
func randomGPUCluster(t *testing.T, rng *rand.Rand, cores, mem int64) (*Cluster, []Group) {
	t.Helper()
	var groups []Group
	for g := range 1 + rng.IntN(3) {
		groups = append(groups, Group{Name: string(rune('a' + g)), Count: 1 + rng.IntN(20),
			Cores: 1 + rng.Int64N(cores), Memory: 1 + rng.Int64N(mem), GPUs: rng.Int64N(3)})
	}
	c, err := New(groups, FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	return c, groups
}

// TestPlainHeadParts checks part and partWith for a plain head of nodes
// (look.plainHead: the tree's leaf and the memory) against their general
// test, node by node, on the nodes as random starts leave them, with
// random jobs laid on each node for partWith.
func TestPlainHeadParts(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 23))
		c, _ := randomGPUCluster(t, rng, 8, 30)
		shape := func() sim.Shape {
			return sim.Shape{Nodes: 1 + rng.Int32N(3), PerNode: 1 + rng.Int32N(8), MemPerNode: rng.Int64N(31),
				GPUsPerNode: rng.Int32N(2), Exclusive: rng.IntN(4) == 0}
		}
		for range 3 * len(c.st.cores) { // fill the nodes
			j := &sim.Job{Shape: shape()}
			j.Need[sim.Procs] = int64(j.Shape.Nodes * j.Shape.PerNode)
			r := reqOf(j)
			if uses, ok := c.st.place(r, FirstFit); ok {
				c.st.take(r, uses, nil)
			}
		}
		l := &c.lk
		head := &sim.Job{Shape: shape()}
		head.Shape.Exclusive, head.Shape.GPUsPerNode = false, 0
		head.Need[sim.Procs] = int64(head.Shape.Nodes * head.Shape.PerNode)
		l.head, l.hr, l.hplain = head, reqOf(head), true
		l.rebuild()
		for n := range c.st.cores {
			j := &sim.Job{Shape: shape()}
			r, cores := reqOf(j), rng.Int64N(4)
			l.phead = nil
			fast, fastWith := l.part(n), l.partWith(n, r, cores)
			if !l.pone {
				t.Fatalf("head %+v: not plain", l.hr)
			}
			l.phead, l.pone = head, false // the general test
			if slow, slowWith := l.part(n), l.partWith(n, r, cores); fast != slow || fastWith != slowWith {
				t.Fatalf("seed %d, node %d (cores %d, mem %d, gpus %d, held %v), head %+v, job %+v on %d cores: part %d, %d with the job; want %d, %d",
					seed, n, l.ah.cores[n], l.ah.mem[n], l.ah.gpus[n], l.ah.held[n], l.hr, r, cores, fast, fastWith, slow, slowWith)
			}
		}
	}
}
