package plot_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

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
	m, err := workloads.LookupModel("job-mix")
	if err != nil {
		t.Fatal(err)
	}
	easy, err := policies.Lookup("easy")
	if err != nil {
		t.Fatal(err)
	}
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "mix", Model: "job-mix", Params: m.Params(), Estimates: "keep", CPUUsage: "none"}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}}
	dir := t.TempDir()
	e := &spec.Experiment{
		Name: "plot", Seed: 7, File: "plot.hcl", Hash: "plot-test",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{0.5, 1, 2}, Seeds: []uint64{1, 2}},
		Output: spec.Output{Dir: dir},
	}
	runs, err := runner.Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Execute(context.Background(), e, runs, runner.Options{Out: dir, Workers: 2, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	return dir
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
