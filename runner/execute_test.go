package runner

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// sweepExperiment is testExperiment with both policies in the sweep and
// results in dir.
func sweepExperiment(t *testing.T, dir string) (*spec.Experiment, []Run) {
	t.Helper()
	e := withPolicies(testExperiment(t))
	e.Hash, e.File = "hash-1", "t.hcl"
	e.Output.Dir, e.Output.Jobs = dir, true
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	return e, runs
}

func execute(t *testing.T, e *spec.Experiment, runs []Run, opt Options) Summary {
	t.Helper()
	if opt.Out == "" {
		opt.Out = e.Output.Dir
	}
	sum, err := Execute(context.Background(), e, runs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// columnValues returns the values of tbl's column name, whose arrays give
// values of type T (string for a string column, int64 for an int64 one).
func columnValues[T any](t *testing.T, tbl arrow.Table, name string) []T {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("table has %d columns %s", len(idx), name)
	}
	var out []T
	for _, c := range tbl.Column(idx[0]).Data().Chunks() {
		vals, ok := c.(interface{ Value(int) T })
		if !ok {
			t.Fatalf("column %s is %s, not of %T values", name, c.DataType(), *new(T))
		}
		for i := range c.Len() {
			out = append(out, vals.Value(i))
		}
	}
	return out
}

// rowsOf returns a Parquet file's row count.
func rowsOf(t *testing.T, path string) int64 {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.NumRows()
}

// readTable reads a whole Parquet file; the caller releases the table.
func readTable(t *testing.T, path string) arrow.Table {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// jobsFiles returns the jobs files under dir, relative, sorted.
func jobsFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(dir, "jobs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func TestExecuteWritesResults(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	sum := execute(t, e, runs, Options{Workers: 2, ToolVersion: "test"})
	if sum.Simulated != 12 || sum.Skipped != 0 || sum.Jobs != 12*76 {
		t.Fatalf("summary %+v; want 12 runs of 76 jobs", sum)
	}
	if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != 12 {
		t.Errorf("runs.parquet has %d rows; want 12", n)
	}
	files := jobsFiles(t, dir)
	if len(files) != 12 {
		t.Fatalf("got %d jobs files; want 12", len(files))
	}
	want := filepath.Join("jobs", "workload=mix", "policy=easy", "load_factor=0.5", "replicate=1")
	if !strings.HasPrefix(files[0], want) {
		t.Errorf("first jobs file %s; want it under %s", files[0], want)
	}
	if n := rowsOf(t, filepath.Join(dir, files[0])); n != 76 {
		t.Errorf("%s has %d rows; want 76", files[0], n)
	}
	// The run table's parameter columns include the axes and the model's.
	rdr, _ := file.OpenParquetFile(filepath.Join(dir, "runs.parquet"), false)
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := fr.Schema()
	for _, col := range []string{"run_key", "workload", "policy", "load_factor", "replicate", "workload_nodes", "policy_order", "wait_mean", "wall_seconds"} {
		if len(sc.FieldIndices(col)) == 0 {
			t.Errorf("runs.parquet lacks column %q; has %v", col, sc)
		}
	}
	for _, left := range []string{".tmp-"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if strings.Contains(filepath.Base(p), left) {
				t.Errorf("temporary file left behind: %s", p)
			}
			return nil
		})
	}
}

func TestExecuteRepeatsAndResumes(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})

	// Again, with or without --resume: nothing to do, tables rewritten
	// whole.
	for _, resume := range []bool{false, true} {
		sum := execute(t, e, runs, Options{Workers: 2, Resume: resume})
		if sum.Simulated != 0 || sum.Skipped != 12 {
			t.Errorf("resume %t, a complete sweep again: %+v; want 12 skipped", resume, sum)
		}
		if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != 12 {
			t.Errorf("resume %t: runs.parquet has %d rows; want 12", resume, n)
		}
	}
	// Another experiment: refused unless --force.
	other, _ := sweepExperiment(t, dir)
	other.Hash, other.Name = "hash-2", "other"
	_, err := Execute(context.Background(), other, runs, Options{Out: dir})
	if !errors.Is(err, ErrOtherExperiment) || !strings.Contains(err.Error(), `experiment "t"`) {
		t.Errorf("another experiment's folder: got %v; want ErrOtherExperiment naming it", err)
	}
	sum := execute(t, other, runs, Options{Workers: 2, Force: true})
	if sum.Simulated != 12 {
		t.Errorf("--force: simulated %d; want all 12 again", sum.Simulated)
	}
}

