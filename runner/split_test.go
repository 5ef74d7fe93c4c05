package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
)

// tableNamesIn returns the base names of dir's runs and users tables, of
// any split, sorted.
func tableNamesIn(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	for _, table := range []string{results.RunsTable, results.UsersTable} {
		files, err := results.TableFiles(dir, table)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			names = append(names, filepath.Base(f))
		}
	}
	slices.Sort(names)
	return names
}

// columnsOf returns a Parquet table's columns as "name=values" strings,
// leaving out the simulator's wall time, the one column two sweeps of an
// experiment may differ in.
func columnsOf(t *testing.T, path string) []string {
	t.Helper()
	tbl := readTable(t, path)
	defer tbl.Release()
	var cols []string
	for i := range int(tbl.NumCols()) {
		name := tbl.Schema().Field(i).Name
		if name == "wall_seconds" {
			continue
		}
		var vals []string
		for _, ch := range tbl.Column(i).Data().Chunks() {
			vals = append(vals, ch.String())
		}
		cols = append(cols, name+"="+strings.Join(vals, ","))
	}
	return cols
}

// snapshot returns every file under dir with its contents and modification
// time, to tell whether a refused sweep wrote anything; the lock files,
// empty, are left out.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == lockDir {
			return filepath.SkipDir // empty files whose locks come and go
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data := ""
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			data = string(b)
		}
		files[p] = info.ModTime().String() + "\x00" + data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestWholeSweepReplacesShardTables runs shard 0 of 2 and then the whole
// sweep into one folder: the whole sweep's tables hold every run once, and
// the shard's tables, whose runs they repeat, are gone, so that a reader of
// runs*.parquet sees each run once. The same holds when the whole sweep is
// interrupted: the tables it wrote hold the shard's runs too.
func TestWholeSweepReplacesShardTables(t *testing.T) {
	scratch := t.TempDir()
	e, runs := sweepExperiment(t, scratch)
	execute(t, e, runs, Options{Workers: 2})

	t.Run("complete", func(t *testing.T) {
		dir := t.TempDir()
		execute(t, e, runs, Options{Out: dir, Workers: 2, Shard: 0, Shards: 2})
		sum := execute(t, e, runs, Options{Out: dir, Workers: 2, Resume: true})
		if sum.Skipped != 6 || sum.Simulated != 6 {
			t.Errorf("the whole sweep after shard 0/2: %+v; want 6 skipped and 6 simulated", sum)
		}
		if want := []string{"runs-0-of-2.parquet", "users-0-of-2.parquet"}; !slices.Equal(sum.Replaced, want) {
			t.Errorf("Summary.Replaced = %v; want %v", sum.Replaced, want)
		}
		want := []string{"runs.parquet", "users.parquet"}
		if got := tableNamesIn(t, dir); !slices.Equal(got, want) {
			t.Fatalf("tables after shard 0/2 and the whole sweep: got %v; want %v", got, want)
		}
		if n := rowsOf(t, filepath.Join(dir, "runs.parquet")); n != int64(len(runs)) {
			t.Errorf("runs.parquet has %d rows; want the grid's %d", n, len(runs))
		}
		got, want2 := columnsOf(t, filepath.Join(dir, "runs.parquet")), columnsOf(t, filepath.Join(scratch, "runs.parquet"))
		if !slices.Equal(got, want2) {
			t.Errorf("runs.parquet differs from an unsharded sweep's from scratch:\ngot  %v\nwant %v", got, want2)
		}
		x, _ := os.ReadFile(filepath.Join(dir, "users.parquet"))
		y, _ := os.ReadFile(filepath.Join(scratch, "users.parquet"))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Error("users.parquet differs from an unsharded sweep's from scratch")
		}
	})

	t.Run("interrupted", func(t *testing.T) {
		dir := t.TempDir()
		execute(t, e, runs, Options{Out: dir, Workers: 2, Shard: 1, Shards: 2})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var seen atomic.Int32
		_, err := Execute(ctx, e, runs, Options{Out: dir, Workers: 1, Resume: true, Progress: func(Progress) {
			if seen.Add(1) == 3 { // the skipped runs' report, then two runs
				cancel()
			}
		}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted whole sweep: got %v; want context.Canceled", err)
		}
		want := []string{"runs.parquet", "users.parquet"}
		if got := tableNamesIn(t, dir); !slices.Equal(got, want) {
			t.Fatalf("tables after shard 1/2 and an interrupted whole sweep: got %v; want %v", got, want)
		}
		tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
		defer tbl.Release()
		keys := map[string]bool{}
		for _, ch := range tbl.Column(tbl.Schema().FieldIndices("run_key")[0]).Data().Chunks() {
			for i := range ch.Len() {
				keys[ch.ValueStr(i)] = true
			}
		}
		if n := tbl.NumRows(); n < 8 || n >= int64(len(runs)) || int(n) != len(keys) {
			t.Errorf("runs.parquet holds %d rows of %d runs; want the shard's 6 and at least 2 more, each once", n, len(keys))
		}
	})
}

