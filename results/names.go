package results

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// The names of a results folder's files, relative to the folder: the
// runner writes under them and readers (results/plot) find files by them,
// so both take them from here.
//
//	runs.parquet, users.parquet              TableFile(RunsTable, 0, 1), TableFile(UsersTable, 0, 1)
//	runs-I-of-N.parquet, users-I-of-N.parquet   the same tables of shard I of N
//	node_groups.parquet                      TableFile(GroupsTable, 0, 1), in sweeps with runs on nodes
//	jobs/<axis>=<value>/…/part-KEY.parquet   RunFile(JobsDir, axes, key)
//	heatmap/…/part-KEY.parquet               RunFile(HeatmapDir, axes, key)
//	utilization/…/part-KEY.parquet           RunFile(UtilizationDir, axes, key)
//
// The runner's own state (.schedsweep/) is its business, not a reader's.
const (
	// RunsTable is the runs table's base name (one row per run).
	RunsTable = "runs"
	// UsersTable is the users table's base name (one row per user and run).
	UsersTable = "users"
	// GroupsTable is the node groups table's base name (one row per node
	// group and run on nodes), written only by sweeps with runs on nodes.
	GroupsTable = "node_groups"
	// JobsDir holds one jobs file per run, Hive-partitioned by the sweep axes.
	JobsDir = "jobs"
	// HeatmapDir holds one violated-EET heatmap per run, partitioned as JobsDir.
	HeatmapDir = "heatmap"
	// UtilizationDir holds one utilization series per run, partitioned as JobsDir.
	UtilizationDir = "utilization"
)

const (
	parquetExt = ".parquet"
	partPrefix = "part-"
)

// TableFile returns the file name of table (RunsTable, UsersTable or
// GroupsTable) as shard shard of shards writes it: "runs.parquet" when
// shards ≤ 1, else "runs-2-of-4.parquet" for shard 2 of 4 (shards count
// from 0).
func TableFile(table string, shard, shards int) string {
	if shards <= 1 {
		return table + parquetExt
	}
	return table + "-" + strconv.Itoa(shard) + "-of-" + strconv.Itoa(shards) + parquetExt
}

// TableShard reports whether name (a base name, not a path) is a file
// TableFile gives for table, and for which shard: (0, 1, true) for
// "runs.parquet", (2, 4, true) for "runs-2-of-4.parquet". Only names
// TableFile can give match: not "runs-02-of-4.parquet", "runs-4-of-4.parquet"
// nor "runsummary.parquet", and never a temporary file (".runs.parquet.tmp-…").
func TableShard(table, name string) (shard, shards int, ok bool) {
	rest, ok := strings.CutPrefix(name, table)
	if !ok {
		return 0, 0, false
	}
	if rest == parquetExt {
		return 0, 1, true
	}
	rest, ok = strings.CutSuffix(rest, parquetExt)
	if !ok {
		return 0, 0, false
	}
	if rest, ok = strings.CutPrefix(rest, "-"); !ok {
		return 0, 0, false
	}
	i, n, ok := strings.Cut(rest, "-of-")
	if !ok {
		return 0, 0, false
	}
	shard, err1 := strconv.Atoi(i)
	shards, err2 := strconv.Atoi(n)
	// Giving the name back rules out "02", "+2" and a single shard.
	if err1 != nil || err2 != nil || shard < 0 || shard >= shards || TableFile(table, shard, shards) != name {
		return 0, 0, false
	}
	return shard, shards, true
}

// TableFiles returns the paths of dir's files that hold table, of the
// whole sweep or of any shard (the names TableShard accepts), sorted by
// name. An error reading dir is returned as os.ReadDir gives it
// (fs.ErrNotExist for a missing folder).
func TableFiles(dir, table string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries { // os.ReadDir sorts by name
		if _, _, ok := TableShard(table, e.Name()); ok && !e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// PartFile returns the file name of run key's file in its partition:
// "part-KEY.parquet".
func PartFile(key string) string {
	return partPrefix + key + parquetExt
}

// PartKey returns the run key of a file name PartFile gave, and false for
// any other name (an empty key, or a temporary ".part-….tmp-…" file).
func PartKey(name string) (key string, ok bool) {
	key, ok = strings.CutPrefix(name, partPrefix)
	if !ok {
		return "", false
	}
	key, ok = strings.CutSuffix(key, parquetExt)
	if !ok || key == "" {
		return "", false
	}
	return key, true
}

// RunFile returns the path, relative to the results folder and with '/'
// separators, of run key's file under dir (JobsDir, HeatmapDir or
// UtilizationDir) for a run with the given sweep axes:
// "jobs/workload=lublin/policy=easy/load_factor=0.8/replicate=1/part-KEY.parquet"
// (see PartitionDir). Join it to the folder with filepath.FromSlash.
func RunFile(dir string, axes []Param, key string) string {
	return path.Join(dir, PartitionDir(axes), PartFile(key))
}

// RunDirs returns the folders that hold one file per run: JobsDir,
// HeatmapDir and UtilizationDir.
func RunDirs() []string { return []string{JobsDir, HeatmapDir, UtilizationDir} }
