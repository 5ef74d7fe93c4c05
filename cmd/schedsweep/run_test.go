package main

import (
	"errors"
	"fmt"
	"github.com/schedsweep/schedsweep/runner/spec"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"github.com/schedsweep/schedsweep/runner"
)

// smallExperiment is a quick sweep: the job mix under two policies at two
// loads.
const smallExperiment = `experiment "small" {
  seed = 3
}
cluster "c" {
  procs = 64
}
workload "mix" {
  model = "job-mix"
}
policy "fcfs" {}
policy "easy" {}
sweep {
  workloads    = [workload.mix]
  policies     = [policy.fcfs, policy.easy]
  load_factors = [1, 2]
}
`

func writeExperiment(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "exp.hcl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunCommand(t *testing.T) {
	file := writeExperiment(t, smallExperiment)
	out := filepath.Join(t.TempDir(), "res")
	code, stdout, errOut := runCLI("run", "--quiet", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "small: 4 runs simulated of 4, 304 jobs") {
		t.Fatalf("run: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	for _, f := range []string{"runs.parquet", "users.parquet", "jobs/workload=mix/policy=easy/load_factor=2/replicate=1"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	// Again, with or without --resume: nothing to do; another experiment:
	// refused.
	code, stdout, errOut = runCLI("run", "--quiet", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "0 runs simulated, 4 already complete") || errOut != "" {
		t.Errorf("second run: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	code, stdout, _ = runCLI("run", "--quiet", "--resume", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "0 runs simulated, 4 already complete") {
		t.Errorf("resume: exit %d, stdout %q", code, stdout)
	}
	other := writeExperiment(t, strings.Replace(smallExperiment, `"small"`, `"other"`, 1))
	code, _, errOut = runCLI("run", "--quiet", "--out", out, other)
	if code != exitFailure || !strings.Contains(errOut, `holds results of experiment "small"`) {
		t.Errorf("another experiment's folder: exit %d, stderr %q", code, errOut)
	}
	code, _, _ = runCLI("run", "--quiet", "--force", "--out", out, other)
	if code != exitOK {
		t.Errorf("--force: exit %d", code)
	}
}

// TestRunNamesWhatItWrote checks the results line: the two tables, then
// the folders the output block asked for, each of which exists, and none
// it did not.
func TestRunNamesWhatItWrote(t *testing.T) {
	for _, tc := range []struct {
		output string
		dirs   []string
	}{
		{"", []string{"jobs", "heatmap", "utilization"}},
		{"output {\n  jobs = false\n}\n", []string{"heatmap", "utilization"}},
		{"output {\n  jobs     = false\n  heatmaps = false\n}\n", nil},
	} {
		out := filepath.Join(t.TempDir(), "res")
		code, stdout, errOut := runCLI("run", "--quiet", "--out", out, writeExperiment(t, smallExperiment+tc.output))
		if code != exitOK {
			t.Fatalf("run with %q: exit %d, stderr %q", tc.output, code, errOut)
		}
		_, line, _ := strings.Cut(stdout, "results: ")
		line, _, _ = strings.Cut(line, "\n")
		want := []string{filepath.Join(out, "runs.parquet"), filepath.Join(out, "users.parquet")}
		for _, d := range tc.dirs {
			want = append(want, filepath.Join(out, d)+string(filepath.Separator))
		}
		if line != strings.Join(want, ", ") {
			t.Errorf("with %q: results line %q; want %q", tc.output, line, strings.Join(want, ", "))
		}
		for _, w := range want {
			if _, err := os.Stat(w); err != nil {
				t.Errorf("with %q: the results line names %s: %v", tc.output, w, err)
			}
		}
	}
}

func TestRunBadInput(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	tests := []struct {
		name, text string
		args       []string
		code       int
		msgs       []string
	}{
		{"unknown policy", strings.Replace(smallExperiment, `policy "easy" {}`, `policy "easy" { type = "eassy" }`, 1), nil,
			exitUsage, []string{"exp.hcl:11:24: error: Unknown policy type", `"easy"`, "nothing runs until they are fixed"}},
		{"negative load factor", strings.Replace(smallExperiment, "[1, 2]", "[1, -2]", 1), nil,
			exitUsage, []string{"exp.hcl:15:", "error: Invalid load factor"}},
		{"missing trace", strings.Replace(smallExperiment, `model = "job-mix"`, `trace = "nowhere.swf"`, 1), nil,
			exitUsage, []string{"exp.hcl:8:", "error: Unknown trace", "nowhere.swf"}},
		{"unwritable output", smallExperiment, []string{"--out", filepath.Join(blocker, "res")},
			exitFailure, []string{"cannot use the output folder " + filepath.Join(blocker, "res")}},
		{"bad shard", smallExperiment, []string{"--shard", "3/3"}, exitUsage, []string{"want i/n with 0 ≤ i < n"}},
		{"shard with trailing junk", smallExperiment, []string{"--shard", "1/2x"}, exitUsage, []string{`shard "1/2x"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := writeExperiment(t, tc.text)
			args := append([]string{"run", "--quiet", "--out", filepath.Join(t.TempDir(), "r")}, tc.args...)
			code, _, errOut := runCLI(append(args, file)...)
			if code != tc.code {
				t.Errorf("exit %d; want %d; stderr:\n%s", code, tc.code, errOut)
			}
			for _, m := range tc.msgs {
				if !strings.Contains(errOut, m) {
					t.Errorf("stderr lacks %q:\n%s", m, errOut)
				}
			}
		})
	}
}

// TestRunTraceNotCached checks that a registered trace missing from the
// cache stops the run before anything is written, with the fetch command.
func TestRunTraceNotCached(t *testing.T) {
	cache := t.TempDir()
	file := writeExperiment(t, strings.Replace(smallExperiment, `model = "job-mix"`, `trace = "KTH-SP2"`, 1))
	out := filepath.Join(t.TempDir(), "r")
	code, _, errOut := runCLI("run", "--quiet", "--cache", cache, "--out", out, file)
	if code != exitFailure || !strings.Contains(errOut, "schedsweep trace fetch KTH-SP2 --cache "+cache) {
		t.Errorf("exit %d, stderr %q; want exit 1 and the fetch command", code, errOut)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the output folder exists after a run that could not start (stat: %v)", err)
	}
}

func TestValidatePlanFmtList(t *testing.T) {
	file := writeExperiment(t, smallExperiment)
	code, stdout, _ := runCLI("validate", file)
	if code != exitOK || !strings.Contains(stdout, `experiment "small" is valid: 4 runs`) {
		t.Errorf("validate: exit %d, %q", code, stdout)
	}
	code, stdout, _ = runCLI("plan", "--shard", "1/2", file)
	if code != exitOK || !strings.Contains(stdout, "4 runs, 2 in shard 1/2, 152 jobs") ||
		!strings.Contains(stdout, "results go to out/small\n") {
		t.Errorf("plan: exit %d, %q", code, stdout)
	}
	code, stdout, _ = runCLI("plan", "--out", "elsewhere", file)
	if code != exitOK || !strings.Contains(stdout, "4 runs, 304 jobs") || !strings.Contains(stdout, "results go to elsewhere\n") {
		t.Errorf("plan --out elsewhere: exit %d, %q", code, stdout)
	}
	messy := writeExperiment(t, "experiment \"x\" {\nseed=1\n}\n")
	code, stdout, _ = runCLI("fmt", "--check", messy)
	if code != exitFailure || !strings.Contains(stdout, messy) {
		t.Errorf("fmt --check on an unformatted file: exit %d, %q", code, stdout)
	}
	if code, _, _ = runCLI("fmt", "-w", messy); code != exitOK {
		t.Errorf("fmt -w: exit %d", code)
	}
	if got, _ := os.ReadFile(messy); !strings.Contains(string(got), "  seed = 1") {
		t.Errorf("fmt -w wrote %q", got)
	}
	code, stdout, _ = runCLI("list")
	for _, want := range []string{"easy", "order = arrival", "lublin", "nodes = 128", "tsafrir", "bounded_slowdown"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	if code != exitOK {
		t.Errorf("list: exit %d", code)
	}
	// The embedded quickstart is valid by name.
	code, stdout, _ = runCLI("validate", "quickstart")
	if code != exitOK || !strings.Contains(stdout, "18 runs") {
		t.Errorf("validate quickstart: exit %d, %q", code, stdout)
	}
}

// TestPlanTraces checks plan's job counts for traces: a registered trace
// not in the cache is counted as unknown, and a trace file it cannot read
// is an error, not a trace "not fetched".
func TestPlanTraces(t *testing.T) {
	file := writeExperiment(t, strings.Replace(smallExperiment, `model = "job-mix"`, `trace = "KTH-SP2"`, 1))
	code, stdout, errOut := runCLI("plan", "--cache", t.TempDir(), file)
	if code != exitOK || !strings.Contains(stdout, "at least 0 jobs to simulate (a trace is not fetched yet)") ||
		!strings.Contains(stdout, "? (trace not fetched)") {
		t.Errorf("plan, trace not cached: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n2 not-a-number\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file = writeExperiment(t, strings.Replace(smallExperiment, `model = "job-mix"`, `trace = "`+bad+`"`, 1))
	code, stdout, errOut = runCLI("plan", file)
	if code != exitFailure || !strings.Contains(errOut, "workload mix: bad.swf:2: field 2 (submit time)") {
		t.Errorf("plan, unreadable trace: exit %d, stdout %q, stderr %q; want exit 1 naming the workload and the line", code, stdout, errOut)
	}
}

// TestVarErrors checks that the line closing an experiment's diagnostics
// puts the errors where they are, in the file or in --var values (an
// unknown name, or a value the file cannot use), exit 2 either way.
func TestVarErrors(t *testing.T) {
	file := writeExperiment(t, strings.Replace(smallExperiment, "[1, 2]", "var.loads", 1)+
		"variable \"loads\" {\n  default = [1, 2]\n}\n")
	broken := writeExperiment(t, strings.Replace(smallExperiment, `policy "easy" {}`, `policy "easy" { type = "eassy" }`, 1)+
		"variable \"loads\" {\n  default = [1, 2]\n}\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown name", []string{"--var", "lods=[1]", file}, "schedsweep validate: the --var values have errors (1); nothing runs until they are fixed\n"},
		{"unusable value", []string{"--var", `loads="x"`, file}, "schedsweep validate: the --var values have errors (1); nothing runs until they are fixed\n"},
		{"file", []string{broken}, "schedsweep validate: the experiment file has errors (1); nothing runs until they are fixed\n"},
		{"both", []string{"--var", "lods=[1]", broken}, "schedsweep validate: the experiment file (1) and the --var values (1) have errors; nothing runs until they are fixed\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(append([]string{"validate"}, tc.args...)...)
			if code != exitUsage || !strings.HasSuffix(errOut, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, ending %q", code, errOut, exitUsage, tc.want)
			}
		})
	}
}

// TestRunUserFolder checks that a folder schedsweep did not write that
// holds a runs.parquet is refused, --force or not, exit 1, by an error
// that says the files are the user's, not another experiment's.
func TestRunUserFolder(t *testing.T) {
	file := writeExperiment(t, smallExperiment)
	out := filepath.Join(t.TempDir(), "user1")
	if err := os.MkdirAll(out, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "runs.parquet"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, force := range []string{"--force=false", "--force"} {
		code, _, errOut := runCLI("run", "--quiet", force, "--out", out, file)
		if code != exitFailure || !strings.Contains(errOut, "holds runs.parquet and has no .schedsweep/manifest.json, so these are yours") ||
			strings.Contains(errOut, "another experiment") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 saying the files are the user's", force, code, errOut)
		}
	}
	if got, err := os.ReadFile(filepath.Join(out, "runs.parquet")); err != nil || string(got) != "mine" {
		t.Errorf("runs.parquet now holds %q (%v); want the user's file untouched", got, err)
	}
}

// TestEmptyWorkload checks that a workload whose cuts keep no job is
// flagged by plan and refused by run, exit 1 and nothing written, naming
// the workload and the cut.
func TestEmptyWorkload(t *testing.T) {
	trace, err := filepath.Abs("../../runner/spec/testdata/tiny.swf")
	if err != nil {
		t.Fatal(err)
	}
	// tiny.swf's jobs are submitted at 0, 10, 20 and 30 by users 3, 7, 3 and 9.
	file := writeExperiment(t, strings.Replace(smallExperiment, `model = "job-mix"`,
		`trace = "`+trace+`"
  window = [0, 15]
  users = [9]`, 1))
	const why = "workload mix selects no job: of the 4 jobs of trace tiny.swf, its window [0, 15) keeps 2 and its user 9 keeps none"
	code, stdout, errOut := runCLI("plan", file)
	if code != exitFailure || !strings.Contains(stdout, "0 (selects no job)") || !strings.Contains(errOut, why) {
		t.Errorf("plan: exit %d, stdout %q, stderr %q; want exit 1, the count flagged and %q", code, stdout, errOut, why)
	}
	out := filepath.Join(t.TempDir(), "r")
	code, stdout, errOut = runCLI("run", "--quiet", "--out", out, file)
	if code != exitFailure || stdout != "" || !strings.Contains(errOut, why) {
		t.Errorf("run: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, errOut, why)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the output folder exists after a run refused (stat: %v)", err)
	}
}

// TestTuneGC checks what schedsweep run does to the garbage collector: GOGC
// at runner.GCPercent and a soft memory limit below what the machine (or
// the cgroup) has, unless the environment sets them.
func TestTuneGC(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT", "AUTOMEMLIMIT"} {
		if _, ok := os.LookupEnv(v); ok {
			t.Skipf("%s is set in the environment", v)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	if err := tuneGC(); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(100); got != runner.GCPercent {
		t.Errorf("GOGC %d; want %d", got, runner.GCPercent)
	}
	avail, err := memlimit.FromCgroup()
	if err != nil {
		if avail, err = memlimit.FromSystem(); err != nil {
			t.Skipf("neither a cgroup limit nor the machine's memory is known here: %v", err)
		}
	}
	if got, want := debug.SetMemoryLimit(-1), int64(float64(avail)*0.9); got != want {
		t.Errorf("memory limit %d; want %d, 90%% of the %d bytes the process may use", got, want, avail)
	}

	// Set in the environment, both stay as they are.
	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	if err := tuneGC(); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GOGC changed to %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: memory limit changed to %d", got)
	}
}

// TestFmtSyntaxError checks that fmt leaves a file with syntax errors as it
// is, in every mode, and names the place of the error.
// TestFmtUnreadableFile checks that fmt, like gofmt, reports a file it
// cannot read and goes on to the next, exiting 1 at the end (2 if a file
// has syntax errors too).
func TestFmtUnreadableFile(t *testing.T) {
	const messy = "experiment \"x\" {\nseed=1\n}\n"
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.hcl")
	for _, tc := range []struct {
		mode      string
		code      int
		stdout    string // of b.hcl
		rewritten bool
	}{
		{"--check", exitFailure, "b.hcl\n", false},
		{"-w", exitFailure, "", true},
		{"", exitFailure, "  seed = 1", false},
	} {
		t.Run("fmt "+tc.mode, func(t *testing.T) {
			a, b := writeExperiment(t, messy), filepath.Join(t.TempDir(), "b.hcl")
			if err := os.WriteFile(b, []byte(messy), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"fmt", a, missing, b}
			if tc.mode != "" {
				args = []string{"fmt", tc.mode, a, missing, b}
			}
			code, stdout, errOut := runCLI(args...)
			if code != tc.code || !strings.Contains(errOut, "open "+missing+": no such file or directory") ||
				!strings.Contains(errOut, "1 file(s) could not be read or written") {
				t.Errorf("exit %d, stderr %q; want exit %d naming %s", code, errOut, tc.code, missing)
			}
			if !strings.Contains(stdout, tc.stdout) || strings.Count(stdout, "experiment") > 2 {
				t.Errorf("stdout %q; want b.hcl's part %q too", stdout, tc.stdout)
			}
			if got, _ := os.ReadFile(b); (string(got) != messy) != tc.rewritten {
				t.Errorf("b.hcl holds %q; rewritten %t, want %t", got, string(got) != messy, tc.rewritten)
			}
		})
	}
	broken := writeExperiment(t, "experiment \"x\" {\n  seed = \n}\n")
	code, _, errOut := runCLI("fmt", "--check", missing, broken)
	if code != exitUsage || !strings.Contains(errOut, "1 file(s) left as they are; 1 file(s) could not be read or written") {
		t.Errorf("a missing and a broken file: exit %d, stderr %q; want exit %d counting both", code, errOut, exitUsage)
	}
}

func TestFmtSyntaxError(t *testing.T) {
	const broken = "experiment \"x\" {\n  seed = \n}\ncluster \"c\" { procs = 4 \n"
	for _, mode := range [][]string{{"-w"}, {"--check"}, nil} {
		t.Run(strings.Join(append([]string{"fmt"}, mode...), " "), func(t *testing.T) {
			file := writeExperiment(t, broken)
			code, stdout, errOut := runCLI(append(append([]string{"fmt"}, mode...), file)...)
			if code != exitUsage || !strings.Contains(errOut, file+":2:10: error: Invalid expression") {
				t.Errorf("exit %d, stderr %q; want exit %d naming %s:2:10", code, errOut, exitUsage, file)
			}
			if stdout != "" {
				t.Errorf("stdout %q; want nothing for a file that does not parse", stdout)
			}
			if got, _ := os.ReadFile(file); string(got) != broken {
				t.Errorf("the file was rewritten to %q", got)
			}
		})
	}
}

// TestUsageHint checks that the hint to read --help follows mistakes in how
// the command was called, not errors in the experiment file, which --help
// does not explain and which the diagnostics already place.
func TestUsageHint(t *testing.T) {
	good := writeExperiment(t, smallExperiment)
	bad := writeExperiment(t, strings.Replace(smallExperiment, "[1, 2]", "[1, -2]", 1))
	broken := writeExperiment(t, "experiment \"x\" {\n  seed = \n}\n")
	tests := []struct {
		name string
		args []string
		hint bool
	}{
		{"unknown flag", []string{"run", "--bogus", good}, true},
		{"two files", []string{"validate", good, good}, true},
		{"file with errors", []string{"validate", bad}, false},
		{"run of a file with errors", []string{"run", bad}, false},
		{"fmt of a file that does not parse", []string{"fmt", broken}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(tc.args...)
			if code != exitUsage {
				t.Errorf("%v: exit %d; want %d", tc.args, code, exitUsage)
			}
			if got := strings.Contains(errOut, "--help' for usage"); got != tc.hint {
				t.Errorf("%v: usage hint printed %t; want %t; stderr:\n%s", tc.args, got, tc.hint, errOut)
			}
		})
	}
}

// TestProgressEndsItsLine checks that a progress bar stopped part of the
// way (Ctrl-C, a failed run) ends its line, so that the summary and the
// "interrupted" note after it do not run on from the bar; and that plain
// lines, for a file or a pipe, are whole lines.
func TestProgressEndsItsLine(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var buf strings.Builder
		report, end := newProgress(&buf, 5, 1, tty)
		for done := 1; done <= 3; done++ {
			report(runner.Progress{Done: done, Total: 5})
		}
		end()
		if got := buf.String(); !strings.HasSuffix(got, "\n") || !strings.Contains(got, "3/5") {
			t.Errorf("terminal %t: progress after 3 of 5 runs and end: %q; want 3/5 and a final newline", tty, got)
		}
	}
}

// TestPlainProgressTimeLeft checks the estimate of plain progress lines,
// which is all a Slurm log gets: the pace of the runs simulated so far,
// not counting those --resume found complete, times the runs left.
func TestPlainProgressTimeLeft(t *testing.T) {
	var buf strings.Builder
	report, _ := newProgress(&buf, 10, 1, false)
	report(runner.Progress{Done: 6, Skipped: 2, Total: 10, Elapsed: 8 * time.Second})  // 2 s a run, 4 left
	report(runner.Progress{Done: 7, Skipped: 2, Total: 10, Elapsed: 60 * time.Second}) // 12 s a run, 3 left
	report(runner.Progress{Done: 10, Skipped: 2, Total: 10, Elapsed: 61*time.Second + 400*time.Millisecond})
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{"; 8s elapsed, about 8s left", "; 1m0s elapsed, about 36s left", "; 1m1s elapsed"}
	for i, w := range want {
		if len(lines) != len(want) || !strings.HasSuffix(lines[i], w) {
			t.Fatalf("plain progress:\n%s\nwant lines ending %q", buf.String(), want)
		}
	}
}

// TestResumedProgress checks what progress says of the runs --resume
// found complete before any run: a line that says so, on a terminal's bar
// too, rather than "run 18/18 done; 0 jobs/s; 0s elapsed".
func TestResumedProgress(t *testing.T) {
	for _, tc := range []struct {
		p    runner.Progress
		want string
	}{
		{runner.Progress{Done: 18, Skipped: 18, Total: 18}, "18/18 runs already complete; nothing to simulate\n"},
		{runner.Progress{Done: 6, Skipped: 6, Total: 18}, "6/18 runs already complete; 12 to simulate\n"},
	} {
		var buf strings.Builder
		report, _ := newProgress(&buf, tc.p.Total, 1, false)
		report(tc.p)
		if buf.String() != tc.want {
			t.Errorf("plain %d/%d resumed: got %q; want %q", tc.p.Done, tc.p.Total, buf.String(), tc.want)
		}
		buf.Reset()
		report, end := newProgress(&buf, tc.p.Total, 1, true)
		report(tc.p)
		end()
		if got := buf.String(); !strings.Contains(got, fmt.Sprintf("%d already complete", tc.p.Skipped)) || strings.Contains(got, "jobs/s") {
			t.Errorf("terminal %d/%d resumed: got %q; want the bar to say %d already complete", tc.p.Done, tc.p.Total, got, tc.p.Skipped)
		}
	}
}

// TestTimeLeftUnderASecond checks that a sweep with a run to go never says
// "about 0s left".
func TestTimeLeftUnderASecond(t *testing.T) {
	p := runner.Progress{Done: 17, Total: 18, Elapsed: 500 * time.Millisecond} // 29 ms a run
	if got, want := timeLeft(p), "500ms elapsed, under 1s left"; got != want {
		t.Errorf("timeLeft(17 of 18 runs in 500ms) = %q; want %q", got, want)
	}
	p = runner.Progress{Done: 18, Total: 18, Elapsed: 500 * time.Millisecond}
	if got, want := timeLeft(p), "500ms elapsed"; got != want {
		t.Errorf("timeLeft(18 of 18 runs in 500ms) = %q; want %q", got, want)
	}
}

func TestNouns(t *testing.T) {
	for n, want := range map[int]string{0: "0 runs", 1: "1 run", 18: "18 runs"} {
		if got := nouns(n, "run"); got != want {
			t.Errorf("nouns(%d) = %q; want %q", n, got, want)
		}
	}
}

// TestFmtWriteKeepsFile checks that fmt -w rewrites a file as gofmt -w
// does: keeping its permissions (a private experiment file must not become
// readable by everyone) and, through a symbolic link, the file the link
// names, leaving the link a link.
func TestFmtWriteKeepsFile(t *testing.T) {
	const messy, tidy = "experiment \"x\" {\nseed=1\n}\n", "experiment \"x\" {\n  seed = 1\n}\n"
	dir := t.TempDir()
	private, link := filepath.Join(dir, "private.hcl"), filepath.Join(dir, "link.hcl")
	if err := os.Symlink("private.hcl", link); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{private, link} {
		if err := os.WriteFile(private, []byte(messy), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(private, 0o600); err != nil { // whatever the umask
			t.Fatal(err)
		}
		if code, _, errOut := runCLI("fmt", "-w", arg); code != exitOK {
			t.Fatalf("fmt -w %s: exit %d, %q", arg, code, errOut)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("after fmt -w %s the link is %v, %v; want still a symbolic link", arg, fi.Mode(), err)
		}
		if got, _ := os.ReadFile(private); string(got) != tidy {
			t.Errorf("after fmt -w %s the file holds %q; want %q", arg, got, tidy)
		}
		if fi, err := os.Stat(private); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("after fmt -w %s the file's permissions are %v (%v); want -rw-------", arg, fi.Mode().Perm(), err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 2 {
			t.Errorf("after fmt -w %s the folder holds %d entries; want the file and the link", arg, len(entries))
		}
	}
}

// TestFmtWriteAndCheck checks that fmt refuses -w with --check, which ask
// for opposite things, rather than silently doing one of them.
func TestFmtWriteAndCheck(t *testing.T) {
	const messy = "experiment \"x\" {\nseed=1\n}\n"
	file := writeExperiment(t, messy)
	code, stdout, errOut := runCLI("fmt", "-w", "--check", file)
	if code != exitUsage || !strings.Contains(errOut, "-w and --check") {
		t.Errorf("fmt -w --check: exit %d, stderr %q; want exit %d saying -w and --check do not go together", code, errOut, exitUsage)
	}
	if stdout != "" {
		t.Errorf("fmt -w --check: stdout %q; want nothing", stdout)
	}
	if got, _ := os.ReadFile(file); string(got) != messy {
		t.Errorf("fmt -w --check rewrote the file to %q", got)
	}
}

// TestRunFailureSaysResume fails a sweep part-way, as a full disk or a
// folder gone read-only does: a run's partition folder is a file (which
// fails even for root). The error must name the path and say that the
// finished runs are kept and --resume continues, as Ctrl-C's does.
func TestRunFailureSaysResume(t *testing.T) {
	file := writeExperiment(t, smallExperiment)
	out := filepath.Join(t.TempDir(), "res")
	if code, _, errOut := runCLI("run", "--quiet", "--out", out, file); code != exitOK {
		t.Fatalf("first run: exit %d, stderr %q", code, errOut)
	}
	part := filepath.Join(out, "jobs/workload=mix/policy=easy/load_factor=2/replicate=1")
	files, err := filepath.Glob(filepath.Join(part, "part-*.parquet"))
	if err != nil || len(files) != 1 {
		t.Fatalf("jobs file of one run: %v, %v", files, err)
	}
	key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(files[0]), "part-"), ".parquet")
	if err := os.Remove(filepath.Join(out, ".schedsweep/runs", key+".gob")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(part); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(part, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("run", "--quiet", "--resume", "--out", out, file)
	if code != exitFailure || !strings.Contains(errOut, part) || !strings.Contains(errOut, "run again with --resume") {
		t.Errorf("a run that cannot write its jobs file: exit %d, stderr %q; want %d, the path and how to continue", code, errOut, exitFailure)
	}
}

// TestProgressNamesTheTargetLoad checks that a run of a target offered load
// is named by the target, with the solved factor short, not by the factor's
// seventeen digits.
func TestProgressNamesTheTargetLoad(t *testing.T) {
	w := &spec.Workload{Name: "lublin"}
	pol := &spec.Policy{Name: "easy"}
	for _, tc := range []struct {
		run  runner.Run
		want string
	}{
		{runner.Run{Workload: w, Policy: pol, LoadFactor: 1.9971056269843719, TargetLoad: 0.7, Replicate: 1},
			"(lublin, easy, offered load 0.7 (factor 1.997), replicate 1)"},
		{runner.Run{Workload: w, Policy: pol, LoadFactor: 1.2, Replicate: 2}, "(lublin, easy, load 1.2, replicate 2)"},
	} {
		got := progressLine(runner.Progress{Total: 2, Done: 1, Run: &tc.run})
		if !strings.Contains(got, tc.want) {
			t.Errorf("progressLine = %q; want it to contain %q", got, tc.want)
		}
	}
}