// TestShardRefusesOtherSplit checks that a sweep split n ways is refused,
// before anything is written, in a folder holding the tables of another
// split, with an error naming the folder, the split found and the ways
// out; and that Force still starts over.
func TestShardRefusesOtherSplit(t *testing.T) {
	whole := t.TempDir()
	e, runs := sweepExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 2})
	tests := []struct {
		name          string
		first         Options // the sweep already in the folder
		shard, shards int
		want          []string // in the error
		notWant       string
	}{
		{"2 then 3", Options{Shard: 0, Shards: 2}, 0, 3,
			[]string{"tables of the sweep split 2 ways (runs-0-of-2.parquet …), not of the sweep split 3 ways: run with --shard i/2, or without --shard", "--force"}, ""},
		{"3 then 2", Options{Shard: 1, Shards: 3}, 1, 2,
			[]string{"split 3 ways (runs-1-of-3.parquet …)", "--shard i/3"}, ""},
		{"whole then 2", Options{}, 0, 2,
			[]string{"tables of the whole sweep (runs.parquet …), not of the sweep split 2 ways: run without --shard (--resume", "--force"}, "--shard i/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first := tc.first
			first.Out, first.Workers = dir, 2
			execute(t, e, runs, first)
			before := snapshot(t, dir)
			for _, resume := range []bool{false, true} {
				sum, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2, Shard: tc.shard, Shards: tc.shards, Resume: resume})
				if !errors.Is(err, ErrOtherSplit) || !strings.Contains(err.Error(), dir+" holds") {
					t.Fatalf("shard %d/%d (resume %t): got %v; want ErrOtherSplit naming %s", tc.shard, tc.shards, resume, err, dir)
				}
				what := fmt.Sprintf("shard %d/%d", tc.shard, tc.shards)
				checkSays(t, what, err, tc.want, tc.notWant)
				if sum.Simulated != 0 || sum.RunsFile != "" {
					t.Errorf("%s refused: summary %+v; want nothing simulated or written", what, sum)
				}
			}
			checkUntouched(t, "the refused sweep", before, snapshot(t, dir))
			// Force starts over: only the new split's tables remain.
			sum := execute(t, e, runs, Options{Out: dir, Workers: 2, Shard: tc.shard, Shards: tc.shards, Force: true})
			want := []string{filepath.Base(sum.RunsFile), filepath.Base(sum.UsersFile)}
			if got := tableNamesIn(t, dir); !slices.Equal(got, want) {
				t.Errorf("after --force with shard %d/%d: tables %v; want %v", tc.shard, tc.shards, got, want)
			}
		})
	}

	t.Run("mixed", func(t *testing.T) { testMixedSplits(t, e, runs, whole) })
}

