package plot_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// sweep runs a small sweep through the runner, as schedsweep run does:
// the job-mix model on 64 processors, FCFS and EASY, load factors 0.5, 1
// and 2, two replicates; it returns the results folder.
func sweep(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sweepShard(t, dir, "job-mix", 0, 1)
	return dir
}

// sweepShard runs shard i of n (n 1: all of it) of sweep's sweep of
// workload model into dir; a "psp" workload has 200 jobs.
func sweepShard(t *testing.T, dir, model string, i, n int) {
	t.Helper()
	m, err := workloads.LookupModel(model)
	if err != nil {
		t.Fatal(err)
	}
	params := m.Params()
	if p, ok := params.(*workloads.PSPParams); ok {
		p.Jobs = 200
	}
	easy, err := policies.Lookup("easy")
	if err != nil {
		t.Fatal(err)
	}
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "mix", Model: model, Params: params, Estimates: "keep", CPUUsage: "none"}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}}
	e := &spec.Experiment{
		Name: "plot", Seed: 7, File: "plot.hcl", Hash: "plot-test",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{0.5, 1, 2}, Seeds: []uint64{1, 2}},
		Output: spec.Output{Dir: dir, Heatmaps: true},
	}
	runs, err := runner.Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	opt := runner.Options{Out: dir, Workers: 2, ToolVersion: "test", Shard: i, Shards: n}
	if _, err := runner.Execute(context.Background(), e, runs, opt); err != nil {
		t.Fatal(err)
	}
}

