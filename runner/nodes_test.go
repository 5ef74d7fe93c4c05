package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// simulateOn runs r as sources.run does, but on machine m: model gives
// the pool until the cluster block describes nodes.
func simulateOn(t *testing.T, r *Run, m sim.Model) *simulated {
	t.Helper()
	src, size, err := newSources("").source(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(m, p, src, simOptions(r, size))
	if err != nil {
		t.Fatal(err)
	}
	return &simulated{res: res, model: m}
}

// TestNodesInResults writes two runs of a sweep with runs on nodes, one
// on a cluster of two node groups and one on the pool, as finish and
// writeTables write them: the jobs files have the nodes column (NULL
// throughout for the pool's run), and node_groups.parquet a row per group
// of the run on nodes, whose utilizations weighted by cores are the run's.
func TestNodesInResults(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	var fcfs []*Run
	for i := range runs {
		if runs[i].Policy.Type == "fcfs" && len(fcfs) < 2 {
			fcfs = append(fcfs, &runs[i])
		}
	}
	c, err := nodes.New([]nodes.Group{{Name: "a", Count: 4, Cores: 8}, {Name: "b", Count: 2, Cores: 16}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	o := &output{dir: dir, jobs: true, nodes: true}
	meta := results.Metadata{ToolVersion: "test"}
	for i, m := range []sim.Model{c, sim.NewPool(fcfs[1].Cluster.Capacity)} {
		en, err := o.finish(fcfs[i], e, simulateOn(t, fcfs[i], m), meta)
		if err != nil {
			t.Fatal(err)
		}
		if !en.Nodes {
			t.Errorf("run %d: entry without Nodes in a sweep with runs on nodes", i)
		}
		if err := o.record(fcfs[i], en); err != nil {
			t.Fatal(err)
		}
	}
	runsPath, usersPath := o.tables().names(0, 1)
	groupsPath := o.tables().groupsName(0, 1)
	if err := o.writeTables(runs, fcfs, meta, runsPath, usersPath, groupsPath); err != nil {
		t.Fatal(err)
	}

	checkNodesColumn(t, JobsPath(dir, fcfs[0]), true)
	checkNodesColumn(t, JobsPath(dir, fcfs[1]), false) // the pool's run: NULL throughout

	groups := readTable(t, groupsPath)
	defer groups.Release()
	if got := columnValues[string](t, groups, "run_key"); len(got) != 2 || got[0] != fcfs[0].Key || got[1] != fcfs[0].Key {
		t.Fatalf("node_groups run_key %v; want the run on nodes twice", got)
	}
	util := columnValues[float64](t, groups, "utilization")
	runsTbl := readTable(t, runsPath)
	defer runsTbl.Release()
	runUtil := columnValues[float64](t, runsTbl, "utilization")[0]
	if w := (util[0]*32 + util[1]*32) / 64; w < runUtil-1e-12 || w > runUtil+1e-12 || w == 0 {
		t.Errorf("groups' utilization weighted by cores %v; the run's %v", w, runUtil)
	}
}

// checkNodesColumn checks the nodes column of the jobs file at path: a
// name of group a or b for every job that ran when onNodes, else NULL
// throughout.
func checkNodesColumn(t *testing.T, path string, onNodes bool) {
	t.Helper()
	tbl := readTable(t, path)
	defer tbl.Release()
	ran := 0
	for _, s := range columnValues[string](t, tbl, "status") {
		if s != "rejected" {
			ran++
		}
	}
	named := 0
	for _, ch := range tbl.Column(tbl.Schema().FieldIndices("nodes")[0]).Data().Chunks() {
		for k := range ch.Len() {
			if !ch.IsValid(k) {
				continue
			}
			named++
			if v := ch.ValueStr(k); !strings.HasPrefix(v, "a") && !strings.HasPrefix(v, "b") {
				t.Errorf("%s: nodes %q; want names of groups a and b", filepath.Base(path), v)
			}
		}
	}
	want := ran
	if !onNodes {
		want = 0
	}
	if named != want || ran == 0 {
		t.Errorf("%s: %d jobs with nodes of %d that ran; want %d", filepath.Base(path), named, ran, want)
	}
}

// TestVerifyNodesColumn: a run written without the nodes column is
// simulated again once the sweep has runs on nodes, and one written with
// it once the sweep has none left.
func TestVerifyNodesColumn(t *testing.T) {
	e, _ := sweepExperiment(t, t.TempDir())
	for _, tc := range []struct {
		sweep, entry bool
		want         string
	}{
		{false, false, ""},
		{true, true, ""},
		{true, false, "without the nodes"},
		{false, true, "with the nodes"},
	} {
		o := &output{dir: t.TempDir(), nodes: tc.sweep}
		en := &entry{Nodes: tc.entry, RowVersion: rowVersion, Row: results.RunRow{JobsMeasured: 1}}
		got := o.verify(en, e)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("sweep on nodes %v, entry %v: verify says %q; want %q", tc.sweep, tc.entry, got, tc.want)
		}
	}
}

// TestPoolSweepRemovesStaleGroups: a sweep without runs on nodes writes
// no node groups table, and removes one an earlier version left.
func TestPoolSweepRemovesStaleGroups(t *testing.T) {
	dir := t.TempDir()
	_, runs := sweepExperiment(t, dir)
	on, err := onNodes(runs)
	if err != nil || on {
		t.Fatalf("onNodes of a sweep on the pool = %v, %v; want false", on, err)
	}
	o := &output{dir: dir}
	path := o.tables().groupsName(0, 1)
	if err := os.WriteFile(path, []byte("stale"), 0o666); err != nil {
		t.Fatal(err)
	}
	gw, err := o.groupsWriter(path, results.Metadata{})
	if err != nil || gw != nil {
		t.Fatalf("groupsWriter = %v, %v; want nil, nil", gw, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s still there (%v)", filepath.Base(path), err)
	}
}
