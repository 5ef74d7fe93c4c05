package nodes_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// skipFirst takes every waiting job that fits, in order, and starts all
// but the first of them when it took more than one: the cluster must undo
// the takes and place what it starts afresh.
type skipFirst struct{}

func (skipFirst) Name() string { return "skip-first" }

func (skipFirst) Schedule(_ sim.Time, v sim.View) (sim.Decision, error) {
	fit := v.Trial()
	var took []*sim.Job
	for _, j := range v.Waiting() {
		if fit.Fits(j) {
			fit.Take(j)
			took = append(took, j)
		}
	}
	if len(took) > 1 {
		took = took[1:]
	}
	return sim.Decision{Start: took}, nil
}

// TestTrialUndone starts a job other than the first taken: the takes of a
// pass must leave no trace on the nodes.
func TestTrialUndone(t *testing.T) {
	c, err := nodes.New([]nodes.Group{{Name: "n", Count: 2, Cores: 4}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	// At t=0 the policy takes jobs 1 (n1) and 2 (n2) and starts job 2
	// only: it must go to n1, as if job 1 had never been taken; job 1
	// then starts in the next pass, on n2, and job 3 after job 2.
	recs := []sim.Record{shaped(1, 0, 10, 1, 4, false, 0), shaped(2, 0, 10, 1, 4, false, 0), shaped(3, 1, 10, 1, 4, false, 0)}
	res, err := sim.Run(c, skipFirst{}, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	var got [][]nodes.Use
	for i := range res.Jobs {
		got = append(got, c.Where(i))
	}
	want := [][]nodes.Use{{{Node: 1, Nodes: 1, Cores: 4}}, {{Node: 0, Nodes: 1, Cores: 4}}, {{Node: 0, Nodes: 1, Cores: 4}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("placements (-want +got):\n%s", d)
	}
}

// TestConservativeRefusedOnNodes: conservative backfilling does not ask
// View.Trial yet, so on nodes it can start a job the cluster cannot place;
// the run must then fail with a DecisionError, never overcommit a node.
// (EASY did the same before it asked the trial's sim.Lookahead.)
func TestConservativeRefusedOnNodes(t *testing.T) {
	c, err := nodes.New([]nodes.Group{{Name: "n", Count: 2, Cores: 4}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	recs := []sim.Record{shaped(1, 0, 10, 1, 3, false, 0), shaped(2, 0, 20, 1, 3, false, 0), shaped(3, 1, 5, 1, 2, false, 0)}
	_, err = sim.Run(c, policies.NewConservative(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{})
	var de *sim.DecisionError
	if !errors.As(err, &de) || !errors.Is(err, sim.ErrOvercommit) || de.Job != 3 {
		t.Fatalf("conservative on nodes: err = %v, want a DecisionError on job 3 wrapping ErrOvercommit", err)
	}
}
