package tier_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// planPolicy runs check in its first pass with a Plan over the view.
type planPolicy struct {
	plan  tier.Plan
	check func(v tier.View, p *tier.Plan) []tier.Action
	done  bool
}

func (*planPolicy) Name() string { return "plan" }

// NewModel runs the policy on the paper's two-tier machine.
func (*planPolicy) NewModel(c sim.Resources, seed uint64) (sim.Model, error) {
	return tier.NewMachine(c, tier.DefaultConfig(), seed)
}

func (p *planPolicy) Schedule(now sim.Time, sv sim.View) (sim.Decision, error) {
	v, _ := tier.ViewOf(sv)
	p.plan.Reset(v)
	if p.done {
		return sim.Decision{}, nil
	}
	p.done = true
	return sim.Decision{Actions: p.check(v, &p.plan)}, nil
}

// TestPlan checks that a Plan applies moves as the engine does, refuses
// what the engine refuses, and leaves the view alone.
func TestPlan(t *testing.T) {
	J, U := simtest.J, simtest.Usage
	jobs := []sim.Record{J(1, 0, 10, 10, 2, U(0.5)), J(2, 0, 6, 6, 1, U(1)), J(3, 0, 4, 4, 1, U(0.2))}
	pp := &planPolicy{check: func(v tier.View, p *tier.Plan) []tier.Action {
		w := v.Waiting()
		a, b, c := w[0], w[1], w[2]
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(p.Do(tier.Action{Move: tier.Start, Job: a, Tier: tier.Foreground, Procs: []int{0, 1}}))
		must(p.Do(tier.Action{Move: tier.Start, Job: b, Tier: tier.Foreground, Procs: []int{2}}))
		if got := p.IdleForeground(); got != 0 {
			t.Errorf("idle foreground VMs after two starts: %d; want 0", got)
		}
		// P2's foreground uses 100 %: only P0 and P1 accept a process.
		if got := p.OpenBackground(); got != 2 || p.Open(2) || !p.Open(0) {
			t.Errorf("open background VMs: %d (P0 %v, P2 %v); want 2 (true, false)", got, p.Open(0), p.Open(2))
		}
		if err := p.Do(tier.Action{Move: tier.Start, Job: c, Tier: tier.Background, Procs: []int{2}}); !errors.Is(err, tier.ErrClosed) {
			t.Errorf("a background start behind a busy foreground: got %v; want %v", err, tier.ErrClosed)
		}
		must(p.Do(tier.Action{Move: tier.Start, Job: c, Tier: tier.Background, Procs: []int{1}}))
		if p.Tier(c) != tier.Background || !slices.Equal(p.Where(c), []int{1}) || p.Background(1) != c || !p.Moved(c) {
			t.Errorf("job 3 as planned: tier %v on %v; want background on [1]", p.Tier(c), p.Where(c))
		}
		if got, want := p.End(0, a), v.Span(a, tier.Start); got != want {
			t.Errorf("believed end of job 1: %d; want %d", got, want)
		}
		// The engine's view has not moved.
		if v.IdleForeground() != 3 || v.ForegroundVMs()[0] != nil || v.Tier(c) != 0 || len(v.Waiting()) != 3 {
			t.Error("the plan changed the view")
		}
		return p.Actions()
	}}
	res, _ := simtest.Run(t, simtest.Cluster(3, 0), pp, jobs, sim.Options{}, simtest.Checks{})
	if res.Jobs[2].Start != 0 {
		t.Errorf("job 3 started at %d; want 0 (in the background)", res.Jobs[2].Start)
	}
}
