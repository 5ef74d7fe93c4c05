package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results/tables"
)

// TestTablesCommand prints a sweep's tables, writes them into a README
// block from the block's own flags, and checks the block: it matches the
// tables once written, and the check fails, naming the line, when a
// number in it is changed by hand.
func TestTablesCommand(t *testing.T) {
	res := sweepFolder(t)
	code, md, errOut := runCLI("tables", "--baseline", "fcfs", "--metric", "wait_mean@min,utilization@%", res)
	if code != exitOK || !strings.Contains(md, "| load factor | policy | wait_mean (min) | ÷ fcfs | utilization (%) | ÷ fcfs |") {
		t.Fatalf("tables: exit %d, stdout %q, stderr %q", code, md, errOut)
	}
	code, ms, errOut := runCLI("tables", "--makespans", "--load", "2", res)
	if code != exitOK || !strings.Contains(ms, "| replicate | fcfs | easy | every processor busy | one job at a time |") || strings.Contains(ms, "load factor 1*") {
		t.Errorf("tables --makespans --load 2: exit %d, stdout %q, stderr %q", code, ms, errOut)
	}
	code, ms, errOut = runCLI("tables", "--makespans", "--format", "csv", res)
	if code != exitOK || !strings.HasPrefix(ms, "workload,load_factor,replicate,column,hours\n") {
		t.Errorf("tables --makespans --format csv: exit %d, stdout %q, stderr %q", code, ms, errOut)
	}
	if code, out, errOut := runCLI("tables", "--load", "2", res); code != exitOK || strings.Contains(out, "| 1 |") || !strings.Contains(out, "| 2 | easy |") {
		t.Errorf("tables --load 2: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, csvOut, errOut := runCLI("tables", "--format", "csv", res)
	if code != exitOK || !strings.HasPrefix(csvOut, "workload,load_factor,policy,metric,unit,mean,ci_low,ci_high,n,baseline,ratio,paper\n") ||
		strings.Count(csvOut, "\n") != 1+2*2*3 {
		t.Fatalf("tables --format csv: exit %d, stdout %q, stderr %q", code, csvOut, errOut)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "paper.csv"), []byte("workload,policy,load_factor,metric,value,note\n,easy,2,wait_mean@min,12.5,a table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	readme := filepath.Join(dir, "README.md")
	text := "# study\n\n<!-- tables:small --baseline fcfs --metric wait_mean@min --paper paper.csv -->\nby hand\n<!-- /tables:small -->\n\nmore\n"
	if err := os.WriteFile(readme, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("tables", "--readme", readme, "--block", "small", "--check", res); code != exitFailure || !strings.Contains(errOut, "README.md:3: block small differs") {
		t.Errorf("check of a hand-typed block: exit %d, stderr %q; want exit 1 naming the line", code, errOut)
	}
	if code, out, errOut := runCLI("tables", "--readme", readme, "--block", "small", res); code != exitOK || !strings.Contains(out, "block small rewritten") {
		t.Fatalf("rewrite: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := runCLI("tables", "--baseline", "fcfs", "--metric", "wait_mean@min", "--paper", filepath.Join(dir, "paper.csv"), res)
	if !strings.Contains(string(data), "-->\n"+want+"<!-- /tables:small -->\n\nmore\n") || !strings.Contains(want, "| 12.5 |") {
		t.Fatalf("README after rewrite:\n%s\nwant the block to hold\n%s", data, want)
	}
	if code, out, errOut := runCLI("tables", "--readme", readme, "--block", "small", "--check", res); code != exitOK || !strings.Contains(out, "matches") {
		t.Errorf("check after rewrite: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	edited := strings.Replace(string(data), "| 2 | easy |", "| 2 | easy (by hand) |", 1)
	if err := os.WriteFile(readme, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("tables", "--readme", readme, "--block", "small", "--check", res); code != exitFailure || !strings.Contains(errOut, "easy (by hand)") {
		t.Errorf("check of an edited block: exit %d, stderr %q", code, errOut)
	}
}

func TestTablesErrors(t *testing.T) {
	res := sweepFolder(t)
	dir := t.TempDir()
	readme := filepath.Join(dir, "R.md")
	if err := os.WriteFile(readme, []byte("<!-- tables:x --format csv -->\n<!-- /tables:x -->\n<!-- tables:y res -->\n<!-- /tables:y -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"tables"}, exitUsage, "want one results folder"},
		{[]string{"tables", "--format", "html", res}, exitUsage, `--format "html"`},
		{[]string{"tables", "--metric", "wait_mean@weeks", res}, exitUsage, `unknown unit "weeks"`},
		{[]string{"tables", "--metric", "waiting", res}, exitUsage, `waiting`},
		{[]string{"tables", "--baseline", "sjf", res}, exitFailure, `baseline "sjf"`},
		{[]string{"tables", "--check", res}, exitUsage, "go with --readme"},
		{[]string{"tables", "--makespans", "--baseline", "fcfs", res}, exitUsage, "--makespans tabulates makespans"},
		{[]string{"tables", "--makespans", "--metric", "wait_mean", res}, exitUsage, "no --metric or --baseline"},
		{[]string{"tables", "--makespans", "--policy", "sjf", res}, exitUsage, "sjf"},
		{[]string{"tables", "--load", "1,x", res}, exitUsage, `"x" is not a number`},
		{[]string{"tables", "--load", "3", res}, exitUsage, "load factor"},
		{[]string{"tables", "--paper", filepath.Join(dir, "none.csv"), res}, exitFailure, "none.csv"},
		{[]string{"tables", filepath.Join(dir, "none")}, exitFailure, "does not exist"},
		{[]string{"tables", "--readme", readme, "--block", "z", res}, exitUsage, "its blocks: x, y"},
		{[]string{"tables", "--readme", readme, "--block", "x", res}, exitFailure, "R.md:1: the marker of block x: a README block is Markdown"},
		{[]string{"tables", "--readme", readme, "--block", "y", res}, exitFailure, "R.md:3: the marker of block y: want table flags only"},
	} {
		code, _, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.err)
		}
	}
}

// TestExperimentsReadmeBlocks checks every table block of
// experiments/README.md without results: its marker's flags parse, its
// metrics parse and its paper file reads. Whether the tables match their
// results is checked by CI for the studies it runs (.ci/run) and by
// experiments/figures.sh for all.
func TestExperimentsReadmeBlocks(t *testing.T) {
	const readme = "../../experiments/README.md"
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := tables.Blocks(readme, string(data))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range blocks {
		names = append(names, b.Name)
		tf, err := blockFlags(readme, b)
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := tables.ParseSpecs(tf.metric); err != nil {
			t.Errorf("block %s: %v", b.Name, err)
		}
		if tf.paper != "" {
			if _, err := tables.ReadPaper(filepath.Join(filepath.Dir(readme), tf.paper)); err != nil {
				t.Errorf("block %s: %v", b.Name, err)
			}
		}
		if strings.TrimSpace(b.Body) == "" {
			t.Errorf("block %s is empty: run experiments/figures.sh", b.Name)
		}
	}
	want := []string{"toth2014", "toth2014-configured", "toth2014-nodes-used", "toth2014-nodes-configured", "toth2014-alea", "psp2016-20", "psp2016", "psp2016-keep-20", "ibb2016-meta", "ibb2016-mixed", "ibb2016-kth", "maui2000-makespan", "maui2000", "maui2000-uniform-20", "maui2000-pow2-20", "maui2000-nodes-makespan", "maui2000-nodes-uniform-20", "maui2000-nodes-pow2-20", "measy", "measy-cost", "measy-full", "slurm-whatif", "slurm-whatif-eet"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("blocks %v; want %v", names, want)
	}
}
