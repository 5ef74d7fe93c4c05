package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestRunList starts and ends jobs at random on a Cluster's running list
// (startRun, endRun) and checks it after every step against the plain
// one, a slice of allocations kept sorted by (estimated end, seq) with
// inserts and deletes that shift the tail: the keys, the jobs the
// internal iterator yields and, from a step drawn at random on (some
// runs never ask, some ask from the start), what Running returns, which
// builds the list at its first call and keeps it after, are the same jobs,
// by pointer, with the same starts, in the same order. The runs mix
// workloads whose ends fall near the front, near the back or anywhere,
// with many ties of estimated end, and empty the list now and then.
func TestRunList(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var (
			c     Cluster
			plain []sim.Allocation
			outs  []*sim.Outcome
		)
		c.runs.out = make([]*sim.Outcome, 4000) // as Apply grows it
		bias := seed % 3                        // 0: ends anywhere; 1: near the front; 2: near the back
		ask := []int{0, 5000, rng.IntN(4000)}[seed/3%3]
		for step := range 4000 {
			grow := len(plain) == 0 || rng.IntN(100) < 50+int(step/700%2)*10-int(step/1900%2)*15
			if grow {
				o := &sim.Outcome{Start: sim.Time(rng.IntN(6))}
				o.Seq, o.Estimate = len(outs), sim.Time(rng.IntN(12))
				outs = append(outs, o)
				c.startRun(o, o.Start)
				al := sim.Allocation{Job: &o.Job, Start: o.Start}
				i, _ := slices.BinarySearchFunc(plain, al, func(a, b sim.Allocation) int {
					if a.EstimatedEnd() != b.EstimatedEnd() {
						return int(a.EstimatedEnd() - b.EstimatedEnd())
					}
					return a.Job.Seq - b.Job.Seq
				})
				plain = slices.Insert(plain, i, al)
			} else {
				k := rng.IntN(len(plain))
				switch bias {
				case 1:
					k = min(k, rng.IntN(len(plain)))
				case 2:
					k = max(k, rng.IntN(len(plain)))
				}
				if o := outs[plain[k].Job.Seq]; !c.endRun(o) {
					t.Fatalf("seed %d step %d: the end of job %d found nothing", seed, step, o.Seq)
				}
				plain = slices.Delete(plain, k, k+1)
			}
			checkRunList(t, &c, plain, step >= ask)
		}
		if gone := (&sim.Outcome{Record: sim.Record{Job: sim.Job{Seq: len(outs)}}}); c.endRun(gone) {
			t.Fatalf("seed %d: endRun found a job never started", seed)
		}
		for _, a := range plain { // a running job, looked for at another end
			o := *outs[a.Job.Seq]
			o.Start++
			if c.endRun(&o) {
				t.Fatalf("seed %d: endRun found job %d at end %d; it ends at %d", seed, o.Seq, o.Start+o.Estimate, a.EstimatedEnd())
			}
		}
	}
}

// checkRunList fails t unless c's running list holds plain's jobs in
// plain's order; and, if ask, what c.Running returns.
func checkRunList(t *testing.T, c *Cluster, plain []sim.Allocation, ask bool) {
	t.Helper()
	keys := c.runs.keys()
	if len(keys) != len(plain) {
		t.Fatalf("%d keys; want %d", len(keys), len(plain))
	}
	for i, k := range keys {
		if want := (runKey{plain[i].EstimatedEnd(), int32(plain[i].Job.Seq)}); k != want {
			t.Fatalf("key %d is %v; want %v", i, k, want)
		}
	}
	if len(keys) > 0 && &keys[0] != &c.runs.buf[c.runs.lo] {
		t.Fatalf("the keys are not the window at lo %d", c.runs.lo)
	}
	var got []sim.Allocation
	for _, a := range c.running {
		got = append(got, a)
	}
	if !slices.Equal(got, plain) {
		t.Fatalf("running yields %v; want %v", got, plain)
	}
	if !ask {
		return
	}
	if got := c.Running(); !slices.Equal(got, plain) {
		t.Fatalf("Running returns %v; want %v", got, plain)
	} else if len(got) > 0 && (&got[0] != &c.runs.al[c.runs.lo] || len(c.runs.al) != len(c.runs.buf)) {
		t.Fatalf("Running's list is not the window at lo %d, or its buffer not as long as the keys'", c.runs.lo)
	}
}
