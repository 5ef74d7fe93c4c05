package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/internal/nodeoracle"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestSimulateWagapNodes runs wagap-2013 on its .machines nodes with its
// field-21 requests under FCFS the way simulate's flags configure it, and
// matches the schedule job for job, and so the mean wait, with
// internal/nodeoracle on the same jobs (read by the SWF reader; the 32
// requests that do not parse and the 2 jobs without run time are
// rejected by the engine and left out of the oracle's input).
func TestSimulateWagapNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	trace := filepath.Join(sharedWorkloads, "wagap-2013.swf.gz")
	machines := filepath.Join(sharedWorkloads, "wagap-2013.swf.machines")
	if _, err := os.Stat(trace); err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	var c simulateConfig
	fs := newFlagSet("simulate", io.Discard)
	c.flags(fs)
	if err := fs.Parse([]string{"--policy", "fcfs", "--model", "nodes", "--machines", machines, "--alea-fields",
		"--memory-field", "requested", "--memory-unit", "bytes-per-job", "--negative-as-missing"}); err != nil {
		t.Fatal(err)
	}
	one, err := c.experiment(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := runner.Expand(one.exp)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runner.SimulateOne(context.Background(), &runs[0], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res := out.Result

	onodes, ojobs, index := wagapOracle(t, trace, machines, runs[0].Workload.SWF)
	want, err := nodeoracle.Simulate(onodes, ojobs, nodeoracle.FCFS)
	if err != nil {
		t.Fatal(err)
	}
	var gotWait, wantWait int64
	n := 0
	for i := range res.Jobs {
		o := &res.Jobs[i]
		k, ok := index[i]
		if !ok {
			if o.State != sim.Rejected {
				t.Fatalf("job %d: %v; want rejected (no run time or a request that does not parse)", o.ID, o.State)
			}
			continue
		}
		w := want[k]
		switch {
		case w.Rejected != (o.State == sim.Rejected):
			t.Fatalf("job %d: rejected %t (%v); oracle %t", o.ID, o.State == sim.Rejected, o.Reason, w.Rejected)
		case w.Rejected:
		case int64(o.Start) != w.Start || int64(o.End) != w.End:
			t.Fatalf("job %d: ran %d-%d; oracle %d-%d", o.ID, o.Start, o.End, w.Start, w.End)
		default:
			gotWait += int64(o.Start - o.Submit)
			wantWait += w.Start - ojobs[k].Submit
			n++
		}
	}
	if gotWait != wantWait || n < 17800 {
		t.Errorf("total wait %d over %d jobs; oracle %d", gotWait, n, wantWait)
	}
	t.Logf("%d jobs, %d rejected; mean wait %.1f s", len(res.Jobs), res.Rejected, float64(gotWait)/float64(n))
}

// wagapOracle reads the nodes and the jobs of wagap-2013 for the oracle,
// and for each job of the trace (by sequence) its index among the oracle's
// jobs.
func wagapOracle(t *testing.T, trace, machines string, opt workloads.SWFOptions) ([]nodeoracle.Node, []nodeoracle.Job, map[int]int) {
	t.Helper()
	mf, err := os.Open(machines)
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	groups, err := workloads.ReadMachines(mf, machines)
	if err != nil {
		t.Fatal(err)
	}
	var onodes []nodeoracle.Node
	for _, g := range groups {
		for range g.Nodes {
			onodes = append(onodes, nodeoracle.Node{Cores: g.CPUsPerNode, Mem: g.MemPerNode, Group: g.Name})
		}
	}
	f, err := workloads.OpenTrace(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sim.ReadAll(workloads.NewSWFReader(f, filepath.Base(trace), opt))
	if err != nil {
		t.Fatal(err)
	}
	var ojobs []nodeoracle.Job
	index := map[int]int{}
	for i, r := range recs {
		s := r.Shape
		if r.Runtime < 1 || s.Where != nil && s.Where.Invalid != "" || s.Nodes < 1 {
			continue
		}
		est := r.Estimate
		if est == sim.Missing {
			est = r.Runtime
		}
		oj := nodeoracle.Job{Submit: int64(r.Submit), Run: int64(r.Runtime), Estimate: int64(est),
			Nodes: int64(s.Nodes), PerNode: int64(s.PerNode), Exclusive: s.Exclusive, MemPerNode: s.MemPerNode}
		if s.Where != nil {
			oj.Groups, oj.NotGroups = s.Where.Groups, s.Where.NotGroups
		}
		index[i] = len(ojobs)
		ojobs = append(ojobs, oj)
	}
	return onodes, ojobs, index
}