// testMixedSplits checks a folder already holding two splits (as sweeps
// before this rule could leave it): shards of either are refused, and the
// way out offered is the whole sweep, not one of the two splits. whole is
// the folder of the whole sweep of e's runs.
func testMixedSplits(t *testing.T, e *spec.Experiment, runs []Run, whole string) {
	dir := t.TempDir()
	execute(t, e, runs, Options{Out: dir, Workers: 2, Shard: 0, Shards: 2})
	for _, name := range []string{"runs.parquet", "users.parquet"} {
		data, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2, Resume: true, Shard: 1, Shards: 2})
	if !errors.Is(err, ErrOtherSplit) || !strings.Contains(err.Error(), "the whole sweep (runs.parquet …), not of the sweep split 2 ways: run without --shard (which writes") ||
		strings.Contains(err.Error(), "--shard i/") {
		t.Errorf("shard 1/2 into a folder of the whole sweep and of 2 shards: got %v; want ErrOtherSplit naming the whole sweep, offering no --shard", err)
	}
	_, err = Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2, Resume: true, Shard: 0, Shards: 3})
	if !errors.Is(err, ErrOtherSplit) || !strings.Contains(err.Error(), "the whole sweep (runs.parquet …) and of the sweep split 2 ways (runs-0-of-2.parquet …), not of the sweep split 3 ways") ||
		strings.Contains(err.Error(), "--shard i/") {
		t.Errorf("shard 0/3 into a folder of the whole sweep and of 2 shards: got %v; want ErrOtherSplit naming both, offering no --shard", err)
	}
	execute(t, e, runs, Options{Out: dir, Workers: 2, Resume: true})
	if got, want := tableNamesIn(t, dir), []string{"runs.parquet", "users.parquet"}; !slices.Equal(got, want) {
		t.Errorf("after the whole sweep: tables %v; want %v", got, want)
	}
}

// checkSays reports an error of what's unless err says each of want and,
// if notWant is not "", does not say it.
func checkSays(t *testing.T, what string, err error, want []string, notWant string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not say %q", what, err, w)
		}
	}
	if notWant != "" && strings.Contains(err.Error(), notWant) {
		t.Errorf("%s: error %q says %q", what, err, notWant)
	}
}

// checkUntouched reports every file of snapshot before that what changed
// or removed in after, and every file it added.
func checkUntouched(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s wrote %s", what, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s removed %s", what, p)
		}
	}
}

// TestConcurrentShardsOneSplit runs the three shards of one split at the
// same time in one folder: none is refused or removes another's tables,
// and together they hold every run once, with the jobs files of the whole
// sweep.
func TestConcurrentShardsOneSplit(t *testing.T) {
	whole, dir := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 1})
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = Execute(context.Background(), e, runs, Options{Out: dir, Workers: 1, Shard: i, Shards: 3})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("shard %d/3: %v", i, err)
		}
	}
	want := []string{
		"runs-0-of-3.parquet", "runs-1-of-3.parquet", "runs-2-of-3.parquet",
		"users-0-of-3.parquet", "users-1-of-3.parquet", "users-2-of-3.parquet",
	}
	if got := tableNamesIn(t, dir); !slices.Equal(got, want) {
		t.Fatalf("tables of three concurrent shards: got %v; want %v", got, want)
	}
	var rows int64
	for _, name := range want[:3] {
		rows += rowsOf(t, filepath.Join(dir, name))
	}
	if rows != int64(len(runs)) {
		t.Errorf("the shards' runs tables hold %d rows; want the grid's %d", rows, len(runs))
	}
	if a, b := jobsFiles(t, whole), jobsFiles(t, dir); !slices.Equal(a, b) {
		t.Errorf("jobs files differ:\nwhole  %v\nshards %v", a, b)
	}
}

// TestSplitLeavesForeignTables checks that a folder without a manifest,
// the user's own, is not judged by its table names: the whole sweep does
// not take a runs-0-of-2.parquet there for a shard's and remove it, but
// refuses the folder and leaves the file alone.
func TestSplitLeavesForeignTables(t *testing.T) {
	dir := t.TempDir()
	theirs := filepath.Join(dir, "runs-0-of-2.parquet")
	if err := os.WriteFile(theirs, []byte("the user's"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, runs := sweepExperiment(t, dir)
	if _, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2}); !errors.Is(err, ErrNotOurs) {
		t.Errorf("got %v; want ErrNotOurs", err)
	}
	if data, err := os.ReadFile(theirs); err != nil || string(data) != "the user's" {
		t.Errorf("the whole sweep in a folder of the user's own changed %s: %q, %v", theirs, data, err)
	}
}