func TestExecuteUnwritableOutput(t *testing.T) {
	parent := t.TempDir()
	blocker := filepath.Join(parent, "file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	e, runs := sweepExperiment(t, filepath.Join(blocker, "out"))
	_, err := Execute(context.Background(), e, runs, Options{Out: filepath.Join(blocker, "out")})
	if err == nil || !strings.Contains(err.Error(), "cannot use the output folder "+filepath.Join(blocker, "out")) {
		t.Errorf("output under a file: got %v; want an error naming the folder", err)
	}
}

// TestShardUnion checks that n shards together write what one unsharded
// run writes, file for file and byte for byte.
func TestShardUnion(t *testing.T) {
	whole, shards := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 2})
	for i := range 3 {
		execute(t, e, runs, Options{Out: shards, Workers: 1, Shard: i, Shards: 3})
	}
	a, b := jobsFiles(t, whole), jobsFiles(t, shards)
	if len(a) != 12 || strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("jobs files differ:\nwhole  %v\nshards %v", a, b)
	}
	for _, f := range a {
		x, _ := os.ReadFile(filepath.Join(whole, f))
		y, _ := os.ReadFile(filepath.Join(shards, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between the whole sweep and its shards", f)
		}
	}
	var rows int64
	for i := range 3 {
		rows += rowsOf(t, filepath.Join(shards, "runs-"+string(rune('0'+i))+"-of-3.parquet"))
	}
	if rows != 12 {
		t.Errorf("the shards' runs tables hold %d rows; want 12", rows)
	}
	// More shards than runs: the last shard has none, and writes empty
	// tables rather than failing.
	empty := t.TempDir()
	sum := execute(t, e, runs, Options{Out: empty, Workers: 2, Shard: 12, Shards: 13})
	if sum.Selected != 0 || rowsOf(t, sum.RunsFile) != 0 || rowsOf(t, sum.UsersFile) != 0 {
		t.Errorf("shard 12 of 13 of 12 runs: selected %d, wrote %s and %s with rows; want none", sum.Selected, sum.RunsFile, sum.UsersFile)
	}
}

// TestInterruptAndResume cancels a sweep after a few runs, resumes it, and
// compares the result with an uninterrupted sweep.
func TestInterruptAndResume(t *testing.T) {
	whole, broken := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 1})

	ctx, cancel := context.WithCancel(context.Background())
	var seen atomic.Int32
	_, err := Execute(ctx, e, runs, Options{Out: broken, Workers: 1, Progress: func(p Progress) {
		if seen.Add(1) == 4 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sweep: got %v; want context.Canceled", err)
	}
	if got := len(jobsFiles(t, broken)); got < 4 || got >= 12 {
		t.Fatalf("after the interruption %d jobs files exist; want at least 4 and fewer than 12", got)
	}
	if n := rowsOf(t, filepath.Join(broken, "runs.parquet")); n < 4 || n >= 12 {
		t.Errorf("the interrupted sweep's runs table has %d rows; want its finished runs", n)
	}
	sum := execute(t, e, runs, Options{Out: broken, Workers: 2, Resume: true})
	if sum.Skipped < 4 || sum.Simulated+sum.Skipped != 12 {
		t.Errorf("resume: %+v", sum)
	}
	a, b := jobsFiles(t, whole), jobsFiles(t, broken)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("jobs files differ after resume:\n%v\n%v", a, b)
	}
	for _, f := range a {
		x, _ := os.ReadFile(filepath.Join(whole, f))
		y, _ := os.ReadFile(filepath.Join(broken, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs after interrupt and resume", f)
		}
	}
}

// TestDeterministicTables checks that two sweeps of the same experiment into
// different folders write identical jobs and users files, and runs tables
// that differ only in the simulator's wall time.
func TestDeterministicTables(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, a)
	execute(t, e, runs, Options{Out: a, Workers: 2})
	execute(t, e, runs, Options{Out: b, Workers: 1})
	for _, f := range append(jobsFiles(t, a), "users.parquet") {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two sweeps of the same experiment", f)
		}
	}
	read := func(dir string) []string {
		tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
		defer tbl.Release()
		var cols []string
		for i := range int(tbl.NumCols()) {
			if tbl.Schema().Field(i).Name == "wall_seconds" {
				continue
			}
			var vals []string
			for _, ch := range tbl.Column(i).Data().Chunks() {
				vals = append(vals, ch.String())
			}
			cols = append(cols, tbl.Schema().Field(i).Name+"="+strings.Join(vals, ","))
		}
		return cols
	}
	x, y := read(a), read(b)
	if len(x) < 20 {
		t.Fatalf("runs.parquet has only %d columns", len(x))
	}
	for i := range x {
		if x[i] != y[i] {
			t.Errorf("runs.parquet differs between two sweeps:\n%s\n%s", x[i], y[i])
		}
	}
}

