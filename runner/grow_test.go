package runner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
)

// TestGrowSweep runs a sweep, then the sweep of its file edited to add a
// load factor and a policy, into the same folder without a flag: only the
// new runs are simulated, the finished runs' jobs files keep their bytes
// and modification times, and the tables list exactly the grown grid.
func TestGrowSweep(t *testing.T) {
	dir := t.TempDir()
	small := func(e *spec.Experiment) *spec.Experiment {
		e.Sweep.Policies = e.Policies[:1]
		e.Sweep.LoadFactors = []float64{0.5, 1}
		return e
	}
	e := small(testExperiment(t))
	e.Hash, e.File, e.Output.Dir, e.Output.Jobs = "hash-1", "t.hcl", dir, true
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, e, runs, Options{Workers: 2})
	type stamp struct {
		data string
		mod  int64
	}
	before := map[string]stamp{}
	for _, f := range jobsFiles(t, dir) {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = stamp{string(readFile(t, filepath.Join(dir, f))), fi.ModTime().UnixNano()}
	}
	if len(before) != len(runs) {
		t.Fatalf("%d jobs files after the first sweep; want %d", len(before), len(runs))
	}

	grown := withPolicies(testExperiment(t)) // fcfs and easy, loads 0.5, 1 and 2
	grown.Hash, grown.File, grown.Output.Dir, grown.Output.Jobs = "hash-2", "t.hcl", dir, true
	grownRuns, err := Expand(grown)
	if err != nil {
		t.Fatal(err)
	}
	sum := execute(t, grown, grownRuns, Options{Workers: 2})
	if sum.Skipped != len(runs) || sum.Simulated != len(grownRuns)-len(runs) || sum.Outside != 0 {
		t.Errorf("grown sweep: %+v; want the %d finished runs kept and %d simulated", sum, len(runs), len(grownRuns)-len(runs))
	}
	for f, was := range before {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if now := (stamp{string(readFile(t, filepath.Join(dir, f))), fi.ModTime().UnixNano()}); now != was {
			t.Errorf("%s changed (same bytes %t, same time %t)", f, now.data == was.data, now.mod == was.mod)
		}
	}
	var want []string
	for _, r := range grownRuns {
		want = append(want, r.Key)
	}
	for _, table := range []string{"runs.parquet", "users.parquet"} {
		tbl := readTable(t, filepath.Join(dir, table))
		keys := columnValues[string](t, tbl, "run_key")
		tbl.Release()
		keys = slices.Compact(slices.Sorted(slices.Values(keys)))
		if !slices.Equal(keys, slices.Sorted(slices.Values(want))) {
			t.Errorf("%s lists runs %v; want the grown grid's %v", table, keys, want)
		}
	}
	if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != int64(len(grownRuns)) {
		t.Errorf("runs.parquet has %d rows; want %d", n, len(grownRuns))
	}
	// The same command again simulates nothing.
	if sum := execute(t, grown, grownRuns, Options{Workers: 2}); sum.Simulated != 0 || sum.Skipped != len(grownRuns) {
		t.Errorf("the grown sweep again: %+v; want nothing simulated", sum)
	}
}
