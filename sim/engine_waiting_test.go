package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// randomStarts is a policy that starts a random subset of the waiting
// jobs that fit, in random order, some as Decision.Start and some as Start
// actions, and checks at every pass that View.Waiting is the queue it
// expects: the jobs submitted, in arrival order (or in the order it left
// the slice in, when it reorders the slice in place), less those started.
type randomStarts struct {
	rng     *rand.Rand
	shuffle bool // reorder the slice View.Waiting returns, in place
	want    []*sim.Job
	err     error
}

func (*randomStarts) Name() string { return "random-starts" }

func (p *randomStarts) Submitted(_ sim.Time, j *sim.Job) { p.want = append(p.want, j) }

func (*randomStarts) Finished(sim.Time, *sim.Job, sim.Time) {}

func (p *randomStarts) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	w := v.Waiting()
	if !slices.Equal(w, p.want) && p.err == nil {
		p.err = fmt.Errorf("t=%d: waiting %v, want %v", now, ids(w), ids(p.want))
	}
	if p.shuffle {
		p.rng.Shuffle(len(w), func(a, b int) { w[a], w[b] = w[b], w[a] })
	}
	free := v.Free()
	var d sim.Decision
	for _, k := range p.rng.Perm(len(w)) {
		j := w[k]
		if p.rng.IntN(3) == 0 || !j.Need.FitsIn(free) {
			continue
		}
		free = free.Sub(j.Need)
		if p.rng.IntN(2) == 0 {
			d.Start = append(d.Start, j)
		} else {
			d.Actions = append(d.Actions, sim.Action{Move: sim.Start, Job: j})
		}
	}
	p.want = append(p.want[:0], w...)
	p.want = slices.DeleteFunc(p.want, func(j *sim.Job) bool {
		return slices.Contains(d.Start, j) || slices.ContainsFunc(d.Actions, func(a sim.Action) bool { return a.Job == j })
	})
	if len(w) > 0 && len(d.Start)+len(d.Actions) == 0 {
		d.WakeAt = now + 1 // nothing started: look again
	}
	return d, nil
}

func ids(js []*sim.Job) []sim.JobID {
	out := make([]sim.JobID, len(js))
	for i, j := range js {
		out[i] = j.ID
	}
	return out
}

// TestWaitingAfterStarts checks that the loop removes exactly the started
// jobs from the waiting queue and keeps the others in their order, for
// starts anywhere in the queue, in any order, as Start and as actions.
func TestWaitingAfterStarts(t *testing.T) {
	for seed := range uint64(40) {
		for _, shuffle := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed=%d/shuffle=%v", seed, shuffle), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 7))
				var recs []sim.Record
				at := sim.Time(0)
				for id := range int64(60) {
					at += sim.Time(rng.IntN(3))
					run := sim.Time(1 + rng.IntN(20))
					recs = append(recs, simtest.J(id+1, at, run, run, int64(1+rng.IntN(4))))
				}
				p := &randomStarts{rng: rng, shuffle: shuffle}
				var capacity sim.Resources
				capacity[sim.Procs] = 8
				res, err := sim.Run(sim.NewPool(capacity), p, sim.NewSliceSource(recs), sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if p.err != nil {
					t.Fatal(p.err)
				}
				if res.Finished != len(recs) {
					t.Fatalf("finished %d of %d jobs", res.Finished, len(recs))
				}
			})
		}
	}
}