// TestExecuteWritesHeatmaps checks the EET columns and the per-run
// heatmap and utilization files.
func TestExecuteWritesHeatmaps(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	e.Output.Heatmaps, e.Output.EETCapacity = true, "equal"
	execute(t, e, runs, Options{Workers: 2})
	for _, kind := range []string{"heatmap", "utilization"} {
		var files []string
		filepath.WalkDir(filepath.Join(dir, kind), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if len(files) != len(runs) {
			t.Errorf("%s: %d files; want one per run (%d)", kind, len(files), len(runs))
		}
	}
	// The job mix overloads 64 processors at load 2, so some EETs break.
	tbl := readTable(t, filepath.Join(dir, "users.parquet"))
	defer tbl.Release()
	idx := tbl.Schema().FieldIndices("eet_violated")
	if len(idx) != 1 {
		t.Fatalf("users.parquet has no eet_violated column: %v", tbl.Schema())
	}
	violated := int64(0)
	for _, ch := range tbl.Column(idx[0]).Data().Chunks() {
		for i := range ch.Len() {
			if !ch.IsNull(i) {
				violated += ch.(interface{ Value(int) int64 }).Value(i)
			}
		}
	}
	if violated == 0 {
		t.Error("no violated EET in an overloaded sweep; the metric did not reach the table")
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"0/1", 0, 1, true},
		{"3/4", 3, 4, true},
		{"15/16", 15, 16, true},
		{"4/4", 0, 0, false},
		{"-1/4", 0, 0, false},
		{"0/0", 0, 0, false},
		{"a/b", 0, 0, false},
		{"1/2x", 0, 0, false},
		{"1/2/3", 0, 0, false},
		{"1 /2", 0, 0, false},
		{"1/ 2", 0, 0, false},
		{"1", 0, 0, false},
		{"", 0, 0, false},
		{"+1/2", 0, 0, false},
		{"1/+2", 0, 0, false},
		{"-0/2", 0, 0, false},
		{"01/2", 1, 2, true}, // digits, as the shell may pad them
	}
	for _, tc := range tests {
		i, n, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || i != tc.i || n != tc.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d, ok %t", tc.in, i, n, err, tc.i, tc.n, tc.ok)
		}
	}
}

// TestExecuteRefusesAnotherSeed checks that a folder's results are not
// resumed under another experiment seed: a --var can change the seed
// without changing the file, and run keys do not hash the seed, so resuming
// would keep results simulated on other jobs. An edited file of the same
// experiment continues the folder: its runs are keyed by their parameters.
func TestExecuteRefusesAnotherSeed(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})

	reseeded, runs2 := sweepExperiment(t, dir)
	reseeded.Seed = e.Seed + 1
	for _, opt := range []Options{{Out: dir, Resume: true}, {Out: dir}} {
		sum, err := Execute(context.Background(), reseeded, runs2, opt)
		if !errors.Is(err, ErrOtherExperiment) || !strings.Contains(err.Error(), "seed 7") || sum.Skipped != 0 {
			t.Errorf("resume %t under seed 8: skipped %d, error %v; want ErrOtherExperiment naming seed 7", opt.Resume, sum.Skipped, err)
		}
	}
	// The same experiment from an edited file: continued.
	edited, runs3 := sweepExperiment(t, dir)
	edited.Hash = "hash-edited"
	if sum := execute(t, edited, runs3, Options{Out: dir}); sum.Skipped != len(runs3) || sum.Simulated != 0 {
		t.Errorf("an edited file of the same grid: %+v; want every run found complete", sum)
	}
	if sum := execute(t, reseeded, runs2, Options{Out: dir, Force: true}); sum.Simulated != len(runs2) {
		t.Errorf("--force under seed 8: simulated %d; want all %d", sum.Simulated, len(runs2))
	}
}