func TestPlotASweep(t *testing.T) {
	dir := sweep(t)
	r := load(t, dir)
	if len(r.Runs) != 12 {
		t.Fatalf("got %d runs; want 2 policies × 3 loads × 2 replicates = 12", len(r.Runs))
	}
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"bounded_slowdown_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 6 {
		t.Fatalf("got %d points; want 2 policies × 3 loads", len(pts))
	}
	// Each point is the mean of its two replicates, as runs.parquet holds
	// them.
	for _, p := range pts {
		sum := 0.0
		for _, x := range r.Runs {
			if x.Policy == p.Policy && x.LoadFactor == p.LoadFactor {
				v, err := x.Metric("bounded_slowdown_mean")
				if err != nil {
					t.Fatal(err)
				}
				sum += v
			}
		}
		if p.N != 2 || math.Abs(p.Mean-sum/2) > 1e-9*sum || p.Min > p.Mean || p.Max < p.Mean {
			t.Errorf("%s at load %g: got mean %g of %d in [%g, %g]; want the mean %g of 2", p.Policy, p.LoadFactor, p.Mean, p.N, p.Min, p.Max, sum/2)
		}
	}
	out := t.TempDir()
	for _, tc := range []struct {
		name string
		draw func(*plot.Results, plot.Options) (*plot.Figure, error)
	}{{"means", plot.Means}, {"load", plot.LoadLines}} {
		f, err := tc.draw(r, plot.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, ext := range []string{".png", ".svg"} {
			path := filepath.Join(out, tc.name+ext)
			if err := f.Save(path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkImage(t, path, data, f.Width, f.Height)
		}
	}
}

// TestLoadFindsWhatTheRunnerWrote runs the same sweep whole and in three
// shards, and checks that Load finds in each folder every file the runner
// wrote for it, under the names package results gives both (runs.parquet
// or runs-I-of-3.parquet, users likewise, heatmap/…/part-KEY.parquet and
// utilization/…/part-KEY.parquet): the same runs, the same users' rows,
// the same heatmaps. Files that only look like tables are not read.
func TestLoadFindsWhatTheRunnerWrote(t *testing.T) {
	whole, shards := t.TempDir(), t.TempDir()
	sweepShard(t, whole, "psp", 0, 1) // psp: jobs with user ids
	for i := range 3 {
		sweepShard(t, shards, "psp", i, 3)
	}
	for _, name := range []string{"runs-01-of-3.parquet", "runsummary.parquet", "users-3-of-3.parquet"} {
		if err := os.WriteFile(filepath.Join(shards, name), []byte("not a table"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"runs.parquet", "users.parquet", "runs-0-of-3.parquet", "users-2-of-3.parquet"} {
		_, errWhole := os.Stat(filepath.Join(whole, name))
		_, errShards := os.Stat(filepath.Join(shards, name))
		if (errWhole == nil) == (errShards == nil) {
			t.Errorf("%s: in the whole sweep's folder %v, in the shards' %v; want it in exactly one", name, errWhole == nil, errShards == nil)
		}
	}
	a, b := load(t, whole), load(t, shards)
	waits := func(r *plot.Results) map[string]float64 {
		out := map[string]float64{}
		for _, x := range r.Runs {
			v, err := x.Metric("wait_mean")
			if err != nil {
				t.Fatal(err)
			}
			out[x.Key] = v
		}
		return out
	}
	wa, wb := waits(a), waits(b)
	if len(wa) != 12 {
		t.Fatalf("the whole sweep: got %d runs; want 12", len(wa))
	}
	if diff := cmp.Diff(wa, wb, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("wait_mean by run, whole (-) and in shards (+):\n%s", diff)
	}
	// Each run's users come from its users table; its cells from its
	// heatmap and utilization files.
	for key := range wa {
		opt := plot.Options{Selection: plot.Selection{Run: key}}
		ha, err := plot.HeatmapValues(a, opt)
		if err != nil {
			t.Fatal(err)
		}
		hb, err := plot.HeatmapValues(b, opt)
		if err != nil {
			t.Fatalf("the shards' folder: %v", err)
		}
		ua, err := plot.BoxValues(a, plot.Options{Metrics: []string{"jobs"}, Selection: opt.Selection})
		if err != nil {
			t.Fatal(err)
		}
		ub, err := plot.BoxValues(b, plot.Options{Metrics: []string{"jobs"}, Selection: opt.Selection})
		if err != nil {
			t.Fatalf("the shards' folder: %v", err)
		}
		type cells struct {
			Users, Procs, Memory []float64
			Violations           [][]float64
			Boxes                []plot.Box
		}
		ca := cells{ha.Users, ha.Procs, ha.Memory, ha.Violations, ua.Boxes}
		cb := cells{hb.Users, hb.Procs, hb.Memory, hb.Violations, ub.Boxes}
		if len(ca.Users) == 0 || len(ca.Procs) == 0 {
			t.Fatalf("run %s: %d users, %d utilization cells; the test needs some of each", key, len(ca.Users), len(ca.Procs))
		}
		if diff := cmp.Diff(ca, cb, cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("run %s, whole (-) and in shards (+):\n%s", key, diff)
		}
	}
}

// TestShardsKeepGridOrder checks that a sweep run in shards reads back in
// the order of the whole sweep's runs table, its grid order, so that the
// policies of a figure (their order, colours and legend) do not depend on
// how the sweep was split: with five shards the first shard holds easy's
// run at load 2, replicate 1 but not fcfs's.
func TestShardsKeepGridOrder(t *testing.T) {
	whole := t.TempDir()
	sweepShard(t, whole, "job-mix", 0, 1)
	keys := func(r *plot.Results) []string {
		var out []string
		for _, x := range r.Runs {
			out = append(out, fmt.Sprintf("%s %s@%g r%d", x.Key, x.Policy, x.LoadFactor, x.Replicate))
		}
		return out
	}
	a := load(t, whole)
	// Twelve shards of twelve runs: runs-10-of-12.parquet sorts before
	// runs-2-of-12.parquet by name.
	for _, n := range []int{5, 12} {
		shards := t.TempDir()
		for i := range n {
			sweepShard(t, shards, "job-mix", i, n)
		}
		b := load(t, shards)
		if diff := cmp.Diff(keys(a), keys(b)); diff != "" {
			t.Errorf("runs, whole sweep (-) and %d shards (+):\n%s", n, diff)
		}
		opt := plot.Options{Selection: plot.Selection{LoadFactors: []float64{2}, Replicates: []int64{1}}}
		d, err := plot.UtilizationValues(b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := []string{d.Runs[0].Policy, d.Runs[1].Policy}; got[0] != "fcfs" || got[1] != "easy" {
			t.Errorf("utilization of the %d shards' folder: policies %v; want fcfs, easy as in the experiment", n, got)
		}
	}
}

// TestVaryAxesAreNotReplicates runs a sweep with a vary axis over EASY's
// order: its runs of one policy, load factor and replicate differ in
// policy_order, and a figure must draw each order apart, not average the
// two as if they were replicates.
func TestVaryAxesAreNotReplicates(t *testing.T) {
	dir := t.TempDir()
	src := `
experiment "vary" { seed = 7 }
cluster "c" { procs = 64 }
workload "mix" {
  model  = "job-mix"
  params = { nodes = 64, jobs = 40 }
}
policy "fcfs" {}
policy "easy" {}
sweep {
  cluster      = cluster.c
  workloads    = [workload.mix]
  policies     = [policy.fcfs, policy.easy]
  load_factors = [1, 2]
  seeds        = [1, 2]
  vary "policy.easy.order" {
    values = ["arrival", "sjf"]
  }
}
`
	e, diags := spec.Parse("vary.hcl", []byte(src), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e.Output.Dir = dir
	runs, err := runner.Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Execute(context.Background(), e, runs, runner.Options{Out: dir, Workers: 2, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	r := load(t, dir)
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}, Selection: plot.Selection{LoadFactors: []float64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		sum := 0.0
		for _, k := range p.Runs {
			for _, x := range r.Runs {
				if x.Key == k {
					v, _ := x.Metric("wait_mean")
					sum += v
				}
			}
		}
		got = append(got, fmt.Sprintf("%s: %d runs, mean %.6g", p.Policy, len(p.Runs), p.Mean))
		if math.Abs(sum/float64(len(p.Runs))-p.Mean) > 1e-9*sum {
			t.Errorf("%s: mean %g; want the mean of its runs %g", p.Policy, p.Mean, sum/float64(len(p.Runs)))
		}
	}
	var names []string
	for _, p := range pts {
		names = append(names, fmt.Sprintf("%s/%d", p.Policy, len(p.Runs)))
	}
	want := []string{"fcfs/2", "easy (policy_order=arrival)/2", "easy (policy_order=sjf)/2"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("points at load 1, series/runs (-want +got):\n%s\n%s", diff, got)
	}
	// One run per series: a utilization figure of a replicate draws three.
	d, err := plot.UtilizationValues(r, plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 3 {
		t.Errorf("utilization at load 1, replicate 1: %d runs; want 3", len(d.Runs))
	}
	// A heatmap needs one run: the error tells EASY's two apart.
	_, err = plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Policies: []string{"easy"}, LoadFactors: []float64{1}, Replicates: []int64{1}}})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "policy_order=sjf") {
		t.Errorf("heatmap of easy at load 1, replicate 1: got %v; want a bad selection naming policy_order=sjf", err)
	}
}
