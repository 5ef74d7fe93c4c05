package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// firstHolding is the first node, by brute force, that holds a job of r
// (one node, not exclusive, no GPUs) on s; -1 if none.
func firstHolding(s *state, r req) int {
	for n := range s.cores {
		if !s.held[n] && s.cores[n] >= r.per && s.mem[n] >= r.mem {
			return n
		}
	}
	return -1
}

// TestFirstOne starts and ends random jobs on random clusters of one to
// three node groups and, in each pass, asks Fits of jobs of one node and
// takes some of them: the node firstOne remembers and resumes from,
// within a trial and across trials, must be the first that holds the
// job, by brute force, after every take, start, end and undone take.
// Some jobs are exclusive or of tasks, started without asking, so nodes
// are also held whole and changed several at a time.
func TestFirstOne(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 16))
		var groups []Group
		var cores, mem int64
		for g := range 1 + rng.IntN(3) {
			gc, gm := 1+rng.Int64N(12), 1+rng.Int64N(40)
			groups = append(groups, Group{Name: string(rune('a' + g)), Count: 1 + rng.IntN(25), Cores: gc, Memory: gm})
			cores, mem = max(cores, gc), max(mem, gm)
		}
		c, err := New(groups, FirstFit)
		if err != nil {
			t.Fatal(err)
		}
		var seq int
		job := func() *sim.Outcome {
			o := &sim.Outcome{}
			o.Seq, o.Estimate, o.Runtime = seq, 1+sim.Time(rng.IntN(50)), 1+sim.Time(rng.IntN(50))
			per := 1 + rng.Int32N(int32(cores))
			o.Need[sim.Procs] = int64(per)
			o.Shape = sim.Shape{Nodes: 1, PerNode: per, MemPerNode: rng.Int64N(mem + 1)}
			seq++
			return o
		}
		var now sim.Time
		for range 80 {
			startSome(t, c, rng, now, firstOnePass(t, c, rng, job))
			if rng.IntN(3) == 0 {
				startOther(t, c, rng, now, job())
			}
			now = endSome(c, rng, now)
		}
	}
}

// startSome starts the jobs a pass took, in order, stopping at random
// after the first.
func startSome(t *testing.T, c *Cluster, rng *rand.Rand, now sim.Time, took []*sim.Outcome) {
	t.Helper()
	for i, o := range took {
		if i > 0 && rng.IntN(4) == 0 {
			return
		}
		o.Start = now
		if err := c.Apply(now, o, sim.Action{Move: sim.Start}); err != nil {
			t.Fatal(err)
		}
	}
}

// endSome moves, half the time, to the cluster's next end and ends the
// jobs due then; it returns the time now is.
func endSome(c *Cluster, rng *rand.Rand, now sim.Time) sim.Time {
	if next, ok := c.Next(); ok && rng.IntN(2) == 0 {
		c.Advance(next)
		return next
	}
	return now
}

// startOther starts o, made exclusive or a job of tasks, if it fits.
func startOther(t *testing.T, c *Cluster, rng *rand.Rand, now sim.Time, o *sim.Outcome) {
	t.Helper()
	if rng.IntN(2) == 0 {
		o.Shape.Exclusive = true
	} else {
		o.Need[sim.Procs] *= 1 + rng.Int64N(3)
		o.Shape = sim.Shape{}
	}
	if tr := c.Trial(); !tr.Fits(&o.Job) {
		return
	}
	o.Start = now
	if err := c.Apply(now, o, sim.Action{Move: sim.Start}); err != nil {
		t.Fatal(err)
	}
}

// firstOnePass is one pass of TestFirstOne: it asks about 30 new jobs and
// returns those it took.
func firstOnePass(t *testing.T, c *Cluster, rng *rand.Rand, job func() *sim.Outcome) []*sim.Outcome {
	t.Helper()
	lk := c.Trial().(*look)
	var took []*sim.Outcome
	for range 30 {
		o := job()
		r := reqOf(&o.Job)
		want := firstHolding(&c.st, r)
		if got := lk.Fits(&o.Job); got != (want >= 0) {
			t.Fatalf("job %d %+v: Fits %v, first node holding it %d", o.Seq, r, got, want)
		}
		if m := lk.known(&o.Job); m != nil {
			if got := lk.firstOne(m, r.per, r.mem); got != want {
				t.Fatalf("job %d %+v: firstOne %d, want %d", o.Seq, r, got, want)
			}
		}
		if want >= 0 && rng.IntN(3) == 0 {
			lk.Take(&o.Job)
			took = append(took, o)
		}
	}
	return took
}
