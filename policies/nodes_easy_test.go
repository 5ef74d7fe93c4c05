package policies_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/nodeoracle"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// oracleNodes is groups as nodeoracle's nodes.
func oracleNodes(groups []nodes.Group) []nodeoracle.Node {
	var onodes []nodeoracle.Node
	for _, g := range groups {
		for range g.Count {
			onodes = append(onodes, nodeoracle.Node{Cores: g.Cores, Mem: g.Memory, GPUs: g.GPUs, Group: g.Name})
		}
	}
	return onodes
}

// runNodes runs p on a fresh cluster of groups over recs with a recorder,
// and checks the result with simtest.Verify (chk) and Cluster.Verify.
func runNodes(t *testing.T, groups []nodes.Group, fit nodes.Fit, p sim.Policy, recs []sim.Record, chk simtest.Checks) (*nodes.Cluster, *sim.Result) {
	t.Helper()
	cl, err := nodes.New(groups, fit)
	if err != nil {
		t.Fatal(err)
	}
	rec := &simtest.Recorder{}
	res, err := sim.Run(cl, p, sim.NewSliceSource(recs), sim.Options{Tracer: rec})
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	chk.Jobs = len(recs)
	if err := simtest.Verify(res, rec, chk); err != nil {
		t.Fatalf("%s: schedule breaks invariants:\n%v", p.Name(), err)
	}
	if err := cl.Verify(res); err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	return cl, res
}

// matchOracle compares res on cl with the oracle's outcomes job for job.
func matchOracle(t *testing.T, what string, cl *nodes.Cluster, res *sim.Result, recs []sim.Record, want []nodeoracle.Outcome) {
	t.Helper()
	for i := range res.Jobs {
		if d := cmp.Diff(want[i], fromCluster(cl, i, &res.Jobs[i])); d != "" {
			t.Fatalf("%s job %d (%+v): (-oracle +nodes):\n%s", what, res.Jobs[i].ID, recs[i].Shape, d)
		}
	}
}

// easyGroups are the node groups of the random EASY workloads: a shape's
// run of nodes may span groups, exclusive jobs and GPUs meet small nodes.
var easyGroups = [][]nodes.Group{
	{{Name: "a", Count: 3, Cores: 4, Memory: 16}, {Name: "g", Count: 2, Cores: 8, Memory: 32, GPUs: 2}},
	{{Name: "s", Count: 6, Cores: 2, Memory: 8}, {Name: "b", Count: 3, Cores: 24, Memory: 40, GPUs: 2}, {Name: "t", Count: 4, Cores: 9, Memory: 20, GPUs: 1}},
}

// TestNodesEASYOracle matches EASY on a cluster of nodes (first fit) with
// internal/nodeoracle's EASY job for job (start, end, nodes and cores on
// each, rejection) on 200 random workloads of every shape and two
// machines, and checks every promise with simtest.Verify.
func TestNodesEASYOracle(t *testing.T) {
	for seed := range uint64(200) {
		groups := easyGroups[seed%2]
		recs := nodeWorkload(rand.New(rand.NewPCG(seed, 16)), 150)
		want, err := nodeoracle.Simulate(oracleNodes(groups), toOracle(recs), nodeoracle.EASY)
		if err != nil {
			t.Fatal(err)
		}
		cl, res := runNodes(t, groups, nodes.FirstFit, policies.NewEASY(policies.Arrival{}), recs, simtest.Checks{MaxOpen: 1})
		matchOracle(t, fmt.Sprintf("seed %d", seed), cl, res, recs, want)
	}
}

// TestNodesEASYOracleWagap matches node-level EASY with the oracle on
// wagap-2013 on its .machines nodes: the first 4,000 lines (3,980 jobs),
// or with -oracle.long the whole trace (17,866 jobs; about a minute, most
// of it the oracle's).
func TestNodesEASYOracleWagap(t *testing.T) {
	n := 4000
	if *oracleLong {
		n = math.MaxInt
	}
	groups := wagapNodes(t)
	recs := wagapShaped(t, n)
	want, err := nodeoracle.Simulate(oracleNodes(groups), toOracle(recs), nodeoracle.EASY)
	if err != nil {
		t.Fatal(err)
	}
	cl, res := runNodes(t, groups, nodes.FirstFit, policies.NewEASY(policies.Arrival{}), recs, simtest.Checks{MaxOpen: 1})
	matchOracle(t, "wagap-2013", cl, res, recs, want)
	var wait float64
	for i := range res.Jobs {
		if o := &res.Jobs[i]; o.State != sim.Rejected {
			wait += float64(o.Start - o.Submit)
		}
	}
	t.Logf("%d jobs, %d rejected, mean wait %.0f s", len(recs), res.Rejected, wait/float64(len(recs)-res.Rejected))
}

// nodePolicies are the EASY-like policies that run on nodes, under every
// queue order EASY takes and with their variants, with EASY's checks.
var nodePolicies = []goldenPolicy{
	{"easy", "easy", nil, simtest.Checks{MaxOpen: 1}},
	{"easy-sjf", "easy", []string{"order=sjf"}, simtest.Checks{MaxOpen: 1}},
	{"fairshare-easy", "easy", []string{"order=fairshare"}, simtest.Checks{MaxOpen: 1}},
	{"easy-accuracy", "easy", []string{"order=accuracy"}, simtest.Checks{MaxOpen: 1}},
	{"psp", "psp", nil, simtest.Checks{MaxOpen: 1}},
	{"psp-age", "psp", []string{"age_scale=2", "max_age=30"}, simtest.Checks{MaxOpen: 1}},
	{"bb", "backfill-balanced", nil, simtest.Checks{MaxOpen: 1}},
	{"bb-once", "backfill-balanced", []string{"backfill=once"}, simtest.Checks{MaxOpen: 1}},
	{"ibb", "improved-backfill-balanced", nil, simtest.Checks{MaxOpen: 1}},
	{"ibb-small", "improved-backfill-balanced", []string{"small=0.0625"}, simtest.Checks{MaxOpen: 1}},
	{"pbs-fifo", "pbs-fifo", nil, simtest.Checks{MaxOpen: 1}},
	{"pbs-fifo-starve", "pbs-fifo", []string{"max_starve=100"}, simtest.Checks{MaxOpen: 1}},
}

// TestNodesVerify runs every policy of nodePolicies on random node
// workloads (every shape, several node groups, first and best fit, some
// jobs of several users) and checks each schedule with simtest.Verify (no
// promise broken or moved later, at most one open) and Cluster.Verify
// (every node's cores, memory, GPUs and exclusivity at every instant).
func TestNodesVerify(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 17))
		recs := nodeWorkload(rng, 150)
		for i := range recs {
			recs[i].User = rng.Int32N(4)
		}
		groups := easyGroups[seed%2]
		fit := nodes.Fit(seed / 2 % 2)
		for _, gp := range nodePolicies {
			runNodes(t, groups, fit, gp.new(t), recs, gp.checks)
		}
	}
}
