package runner

import (
	"bytes"
	"context"
	"encoding/gob"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/workloads"
)

// faultExperiment is sweepExperiment with runs long enough that each jobs
// file spans several 4 KiB blocks: two policies, one load factor, two
// replicates.
func faultExperiment(t *testing.T, dir string) (*spec.Experiment, []Run) {
	t.Helper()
	e := withPolicies(testExperiment(t))
	e.Hash, e.File = "hash-1", "t.hcl"
	e.Output.Dir, e.Output.Jobs = dir, true
	p, ok := e.Workloads[0].Params.(*workloads.JobMixParams)
	if !ok {
		t.Fatalf("job-mix parameters are %T", e.Workloads[0].Params)
	}
	p.Jobs = 2000
	e.Sweep.LoadFactors = []float64{1}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	return e, runs
}

// folderResult is what two sweeps of one experiment write alike: every
// file but the state (readTree), and the runs table's columns but the wall
// time (columnsOf).
type folderResult struct {
	Files map[string][]byte
	Runs  []string
}

func resultOf(t *testing.T, dir string) folderResult {
	t.Helper()
	return folderResult{Files: readTree(t, dir), Runs: columnsOf(t, filepath.Join(dir, "runs.parquet"))}
}

// newestEntry returns the path of the journal entry written last.
func newestEntry(t *testing.T, dir string) string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	if err != nil || len(paths) == 0 {
		t.Fatalf("journal: %v, %d entries", err, len(paths))
	}
	newest, at := "", int64(0)
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if ns := fi.ModTime().UnixNano(); ns >= at {
			newest, at = p, ns
		}
	}
	return newest
}

// TestFaultsResumeToUninterrupted damages a finished sweep's folder as a
// crash (or a careless hand) can, one fault at a time, and checks that the
// next sweep detects the fault, says so, simulates only what it must, and
// ends with the folder an uninterrupted sweep writes.
func TestFaultsResumeToUninterrupted(t *testing.T) {
	ref := t.TempDir()
	e, runs := faultExperiment(t, ref)
	execute(t, e, runs, Options{Workers: 2})
	want := resultOf(t, ref)
	jobsFile := JobsPath("", &runs[1])
	if fi, err := os.Stat(filepath.Join(ref, jobsFile)); err != nil || fi.Size() < 3*4096 {
		t.Fatalf("jobs file %s: %v; want one of at least three 4 KiB blocks", jobsFile, err)
	}
	manifestPath := filepath.Join(stateDir, manifestName)

	for _, tc := range []struct {
		name      string
		inject    func(t *testing.T, dir string)
		simulated int
		redone    int
		notice    string // a notice contains it; "" for none
	}{
		{
			name: "jobs file truncated",
			inject: func(t *testing.T, dir string) {
				path := filepath.Join(dir, jobsFile)
				data := readFile(t, path)
				writeFile(t, path, data[:len(data)-len(data)/3])
			},
			simulated: 1, redone: 1, notice: "bytes; the journal recorded",
		},
		{
			name: "4 KiB block zeroed in a jobs file",
			inject: func(t *testing.T, dir string) {
				path := filepath.Join(dir, jobsFile)
				data := readFile(t, path)
				mid := len(data) / 2 &^ 4095
				clear(data[mid : mid+4096])
				writeFile(t, path, data)
			},
			simulated: 1, redone: 1, notice: "its SHA-256 differs",
		},
		{
			name:   "manifest emptied",
			inject: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, manifestPath), nil) },
			notice: "manifest.json is empty; rebuilt it from the journal (4 finished runs)",
		},
		{
			name: "manifest cut short",
			inject: func(t *testing.T, dir string) {
				writeFile(t, filepath.Join(dir, manifestPath), []byte(`{"experiment": "t", "fi`))
			},
			notice: "manifest.json cannot be read",
		},
		{
			name: "manifest deleted",
			inject: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, manifestPath)); err != nil {
					t.Fatal(err)
				}
			},
			notice: "manifest.json is missing; rebuilt it",
		},
		{
			name: "last journal entry dropped",
			inject: func(t *testing.T, dir string) {
				if err := os.Remove(newestEntry(t, dir)); err != nil {
					t.Fatal(err)
				}
			},
			simulated: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			execute(t, e, runs, Options{Out: dir, Workers: 2})
			tc.inject(t, dir)
			var notices []string
			sum := execute(t, e, runs, Options{Out: dir, Workers: 2, Resume: true,
				Notice: func(s string) { notices = append(notices, s) }})
			if sum.Simulated != tc.simulated || sum.Redone != tc.redone || sum.Skipped != len(runs)-tc.simulated {
				t.Errorf("simulated %d (%d redone), skipped %d; want %d (%d redone) and %d",
					sum.Simulated, sum.Redone, sum.Skipped, tc.simulated, tc.redone, len(runs)-tc.simulated)
			}
			said := strings.Join(notices, "\n")
			if (tc.notice == "") != (len(notices) == 0) || !strings.Contains(said, tc.notice) {
				t.Errorf("notices %q; want one saying %q", notices, tc.notice)
			}
			if diff := cmp.Diff(want, resultOf(t, dir)); diff != "" {
				t.Errorf("the resumed folder differs from the uninterrupted sweep's (-want +got):\n%s", diff)
			}
			if _, data, lost, err := readManifest(dir); err != nil || lost != "" || len(data) == 0 {
				t.Errorf("manifest after the resume: %v, %q", err, lost)
			}
		})
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLostManifestWithoutResume checks that a folder whose manifest is
// gone but whose journal remains is still schedsweep's, not a folder of
// the user's own: without a flag the sweep rebuilds the manifest and
// continues, and --force clears it.
func TestLostManifestWithoutResume(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	if err := os.Remove(filepath.Join(dir, stateDir, manifestName)); err != nil {
		t.Fatal(err)
	}
	if sum := execute(t, e, runs, Options{Workers: 2}); sum.Skipped != len(runs) {
		t.Errorf("manifest deleted, no flag: %+v; want every run found complete", sum)
	}
	if err := os.Remove(filepath.Join(dir, stateDir, manifestName)); err != nil {
		t.Fatal(err)
	}
	if sum := execute(t, e, runs, Options{Workers: 2, Force: true}); sum.Simulated != len(runs) {
		t.Errorf("manifest deleted, --force: simulated %d; want all %d", sum.Simulated, len(runs))
	}
}

