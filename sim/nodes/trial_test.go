package nodes_test

import (
	"slices"
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

// TestConservativeOnNodes: the case that made conservative backfilling
// overcommit a node before it kept its profile on nodes (a job that fits
// in aggregate, 2 cores of the 2 free, but on neither node) now waits for
// its reservation at 10, when job 1's node frees, and starts there.
func TestConservativeOnNodes(t *testing.T) {
	c, err := nodes.New([]nodes.Group{{Name: "n", Count: 2, Cores: 4}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	recs := []sim.Record{shaped(1, 0, 10, 1, 3, false, 0), shaped(2, 0, 20, 1, 3, false, 0), shaped(3, 1, 5, 1, 2, false, 0)}
	res, err := sim.Run(c, policies.NewConservative(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	var got []sim.Time
	for _, o := range res.Jobs {
		got = append(got, o.Start)
	}
	if want := []sim.Time{0, 0, 10}; !slices.Equal(got, want) {
		t.Errorf("starts %v, want %v", got, want)
	}
	if w := c.Where(2); len(w) != 1 || w[0].Node != 0 {
		t.Errorf("job 3 on %v, want node 0 (n1), which job 1 leaves at 10", w)
	}
}
