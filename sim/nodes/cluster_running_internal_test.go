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
// inserts and deletes that shift the tail: the list's jobs and ends, the
// jobs the internal iterator yields and, from a step drawn at random on
// (some runs never ask, some ask from the start), what Running returns,
// which turns the keys into allocations at its first call, are the same
// jobs, by pointer, with the same starts, in the same order. The runs mix
// workloads whose ends fall near the front, near the back or anywhere,
// with many ties of estimated end, and empty the list now and then; in
// some, a job ends too late by its estimate for a key, which turns the
// list into allocations without Running.
func TestRunList(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var (
			c     Cluster
			plain []sim.Allocation
			outs  []*sim.Outcome
		)
		bias := seed % 3 // 0: ends anywhere; 1: near the front; 2: near the back
		ask := []int{0, 5000, rng.IntN(4000)}[seed/3%3]
		for step := range 4000 {
			grow := len(plain) == 0 || rng.IntN(100) < 50+int(step/700%2)*10-int(step/1900%2)*15
			if grow {
				o := &sim.Outcome{Start: sim.Time(rng.IntN(6))}
				o.Seq, o.Estimate = len(outs), sim.Time(rng.IntN(12))
				if seed%4 == 3 && step == 2000 {
					o.Estimate = 1 << 40 // past what a key holds
				}
				outs = append(outs, o)
				c.startRun(o)
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
				o := outs[plain[k].Job.Seq]
				wrong := *o // the job, looked for at another end
				wrong.Start += sim.Time(1 - 2*rng.IntN(2))
				if c.endRun(&wrong) {
					t.Fatalf("seed %d step %d: endRun found job %d at end %d; it ends at %d", seed, step, o.Seq, wrong.Start+o.Estimate, o.Start+o.Estimate)
				}
				if !c.endRun(o) {
					t.Fatalf("seed %d step %d: the end of job %d found nothing", seed, step, o.Seq)
				}
				plain = slices.Delete(plain, k, k+1)
			}
			checkRunList(t, &c, plain, step >= ask)
		}
		if gone := (&sim.Outcome{Record: sim.Record{Job: sim.Job{Seq: len(outs)}}}); c.endRun(gone) {
			t.Fatalf("seed %d: endRun found a job never started", seed)
		}
	}
}

// checkRunList fails t unless c's running list holds plain's jobs in
// plain's order, as keys or as allocations; and, if ask, what c.Running
// returns.
func checkRunList(t *testing.T, c *Cluster, plain []sim.Allocation, ask bool) {
	t.Helper()
	r := &c.runs
	if r.n != len(plain) {
		t.Fatalf("%d jobs listed; want %d", r.n, len(plain))
	}
	if r.al == nil && len(r.keys) != r.n || r.al != nil && r.keys != nil {
		t.Fatalf("%d keys, allocations %v, %d jobs: want keys or allocations", len(r.keys), r.al != nil, r.n)
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
	} else if r.keys != nil {
		t.Fatal("the list keeps its keys after Running")
	}
}

// running yields the running jobs and their places as Running lists them,
// without turning the list into allocations: the plain shadow walk that
// TestShadowAgainstWalk checks the walk against (plainShadow, in
// shadow_export_test.go) reads the running jobs through it.
func (c *Cluster) running(yield func(int, sim.Allocation) bool) {
	it := c.runs.iter()
	for i := 0; ; i++ {
		end, seq, ok := it.peek()
		if !ok {
			return
		}
		it.next()
		j := &c.runs.out[seq].Job
		if !yield(i, sim.Allocation{Job: j, Start: end - j.Estimate}) {
			return
		}
	}
}

// TestRunKey checks runKey at the edges of its range: a key gives back
// its end and seq, keys of (end, seq) in order are in order, and ends
// outside [0, 2³³) have no key.
func TestRunKey(t *testing.T) {
	const maxSeq = 1<<31 - 1
	inOrder := []struct {
		end sim.Time
		seq int32
	}{
		{0, 0}, {0, 1}, {0, maxSeq}, {1, 0}, {1, maxSeq}, {1<<32 - 1, 7}, {1 << 32, 0},
		{1<<33 - 1, 0}, {1<<33 - 1, maxSeq},
	}
	var last runKey
	for i, c := range inOrder {
		k, ok := keyOf(c.end, c.seq)
		if !ok || k.end() != c.end || k.seq() != c.seq {
			t.Fatalf("keyOf(%d, %d) = %d (end %d, seq %d), %v; want its end and seq back, true", c.end, c.seq, k, k.end(), k.seq(), ok)
		}
		if i > 0 && k <= last {
			t.Fatalf("key of (%d, %d) is not above the one before", c.end, c.seq)
		}
		last = k
	}
	for _, end := range []sim.Time{-1, 1 << 33, 1 << 62} {
		if _, ok := keyOf(end, 0); ok {
			t.Fatalf("keyOf(%d, 0) ok; want no key", end)
		}
	}
}
