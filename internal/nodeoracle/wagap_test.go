package nodeoracle

import (
	"bufio"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/workloads"
)

const shared = "../../../shared/workloads/"

// wagapPrefix reads the first n jobs of wagap-2013 as the default
// semantics of docs/design/nodes.md shape them: field 21 through
// workloads.RequestShape, field 10 (bytes per job) spread over the nodes,
// field 9 as the estimate (the run time when missing). Jobs without a run
// time and requests that do not parse are left out and counted; features
// other than node groups are ignored, since the .machines file declares
// none.
func wagapPrefix(t *testing.T, n int) ([]Node, []Job, int) {
	t.Helper()
	mf, err := os.Open(shared + "wagap-2013.swf.machines")
	if err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	defer mf.Close()
	groups, err := workloads.ReadMachines(mf, "wagap-2013.swf.machines")
	if err != nil {
		t.Fatal(err)
	}
	var nodes []Node
	for _, g := range groups {
		for range g.Nodes {
			nodes = append(nodes, Node{Cores: g.CPUsPerNode, Mem: g.MemPerNode, Group: g.Name})
		}
	}
	f, err := os.Open(shared + "wagap-2013.swf.gz")
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
	var jobs []Job
	skipped := 0
	for sc.Scan() && len(jobs)+skipped < n {
		j, ok := wagapJob(t, strings.Fields(sc.Text()))
		if !ok {
			skipped++
			continue
		}
		jobs = append(jobs, j)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return nodes, jobs, skipped
}

func wagapJob(t *testing.T, fs []string) (Job, bool) {
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
		return Job{}, false
	}
	shape, err := workloads.RequestShape(req)
	if err != nil {
		return Job{}, false
	}
	j := Job{
		Submit: num(2), Run: num(4), Estimate: num(9), Nodes: shape.Nodes, PerNode: shape.PerNode,
		Exclusive: shape.Exclusive, MemPerNode: workloads.MemPerNode(num(10), shape.Nodes),
		Groups: shape.Groups, NotGroups: shape.NotGroups,
	}
	if j.Estimate < 1 {
		j.Estimate = j.Run
	}
	return j, true
}

// TestWagapPrefix runs both policies on the first 4,000 lines of wagap-2013
// on its .machines nodes and verifies every outcome per node and instant.
func TestWagapPrefix(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	nodes, jobs, skipped := wagapPrefix(t, 4000)
	for _, p := range []Policy{FCFS, EASY} {
		out, err := Simulate(nodes, jobs, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := verify(nodes, jobs, out); err != nil {
			t.Fatalf("policy %d: %v", p, err)
		}
		var wait float64
		rejected := 0
		for i, o := range out {
			if o.Rejected {
				rejected++
				continue
			}
			wait += float64(o.Start - jobs[i].Submit)
		}
		t.Logf("policy %d: %d jobs (%d left out), %d rejected, mean wait %.0f s", p, len(jobs), skipped, rejected, wait/float64(len(jobs)-rejected))
	}
}
