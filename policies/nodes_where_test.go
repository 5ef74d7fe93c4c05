package policies_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestNodesVerifyWhere runs every policy that runs on nodes on random
// workloads whose jobs name partitions (with node and time limits) and
// node groups, allowed or refused, on a cluster that declares them, first
// and best fit. simtest.Verify checks every promise; Cluster.Verify checks
// each node at every instant, that each job ran only on nodes its
// partition and groups allow and within its partition's node limit, and
// (conservative, Maui) that every pinned reservation was taken up on its
// nodes. The look-ahead of EASY and the node profile of conservative and
// Maui were written beside the rules, not with them: this is where they
// meet.
func TestNodesVerifyWhere(t *testing.T) {
	groups := easyGroups[1] // s: 6 × 2, b: 3 × 24, t: 4 × 9
	parts := []nodes.Partition{
		{Name: "all"},
		{Name: "small", Groups: []string{"s", "t"}, MaxNodes: 3},
		{Name: "big", Groups: []string{"b"}, MaxTime: 400},
	}
	wheres := []*sim.Where{nil, {Partition: "small"}, {Partition: "big"}, {Partition: "all", NotGroups: []string{"b"}},
		{Groups: []string{"t"}}, {Partition: "nowhere"}}
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 29))
		recs := nodeWorkload(rng, 120)
		for i := range recs {
			recs[i].User = rng.Int32N(4)
			w := wheres[rng.IntN(len(wheres))]
			if w == nil {
				continue
			}
			if recs[i].Shape.IsZero() { // keep the request: memory and GPUs on every node used
				recs[i].Shape.MemPerNode, recs[i].Shape.GPUsPerNode = recs[i].Need[sim.Memory], int32(recs[i].Need[sim.GPUs])
			}
			recs[i].Shape.Where = w
		}
		for _, gp := range nodesPolicies() {
			p := gp.new(t)
			if _, own := p.(sim.ModelMaker); own {
				continue
			}
			t.Run(fmt.Sprintf("%s/seed-%d", gp.name, seed), func(t *testing.T) {
				cl, err := nodes.NewConfig(nodes.Config{Groups: groups, Partitions: parts, Fit: nodes.Fit(seed % 2)})
				if err != nil {
					t.Fatal(err)
				}
				cl.RecordReservations()
				rec := &simtest.Recorder{}
				res, err := sim.Run(cl, p, sim.NewSliceSource(recs), sim.Options{Tracer: rec})
				if err != nil {
					t.Fatal(err)
				}
				chk := gp.checks
				chk.Jobs = len(recs)
				if err := simtest.Verify(res, rec, chk); err != nil {
					t.Fatalf("schedule breaks invariants:\n%v", err)
				}
				if err := cl.Verify(res); err != nil {
					t.Fatal(err)
				}
				if ran := res.Finished + res.Killed; ran == 0 || res.RejectedBy[sim.NoPartition] == 0 || res.RejectedBy[sim.OverLimit] == 0 {
					t.Errorf("%d ran, rejected by reason %v: the workload should have jobs that run and both partition rejections", ran, res.RejectionReasons())
				}
			})
		}
	}
}