// TestResumeRemovesStaleTemporaries checks that a resumed sweep removes the
// temporary files a killed one left behind (a SIGKILL runs no clean-up), of
// its own runs only: another shard may be writing its own at the time.
func TestResumeRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	e.Output.Heatmaps = true
	mine, theirs := &runs[0], &runs[1]
	stale := func(r *Run) []string {
		part := results.PartitionDir(axes(r))
		return []string{
			filepath.Join(filepath.Dir(JobsPath(dir, r)), ".part-"+r.Key+".parquet.tmp-123"),
			filepath.Join(dir, "heatmap", part, ".part-"+r.Key+".parquet.tmp-456"),
			filepath.Join(dir, "utilization", part, ".part-"+r.Key+".parquet.tmp-789"),
			filepath.Join(dir, stateDir, journalDir, "."+r.Key+journalExt+".tmp-1"),
		}
	}
	// The killed sweep had written its manifest, as every sweep does first.
	o, err := openOutput(e, nil, nil, Options{Out: dir})
	if err != nil {
		t.Fatal(err)
	}
	o.close() // and was killed: its locks went with it
	for _, p := range append(stale(mine), stale(theirs)...) {
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Shard 0 of 2 holds runs[0] (Index 0), not runs[1].
	execute(t, e, runs, Options{Out: dir, Workers: 1, Resume: true, Shard: 0, Shards: 2})
	for _, p := range stale(mine) {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there after the resume", p)
		}
	}
	for _, p := range stale(theirs) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s, of another shard's run, was removed: %v", p, err)
		}
	}
}

// TestForceKeepsForeignFolder checks that Force clears only a folder that
// schedsweep wrote (one with a manifest): pointed at a folder of the user's
// own that holds a jobs/ folder, a sweep refuses, Force or not, and leaves
// it and the folder as they were.
func TestForceKeepsForeignFolder(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "jobs", "submit.sh")
	if err := os.MkdirAll(filepath.Dir(mine), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, runs := sweepExperiment(t, dir)
	for _, force := range []bool{false, true} {
		_, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2, Force: force})
		if !errors.Is(err, ErrNotOurs) || errors.Is(err, ErrOtherExperiment) || !strings.Contains(err.Error(), "jobs/") ||
			strings.Contains(err.Error(), "another experiment") {
			t.Errorf("force %t: got %v; want ErrNotOurs naming jobs/, not another experiment", force, err)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a sweep into a folder schedsweep did not write removed %s: %v", mine, err)
	}
	if _, err := os.Stat(filepath.Join(dir, stateDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused sweep left %s (%v)", stateDir, err)
	}
}

