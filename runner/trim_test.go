package runner

import (
	"bytes"
	"encoding/gob"
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// trimColumns returns runs.parquet's jobs, warmup, cooldown and
// jobs_measured, and its wait means, row by row.
func trimColumns(t *testing.T, dir string) (jobs []int64, warm, cool []float64, measured []int64, waits []float64) {
	t.Helper()
	tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
	defer tbl.Release()
	return columnValues[int64](t, tbl, "jobs"), columnValues[float64](t, tbl, "warmup"),
		columnValues[float64](t, tbl, "cooldown"), columnValues[int64](t, tbl, "jobs_measured"),
		columnValues[float64](t, tbl, "wait_mean")
}

// jobsSums returns the bytes of every jobs file under dir, by path.
func jobsSums(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range jobsFiles(t, dir) {
		out[f] = readFile(t, filepath.Join(dir, f))
	}
	return out
}

// TestTrimRedoesRuns checks that runs.parquet records the output block's
// warmup and cooldown, that changing them simulates every finished run
// again (the run key does not cover them) without changing a schedule,
// and that an unchanged trim keeps the runs.
func TestTrimRedoesRuns(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	jobs, warm, cool, measured, waits := trimColumns(t, dir)
	for i := range jobs {
		if warm[i] != 0 || cool[i] != 0 || measured[i] != jobs[i] {
			t.Errorf("untrimmed run %d: warmup %g, cooldown %g, jobs_measured %d of %d; want 0, 0, all",
				i, warm[i], cool[i], measured[i], jobs[i])
		}
	}
	before := jobsSums(t, dir)

	e.Output.Warmup, e.Output.Cooldown = 0.25, 0.1
	sum := execute(t, e, runs, Options{Workers: 2, Resume: true})
	if sum.Simulated != len(runs) || sum.Redone != len(runs) {
		t.Errorf("trim changed: %+v; want all %d runs simulated again", sum, len(runs))
	}
	jobs2, warm, cool, measured, waits2 := trimColumns(t, dir)
	if d := cmp.Diff(jobs, jobs2); d != "" {
		t.Errorf("jobs changed with the trim (-before +after):\n%s", d)
	}
	differs := false
	for i, n := range jobs2 {
		want := n - int64(math.Floor(0.25*float64(n))) - int64(math.Floor(0.1*float64(n)))
		if warm[i] != 0.25 || cool[i] != 0.1 || measured[i] != want {
			t.Errorf("trimmed run %d: warmup %g, cooldown %g, jobs_measured %d of %d; want 0.25, 0.1, %d",
				i, warm[i], cool[i], measured[i], n, want)
		}
		differs = differs || waits2[i] != waits[i]
	}
	if !differs {
		t.Error("no run's wait_mean changed with the trim; the trim did not reach the statistics")
	}
	if d := cmp.Diff(before, jobsSums(t, dir)); d != "" {
		t.Errorf("trimming changed the jobs files, that is the schedules (-before +after):\n%s", d)
	}

	if sum := execute(t, e, runs, Options{Workers: 2, Resume: true}); sum.Simulated != 0 {
		t.Errorf("same trim again: %+v; want nothing simulated", sum)
	}
}

// TestEntryBeforeTrim checks that a journal entry written before trimming
// was recorded (no trim, no jobs_measured) counts as untrimmed: kept when
// the sweep does not trim, with jobs_measured filled in as jobs, and
// simulated again when it does.
func TestEntryBeforeTrim(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	paths, _ := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	for _, p := range paths {
		en, err := decodeEntry(readFile(t, p))
		if err != nil {
			t.Fatal(err)
		}
		en.Row.JobsMeasured = 0 // as gob decodes an entry without the field
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(en); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, buf.Bytes())
	}
	if sum := execute(t, e, runs, Options{Workers: 2, Resume: true}); sum.Simulated != 0 {
		t.Errorf("old entries, no trim: %+v; want every run kept", sum)
	}
	jobs, _, _, measured, _ := trimColumns(t, dir)
	if d := cmp.Diff(jobs, measured); d != "" {
		t.Errorf("old entries: jobs_measured is not jobs (-jobs +jobs_measured):\n%s", d)
	}
	e.Output.Cooldown = 0.5
	if sum := execute(t, e, runs, Options{Workers: 2, Resume: true}); sum.Simulated != len(runs) {
		t.Errorf("old entries, cooldown 0.5: %+v; want all %d runs simulated again", sum, len(runs))
	}
}
