package plot_test

import (
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

// TestLoadOfferedLoads checks a sweep of target offered loads: the target,
// which every replicate shares, is the runs' load, not the factor solved
// for each replicate, so the replicates of a target are drawn together and
// the target selects them.
func TestLoadOfferedLoads(t *testing.T) {
	dir := t.TempDir()
	var rows []results.RunRow
	for _, p := range []string{"fcfs", "easy"} {
		for _, target := range []float64{0.7, 0.9} {
			for rep := 1; rep <= 2; rep++ {
				factor := target * (1 + 0.1*float64(rep)) // differs by replicate
				rows = append(rows, results.RunRow{
					RunInfo: results.RunInfo{Key: fixtureKey(p, target, rep), Experiment: "offered", Seed: uint64(rep), Params: []results.Param{
						{Name: "workload", Value: results.StringValue("mix")},
						{Name: "policy", Value: results.StringValue(p)},
						{Name: "target_offered_load", Value: results.FloatValue(target)},
						{Name: "load_factor", Value: results.FloatValue(factor)},
						{Name: "replicate", Value: results.IntValue(int64(rep))},
					}},
					Jobs: 10, Finished: 10, Makespan: 100, OfferedLoad: target,
					Wait: results.Stats{Mean: float64(rep)}, BoundedSlowdown: results.Stats{Mean: 1},
				})
			}
		}
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	r := load(t, dir)
	for i, x := range r.Runs {
		want := rows[i].Params[2].Value.Float
		if !x.OfferedLoad || x.LoadFactor != want {
			t.Errorf("run %s: load %v (offered load %v); want the target %v", x.Key, x.LoadFactor, x.OfferedLoad, want)
		}
	}
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"},
		Selection: plot.Selection{LoadFactors: []float64{0.9}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 {
		t.Fatalf("got %d points at target 0.9; want one per policy", len(pts))
	}
	for _, pt := range pts {
		if pt.N != 2 || pt.Mean != 1.5 {
			t.Errorf("%s at %v: %d replicates, mean %v; want 2, 1.5", pt.Policy, pt.LoadFactor, pt.N, pt.Mean)
		}
	}
}
