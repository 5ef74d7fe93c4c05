package runner

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// loadExperiment is sweepExperiment's experiment with target offered loads
// in place of load factors.
func loadExperiment(t *testing.T, dir string, targets ...float64) (*spec.Experiment, []Run) {
	t.Helper()
	e := withPolicies(testExperiment(t))
	e.Hash, e.File = "hash-1", "t.hcl"
	e.Output.Dir, e.Output.Jobs = dir, true
	e.Sweep.LoadFactors, e.Sweep.OfferedLoads = nil, targets
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	return e, runs
}

// TestExpandOfferedLoads checks a sweep of target offered loads: one run
// per target and replicate, keyed by the target (not the unsolved factor),
// distinct from the keys of the same loads as factors, with its filters'
// view naming offered_load.
func TestExpandOfferedLoads(t *testing.T) {
	_, runs := loadExperiment(t, t.TempDir(), 0.5, 0.9)
	if len(runs) != 8 {
		t.Fatalf("got %d runs; want 1 workload × 2 policies × 2 targets × 2 replicates = 8", len(runs))
	}
	factors := withPolicies(testExperiment(t))
	factors.Sweep.LoadFactors = []float64{0.5, 0.9}
	byFactor, err := Expand(factors)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if r.TargetLoad == 0 || r.LoadFactor != 0 {
			t.Errorf("run %d: target %v, factor %v; want a target and no factor before solving", i, r.TargetLoad, r.LoadFactor)
		}
		if r.Key == byFactor[i].Key {
			t.Errorf("run %d: target %v has the key of load factor %v", i, r.TargetLoad, byFactor[i].LoadFactor)
		}
		if r.WorkloadSeed != byFactor[i].WorkloadSeed {
			t.Errorf("run %d: seed differs from the load-factor sweep's; want the same jobs", i)
		}
		v := r.Values()
		if _, ok := v["load_factor"]; ok || v["offered_load"] != formatFloat(r.TargetLoad) {
			t.Errorf("run %d: filter values %v; want offered_load %v and no load_factor", i, v, r.TargetLoad)
		}
	}
}

// TestExecuteOfferedLoads runs a sweep of target offered loads and checks
// the runs table: every run within 1 % of its target, the policies of a
// replicate sharing their factor and load, the factor recorded, and the jobs
// files under target_offered_load=….
func TestExecuteOfferedLoads(t *testing.T) {
	dir := t.TempDir()
	e, runs := loadExperiment(t, dir, 0.6, 0.9)
	execute(t, e, runs, Options{Workers: 2, ToolVersion: "test"})
	tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
	defer tbl.Release()
	targets := columnValues[float64](t, tbl, "target_offered_load")
	factors := columnValues[float64](t, tbl, "load_factor")
	loads := columnValues[float64](t, tbl, "offered_load")
	policies := columnValues[string](t, tbl, "policy")
	reps := columnValues[int64](t, tbl, "replicate")
	if len(targets) != 8 {
		t.Fatalf("runs.parquet has %d rows; want 8", len(targets))
	}
	type cell struct {
		target float64
		rep    int64
	}
	seen := map[cell][2]float64{}
	for i := range targets {
		if math.Abs(loads[i]/targets[i]-1) > 0.01 {
			t.Errorf("run %d (%s, target %v, replicate %d): offered load %v; want within 1 %%", i, policies[i], targets[i], reps[i], loads[i])
		}
		if !(factors[i] > 0) {
			t.Errorf("run %d: load factor %v; want the solved factor", i, factors[i])
		}
		c := cell{targets[i], reps[i]}
		if first, ok := seen[c]; ok && (first[0] != factors[i] || first[1] != loads[i]) {
			t.Errorf("run %d (%s): factor %v, load %v; the other policy of target %v, replicate %d had %v, %v",
				i, policies[i], factors[i], loads[i], c.target, c.rep, first[0], first[1])
		}
		seen[c] = [2]float64{factors[i], loads[i]}
	}
	files := jobsFiles(t, dir)
	want := filepath.Join("jobs", "workload=mix", "policy=easy", "target_offered_load=0.6", "replicate=1")
	if len(files) != 8 || !strings.HasPrefix(files[0], want) {
		t.Errorf("jobs files %v; want 8, the first under %s", files, want)
	}
}

// TestSolveFactors checks what plan shows: every run of a target gets the
// factor Execute solves, the same for every policy of a replicate, and a
// target no factor reaches is an error naming the run.
func TestSolveFactors(t *testing.T) {
	_, runs := loadExperiment(t, t.TempDir(), 0.8)
	if err := SolveFactors(runs, ""); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		s := newSources("")
		src, _, err := s.jobs(r.Workload, r.Cluster, r.WorkloadSeed, nil)
		if err != nil {
			t.Fatal(err)
		}
		l, err := workloads.MeasureLoad(src, r.Cluster.Capacity)
		if err != nil {
			t.Fatal(err)
		}
		want, _, err := workloads.SolveLoadFactor(l, r.Cluster.Capacity[sim.Procs], 0.8)
		if err != nil {
			t.Fatal(err)
		}
		if r.LoadFactor != want {
			t.Errorf("run %s (%s, replicate %d): factor %v; want %v", r.Key, r.Policy.Name, r.Replicate, r.LoadFactor, want)
		}
	}
	_, runs = loadExperiment(t, t.TempDir(), 1e9)
	if err := SolveFactors(runs, ""); err == nil || !strings.Contains(err.Error(), "run "+runs[0].Key) {
		t.Errorf("SolveFactors with an unreachable target: got %v; want an error naming run %s", err, runs[0].Key)
	}
}
