// Command slurmcheck compares the results folder a sharded sweep merged
// with the folder of an unsharded run of the same experiment, for
// .ci/slurm:
//
//	go run ./.ci/slurmcheck MERGED REFERENCE
//
// Every file under jobs/, heatmap/ and utilization/ must be in both, byte
// for byte; runs.parquet and users.parquet must hold the same columns and
// the same rows in the same order, but for wall_seconds, the simulator's
// wall time; and MERGED must hold no shard's table (runs-i-of-n.parquet).
// Exit 0 when they agree, 1 with one line per difference, 2 on bad usage.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run ./.ci/slurmcheck MERGED REFERENCE")
		os.Exit(2)
	}
	merged, ref := os.Args[1], os.Args[2]
	var problems []string
	files, p := compareFiles(merged, ref)
	problems = append(problems, p...)
	rows := map[string]int{}
	for _, table := range []string{"runs.parquet", "users.parquet"} {
		n, p := compareTable(filepath.Join(merged, table), filepath.Join(ref, table))
		rows[table] = n
		problems = append(problems, p...)
	}
	shards, _ := filepath.Glob(filepath.Join(merged, "*-of-*.parquet"))
	for _, s := range shards {
		problems = append(problems, fmt.Sprintf("%s: a shard's table is left beside the merged ones", s))
	}
	if len(problems) > 0 {
		fmt.Fprintln(os.Stderr, strings.Join(problems, "\n"))
		os.Exit(1)
	}
	fmt.Printf("slurmcheck: %s equals %s: %d files byte for byte, runs.parquet %d rows and users.parquet %d rows but wall_seconds\n",
		merged, ref, files, rows["runs.parquet"], rows["users.parquet"])
}

// perRunFiles lists dir's files under the folders that hold a file per
// run, relative to dir, sorted.
func perRunFiles(dir string) ([]string, error) {
	var out []string
	for _, sub := range []string{"jobs", "heatmap", "utilization"} {
		err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			out = append(out, rel)
			return err
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

// compareFiles compares the per-run files of two folders byte for byte and
// returns how many there are and the differences.
func compareFiles(merged, ref string) (int, []string) {
	a, err := perRunFiles(merged)
	if err != nil {
		return 0, []string{err.Error()}
	}
	b, err := perRunFiles(ref)
	if err != nil {
		return 0, []string{err.Error()}
	}
	if len(b) == 0 {
		return 0, []string{ref + ": no jobs files to compare"}
	}
	if !slices.Equal(a, b) {
		return 0, []string{fmt.Sprintf("the folders hold different files: %d in %s, %d in %s (first: %s)",
			len(a), merged, len(b), ref, firstDifference(a, b))}
	}
	var problems []string
	for _, rel := range a {
		x, errA := os.ReadFile(filepath.Join(merged, rel))
		y, errB := os.ReadFile(filepath.Join(ref, rel))
		switch {
		case errA != nil || errB != nil:
			problems = append(problems, fmt.Sprintf("%s: %v %v", rel, errA, errB))
		case !bytes.Equal(x, y):
			problems = append(problems, fmt.Sprintf("%s: differs (%d bytes against %d)", rel, len(x), len(y)))
		}
	}
	return len(a), problems
}

// firstDifference names the first file of two sorted lists that only one
// holds.
func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return min(a[i], b[i])
		}
	}
	if len(a) > len(b) {
		return a[len(b)]
	}
	return b[len(a)]
}

// compareTable compares two Parquet tables row by row, but wall_seconds,
// and returns the rows and the differences.
func compareTable(merged, ref string) (int, []string) {
	a, err := rowsOf(merged)
	if err != nil {
		return 0, []string{err.Error()}
	}
	b, err := rowsOf(ref)
	if err != nil {
		return 0, []string{err.Error()}
	}
	if len(a) != len(b) {
		return 0, []string{fmt.Sprintf("%s: %d rows (header included); %s: %d", merged, len(a), ref, len(b))}
	}
	var problems []string
	differ := 0
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if differ++; differ <= 3 {
			problems = append(problems, fmt.Sprintf("%s: row %d differs:\n  %s\n  %s", merged, i, a[i], b[i]))
		}
	}
	if differ > 3 {
		problems = append(problems, fmt.Sprintf("%s: %d rows differ in all", merged, differ))
	}
	return len(a) - 1, problems
}

// rowsOf reads a Parquet table as lines: the column names, then one line
// per row, wall_seconds left out.
func rowsOf(path string) ([]string, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer tbl.Release()
	var names []string
	var cols [][]string
	for i := range int(tbl.NumCols()) {
		if name := tbl.Schema().Field(i).Name; name != "wall_seconds" {
			names = append(names, name)
			cols = append(cols, values(tbl.Column(i)))
		}
	}
	lines := []string{strings.Join(names, ",")}
	for r := range int(tbl.NumRows()) {
		row := make([]string, len(cols))
		for c := range cols {
			row[c] = cols[c][r]
		}
		lines = append(lines, strings.Join(row, ","))
	}
	return lines, nil
}

// values is a column's values as strings, in order.
func values(col *arrow.Column) []string {
	var out []string
	for _, ch := range col.Data().Chunks() {
		for i := range ch.Len() {
			out = append(out, ch.ValueStr(i))
		}
	}
	return out
}