// TestResumeRerunsCutJobsFiles checks that a run whose journal entry
// survived but whose jobs file did not, whole, is run again on --resume:
// after a machine crash (not a killed process) a renamed file can be empty
// or short. A missing file and a file cut short both count.
// TestResumeRerunsDamagedRuns checks that --resume runs again a run whose
// journal entry a crash left empty, and runs whose heatmap or utilization
// file it cut short, and that the files end as an uninterrupted sweep's.
func TestResumeRerunsDamagedRuns(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	e.Output.Heatmaps = true
	execute(t, e, runs, Options{Workers: 2})
	want := readTree(t, dir)
	entries, err := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt))
	if err != nil || len(entries) != len(runs) {
		t.Fatalf("journal: %d entries (%v); want %d", len(entries), err, len(runs))
	}
	if err := os.WriteFile(entries[0], nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cut := func(sub string, i int) {
		t.Helper()
		path := runFile(dir, sub, &runs[i])
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// entries are in key order, runs in grid order: pick runs whose entries
	// are not the one emptied.
	first := strings.TrimSuffix(filepath.Base(entries[0]), journalExt)
	var others []int
	for i := range runs {
		if runs[i].Key != first {
			others = append(others, i)
		}
	}
	cut(results.HeatmapDir, others[0])
	cut(results.UtilizationDir, others[1])
	sum := execute(t, e, runs, Options{Workers: 2, Resume: true})
	if sum.Simulated != 3 || sum.Skipped != len(runs)-3 {
		t.Errorf("resume after damaging three runs: %+v; want those 3 simulated again", sum)
	}
	if got := readTree(t, dir); !maps.EqualFunc(got, want, bytes.Equal) {
		t.Error("the resumed folder differs from the uninterrupted sweep's")
	}
}

// readTree returns the bytes of every file under dir that two sweeps of one
// experiment write alike: all but the runs table (wall_seconds) and the
// journal (which holds the runs table's rows).
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir() && rel == stateDir:
			return filepath.SkipDir
		case d.IsDir() || strings.HasPrefix(rel, results.RunsTable):
			return nil
		}
		files[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestResumeRerunsCutJobsFiles(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	files := jobsFiles(t, dir)
	whole, err := os.ReadFile(filepath.Join(dir, files[2]))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, files[0]), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, files[1]), whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, files[2])); err != nil {
		t.Fatal(err)
	}
	sum := execute(t, e, runs, Options{Workers: 2, Resume: true})
	if sum.Simulated != 3 || sum.Skipped != len(runs)-3 {
		t.Errorf("resume after cutting three jobs files: %+v; want those 3 simulated again", sum)
	}
	for _, f := range files[:3] {
		if n := rowsOf(t, filepath.Join(dir, f)); n != 76 {
			t.Errorf("%s has %d rows after the resume; want 76", f, n)
		}
	}
}

// TestRunsOutsideGrid checks what a sweep does with a folder holding
// finished runs that its grid does not have, as an edited file or other
// --var values (load factors, seeds) leave it: they are reported and kept,
// with their files, and the tables list the grid's runs only; Prune removes
// them; a grid that holds them again finds them complete. A grid that holds
// every finished run and more (another replicate) simulates only the rest.
func TestRunsOutsideGrid(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})

	other, _ := sweepExperiment(t, dir)
	other.Sweep.LoadFactors = []float64{0.5, 3}
	otherRuns, err := Expand(other)
	if err != nil {
		t.Fatal(err)
	}
	var notices []string
	sum := execute(t, other, otherRuns, Options{Out: dir, Workers: 2, Notice: func(s string) { notices = append(notices, s) }})
	if sum.Outside != 8 || sum.Pruned != 0 || sum.Skipped != 4 || sum.Simulated != 4 {
		t.Errorf("other load factors: %+v; want 8 outside and kept, 4 complete, 4 simulated", sum)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "8 finished runs that the grid no longer has") || !strings.Contains(notices[0], "--prune") {
		t.Errorf("notices %q; want one counting the 8 runs outside the grid and naming --prune", notices)
	}
	if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != int64(len(otherRuns)) {
		t.Errorf("runs.parquet has %d rows; want the grid's %d", n, len(otherRuns))
	}
	if got := len(jobsFiles(t, dir)); got != 16 {
		t.Errorf("%d jobs files; want the 12 finished and the 4 new", got)
	}
	// Back to the first grid: all 12 complete, the 4 new runs outside.
	if sum := execute(t, e, runs, Options{Out: dir, Workers: 2}); sum.Simulated != 0 || sum.Outside != 4 {
		t.Errorf("the first grid again: %+v; want nothing simulated, 4 outside", sum)
	}
	// Pruned: gone, files and journal entries.
	if sum := execute(t, other, otherRuns, Options{Out: dir, Workers: 2, Prune: true}); sum.Pruned != 8 || sum.Simulated != 0 {
		t.Errorf("--prune: %+v; want the 8 runs outside removed, nothing simulated", sum)
	}
	if got := len(jobsFiles(t, dir)); got != len(otherRuns) {
		t.Errorf("after --prune: %d jobs files; want the grid's %d", got, len(otherRuns))
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, stateDir, journalDir, "*"+journalExt)); len(entries) != len(otherRuns) {
		t.Errorf("after --prune: %d journal entries; want the grid's %d", len(entries), len(otherRuns))
	}

	more, _ := sweepExperiment(t, dir)
	more.Sweep.Seeds = []uint64{1, 2, 3}
	more.Sweep.LoadFactors = other.Sweep.LoadFactors
	moreRuns, err := Expand(more)
	if err != nil {
		t.Fatal(err)
	}
	if sum := execute(t, more, moreRuns, Options{Out: dir, Workers: 2}); sum.Skipped != len(otherRuns) || sum.Simulated != len(moreRuns)-len(otherRuns) {
		t.Errorf("a third replicate: %+v; want the %d finished runs skipped and %d simulated", sum, len(otherRuns), len(moreRuns)-len(otherRuns))
	}
	if sum := execute(t, e, runs, Options{Out: dir, Workers: 2, Force: true}); sum.Simulated != len(runs) {
		t.Errorf("--force: simulated %d; want %d", sum.Simulated, len(runs))
	}
	if got := len(jobsFiles(t, dir)); got != len(runs) {
		t.Errorf("after --force: %d jobs files; want the grid's %d", got, len(runs))
	}
}

