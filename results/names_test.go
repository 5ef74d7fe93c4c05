package results_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
)

// TestNames pins every name of a results folder: renaming one breaks the
// folders users already have, their scripts and the interop check.
func TestNames(t *testing.T) {
	axes := []results.Param{
		{Name: "workload", Value: results.StringValue("lublin 256")},
		{Name: "policy", Value: results.StringValue("easy")},
		{Name: "load_factor", Value: results.FloatValue(0.8)},
		{Name: "replicate", Value: results.IntValue(1)},
	}
	for _, tc := range []struct{ got, want string }{
		{results.TableFile(results.RunsTable, 0, 1), "runs.parquet"},
		{results.TableFile(results.UsersTable, 0, 1), "users.parquet"},
		{results.TableFile(results.RunsTable, 0, 0), "runs.parquet"},
		{results.TableFile(results.RunsTable, 2, 4), "runs-2-of-4.parquet"},
		{results.TableFile(results.UsersTable, 11, 12), "users-11-of-12.parquet"},
		{results.PartFile("0123456789abcdef"), "part-0123456789abcdef.parquet"},
		{results.RunFile(results.JobsDir, axes, "k1"), "jobs/workload=lublin%20256/policy=easy/load_factor=0.8/replicate=1/part-k1.parquet"},
		{results.RunFile(results.HeatmapDir, axes, "k1"), "heatmap/workload=lublin%20256/policy=easy/load_factor=0.8/replicate=1/part-k1.parquet"},
		{results.RunFile(results.UtilizationDir, axes, "k1"), "utilization/workload=lublin%20256/policy=easy/load_factor=0.8/replicate=1/part-k1.parquet"},
		{strings.Join(results.RunDirs(), " "), "jobs heatmap utilization"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q; want %q", tc.got, tc.want)
		}
	}
}

func TestTableShard(t *testing.T) {
	for _, tc := range []struct {
		name          string
		shard, shards int
		ok            bool
	}{
		{"runs.parquet", 0, 1, true},
		{"runs-0-of-2.parquet", 0, 2, true},
		{"runs-11-of-12.parquet", 11, 12, true},
		{"runs-02-of-4.parquet", 0, 0, false}, // TableFile never pads
		{"runs-+2-of-4.parquet", 0, 0, false},
		{"runs--1-of-4.parquet", 0, 0, false},
		{"runs-4-of-4.parquet", 0, 0, false}, // shards count from 0
		{"runs-0-of-1.parquet", 0, 0, false}, // one shard is the whole sweep
		{"runs-0-of-2.parquet.bak", 0, 0, false},
		{"runs-0-of-.parquet", 0, 0, false},
		{"runs-x-of-2.parquet", 0, 0, false},
		{"runs-1-2.parquet", 0, 0, false},
		{"runsummary.parquet", 0, 0, false},
		{"runs-notes.parquet", 0, 0, false},
		{"runs.csv", 0, 0, false},
		{".runs.parquet.tmp-123", 0, 0, false},
		{"users.parquet", 0, 0, false},
	} {
		shard, shards, ok := results.TableShard(results.RunsTable, tc.name)
		if shard != tc.shard || shards != tc.shards || ok != tc.ok {
			t.Errorf("TableShard(runs, %q) = %d, %d, %v; want %d, %d, %v", tc.name, shard, shards, ok, tc.shard, tc.shards, tc.ok)
		}
		// Whatever it accepts, TableFile gives back.
		if ok && results.TableFile(results.RunsTable, shard, shards) != tc.name {
			t.Errorf("TableShard(runs, %q) = %d of %d, which TableFile names %q", tc.name, shard, shards, results.TableFile(results.RunsTable, shard, shards))
		}
	}
}

func TestPartKey(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		ok        bool
	}{
		{"part-0123456789abcdef.parquet", "0123456789abcdef", true},
		{results.PartFile("fcfs-1-r2"), "fcfs-1-r2", true},
		{"part-.parquet", "", false},
		{".part-k1.parquet.tmp-42", "", false},
		{"part-k1.parquet.tmp", "", false},
		{"k1.parquet", "", false},
		{"data.parquet", "", false},
	} {
		if key, ok := results.PartKey(tc.name); key != tc.key || ok != tc.ok {
			t.Errorf("PartKey(%q) = %q, %v; want %q, %v", tc.name, key, ok, tc.key, tc.ok)
		}
	}
}

// writeTablesAndDecoys writes empty runs and users tables of a sweep
// split shards ways into dir, under the names TableFile gives, beside
// files named decoys and a folder under a table's name.
func writeTablesAndDecoys(t *testing.T, dir string, shards int, decoys []string) {
	t.Helper()
	for i := range shards {
		if err := results.WriteRuns(filepath.Join(dir, results.TableFile(results.RunsTable, i, shards)), nil, testMeta); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteUsers(filepath.Join(dir, results.TableFile(results.UsersTable, i, shards)), nil, testMeta); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range decoys {
		if err := os.WriteFile(filepath.Join(dir, d), []byte("not a table"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "runs-1-of-2.parquet"), 0o755); err != nil { // a folder is no table
		t.Fatal(err)
	}
}

// TestTableFilesFindWhatIsWritten lays out the tables of an unsharded and
// of a three-way sharded sweep under the names TableFile gives, beside
// files that only look like them, and checks that TableFiles, which
// readers and the runner's --force use, finds exactly the tables.
func TestTableFilesFindWhatIsWritten(t *testing.T) {
	decoys := []string{"runsummary.parquet", "runs-notes.parquet", "runs-01-of-3.parquet", "users_old.parquet",
		".runs.parquet.tmp-7", "runs.parquet.bak", "jobs.parquet"}
	for _, tc := range []struct {
		name   string
		shards int
		want   map[string][]string
	}{
		{"unsharded", 1, map[string][]string{
			results.RunsTable:  {"runs.parquet"},
			results.UsersTable: {"users.parquet"},
		}},
		{"three shards", 3, map[string][]string{
			results.RunsTable:  {"runs-0-of-3.parquet", "runs-1-of-3.parquet", "runs-2-of-3.parquet"},
			results.UsersTable: {"users-0-of-3.parquet", "users-1-of-3.parquet", "users-2-of-3.parquet"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTablesAndDecoys(t, dir, tc.shards, decoys)
			for table, want := range tc.want {
				paths, err := results.TableFiles(dir, table)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, p := range paths {
					if filepath.Dir(p) != dir {
						t.Errorf("TableFiles(%s): %s is not in %s", table, p, dir)
					}
					got = append(got, filepath.Base(p))
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("TableFiles(%s) (-want +got):\n%s", table, diff)
				}
			}
		})
	}
	if _, err := results.TableFiles(filepath.Join(t.TempDir(), "nonesuch"), results.RunsTable); !os.IsNotExist(err) {
		t.Errorf("TableFiles of a missing folder: got %v; want a not-exist error", err)
	}
}
