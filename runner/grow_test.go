package runner

import (
	"errors"
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

// TestStatus checks what Status reports of a folder: nothing in a folder
// that does not exist, the complete and new runs of a grown grid, the runs
// outside a shrunk one, and why another experiment's folder is refused;
// and that it writes nothing.
func TestStatus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	e, runs := sweepExperiment(t, dir)
	if st, err := Status(e, runs, Options{}); err != nil || st.Complete != 0 || st.ToSimulate != len(runs) || st.Refused != nil {
		t.Errorf("no folder yet: %+v, %v; want every run to simulate", st, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Status made the folder (%v)", err)
	}
	execute(t, e, runs, Options{Workers: 2})
	more, _ := sweepExperiment(t, dir)
	more.Sweep.LoadFactors = []float64{0.5, 1, 2, 4}
	moreRuns, _ := Expand(more)
	if st, err := Status(more, moreRuns, Options{}); err != nil || st.Complete != 12 || st.ToSimulate != 4 || st.Outside != 0 {
		t.Errorf("grown grid: %+v, %v; want 12 complete, 4 to simulate", st, err)
	}
	less, _ := sweepExperiment(t, dir)
	less.Sweep.LoadFactors = []float64{0.5}
	lessRuns, _ := Expand(less)
	if st, err := Status(less, lessRuns, Options{Shard: 0, Shards: 2}); err != nil || st.Complete != 2 || st.ToSimulate != 0 || st.Outside != 8 {
		t.Errorf("shrunk grid, shard 0/2: %+v, %v; want 2 complete, 8 outside", st, err)
	}
	other, _ := sweepExperiment(t, dir)
	other.Name = "other"
	if st, err := Status(other, runs, Options{}); err != nil || !errors.Is(st.Refused, ErrOtherExperiment) {
		t.Errorf("another experiment: %+v, %v; want it refused", st, err)
	}
}
