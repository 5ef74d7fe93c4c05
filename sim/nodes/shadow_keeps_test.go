package nodes_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// keepsChecked is a policy that runs another with a look-ahead whose
// Keeps compares each answer with nodes.PlainKeeps.
type keepsChecked struct {
	sim.Policy
	c     *nodes.Cluster
	now   sim.Time
	calls int
	err   error
}

// Submitted and Finished pass the engine's news on: EASY on nodes skips
// questions whose answers cannot have changed since no job ended.
func (p *keepsChecked) Submitted(now sim.Time, j *sim.Job) {
	if o, ok := p.Policy.(sim.Observer); ok {
		o.Submitted(now, j)
	}
}

func (p *keepsChecked) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	if o, ok := p.Policy.(sim.Observer); ok {
		o.Finished(now, j, actual)
	}
}

func (p *keepsChecked) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	p.now = now
	return p.Policy.Schedule(now, checkedView{v, p})
}

type checkedView struct {
	sim.View
	p *keepsChecked
}

func (v checkedView) Trial() sim.Trial {
	t := v.View.Trial()
	if lk, ok := t.(sim.Lookahead); ok {
		return checkedLook{lk, v.p}
	}
	return t
}

// checkedLook is the cluster's look-ahead with Keeps checked; it passes
// on the cluster's classes and monotony, which EASY asks for.
type checkedLook struct {
	sim.Lookahead
	p *keepsChecked
}

func (l checkedLook) Keeps(j *sim.Job) bool {
	want := nodes.PlainKeeps(l.p.c, j)
	got := l.Lookahead.Keeps(j)
	l.p.calls++
	if got != want && l.p.err == nil {
		l.p.err = fmt.Errorf("t=%d job %d: Keeps %v, placing the head says %v", l.p.now, j.ID, got, want)
	}
	return got
}

func (l checkedLook) Class(j *sim.Job) int { return l.Lookahead.(sim.Classes).Class(j) }
func (l checkedLook) Monotone() bool       { return l.Lookahead.(sim.Monotone).Monotone() }

// TestKeepsAgainstPlacement runs EASY on random clusters and workloads
// (jobs of one node mostly, and jobs of every shape; first and best fit)
// and compares every answer of Keeps with placing the candidate now,
// laying it on the nodes at the shadow time and placing the head there.
func TestKeepsAgainstPlacement(t *testing.T) {
	seeds := uint64(30)
	if testing.Short() {
		seeds = 6
	}
	calls := 0
	for seed := range seeds {
		for _, fit := range []nodes.Fit{nodes.FirstFit, nodes.BestFit} {
			groups, _, _, recs := shadowCase(rand.New(rand.NewPCG(seed, 16)), seed)
			name := fmt.Sprintf("seed %d fit %d", seed, fit)
			c, err := nodes.New(groups, fit)
			if err != nil {
				t.Fatal(err)
			}
			p := &keepsChecked{Policy: policies.NewEASY(policies.Arrival{}), c: c}
			res, err := sim.Run(c, p, sim.NewSliceSource(recs), sim.Options{AllowOverrun: seed%4 == 3})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if p.err != nil {
				t.Fatalf("%s: %v", name, p.err)
			}
			if err := c.Verify(res); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			calls += p.calls
		}
	}
	if calls < 1000 {
		t.Errorf("Keeps asked %d times: want at least 1000 for the comparison to mean something", calls)
	}
	t.Logf("Keeps asked %d times", calls)
}
