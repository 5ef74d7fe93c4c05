package policies_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/internal/nodeoracle"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestNodesEASYLimitedTasks is a case worked by hand: in a partition that
// limits a job to two nodes, a tasks job that does not fit can fit once
// another job takes a node's last core, since first fit then passes over
// that node. Nodes a, b1 and b2 (2 cores each) form partition p (at most
// two nodes a job); e (4 cores) is outside it. At 0, r1 takes e and r2
// one core of a, both until 100. At 1 arrive h (6 cores anywhere: 5 are
// free, so it waits, shadow 100), x (4 cores in p: a, b1 and b2 would be
// three nodes), y (1 core anywhere: a's last) and z (as x). Once y holds
// a, z fits on b1 and b2 and ends by the shadow time, so EASY starts it
// at 1; x, asked before y started, waits: at 51 a has one core free
// again, at 100 h takes a, b1 and b2, so x starts when h ends, at 150.
func TestNodesEASYLimitedTasks(t *testing.T) {
	recs := []sim.Record{
		limitedJob(1, 0, 100, 4, &sim.Where{Groups: []string{"e"}}), // r1
		limitedJob(2, 0, 100, 1, &sim.Where{Groups: []string{"a"}}), // r2
		limitedJob(3, 1, 50, 6, nil),                                // h
		limitedJob(4, 1, 50, 4, limitedP),                           // x
		limitedJob(5, 1, 50, 1, nil),                                // y
		limitedJob(6, 1, 50, 4, limitedP),                           // z
	}
	checkStarts(t, runLimited(t, recs), map[sim.JobID]sim.Time{1: 0, 2: 0, 3: 100, 4: 150, 5: 1, 6: 1})
}

// TestNodesEASYLimitedTasksLater is the case above spread over passes:
// x is asked at 1 and does not fit; y arrives at 2 and takes a's last
// core; w arrives at 3 (as h, so it waits). No job has ended and the head
// is the same, but x fits at 3 on b1 and b2, and ends by the shadow time:
// EASY starts it then.
func TestNodesEASYLimitedTasksLater(t *testing.T) {
	recs := []sim.Record{
		limitedJob(1, 0, 100, 4, &sim.Where{Groups: []string{"e"}}), // r1
		limitedJob(2, 0, 100, 1, &sim.Where{Groups: []string{"a"}}), // r2
		limitedJob(3, 1, 50, 6, nil),                                // h
		limitedJob(4, 1, 50, 4, limitedP),                           // x
		limitedJob(5, 2, 50, 1, nil),                                // y
		limitedJob(6, 3, 50, 6, nil),                                // w
	}
	checkStarts(t, runLimited(t, recs), map[sim.JobID]sim.Time{1: 0, 2: 0, 3: 100, 4: 3, 5: 2, 6: 150})
}

// limitedP is partition p of the limited cases: nodes a, b1 and b2, at
// most two a job.
var limitedP = &sim.Where{Partition: "p"}

// limitedJob is a job of est seconds (its run time too) of the given
// cores, submitted at submit, asking for w.
func limitedJob(id sim.JobID, submit, est, cores int64, w *sim.Where) sim.Record {
	return simtest.J(int64(id), sim.Time(submit), sim.Time(est), sim.Time(est), cores, func(r *sim.Record) { r.Shape.Where = w })
}

// runLimited runs EASY on the cluster of the limited cases, checking every
// node at every instant.
func runLimited(t *testing.T, recs []sim.Record) *sim.Result {
	t.Helper()
	cl, err := nodes.NewConfig(nodes.Config{
		Groups: []nodes.Group{
			{Name: "a", Count: 1, Cores: 2}, {Name: "b", Count: 2, Cores: 2}, {Name: "e", Count: 1, Cores: 4},
		},
		Partitions: []nodes.Partition{{Name: "all"}, {Name: "p", Groups: []string{"a", "b"}, MaxNodes: 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rec := &simtest.Recorder{}
	res, err := sim.Run(cl, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.Verify(res); err != nil {
		t.Fatal(err)
	}
	return res
}

// checkStarts compares each job's start with want.
func checkStarts(t *testing.T, res *sim.Result, want map[sim.JobID]sim.Time) {
	t.Helper()
	for _, o := range res.Jobs {
		if o.Start != want[o.ID] {
			t.Errorf("job %d started at %d, want %d", o.ID, o.Start, want[o.ID])
		}
	}
}

// TestNodesLimitedOracle matches FCFS and EASY with internal/nodeoracle
// job for job on random workloads where about half the jobs ask for
// partition p, which holds node groups s and t and lets a job use at most
// two nodes: first fit then passes over a node a few of whose cores are
// free once another job fills it, so a job that did not fit may fit after
// a start.
func TestNodesLimitedOracle(t *testing.T) {
	groups := easyGroups[1] // s: 6 × 2, b: 3 × 24, t: 4 × 9
	parts := []nodes.Partition{{Name: "all"}, {Name: "p", Groups: []string{"s", "t"}, MaxNodes: 2}}
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 41))
		recs := nodeWorkload(rng, 150)
		inP := make([]bool, len(recs))
		for i := range recs {
			switch inP[i] = rng.IntN(2) == 0; {
			case !inP[i]:
				continue
			case rng.IntN(2) == 0: // cores in p, on one or two nodes when free
				recs[i].Need = sim.Resources{sim.Procs: 1 + rng.Int64N(12)}
				recs[i].Shape = sim.Shape{}
			case recs[i].Shape.IsZero(): // keep the request: memory and GPUs on every node used
				recs[i].Shape.MemPerNode, recs[i].Shape.GPUsPerNode = recs[i].Need[sim.Memory], int32(recs[i].Need[sim.GPUs])
			}
			recs[i].Shape.Where = limitedP
		}
		ojobs := toOracle(recs)
		for i := range ojobs {
			if inP[i] {
				ojobs[i].Groups, ojobs[i].MaxNodes = []string{"s", "t"}, 2
			}
		}
		for _, pol := range []struct {
			name string
			o    nodeoracle.Policy
			p    sim.Policy
		}{{"fcfs", nodeoracle.FCFS, policies.NewFCFS()}, {"easy", nodeoracle.EASY, policies.NewEASY(policies.Arrival{})}} {
			want, err := nodeoracle.Simulate(oracleNodes(groups), ojobs, pol.o)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := nodes.NewConfig(nodes.Config{Groups: groups, Partitions: parts})
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(cl, pol.p, sim.NewSliceSource(recs), sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := cl.Verify(res); err != nil {
				t.Fatal(err)
			}
			matchOracle(t, fmt.Sprintf("%s, seed %d", pol.name, seed), cl, res, recs, want)
		}
	}
}