// schemaOf returns a Parquet table's columns as "name type" strings, in
// file order.
func schemaOf(t *testing.T, path string) []string {
	t.Helper()
	tbl := readTable(t, path)
	defer tbl.Release()
	var cols []string
	for _, f := range tbl.Schema().Fields() {
		cols = append(cols, f.Name+" "+f.Type.String())
	}
	return cols
}

// TestShardTablesShareColumns checks that every shard's runs table has the
// columns of the whole sweep's, in its order, whichever runs the shard
// holds: a shard of only fcfs runs (no policy parameters), one of only easy
// runs, and one with no run at all. Readers merge the shards by reading
// runs*.parquet, and DuckDB refuses files whose columns differ ("schema
// mismatch in glob").
func TestShardTablesShareColumns(t *testing.T) {
	whole, dir := t.TempDir(), t.TempDir()
	e, runs := sweepExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 2})
	want := schemaOf(t, filepath.Join(whole, "runs.parquet"))
	if !slices.Contains(want, "policy_order utf8") {
		t.Fatalf("the whole sweep's runs table has no policy_order column: %v", want)
	}
	n := len(runs) + 1 // one shard more than runs: the last is empty
	for _, shard := range []int{0, len(runs) - 1, len(runs)} {
		sum := execute(t, e, runs, Options{Out: dir, Workers: 1, Shard: shard, Shards: n})
		if got := schemaOf(t, sum.RunsFile); !slices.Equal(got, want) {
			t.Errorf("shard %d/%d (%d runs): runs table columns\ngot  %v\nwant %v", shard, n, sum.Selected, got, want)
		}
	}
}

// TestBusyFolderRefused checks the folder locks: shards of one split run
// side by side, while a second process of a shard, a run of the whole
// sweep and a run with --force are refused while a shard runs, and every
// shard is refused while the whole sweep runs, each with ErrBusy and
// nothing written. An open output stands for the running process (flock
// locks belong to an open file, so two in one process conflict as two
// processes do).
func TestBusyFolderRefused(t *testing.T) {
	dir := t.TempDir()
	e, runs := sweepExperiment(t, dir)
	running, err := openOutput(e, runs, SelectShard(runs, 1, 3), Options{Out: dir, Shard: 1, Shards: 3})
	if err != nil {
		t.Fatal(err)
	}
	refused := func(what string, opt Options) {
		t.Helper()
		before := snapshot(t, dir)
		opt.Out, opt.Workers = dir, 1
		sum, err := Execute(context.Background(), e, runs, opt)
		if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: got %v; want ErrBusy naming %s", what, err, dir)
		}
		if sum.Simulated != 0 {
			t.Errorf("%s: simulated %d runs; want none", what, sum.Simulated)
		}
		if after := snapshot(t, dir); !maps.Equal(before, after) {
			t.Errorf("%s: the refused sweep changed the folder", what)
		}
	}
	refused("shard 1/3 twice", Options{Shard: 1, Shards: 3, Resume: true})
	refused("the whole sweep beside shard 1/3", Options{Resume: true})
	refused("--force beside shard 1/3", Options{Shard: 0, Shards: 3, Force: true})
	execute(t, e, runs, Options{Out: dir, Workers: 1, Shard: 0, Shards: 3})
	running.close()
	execute(t, e, runs, Options{Out: dir, Workers: 1, Shard: 1, Shards: 3})

	running, err = openOutput(e, runs, SelectShard(runs, 0, 1), Options{Out: dir, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	refused("shard 2/3 beside the whole sweep", Options{Shard: 2, Shards: 3})
	running.close()
	execute(t, e, runs, Options{Out: dir, Workers: 1, Shard: 2, Shards: 3})
}
