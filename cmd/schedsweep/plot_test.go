package main

import (
	"bytes"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sweepFolder runs smallExperiment with schedsweep run and returns its
// results folder.
func sweepFolder(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "res")
	if code, _, errOut := runCLI("run", "--quiet", "--out", out, writeExperiment(t, smallExperiment)); code != exitOK {
		t.Fatalf("run: exit %d, stderr %q", code, errOut)
	}
	return out
}

func TestPlotCommand(t *testing.T) {
	res := sweepFolder(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		file string
		w, h int // pixels of a PNG
	}{
		{[]string{"means"}, "means.png", 0, 0},
		{[]string{"means", "--metric", "wait_p95,utilization", "--policy", "easy"}, "means.svg", 0, 0},
		{[]string{"load", "--width", "900px", "--height", "6in"}, "load.png", 900, 900},
		{[]string{"load", "--metric", "wait_mean", "--replicate", "1"}, "load.svg", 0, 0},
		{[]string{"load", "--ci"}, "load-ci.svg", 0, 0},
		{[]string{"means", "--ci"}, "means-ci.svg", 0, 0},
		{[]string{"ecdf", "--metric", "bounded_slowdown"}, "ecdf.png", 0, 0},
	} {
		path := filepath.Join(dir, tc.file)
		args := append(append([]string{"plot"}, tc.args...), "--out", path, res)
		code, stdout, errOut := runCLI(args...)
		if code != exitOK || !strings.HasPrefix(stdout, path+": "+tc.args[0]) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, errOut)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".svg") {
			if !bytes.HasPrefix(data, []byte("<?xml")) {
				t.Errorf("%v: not an SVG: %.40q", args, data)
			}
			continue
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%v: not a PNG: %v", args, err)
		} else if tc.w > 0 && (cfg.Width != tc.w || cfg.Height != tc.h) {
			t.Errorf("%v: %d × %d pixels; want %d × %d", args, cfg.Width, cfg.Height, tc.w, tc.h)
		}
	}
}

