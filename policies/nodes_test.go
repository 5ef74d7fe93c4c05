package policies_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/nodeoracle"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// oneNode is a cluster of one node holding all of c.
func oneNode(t *testing.T, c sim.Resources) *nodes.Cluster {
	t.Helper()
	cl, err := nodes.New([]nodes.Group{{Name: "n", Count: 1, Cores: c[sim.Procs], Memory: c[sim.Memory], GPUs: c[sim.GPUs]}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// nodeAware are the policies that ask View.Trial, so run on nodes: the
// List policies, EASY and those built on its pass (which use the trial's
// sim.Lookahead), conservative backfilling, Maui and Slurm (the node
// profile).
var nodeAware = map[string]bool{"fcfs": true, "sjf": true, "fairshare-fifo": true,
	"easy": true, "fairshare-easy": true, "psp": true, "backfill-balanced": true,
	"improved-backfill-balanced": true, "pbs-fifo": true, "easy-sjf": true, "easy-accuracy": true, "pbs-fifo-starve": true,
	"conservative": true, "fairshare-conservative": true, "conservative-sjf": true, "conservative-accuracy": true,
	"maui": true, "maui-nobackfill": true, "maui-depth3-xfactor": true, "maui-fairshare": true,
	"slurm": true}

// nodesPolicies are the policies of the schedule hashes and, in other
// orders or with other knobs, EASY, pbs-fifo, conservative backfilling and
// Maui, which run on nodes too.
func nodesPolicies() []goldenPolicy {
	return append(hashPolicies(), goldenPolicy{name: "easy-sjf", entry: "easy", params: []string{"order=sjf"}},
		goldenPolicy{name: "easy-accuracy", entry: "easy", params: []string{"order=accuracy"}},
		goldenPolicy{name: "pbs-fifo-starve", entry: "pbs-fifo", params: []string{"max_starve=3600"}},
		goldenPolicy{name: "conservative-sjf", entry: "conservative", params: []string{"order=sjf"}},
		goldenPolicy{name: "conservative-accuracy", entry: "conservative", params: []string{"order=accuracy"}},
		goldenPolicy{name: "maui-nobackfill", entry: "maui", params: []string{"backfill=false"}},
		goldenPolicy{name: "maui-depth3-xfactor", entry: "maui", params: []string{"reservation_depth=3", "xfactor_weight=100"}},
		goldenPolicy{name: "maui-fairshare", entry: "maui", params: []string{"fairshare_weight=10"}})
}

// wholeTraces reports whether TestNodesEquivalence runs policy name on
// every whole shared trace: one policy per way of running on nodes by
// default (the List policies' trial, EASY's look-ahead, BB's and
// pbs-fifo's use of it, the node profile of conservative, of Maui and of
// Slurm),
// every node-aware policy with -oracle.long or SCHEDSWEEP_ORACLE_LONG=1.
// Every policy runs on the first 3,000 jobs of each trace either way.
func wholeTraces(name string) bool {
	switch name {
	case "fcfs", "easy", "backfill-balanced", "pbs-fifo", "conservative", "maui", "slurm":
		return true
	}
	return nodeAware[name] && longOracle()
}

// TestNodesEquivalence runs every policy on the pool and on a cluster of
// one node holding all processors (shape tasks): the schedules must be the
// same, on random workloads and on the first 3,000 jobs of every shared
// trace, and on every whole shared trace for the policies wholeTraces names.
func TestNodesEquivalence(t *testing.T) {
	type work struct {
		name string
		c    sim.Resources
		recs []sim.Record
	}
	var ws []work
	rng := rand.New(rand.NewPCG(15, 1))
	for i := range 4 {
		c := sim.Resources{sim.Procs: 1 + rng.Int64N(64)}
		if i%2 == 1 {
			c[sim.Memory] = 1000
		}
		ws = append(ws, work{fmt.Sprintf("random-%d", i), c, randomWorkload(rng, 400, c, 50)})
	}
	for _, tr := range hashTraces {
		if _, err := os.Stat(filepath.Join(sharedWorkloads, tr.file)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		recs := readTrace(t, tr.file, tr.opt)
		ws = append(ws, work{tr.name, tr.capacity(t), recs[:min(len(recs), 3000)]},
			work{tr.name + "-whole", tr.capacity(t), recs})
	}
	for _, w := range ws {
		whole := strings.HasSuffix(w.name, "-whole")
		for _, gp := range nodesPolicies() {
			p := gp.new(t)
			if _, own := p.(sim.ModelMaker); own || !gp.runs(w.c) || whole && !wholeTraces(gp.name) {
				continue
			}
			want, err := sim.Run(sim.NewPool(w.c), p, sim.NewSliceSource(w.recs), sim.Options{})
			if err != nil {
				t.Fatalf("%s %s pool: %v", w.name, gp.name, err)
			}
			cl := oneNode(t, w.c)
			got, err := sim.Run(cl, gp.new(t), sim.NewSliceSource(w.recs), sim.Options{})
			if err != nil {
				t.Fatalf("%s %s nodes: %v", w.name, gp.name, err)
			}
			if d := cmp.Diff(want.Jobs, got.Jobs); d != "" {
				t.Errorf("%s %s: one-node cluster differs from the pool (-pool +nodes):\n%s", w.name, gp.name, d)
			}
			if err := cl.Verify(got); err != nil {
				t.Errorf("%s %s: %v", w.name, gp.name, err)
			}
		}
	}
}

// nodeWorkload is n random shaped jobs for the groups of the oracle test.
func nodeWorkload(rng *rand.Rand, n int) []sim.Record {
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		t += sim.Time(rng.IntN(40))
		run := 1 + sim.Time(rng.IntN(300))
		est := run + sim.Time(rng.IntN(300))
		if rng.IntN(5) == 0 {
			est = max(1, run/2)
		}
		r := sim.Record{Job: sim.Job{ID: sim.JobID(i + 1), User: -1, Group: -1, Queue: -1, Partition: -1, Submit: t, Estimate: est},
			Runtime: run, Status: 1, Preceding: -1, Think: -1}
		switch rng.IntN(4) {
		case 0: // the zero shape: tasks with memory per node
			r.Need = sim.Resources{sim.Procs: 1 + rng.Int64N(20), sim.Memory: rng.Int64N(20)}
		case 1: // tasks, maybe exclusive, maybe GPUs
			r.Need[sim.Procs] = 1 + rng.Int64N(24)
			r.Shape = sim.Shape{Exclusive: rng.IntN(3) == 0, GPUsPerNode: int32(rng.IntN(2)), MemPerNode: rng.Int64N(8)}
		default: // nodes × per node
			nn, per := 1+rng.Int32N(4), 1+rng.Int32N(9)
			r.Need[sim.Procs] = int64(nn * per)
			r.Shape = sim.Shape{Nodes: nn, PerNode: per, Exclusive: rng.IntN(4) == 0, GPUsPerNode: int32(rng.IntN(3)), MemPerNode: rng.Int64N(20)}
		}
		recs[i] = r
	}
	return recs
}

// toOracle converts shaped records to nodeoracle's jobs.
func toOracle(recs []sim.Record) []nodeoracle.Job {
	ojobs := make([]nodeoracle.Job, len(recs))
	for i, r := range recs {
		oj := nodeoracle.Job{Submit: int64(r.Submit), Run: int64(r.Runtime), Estimate: int64(r.Estimate),
			Exclusive: r.Shape.Exclusive, MemPerNode: r.Shape.MemPerNode, GPUsPerNode: int64(r.Shape.GPUsPerNode)}
		switch {
		case r.Shape.IsZero():
			oj.Tasks, oj.MemPerNode, oj.GPUsPerNode = r.Need[sim.Procs], r.Need[sim.Memory], r.Need[sim.GPUs]
		case r.Shape.Nodes == 0:
			oj.Tasks = r.Need[sim.Procs]
		default:
			oj.Nodes, oj.PerNode = int64(r.Shape.Nodes), int64(r.Shape.PerNode)
		}
		ojobs[i] = oj
	}
	return ojobs
}

// fromCluster is job i's outcome o on cl in nodeoracle's terms.
func fromCluster(cl *nodes.Cluster, i int, o *sim.Outcome) nodeoracle.Outcome {
	if o.State == sim.Rejected {
		return nodeoracle.Outcome{Rejected: true}
	}
	got := nodeoracle.Outcome{Start: int64(o.Start), End: int64(o.End)}
	for _, u := range cl.Where(i) {
		for n := u.Node; n < u.Node+u.Nodes; n++ {
			got.Nodes = append(got.Nodes, int(n))
			got.Cores = append(got.Cores, int64(u.Cores))
		}
	}
	return got
}

// TestNodesFCFSOracle matches FCFS on a cluster of nodes (first fit) with
// internal/nodeoracle job for job: start, end, nodes and cores on each,
// rejection; on 200 random workloads of every shape.
func TestNodesFCFSOracle(t *testing.T) {
	groups := []nodes.Group{{Name: "a", Count: 3, Cores: 4, Memory: 16}, {Name: "g", Count: 2, Cores: 8, Memory: 32, GPUs: 2}}
	var onodes []nodeoracle.Node
	for _, g := range groups {
		for range g.Count {
			onodes = append(onodes, nodeoracle.Node{Cores: g.Cores, Mem: g.Memory, GPUs: g.GPUs, Group: g.Name})
		}
	}
	for seed := range uint64(200) {
		recs := nodeWorkload(rand.New(rand.NewPCG(seed, 15)), 150)
		want, err := nodeoracle.Simulate(onodes, toOracle(recs), nodeoracle.FCFS)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := nodes.New(groups, nodes.FirstFit)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(cl, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := cl.Verify(res); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range res.Jobs {
			if d := cmp.Diff(want[i], fromCluster(cl, i, &res.Jobs[i])); d != "" {
				t.Fatalf("seed %d job %d (%+v): (-oracle +nodes):\n%s", seed, res.Jobs[i].ID, recs[i].Shape, d)
			}
		}
		checkBestFit(t, groups, recs)
	}
}

// checkBestFit runs FCFS with best fit on recs, which the oracle does not
// model: every placement must pass Verify.
func checkBestFit(t *testing.T, groups []nodes.Group, recs []sim.Record) {
	t.Helper()
	cl, err := nodes.New(groups, nodes.BestFit)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(cl, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatalf("best fit: %v", err)
	}
	if err := cl.Verify(res); err != nil {
		t.Fatalf("best fit: %v", err)
	}
}
