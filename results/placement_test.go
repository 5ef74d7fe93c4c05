package results_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// nodeRun is FCFS, first fit, on two node groups, a: 2 nodes of 4 cores
// and b: 1 node of 8, worked by hand:
//
//	job 1  0–10  2 nodes × 4       a1, a2
//	job 2  0–20  6 tasks           b1 (a1 and a2 are full)
//	job 3  10–15 1 node × 4        a1 (at 1 only b1's 2 cores are free)
//	job 4  10–20 5 tasks           a2 (4), b1 (1), behind job 3
//	job 5  rejected                1 node × 9: no node has 9 cores
//	job 6  15–20 3 tasks           a1, when job 3 ends (b1 has 1 core)
//
// Makespan 20. Group a (8 cores): 80 + 20 + 40 + 15 = 155 core-seconds of
// 160, 0.96875; group b (8 cores): 120 + 10 = 130 of 160, 0.8125; the run
// 285 of 320, 0.890625.
func nodeRun(t *testing.T) (*sim.Result, *nodes.Cluster) {
	t.Helper()
	c, err := nodes.New([]nodes.Group{{Name: "a", Count: 2, Cores: 4, Memory: 1 << 30}, {Name: "b", Count: 1, Cores: 8, GPUs: 2}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	shape := func(r sim.Record, n, per int32) sim.Record {
		r.Shape = sim.Shape{Nodes: n, PerNode: per}
		return r
	}
	recs := []sim.Record{
		shape(simtest.J(1, 0, 10, 10, 8), 2, 4),
		simtest.J(2, 0, 20, 20, 6),
		shape(simtest.J(3, 1, 5, 5, 4), 1, 4),
		simtest.J(4, 1, 10, 10, 5),
		shape(simtest.J(5, 2, 10, 10, 9), 1, 9),
		simtest.J(6, 3, 5, 5, 3),
	}
	res, err := sim.Run(c, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	return res, c
}

func TestJobNodes(t *testing.T) {
	res, c := nodeRun(t)
	var got []string
	var names []string
	for i, o := range res.Jobs {
		s, ns, err := results.JobNodes(c, i, names)
		if err != nil {
			t.Fatal(err)
		}
		names = ns
		got = append(got, s)
		if o.State == sim.Rejected && s != "" {
			t.Errorf("rejected job %d ran on %q", o.ID, s)
		}
	}
	want := []string{"a[1-2]", "b1", "a1", "a2,b1", "", "a1"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("JobNodes (-want +got):\n%s", d)
	}
	if p := results.PlacementOf(sim.NewPool(sim.Resources{8})); p != nil {
		t.Errorf("PlacementOf(pool) = %v; want nil", p)
	}
	if p := results.PlacementOf(c); p == nil {
		t.Errorf("PlacementOf(cluster) = nil; want the cluster")
	}
}

func TestWriteJobsOnNodes(t *testing.T) {
	res, c := nodeRun(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		p    results.Placement
		want []any
	}{
		{"nodes", c, []any{"a[1-2]", "b1", "a1", "a2,b1", nil, "a1"}},
		{"pool in a sweep with nodes", nil, []any{nil, nil, nil, nil, nil, nil}},
	}
	plain := filepath.Join(dir, "plain.parquet")
	if err := results.WriteJobs(plain, "r1", res, nil, testMeta); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".parquet")
			if err := results.WriteJobsOnNodes(path, "r1", res, nil, tc.p, testMeta); err != nil {
				t.Fatal(err)
			}
			tb := readParquet(t, path)
			if d := cmp.Diff(tc.want, tb.column(t, "nodes")); d != "" {
				t.Errorf("nodes (-want +got):\n%s", d)
			}
			// The columns before nodes are those of a file without it,
			// value for value.
			schema, base := tb.schema(), readParquet(t, plain)
			if d := cmp.Diff(append(base.schema(), "nodes utf8?", "partition utf8?"), schema); d != "" {
				t.Errorf("schema (-WriteJobs + nodes, partition +got):\n%s", d)
			}
			for _, f := range base.Schema().Fields() {
				if d := cmp.Diff(base.column(t, f.Name), tb.column(t, f.Name)); d != "" {
					t.Errorf("column %s differs from WriteJobs' (-WriteJobs +got):\n%s", f.Name, d)
				}
			}
		})
	}
}

func TestGroupRows(t *testing.T) {
	res, c := nodeRun(t)
	got := results.GroupRows("r1", res, c)
	want := []results.GroupRow{
		{RunKey: "r1", Group: "a", Nodes: 2, Cores: 4, Memory: 1 << 30, Utilization: 155.0 / 160},
		{RunKey: "r1", Group: "b", Nodes: 1, Cores: 8, GPUs: 2, Utilization: 130.0 / 160},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GroupRows (-want +got):\n%s", d)
	}
	// Weighted by cores, the groups' utilizations are the run's.
	sum := results.Summarize(res, results.DefaultTau)
	var w float64
	for _, r := range got {
		w += r.Utilization * float64(r.Nodes*r.Cores)
	}
	if u := w / 16; math.Abs(u-sum.Utilization[sim.Procs]) > 1e-12 || u != 285.0/320 {
		t.Errorf("groups' utilization weighted by cores = %v; run's %v; want both 285/320", u, sum.Utilization[sim.Procs])
	}
	if rows := results.GroupRows("r1", res, nil); rows != nil {
		t.Errorf("GroupRows without nodes = %v; want nil", rows)
	}
	path := filepath.Join(t.TempDir(), "node_groups.parquet")
	if err := results.WriteGroups(path, got, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	if d := cmp.Diff([]any{"a", "b"}, tb.column(t, "node_group")); d != "" {
		t.Errorf("node_group (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]any{155.0 / 160, 130.0 / 160}, tb.column(t, "utilization")); d != "" {
		t.Errorf("utilization (-want +got):\n%s", d)
	}
}
