package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestNodeSets starts and ends random jobs on random clusters of one to
// three node groups (some with GPUs) and, in each pass, asks Fits of jobs
// of several nodes or held whole, and takes some of them: each class's
// node set must hold exactly the nodes that can take its share, by brute
// force, and Fits must say yes exactly when placing the job succeeds,
// after every take, start, end and undone take.
func TestNodeSets(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 17))
		var groups []Group
		var cores, mem int64
		for g := range 1 + rng.IntN(3) {
			gc, gm := 1+rng.Int64N(8), 1+rng.Int64N(30)
			groups = append(groups, Group{Name: string(rune('a' + g)), Count: 1 + rng.IntN(40), Cores: gc, Memory: gm, GPUs: rng.Int64N(2)})
			cores, mem = max(cores, gc), max(mem, gm)
		}
		c, err := New(groups, Fit(rng.IntN(2)))
		if err != nil {
			t.Fatal(err)
		}
		var seq int
		job := func() *sim.Outcome {
			o := &sim.Outcome{}
			o.Seq, o.Estimate, o.Runtime = seq, 1+sim.Time(rng.IntN(40)), 1+sim.Time(rng.IntN(40))
			nodes, per := 1+rng.Int32N(4), 1+rng.Int32N(int32(cores))
			o.Need[sim.Procs] = int64(nodes * per)
			o.Shape = sim.Shape{Nodes: nodes, PerNode: per, MemPerNode: rng.Int64N(mem + 1),
				GPUsPerNode: rng.Int32N(2), Exclusive: rng.IntN(3) == 0}
			seq++
			return o
		}
		var now sim.Time
		for range 80 {
			startSome(t, c, rng, now, nodeSetPass(t, c, rng, job))
			now = endSome(c, rng, now)
		}
	}
}

// nodeSetPass is one pass of TestNodeSets: it asks about 30 new jobs and
// returns those it took.
func nodeSetPass(t *testing.T, c *Cluster, rng *rand.Rand, job func() *sim.Outcome) []*sim.Outcome {
	t.Helper()
	lk := c.Trial().(*look)
	var took []*sim.Outcome
	for range 30 {
		o := job()
		r := reqOf(&o.Job)
		var want int64
		for n := range c.st.cores {
			if c.st.cores[n] >= r.per && c.st.usable(n, r) {
				want++
			}
		}
		_, placed := c.st.place(r, c.fit)
		if got := lk.Fits(&o.Job); got != placed || placed != (want >= r.nodes) {
			t.Fatalf("job %d %+v: Fits %v, placed %v, %d nodes hold a share", o.Seq, r, got, placed, want)
		}
		m := lk.known(&o.Job)
		if one := r.nodes == 1 && !r.excl && r.gpus == 0; m == nil || (m.kind == kindOne) != one {
			t.Fatalf("job %d %+v: class %+v", o.Seq, r, m)
		}
		if m.kind == kindNodes {
			if got := lk.holding(m); got != want || m.set.count() != want {
				t.Fatalf("job %d %+v: node set of %d (%d in its bits), want %d", o.Seq, r, got, m.set.count(), want)
			}
		}
		if placed && rng.IntN(3) == 0 {
			lk.Take(&o.Job)
			took = append(took, o)
		}
	}
	return took
}