// TestLostManifestOtherExperiment checks that a journal whose manifest is
// lost is adopted only by its own experiment, under its own seed.
func TestLostManifestOtherExperiment(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	writeFile(t, filepath.Join(dir, stateDir, manifestName), nil)
	other, _ := sweepExperiment(t, dir)
	other.Name = "other"
	reseeded, reseededRuns := sweepExperiment(t, dir)
	reseeded.Seed++
	if reseededRuns, _ = Expand(reseeded); len(reseededRuns) != len(runs) {
		t.Fatal("reseeded grid differs")
	}
	for _, tc := range []struct {
		name string
		e    *spec.Experiment
		runs []Run
		want string
	}{
		{"another experiment", other, runs, `runs of experiment "t", not "other"`},
		{"another seed", reseeded, reseededRuns, "under another seed than this sweep's 8"},
	} {
		sum, err := Execute(context.Background(), tc.e, tc.runs, Options{Out: dir, Resume: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) || sum.Simulated != 0 {
			t.Errorf("%s: got %v; want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// TestManifestKeptWhenUnchanged checks that a resumed sweep leaves an
// unchanged manifest alone (the same file, not a rewritten one), and
// rewrites it when it changes.
func TestManifestKeptWhenUnchanged(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2, ToolVersion: "v1"})
	path := filepath.Join(dir, stateDir, manifestName)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, e, runs, Options{Workers: 2, ToolVersion: "v1", Resume: true})
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("a resumed sweep rewrote an unchanged manifest")
	}
	execute(t, e, runs, Options{Workers: 2, ToolVersion: "v2", Resume: true})
	if m, _, _, _ := readManifest(dir); m.ToolVersion != "v2" {
		t.Errorf("manifest after a resume by v2 records %q", m.ToolVersion)
	}
}

// TestJournalWithoutSums checks that entries written before the journal
// recorded hashes still resume: their files are checked as they were then,
// for the Parquet magic at both ends.
func TestJournalWithoutSums(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	paths, _ := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	var cut string
	for _, p := range paths {
		en, err := decodeEntry(readFile(t, p))
		if err != nil {
			t.Fatal(err)
		}
		en.Sums, en.EETCapacity = nil, ""
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(en); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, buf.Bytes())
		cut = en.JobsFile
	}
	data := readFile(t, filepath.Join(dir, cut))
	writeFile(t, filepath.Join(dir, cut), data[:len(data)-1])
	sum := execute(t, e, runs, Options{Workers: 2, Resume: true})
	if sum.Simulated != 1 || sum.Redone != 1 {
		t.Errorf("old journal, one jobs file cut: %+v; want that run alone simulated again", sum)
	}
}

// TestOldRowsRedone checks that a journal entry written before the runs
// table had offered_load is simulated again, not kept with a zero there.
func TestOldRowsRedone(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	paths, _ := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	en, err := decodeEntry(readFile(t, paths[0]))
	if err != nil {
		t.Fatal(err)
	}
	en.RowVersion, en.Row.OfferedLoad = 0, 0
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(en); err != nil {
		t.Fatal(err)
	}
	writeFile(t, paths[0], buf.Bytes())
	if sum := execute(t, e, runs, Options{Workers: 2}); sum.Simulated != 1 || sum.Redone != 1 {
		t.Errorf("one entry without offered_load: %+v; want that run alone simulated again", sum)
	}
}

// TestMetadataIgnoresHowThePathWasTyped checks that a sweep of the same
// experiment through a relative and an absolute path writes the same
// bytes: the files' metadata records the file's base name, not the path.
func TestMetadataIgnoresHowThePathWasTyped(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, a)
	e.File = filepath.Join("experiments", "t.hcl")
	execute(t, e, runs, Options{Out: a, Workers: 2})
	e.File = filepath.Join(t.TempDir(), "experiments", "t.hcl")
	execute(t, e, runs, Options{Out: b, Workers: 2})
	x, y := readTree(t, a), readTree(t, b)
	if len(x) == 0 || !maps.EqualFunc(x, y, bytes.Equal) {
		var differ []string
		for name := range x {
			if !bytes.Equal(x[name], y[name]) {
				differ = append(differ, name)
			}
		}
		slices.Sort(differ)
		t.Errorf("files differ between a relative and an absolute experiment path: %v", differ)
	}
	if kv := metadataOf(t, filepath.Join(a, "users.parquet")); kv[results.MetaExperimentFile] != "t.hcl" {
		t.Errorf("%s = %q; want t.hcl", results.MetaExperimentFile, kv[results.MetaExperimentFile])
	}
}

// metadataOf returns a Parquet file's key-value metadata.
func metadataOf(t *testing.T, path string) map[string]string {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	kv := map[string]string{}
	for _, p := range r.MetaData().KeyValueMetadata() {
		if p.Value != nil {
			kv[p.Key] = *p.Value
		}
	}
	return kv
}
