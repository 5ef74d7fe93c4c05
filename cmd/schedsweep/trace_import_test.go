package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sacctStates = "../../workloads/testdata/sacct/states.txt"

func TestTraceImportSacct(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site.swf")
	code, stdout, errOut := runCLI("trace", "import", "sacct", "--anonymise", "-o", out, sacctStates)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"wrote 19 jobs of 6 users, 4 accounts, 3 QOS and 3 partitions to " + out + "\n",
		"kept 2 components of heterogeneous jobs as jobs of their own\n",
		"skipped 3 lines: job step (first: line 3)\n",
		"skipped 1 line: cancelled before it started (first: line 11)\n",
		"skipped 2 lines: still running at the dump (first: line 18)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	swf := string(b)
	if !strings.Contains(swf, "; Conversion: schedsweep trace import sacct, from the sacct dump states.txt\n") ||
		!strings.Contains(swf, "\n140 1140 0 60 256 ") || strings.Contains(swf, "alice") {
		t.Errorf("unexpected SWF:\n%s", swf)
	}
	// The SWF simulates as the trace it is.
	code, stdout, errOut = runCLI("simulate", "--alea-fields", "--procs-field", "allocated", "--procs", "512", "--gpus", "8", out)
	if code != exitOK || !strings.Contains(stdout, "19 finished, 0 killed at their requested time, 0 rejected") {
		t.Errorf("simulate: exit %d\n%s%s", code, stdout, errOut)
	}
}

func TestTraceImportErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"trace", "import"}, exitUsage, "want a format and a FILE"},
		{[]string{"trace", "import", "squeue", "x"}, exitUsage, `unknown format "squeue"`},
		{[]string{"trace", "import", "sacct"}, exitUsage, "want one FILE after sacct, got 0"},
		{[]string{"trace", "import", "sacct", "--timezone", "Nowhere/Land", sacctStates}, exitUsage, `--timezone: "Nowhere/Land" is not a time zone`},
		{[]string{"trace", "import", "sacct", "-o", dir, sacctStates}, exitUsage, "is a folder"},
		{[]string{"trace", "import", "sacct", "-o", filepath.Join(dir, "x.swf"), "../../workloads/testdata/sacct/bad/endbefore.txt"}, exitFailure,
			`endbefore.txt:2: field 6 (End): "2024-03-01T09:00:00" is before the start`},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.swf")); err == nil {
		t.Errorf("a failed import left its output")
	}
}

func TestImportZone(t *testing.T) {
	env := func(tz string) func(string) string { return func(string) string { return tz } }
	for _, tc := range []struct{ flag, tz, want string }{
		{"", "", "UTC"},
		{"", "Europe/Prague", "Europe/Prague"},
		{"", ":Europe/Prague", "Europe/Prague"},
		{"America/Chicago", "Europe/Prague", "America/Chicago"},
	} {
		loc, err := importZone(tc.flag, env(tc.tz))
		if err != nil || loc.String() != tc.want {
			t.Errorf("importZone(%q) with TZ=%q = %v, %v; want %s", tc.flag, tc.tz, loc, err, tc.want)
		}
	}
	if _, err := importZone("", env("Nowhere/Land")); err == nil || !strings.Contains(err.Error(), `TZ: "Nowhere/Land"`) {
		t.Errorf("a bad TZ: %v", err)
	}
}

// TestSimulateSacct simulates a sacct dump read directly, and refuses the
// flags that do not apply to one.
func TestSimulateSacct(t *testing.T) {
	code, stdout, errOut := runCLI("simulate", "--format", "sacct", "--timezone", "Europe/Prague", "--procs", "512", "--gpus", "8", sacctStates)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"jobs                   19 finished, 0 killed at their requested time, 0 rejected\n",
		"note: workload trace: states.txt: 19 jobs; lines skipped: job step: 3; ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("simulate lacks %q:\n%s", want, stdout)
		}
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--format", "sacct", sacctStates}, "a sacct dump does not give the machine's size; set --procs or --machines"},
		{[]string{"--format", "sacct", "--procs", "8", "--alea-fields", sacctStates}, "--alea-fields applies to SWF traces, not to --format sacct"},
		{[]string{"--format", "sacct", "--procs", "8", "--memory-field", "used", "--memory", "1GiB", sacctStates}, "--memory-field used applies to SWF traces"},
		{[]string{"--format", "sacct", "--procs", "8", "--timezone", "Nowhere/Land", sacctStates}, `--timezone: "Nowhere/Land" is not a time zone`},
		{[]string{"--format", "slurm", "--procs", "8", sacctStates}, `--format: "slurm" is not`},
		{[]string{"--timezone", "UTC", "--procs", "8", sacctStates}, "--timezone applies to --format sacct"},
	} {
		code, _, errOut := runCLI(append([]string{"simulate"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.msg) {
			t.Errorf("simulate %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, exitUsage, tc.msg)
		}
	}
}