// TestInterruptAfterLastRun cancels a sweep once its last run is done, as a
// Ctrl-C (or Slurm's SIGTERM at the time limit) that arrives while the
// tables are written: every run is complete and in the tables, so the sweep
// succeeded, and reporting it interrupted would tell the user to resume a
// sweep with nothing left to run.
func TestInterruptAfterLastRun(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := Execute(ctx, e, runs, Options{Out: dir, Workers: 2, Progress: func(p Progress) {
		if p.Done == p.Total {
			cancel()
		}
	}})
	if err != nil || sum.Simulated != len(runs) {
		t.Errorf("cancelled after the last run: %d of %d simulated, error %v; want all and no error", sum.Simulated, len(runs), err)
	}
	if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != int64(len(runs)) {
		t.Errorf("runs.parquet has %d rows; want %d", n, len(runs))
	}
}

// TestJournalFailureStopsSweep makes the journal unwritable after the first
// run (its folder replaced by a file, which fails even for root, as a full
// disk or a read-only remount would): the sweep must stop, not simulate and
// write the jobs files of every remaining run only to report the failure at
// the end, and must report that failure, not an interruption.
func TestJournalFailureStopsSweep(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	journal := filepath.Join(dir, stateDir, journalDir)
	_, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 1, Progress: func(p Progress) {
		if p.Done == 1 {
			if err := os.RemoveAll(journal); err != nil {
				t.Error(err)
			}
			if err := os.WriteFile(journal, nil, 0o644); err != nil {
				t.Error(err)
			}
		}
	}})
	if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "writing the journal") {
		t.Fatalf("journal unwritable after one run: got %v; want the journal's error", err)
	}
	if got := len(jobsFiles(t, dir)); got >= 6 {
		t.Errorf("journal unwritable after one run of %d: %d jobs files written; want the sweep to stop within a few runs", len(runs), got)
	}
}

// TestSummaryNamesOnlyWrittenTables makes the runs table unwritable (a
// folder with a file in it sits at its name, which fails even for root):
// the summary must not name tables that were not written, as the command
// prints them as the results.
func TestSummaryNamesOnlyWrittenTables(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	execute(t, e, runs, Options{Workers: 2})
	runsPath := filepath.Join(dir, "runs.parquet")
	if err := os.Remove(runsPath); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(runsPath, "x"), 0o777); err != nil {
		t.Fatal(err)
	}
	sum, err := Execute(context.Background(), e, runs, Options{Out: dir, Resume: true})
	if err == nil || !strings.Contains(err.Error(), runsPath) {
		t.Fatalf("runs table unwritable: got %v; want an error naming %s", err, runsPath)
	}
	if sum.RunsFile != "" || sum.UsersFile != "" || sum.Skipped != len(runs) {
		t.Errorf("runs table unwritable: summary %+v; want the %d complete runs and no tables named", sum, len(runs))
	}
}
