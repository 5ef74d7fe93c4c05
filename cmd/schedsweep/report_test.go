package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWritesReport checks that a whole sweep ends with its report and
// says where it and the tables are, and that --report=false writes none.
func TestRunWritesReport(t *testing.T) {
	file := writeExperiment(t, smallExperiment)
	out := filepath.Join(t.TempDir(), "res")
	code, stdout, errOut := runCLI("run", "--quiet", "--out", out, file)
	if code != exitOK {
		t.Fatalf("run: exit %d, stderr %q", code, errOut)
	}
	path := filepath.Join(out, "report.html")
	for _, want := range []string{"report: " + path + " (open it in a browser)\n", "tables: schedsweep tables " + out + "\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run's output lacks %q; got:\n%s", want, stdout)
		}
	}
	page, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(page), `id="gantt-canvas"`) {
		t.Fatalf("run wrote no report with a Gantt chart: %v", err)
	}

	other := filepath.Join(t.TempDir(), "res")
	code, stdout, errOut = runCLI("run", "--quiet", "--report=false", "--out", other, file)
	if code != exitOK || strings.Contains(stdout, "report:") {
		t.Fatalf("run --report=false: exit %d, stdout %q, stderr %q; want no report", code, stdout, errOut)
	}
	if _, err := os.Stat(filepath.Join(other, "report.html")); err == nil {
		t.Error("run --report=false wrote report.html")
	}

	// report and plot gantt on the same folder: one run chosen, or a
	// usage error saying why not.
	mine := filepath.Join(t.TempDir(), "mine.html")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"report", "--out", mine, "--policy", "easy", "--load", "1", "--replicate", "1", out}, exitOK, "report: " + mine},
		{[]string{"report", "--policy", "easy", out}, exitUsage, "the Gantt chart draws one run"},
		{[]string{"report", "--run", "nope", out}, exitUsage, `has no run "nope"`},
		{[]string{"report", out, out}, exitUsage, "want DIR, got 2 arguments"},
		{[]string{"plot", "gantt", "--policy", "easy", "--load", "1", "--replicate", "1", "--from", "1h", "--to", "3h", "--color", "status",
			"--out", filepath.Join(t.TempDir(), "g.svg"), out}, exitOK, "gantt, 9 × 6 in"},
		{[]string{"plot", "gantt", "--out", filepath.Join(t.TempDir(), "g.png"), out}, exitUsage, "a Gantt chart draws one run"},
		{[]string{"plot", "gantt", "--color", "purple", "--out", "g.png", out}, exitUsage, `--color: "purple" is neither user nor status`},
		{[]string{"plot", "gantt", "--from", "2h", "--to", "1h", "--out", "g.png", out}, exitUsage, "--to: 1h0m0s is not after --from 2h0m0s"},
	} {
		code, stdout, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(stdout+errOut, tc.msg) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, errOut, tc.code, tc.msg)
		}
	}
}
