package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
)

// panics is a policy with a bug: its first pass panics.
type panics struct{}

func (panics) Name() string { return "test-panics" }

func (panics) Schedule(sim.Time, sim.View) (sim.Decision, error) {
	panic("a broken invariant")
}

func init() {
	err := policies.Register(policies.Entry{
		Name: "test-panics", Summary: "a policy that panics, for TestRunPanicIsInternal",
		New:        func(any) (sim.Policy, error) { return panics{}, nil },
		Model:      policies.PoolModel,
		Invariants: func(any) policies.Invariants { return policies.Invariants{} },
	})
	if err != nil {
		panic(err)
	}
}

// TestRunPanicIsInternal checks that a run that panics fails the sweep
// with ErrInternal, naming the run and the panic, instead of ending the
// process from a worker goroutine (which Go does with exit 2, the code of
// a file with errors).
func TestRunPanicIsInternal(t *testing.T) {
	e, _ := sweepExperiment(t, t.TempDir())
	e.Sweep.Policies = []*spec.Policy{{Name: "boom", Type: "test-panics"}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Execute(context.Background(), e, runs, Options{Out: e.Output.Dir, Workers: 2})
	if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "a broken invariant") {
		t.Errorf("got %v; want ErrInternal naming the panic", err)
	}
}
