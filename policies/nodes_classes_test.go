package policies_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// unclassed is a node cluster whose look-ahead does not class jobs
// (sim.Classes), so EASY asks Fits and Keeps of every job.
type unclassed struct{ *nodes.Cluster }

// onlyLookahead hides every method of the look-ahead but sim.Lookahead's.
type onlyLookahead struct{ sim.Lookahead }

func (u unclassed) Trial() sim.Trial { return onlyLookahead{u.Cluster.Trial().(sim.Lookahead)} }

// TestNodesEASYClasses checks that EASY asking once per request class
// between two takes (policies/easy_classes.go) starts the same jobs at the
// same times on the same nodes as EASY asking every job, on random
// workloads of every shape, with and without node groups and partitions
// (a node-limited partition turns the classes off), first and best fit,
// and on the first 4,000 lines of wagap-2013.
func TestNodesEASYClasses(t *testing.T) {
	type work struct {
		name string
		cfg  nodes.Config
		recs []sim.Record
	}
	var works []work
	wheres := []*sim.Where{nil, {Groups: []string{"t"}}, {NotGroups: []string{"b"}}, {Partition: "big"}}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 71))
		recs := nodeWorkload(rng, 250)
		fit := nodes.Fit(seed % 2)
		works = append(works, work{fmt.Sprintf("seed-%d", seed), nodes.Config{Groups: easyGroups[seed%2], Fit: fit}, recs})
		if seed%2 == 1 {
			w := append([]sim.Record(nil), recs...)
			for i := range w {
				if wh := wheres[rng.IntN(len(wheres))]; wh != nil && !w[i].Shape.IsZero() {
					w[i].Shape.Where = wh
				}
			}
			parts := []nodes.Partition{{Name: "all"}, {Name: "big", Groups: []string{"b"}}}
			works = append(works, work{fmt.Sprintf("seed-%d/where", seed), nodes.Config{Groups: easyGroups[1], Partitions: parts, Fit: fit}, w})
			parts[1].MaxNodes = 2
			works = append(works, work{fmt.Sprintf("seed-%d/limited", seed), nodes.Config{Groups: easyGroups[1], Partitions: parts, Fit: fit}, w})
		}
	}
	if !testing.Short() {
		works = append(works, work{"wagap-2013", nodes.Config{Groups: wagapNodes(t)}, wagapShaped(t, 4000)})
	}
	run := func(t *testing.T, m sim.Model, recs []sim.Record) *sim.Result {
		t.Helper()
		res, err := sim.Run(m, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, w := range works {
		t.Run(w.name, func(t *testing.T) {
			a, err := nodes.NewConfig(w.cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, err := nodes.NewConfig(w.cfg)
			if err != nil {
				t.Fatal(err)
			}
			ra, rb := run(t, a, w.recs), run(t, unclassed{b}, w.recs)
			for i := range ra.Jobs {
				oa, ob := &ra.Jobs[i], &rb.Jobs[i]
				if d := cmp.Diff([]any{oa.Start, oa.End, oa.State, a.Where(i)}, []any{ob.Start, ob.End, ob.State, b.Where(i)}); d != "" {
					t.Fatalf("job %d: (-classes +every job):\n%s", oa.ID, d)
				}
			}
		})
	}
}
