package policies_test

import (
	"bufio"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/nodeoracle"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// wagapNodes reads wagap-2013's .machines file as node groups.
func wagapNodes(t testing.TB) []nodes.Group {
	t.Helper()
	path := filepath.Join(sharedWorkloads, "wagap-2013.swf.machines")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	defer f.Close()
	gs, err := workloads.ReadMachines(f, path)
	if err != nil {
		t.Fatal(err)
	}
	var groups []nodes.Group
	for _, g := range gs {
		groups = append(groups, nodes.Group{Name: g.Name, Count: int(g.Nodes), Cores: g.CPUsPerNode, Memory: g.MemPerNode})
	}
	return groups
}

// wagapShaped reads the first n lines of wagap-2013 as shaped records:
// field 21 through workloads.RequestShape, field 10 (bytes per job)
// spread over the nodes, field 9 as the estimate (the run time when
// missing or 0). Lines without a positive run time and requests that do
// not parse are left out. Node groups and features are dropped: sim.Shape
// does not carry them yet.
func wagapShaped(t testing.TB, n int) []sim.Record {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedWorkloads, "wagap-2013.swf.gz"))
	if err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, workloads.MaxLineLen)
	var recs []sim.Record
	for line := 0; line < n && sc.Scan(); line++ {
		if r, ok := wagapRecord(t, strings.Fields(sc.Text())); ok {
			r.Seq = len(recs)
			recs = append(recs, r)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

func wagapRecord(t testing.TB, fs []string) (sim.Record, bool) {
	t.Helper()
	num := func(k int) int64 {
		v, err := strconv.ParseInt(fs[k-1], 10, 64)
		if err != nil {
			t.Fatalf("field %d: %v", k, err)
		}
		return v
	}
	req, err := workloads.ParseRequest(fs[20])
	if err != nil || num(4) < 1 {
		return sim.Record{}, false
	}
	s, err := workloads.RequestShape(req)
	if err != nil {
		return sim.Record{}, false
	}
	est := num(9)
	if est < 1 {
		est = num(4)
	}
	r := sim.Record{Job: sim.Job{ID: sim.JobID(num(1)), User: -1, Group: -1, Queue: -1, Partition: -1,
		Submit: sim.Time(num(2)), Estimate: sim.Time(est)}, Runtime: sim.Time(num(4)), Preceding: -1, Think: -1}
	r.Need[sim.Procs] = s.Nodes * s.PerNode
	r.Shape = sim.Shape{Nodes: int32(s.Nodes), PerNode: int32(s.PerNode), Exclusive: s.Exclusive,
		MemPerNode: workloads.MemPerNode(num(10), s.Nodes)}
	return r, true
}

// TestNodesFCFSOracleWagap matches node-level FCFS with the oracle on the
// whole of wagap-2013 (17,866 jobs; about 1 s) on its .machines nodes, job
// for job, under the default semantics less node groups and features.
func TestNodesFCFSOracleWagap(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	groups := wagapNodes(t)
	recs := wagapShaped(t, math.MaxInt)
	var onodes []nodeoracle.Node
	for _, g := range groups {
		for range g.Count {
			onodes = append(onodes, nodeoracle.Node{Cores: g.Cores, Mem: g.Memory, Group: g.Name})
		}
	}
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
		t.Fatal(err)
	}
	if err := cl.Verify(res); err != nil {
		t.Fatal(err)
	}
	for i := range res.Jobs {
		if d := cmp.Diff(want[i], fromCluster(cl, i, &res.Jobs[i])); d != "" {
			t.Fatalf("job %d (%+v): (-oracle +nodes):\n%s", res.Jobs[i].ID, recs[i].Shape, d)
		}
	}
	t.Logf("%d jobs, %d rejected", len(recs), res.Rejected)
}
