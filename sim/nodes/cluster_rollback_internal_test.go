package nodes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// nodeState is what a rollback must bring back: every node's free
// resources, jobs and hold, the usable cores and the tree (not the
// version, which only has to change).
type nodeState struct {
	cores, mem, gpus, tree []int64
	jobs                   []int32
	held                   []bool
	avail                  int64
}

func snapshot(s *state) nodeState {
	return nodeState{slices.Clone(s.cores), slices.Clone(s.mem), slices.Clone(s.gpus), slices.Clone(s.tree.v),
		slices.Clone(s.jobs), slices.Clone(s.held), s.avail}
}

func (a nodeState) equal(b nodeState) bool {
	return slices.Equal(a.cores, b.cores) && slices.Equal(a.mem, b.mem) && slices.Equal(a.gpus, b.gpus) &&
		slices.Equal(a.tree, b.tree) && slices.Equal(a.jobs, b.jobs) && slices.Equal(a.held, b.held) && a.avail == b.avail
}

// rollbackJobs returns a source of random jobs of every shape for
// TestRollback: tasks, tasks with memory or GPUs (some on group b only),
// nodes × cores (some exclusive).
func rollbackJobs(rng *rand.Rand) func() *sim.Outcome {
	onlyB := &sim.Where{Groups: []string{"b"}}
	seq := 0
	return func() *sim.Outcome {
		o := &sim.Outcome{}
		o.Seq, o.Estimate, o.Runtime = seq, 1+sim.Time(rng.IntN(30)), 1+sim.Time(rng.IntN(30))
		seq++
		switch rng.IntN(3) {
		case 0:
			o.Need[sim.Procs] = 1 + rng.Int64N(12)
		case 1:
			o.Need[sim.Procs] = 1 + rng.Int64N(12)
			o.Shape = sim.Shape{MemPerNode: rng.Int64N(20), GPUsPerNode: rng.Int32N(2)}
			if rng.IntN(3) == 0 {
				o.Shape.Where = onlyB
			}
		default:
			n, per := 1+rng.Int32N(3), 1+rng.Int32N(6)
			o.Need[sim.Procs] = int64(n * per)
			o.Shape = sim.Shape{Nodes: n, PerNode: per, MemPerNode: rng.Int64N(20), Exclusive: rng.IntN(4) == 0}
		}
		return o
	}
}

// TestRollback starts and ends random jobs of every shape (tasks, nodes ×
// cores, memory, GPUs, exclusive, node groups) on random clusters of two
// groups and, in each pass, takes jobs in a trial, keeps the first few
// of them (Apply commits them) and undoes the others (rollback): the
// nodes must come back exactly as they were after the kept takes, which
// undoing a take by releasing it (rather than restoring a log of the
// nodes) relies on, and the trial must be left empty.
func TestRollback(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 31))
		groups := []Group{
			{Name: "a", Count: 1 + rng.IntN(12), Cores: 1 + rng.Int64N(8), Memory: 1 + rng.Int64N(40), GPUs: rng.Int64N(3)},
			{Name: "b", Count: 1 + rng.IntN(12), Cores: 1 + rng.Int64N(16), Memory: 1 + rng.Int64N(80), GPUs: rng.Int64N(2)},
		}
		c, err := New(groups, Fit(seed%2))
		if err != nil {
			t.Fatal(err)
		}
		job := rollbackJobs(rng)
		var now sim.Time
		for pass := range 80 {
			if err := rollbackPass(c, rng, job, now); err != nil {
				t.Fatalf("seed %d pass %d: %v", seed, pass, err)
			}
			if next, ok := c.Next(); ok && rng.IntN(2) == 0 {
				now = next
				c.Advance(now)
			}
		}
	}
}

// rollbackPass is one pass of TestRollback at now.
func rollbackPass(c *Cluster, rng *rand.Rand, job func() *sim.Outcome, now sim.Time) error {
	c.Trial()
	var took []*sim.Outcome
	var placed [][]Use
	kept := rng.IntN(4)
	var want nodeState
	for range 12 {
		if len(took) == kept {
			want = snapshot(&c.st)
		}
		if o := job(); c.Refuse(o) == sim.NoReason && c.tr.Fits(&o.Job) {
			c.tr.Take(&o.Job)
			took = append(took, o)
			tk := c.tr.takes[len(c.tr.takes)-1]
			placed = append(placed, slices.Clone(c.tr.uses[tk.from:tk.to]))
		}
	}
	if len(took) <= kept {
		want = snapshot(&c.st)
	}
	for i, o := range took[:min(kept, len(took))] { // Apply keeps the take as the placement
		o.Start = now
		if err := c.Apply(now, o, sim.Action{Move: sim.Start}); err != nil {
			return err
		}
		if got := c.Where(o.Seq); !slices.Equal(got, placed[i]) {
			return fmt.Errorf("job %d placed on %v, not where it was taken", o.Seq, got)
		}
	}
	if probe := job(); c.Refuse(probe) == sim.NoReason { // asked, not taken: rollback forgets where it fits
		c.tr.Fits(&probe.Job)
	}
	c.tr.rollback()
	if c.tr.last != nil || len(c.tr.takes) > 0 || len(c.tr.uses) > 0 || c.tr.first != 0 {
		return fmt.Errorf("rollback left last %v, %d takes, %d runs, first %d", c.tr.last, len(c.tr.takes), len(c.tr.uses), c.tr.first)
	}
	if got := snapshot(&c.st); !got.equal(want) {
		return fmt.Errorf("after keeping %d of %d takes and undoing the rest, nodes %+v; want %+v", min(kept, len(took)), len(took), got, want)
	}
	return nil
}