// TestPlotClasses draws the accuracy classes of a small PSP sweep and
// prints their table.
func TestPlotClasses(t *testing.T) {
	exp := `experiment "pspsmall" {}
cluster "c" {
  procs = 16
}
workload "cf" {
  model  = "psp"
  params = { jobs = 200 }
}
policy "psp" {}
policy "easy" {}
sweep {
  workloads = [workload.cf]
  policies  = [policy.psp, policy.easy]
}
`
	res := filepath.Join(t.TempDir(), "res")
	if code, _, errOut := runCLI("run", "--quiet", "--out", res, writeExperiment(t, exp)); code != exitOK {
		t.Fatalf("run: exit %d, stderr %q", code, errOut)
	}
	path := filepath.Join(t.TempDir(), "classes.png")
	code, stdout, errOut := runCLI("plot", "classes", "--out", path, res)
	if code != exitOK || !strings.HasPrefix(stdout, path+": classes") {
		t.Fatalf("plot classes: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	for _, want := range []string{"| workload | policy | a1 | a2 | a3 | a4 | a5 | all users | lowest / highest class |", "| cf | psp |", "| cf | easy |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plot classes: stdout lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

// anyFailure in a table of exit codes accepts any but exitOK.
const anyFailure = -1

func TestPlotErrors(t *testing.T) {
	res := sweepFolder(t)
	out := filepath.Join(t.TempDir(), "f.png")
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown kind", []string{"plot", "box", "--out", out, res}, exitUsage, `unknown figure "box": want boxes, means, heatmap, load, classes, utilization, paired, ecdf, queue, gantt (did you mean "boxes"?)`},
		{"no dir", []string{"plot", "means", "--out", out}, exitUsage, "want KIND and DIR, got 1 arguments"},
		{"no out", []string{"plot", "means", res}, exitUsage, "--out FILE.png, FILE.svg or FILE.pdf is required"},
		{"bad extension", []string{"plot", "means", "--out", "f.eps", res}, exitUsage, `--out "f.eps": want a file name ending in .png, .svg or .pdf`},
		{"bad size", []string{"plot", "means", "--out", out, "--width", "800", res}, exitUsage, `--width: "800" is not a length`},
		{"bad load", []string{"plot", "means", "--out", out, "--load", "high", res}, exitUsage, `--load: "high" is not a positive number`},
		{"no results", []string{"plot", "means", "--out", out, empty}, exitFailure, "has no runs.parquet"},
		{"unknown metric", []string{"plot", "load", "--metric", "wiat_mean", "--out", out, res}, exitUsage, `unknown metric "wiat_mean": this figure draws a column of runs.parquet: wait_mean, wait_median`},
		{"unknown policy", []string{"plot", "means", "--policy", "eazy", "--out", out, res}, exitUsage, `has policy "eazy"; did you mean "easy"?`},
		{"unknown run", []string{"plot", "heatmap", "--run", "0123456789abcdef", "--out", out, res}, exitUsage, `has no run "0123456789abcdef"`},
		{"not one run", []string{"plot", "heatmap", "--policy", "easy", "--out", out, res}, exitUsage, "a heatmap shows one run, and policy easy selects 2"},
		// The job mix's jobs have no user ids: no user to box.
		{"no users", []string{"plot", "boxes", "--out", out, res}, anyFailure, `veet_share`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(tc.args...)
			if (code != tc.code && (tc.code != anyFailure || code == exitOK)) || !strings.Contains(errOut, tc.msg) {
				t.Errorf("%v: got exit %d, stderr:\n%s\nwant exit %d and %q", tc.args, code, errOut, tc.code, tc.msg)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("failed commands left %s", out)
	}
}

// TestPlotHeatmapFromSweep draws the heatmap of one run of a real sweep:
// the runner writes heatmap/ and utilization/ for every run.
func TestPlotHeatmapFromSweep(t *testing.T) {
	res := sweepFolder(t)
	out := filepath.Join(t.TempDir(), "heat.png")
	code, _, errOut := runCLI("plot", "heatmap", "--policy", "easy", "--load", "2", "--out", out, res)
	if code != exitOK {
		t.Fatalf("plot heatmap: exit %d\n%s", code, errOut)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() == 0 {
		t.Errorf("no heatmap written: %v", err)
	}
}

// TestPlotUtilization draws the utilization figure of one replicate of a
// real sweep and prints its table of makespans, both from one read of the
// runs' utilization files.
func TestPlotUtilization(t *testing.T) {
	res := sweepFolder(t)
	path := filepath.Join(t.TempDir(), "util.svg")
	code, stdout, errOut := runCLI("plot", "utilization", "--load", "1", "--replicate", "1", "--out", path, res)
	if code != exitOK || !strings.HasPrefix(stdout, path+": utilization, 9 × 5 in\n\n") {
		t.Fatalf("plot utilization: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	for _, want := range []string{"Makespan in hours: workload mix, load factor 1, replicate 1\n", "| policy | makespan (h) |\n",
		"\n| fcfs | ", "\n| easy | ", "\n| all processors busy (bound) | ", "\n| one job at a time (bound) | "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plot utilization: stdout lacks %q:\n%s", want, stdout)
		}
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(data, []byte("<?xml")) {
		t.Errorf("plot utilization: %s is not an SVG (%v)", path, err)
	}
}

// TestPlotWarnsAndWritesPDF: --ci over one replicate draws the figure
// and warns on standard error; .pdf writes a PDF.
func TestPlotWarnsAndWritesPDF(t *testing.T) {
	res := sweepFolder(t)
	path := filepath.Join(t.TempDir(), "load.pdf")
	code, stdout, errOut := runCLI("plot", "load", "--ci", "--out", path, res)
	if code != exitOK || !strings.HasPrefix(stdout, path+": load") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	if !strings.HasPrefix(errOut, "warning: confidence intervals need at least two replicates") {
		t.Errorf("stderr %q; want a warning about --ci", errOut)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Errorf("%s: not a PDF (%v)", path, err)
	}
	code, _, errOut = runCLI("plot", "load", "--out", path, res)
	if code != exitOK || errOut != "" {
		t.Errorf("without --ci: exit %d, stderr %q; want no warning", code, errOut)
	}
}

// TestPlotPairedCSV draws paired differences and writes their CSV; a
// kind without CSV refuses --csv before drawing anything.
func TestPlotPairedCSV(t *testing.T) {
	res := sweepFolder(t)
	dir := t.TempDir()
	fig, csvPath := filepath.Join(dir, "p.svg"), filepath.Join(dir, "p.csv")
	code, stdout, errOut := runCLI("plot", "paired", "--baseline", "easy", "--metric", "wait_mean", "--csv", csvPath, "--out", fig, res)
	if code != exitOK || !strings.Contains(stdout, "| wait_mean | 1 | fcfs | 1 |") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || lines[0] != "metric,load_factor,policy,baseline,replicates,mean_difference,ci_low,ci_high,baseline_mean" ||
		!strings.HasPrefix(lines[1], "wait_mean,1,fcfs,easy,1,") {
		t.Errorf("CSV:\n%s", data)
	}
	out := filepath.Join(dir, "b.png")
	code, _, errOut = runCLI("plot", "boxes", "--csv", filepath.Join(dir, "b.csv"), "--out", out, res)
	if code != exitUsage || !strings.Contains(errOut, "--csv: plot boxes writes no CSV") {
		t.Errorf("boxes --csv: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("boxes --csv failed but wrote %s", out)
	}
}

// TestPlotQueue draws the queue of one replicate and prints its table,
// with the waiting work in hours of the whole machine.
func TestPlotQueue(t *testing.T) {
	res := sweepFolder(t)
	path := filepath.Join(t.TempDir(), "queue.png")
	code, stdout, errOut := runCLI("plot", "queue", "--load", "2", "--out", path, res)
	if code != exitOK || !regexp.MustCompile(`\| easy \| [0-9.]+ \| [0-9]+ \| [0-9.]+ \|`).MatchString(stdout) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

// TestPlotJobClasses draws the job classes of one load factor with a
// threshold of its own, and refuses a threshold that is not one.
func TestPlotJobClasses(t *testing.T) {
	res := sweepFolder(t)
	dir := t.TempDir()
	code, stdout, errOut := runCLI("plot", "classes", "--by", "size", "--short", "30m", "--narrow", "4", "--load", "1",
		"--csv", filepath.Join(dir, "c.csv"), "--out", filepath.Join(dir, "c.png"), res)
	if code != exitOK || !strings.Contains(stdout, "| workload | policy | short narrow | short wide | long narrow | long wide | all jobs |") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "c.csv")); err != nil || !strings.HasPrefix(string(data), "workload,policy,class,metric,mean,jobs,runs,min,max\n") {
		t.Errorf("CSV: %q, %v", data, err)
	}
	code, _, errOut = runCLI("plot", "classes", "--by", "size", "--short", "1.5s", "--out", filepath.Join(dir, "c.png"), res)
	if code != exitUsage || !strings.Contains(errOut, "--short: 1.5s is not a whole positive number of seconds") {
		t.Errorf("--short 1.5s: exit %d, stderr %q", code, errOut)
	}
}
