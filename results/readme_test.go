package results_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
)

// readmeTables returns the column tables of README.md under heading, in
// order: each a list of "name type" with the README's types (string,
// int64, double, boolean). A row naming several columns ("`a`, `b`")
// gives each the row's type, and "`x_…`" stands for x_mean, x_median and
// x_p95. A row whose first cell names no column in backticks (the
// parameters of runs.parquet) becomes "* *".
func readmeTables(t *testing.T, heading string) [][]string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	at := slices.Index(lines, heading)
	if at < 0 {
		t.Fatalf("README.md has no heading %q", heading)
	}
	names := regexp.MustCompile("`([^`]+)`")
	var tables [][]string
	var cur []string
	for _, line := range lines[at+1:] {
		if strings.HasPrefix(line, "#") {
			break
		}
		if !strings.HasPrefix(line, "|") {
			if cur != nil {
				tables, cur = append(tables, cur), nil
			}
			continue
		}
		cells := strings.Split(line, "|")
		first, typ := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if first == "column" || strings.HasPrefix(first, "---") {
			cur = []string{}
			continue
		}
		ms := names.FindAllStringSubmatch(first, -1)
		if len(ms) == 0 {
			cur = append(cur, "* *")
			continue
		}
		for _, m := range ms {
			if stem, ok := strings.CutSuffix(m[1], "_…"); ok {
				for _, s := range []string{"mean", "median", "p95"} {
					cur = append(cur, stem+"_"+s+" "+typ)
				}
				continue
			}
			cur = append(cur, m[1]+" "+typ)
		}
	}
	if cur != nil {
		tables = append(tables, cur)
	}
	return tables
}

// readmeSchema is a written file's schema as README.md names its types.
func readmeSchema(t *testing.T, path string) []string {
	t.Helper()
	types := map[string]string{"utf8": "string", "int64": "int64", "float64": "double", "bool": "boolean"}
	var out []string
	for _, c := range readParquet(t, path).schema() {
		name, typ, _ := strings.Cut(strings.TrimSuffix(c, "?"), " ")
		readme, ok := types[typ]
		if !ok {
			t.Fatalf("%s: column %s has type %s, which README.md does not name", path, name, typ)
		}
		out = append(out, name+" "+readme)
	}
	return out
}

// TestREADMEColumns checks README.md's column tables against the files the
// writers write: the same columns, in the same order, of the same types.
func TestREADMEColumns(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	if err := results.WriteRuns(path("runs"), runRows(), testMeta); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJobs(path("jobs"), "r0001", handResult(), handEET(t), testMeta); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJobsOnNodes(path("jobs-on-nodes"), "r0001", handResult(), handEET(t), nil, testMeta); err != nil {
		t.Fatal(err)
	}
	res, c := nodeRun(t)
	if err := results.WriteGroups(path("node_groups"), results.GroupRows("r0001", res, c), testMeta); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteUsers(path("users"), results.UserRows("r0001", handResult(), handEET(t)), testMeta); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteHeatmap(path("heatmap"), "r0001", 60, heatCases[0].want, testMeta); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteUtilization(path("utilization"), "r0001", 60, results.Utilization(handResult(), 60), testMeta); err != nil {
		t.Fatal(err)
	}
	// runs.parquet's parameters (those of runRows) stand in the README as
	// one row after experiment.
	// The jobs files of a sweep with runs on nodes have the columns of
	// the others, then those of the README's second table.
	jobs, onNodes := readmeSchema(t, path("jobs")), readmeSchema(t, path("jobs-on-nodes"))
	if !slices.Equal(onNodes[:len(jobs)], jobs) {
		t.Fatalf("jobs files on nodes %v: want the columns %v first", onNodes, jobs)
	}
	runs := readmeSchema(t, path("runs"))
	params := []string{"workload string", "policy string", "load_factor double", "replicate int64", "backfill boolean"}
	if i := slices.Index(runs, params[0]); i < 0 || !slices.Equal(runs[i:i+len(params)], params) {
		t.Fatalf("runs.parquet %v: want the parameters %v together", runs, params)
	} else {
		runs = slices.Replace(runs, i, i+len(params), "* *")
	}
	for _, tc := range []struct {
		heading string
		want    [][]string // the files' schemas, one per table under heading
	}{
		{"### runs.parquet", [][]string{runs}},
		{"### jobs/…/*.parquet", [][]string{jobs, onNodes[len(jobs):]}},
		{"### node_groups.parquet", [][]string{readmeSchema(t, path("node_groups"))}},
		{"### users.parquet", [][]string{readmeSchema(t, path("users"))}},
		{"### Heatmaps and utilization series", [][]string{readmeSchema(t, path("heatmap")), readmeSchema(t, path("utilization"))}},
	} {
		if d := cmp.Diff(tc.want, readmeTables(t, tc.heading)); d != "" {
			t.Errorf("README.md %q against the files (-files +README):\n%s", tc.heading, d)
		}
	}
}
