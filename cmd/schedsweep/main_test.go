package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

const tinyTrace = "../../../shared/workloads/tiny.swf"

func needShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(tinyTrace); err != nil {
		t.Skipf("%s is absent: the shared workloads are not beside the checkout", tinyTrace)
	}
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSimulatePrintsMetrics(t *testing.T) {
	needShared(t)
	code, out, errOut := runCLI("simulate", "--policy", "easy", tinyTrace)
	if code != exitOK {
		t.Fatalf("exit %d; want 0; stderr:\n%s", code, errOut)
	}
	// The metrics of the hand-worked EASY schedule of tiny.swf
	// (policies/testdata/easy/tiny.golden): waits sum to 31680 s over 20
	// jobs, responses to 53500 s; the last job ends at 19500.
	for _, want := range []string{
		"tiny.swf: 20 jobs",
		"procs=8 (MaxProcs of the trace header)",
		"20 finished, 0 killed at their requested time, 0 rejected",
		"mean wait              1584.0 s",
		"mean response          2675.0 s",
		"makespan               19500 s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q; got:\n%s", want, out)
		}
	}
}

func TestSimulateWritesSchedule(t *testing.T) {
	needShared(t)
	dir := t.TempDir()
	csvPath, swfPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.swf")
	code, _, errOut := runCLI("simulate", tinyTrace, "--policy", "fcfs", "--schedule", csvPath, "--swf", swfPath)
	if code != exitOK {
		t.Fatalf("exit %d; want 0; stderr:\n%s", code, errOut)
	}
	csv, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if lines[0] != "job_id,submit,start,end,procs,status" || len(lines) != 21 {
		t.Fatalf("got header %q and %d lines; want the schedule header and 21 lines", lines[0], len(lines))
	}
	// From policies/testdata/fcfs/tiny.golden.
	if lines[3] != "3,45,600,2400,8,finished" {
		t.Errorf("job 3: got %q; want 3,45,600,2400,8,finished", lines[3])
	}
	swf, err := os.ReadFile(swfPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(swf), "; MaxProcs: 8") {
		t.Errorf("SWF output lacks the header; got:\n%s", swf)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("output folder holds %d entries; want only the two files", len(entries))
	}
}

func TestSimulateErrors(t *testing.T) {
	needShared(t)
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown policy", []string{"simulate", "--policy", "eassy", tinyTrace}, exitUsage,
			`--policy: unknown policy "eassy" (did you mean "easy"?); known: fcfs, sjf, easy, conservative`},
		{"no trace", []string{"simulate"}, exitUsage, "want one TRACE argument, got 0"},
		{"missing trace", []string{"simulate", "no-such.swf"}, exitFailure, `trace "no-such.swf" is neither an existing file nor a registered trace name`},
		{"bad field", []string{"simulate", "--procs-field", "both", tinyTrace}, exitUsage, `--procs-field: "both" is not requested or allocated`},
		{"memory without size", []string{"simulate", "--memory-field", "requested", tinyTrace}, exitUsage, "needs the machine's memory"},
		{"bad size", []string{"simulate", "--memory", "lots", "--memory-field", "requested", tinyTrace}, exitUsage, `"lots" is not a size`},
		{"memory without field", []string{"simulate", "--memory", "8GiB", tinyTrace}, exitUsage, "--memory needs --memory-field"},
		{"negative procs", []string{"simulate", "--procs", "-4", tinyTrace}, exitUsage, "--procs: -4 is negative"},
		{"unknown flag", []string{"simulate", "--speed", "9", tinyTrace}, exitUsage, "flag provided but not defined: -speed"},
		{"unknown command", []string{"simulat"}, exitUsage, `unknown command "simulat"`},
		{"schedule to a folder", []string{"simulate", "--schedule", os.TempDir(), tinyTrace}, exitUsage,
			"--schedule: " + os.TempDir() + " is a folder; give a file name"},
		{"swf to a folder", []string{"simulate", "--swf", ".", tinyTrace}, exitUsage, "--swf: . is a folder; give a file name"},
		{"generate to a folder", []string{"trace", "generate", "lublin", "--jobs", "5", "--out", os.TempDir()}, exitUsage,
			"--out: " + os.TempDir() + " is a folder; give a file name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) {
				t.Errorf("got exit %d, stderr:\n%s\nwant exit %d and %q", code, errOut, tc.code, tc.msg)
			}
		})
	}
}

func TestSimulateUnwritableOutput(t *testing.T) {
	needShared(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil {
		f.Close()
		t.Skip("running as a user who can write a read-only folder (root)")
	}
	code, _, errOut := runCLI("simulate", "--schedule", filepath.Join(dir, "s.csv"), tinyTrace)
	if code != exitFailure || !strings.Contains(errOut, "writing the schedule") || !strings.Contains(errOut, dir) {
		t.Errorf("got exit %d, stderr %q; want exit 1 naming the folder", code, errOut)
	}
}

// commandPaths returns every command as its words: {"run"}, …, {"trace"},
// {"trace", "info"}, ….
func commandPaths() [][]string {
	var paths [][]string
	for _, c := range commands() {
		paths = append(paths, []string{c.name})
		if c.name == "trace" {
			for _, sub := range traceCommands() {
				paths = append(paths, []string{c.name, sub.name})
			}
		}
	}
	return paths
}

// TestHelp checks that help asked for, in any of its spellings, goes to
// stdout with exit 0 for every command, and that it is that command's help.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		code, out, errOut := runCLI(args...)
		if code != exitOK || errOut != "" || !strings.Contains(out, "Usage: schedsweep COMMAND") || !strings.Contains(out, "Exit codes:") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and the usage, exit codes included, on stdout", args, code, out, errOut)
		}
	}
	for _, path := range commandPaths() {
		name := strings.Join(path, " ")
		for _, args := range [][]string{
			append(slices.Clone(path), "--help"),
			append(slices.Clone(path), "-h"),
			append([]string{"help"}, path...),
		} {
			code, out, errOut := runCLI(args...)
			if code != exitOK || errOut != "" || !strings.HasPrefix(out, "Usage: schedsweep "+name) || !strings.Contains(out, "\nExit codes: 0 ") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and %q, then the exit codes, on stdout", args, code, out, errOut, "Usage: schedsweep "+name)
			}
		}
	}
	if code, out, _ := runCLI("trace", "help", "info"); code != exitOK || !strings.HasPrefix(out, "Usage: schedsweep trace info") {
		t.Errorf("trace help info: exit %d, stdout %q; want the help of trace info", code, out)
	}
}

// TestHelpExamples checks that every command's help has examples and runs
// them, in the order of commandPaths, in a folder holding what they start
// from: the results of psp2016 (one replicate, to be quick), an experiment
// file mine.hcl, a sacct dump dump.txt, and a trace cache ($SCHEDSWEEP_CACHE) holding the shared
// traces, so that trace fetch finds them cached and downloads nothing. run's
// examples come first and write out/quickstart, which plot's read. Without
// the shared traces, an example naming a registered trace is only parsed:
// run with --help, its flags must parse.
func TestHelpExamples(t *testing.T) {
	cache := t.TempDir()
	entries, err := os.ReadDir(sharedWorkloads)
	offline := err != nil
	for _, e := range entries {
		abs, err := filepath.Abs(filepath.Join(sharedWorkloads, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(cache, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(cacheEnv, cache)
	dump, err := os.ReadFile(sacctStates) // trace import's examples read dump.txt
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("dump.txt", dump, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("run", "--quiet", "--var", "replicates=1", "psp2016"); code != exitOK {
		t.Fatalf("run psp2016: exit %d, stderr %q", code, errOut)
	}
	if err := os.WriteFile("mine.hcl", []byte(smallExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range commandPaths() {
		name := strings.Join(path, " ")
		_, help, _ := runCLI(append(slices.Clone(path), "--help")...)
		_, examples, ok := strings.Cut(help, "\nExamples")
		if !ok {
			t.Errorf("%s --help has no Examples section", name)
			continue
		}
		examples, _, _ = strings.Cut(examples, "\n\n")
		lines := strings.Split(examples, "\n")[1:]
		if len(lines) == 0 {
			t.Errorf("%s --help: the Examples section is empty", name)
		}
		for _, line := range lines {
			args := strings.Fields(line)
			if len(args) < 2 || args[0] != "schedsweep" || !strings.HasPrefix(line, "  schedsweep ") {
				t.Errorf("%s --help: example %q is not a schedsweep command indented by two spaces", name, line)
				continue
			}
			if !slices.Contains(args, path[0]) && !(path[0] == "version" && args[1] == "--version") {
				t.Errorf("%s --help: example %q does not use %s", name, line, path[0])
			}
			n++
			args = args[1:]
			if offline && strings.Contains(line, "KTH-SP2") {
				args = append(args, "--help")
			}
			if code, _, errOut := runCLI(args...); code != exitOK {
				t.Errorf("%s --help: example %q: exit %d, stderr %q", name, line, code, errOut)
			}
		}
	}
	if n == 0 {
		t.Error("found no example in any command's help")
	}
}

// TestUsageOnMistake checks that usage printed because of a mistake goes
// to stderr with the usage exit code, leaving stdout empty.
func TestUsageOnMistake(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "Usage: schedsweep COMMAND"},
		{[]string{"bogus"}, "Usage: schedsweep COMMAND"},
		{[]string{"help", "bogus"}, `unknown command "bogus"`},
		{[]string{"trace"}, "Usage: schedsweep trace COMMAND"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, nothing on stdout and %q on stderr", tc.args, code, out, errOut, exitUsage, tc.want)
		}
	}
}

// TestSubcommandErrors checks that an error of a trace subcommand names the
// subcommand and points at its own --help, not at trace's.
func TestSubcommandErrors(t *testing.T) {
	for _, c := range traceCommands() {
		args := []string{"trace", c.name, "--bogus"}
		code, out, errOut := runCLI(args...)
		want := "schedsweep trace " + c.name + ": flag provided but not defined: -bogus\n" +
			"run 'schedsweep trace " + c.name + " --help' for usage\n"
		if code != exitUsage || out != "" || errOut != want {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", args, code, errOut, exitUsage, want)
		}
	}
	// A failure, not a mistake: the message names the subcommand, no hint.
	code, _, errOut := runCLI("trace", "info", "nowhere.swf")
	if code != exitFailure || !strings.HasPrefix(errOut, "schedsweep trace info: ") || strings.Contains(errOut, "--help") {
		t.Errorf("trace info nowhere.swf: exit %d, stderr %q; want exit 1 and the error of trace info", code, errOut)
	}
	// An unknown subcommand is trace's mistake.
	code, _, errOut = runCLI("trace", "inf")
	if code != exitUsage || !strings.HasSuffix(errOut, "run 'schedsweep trace --help' for usage\n") {
		t.Errorf("trace inf: exit %d, stderr %q; want the hint at trace --help", code, errOut)
	}
}

// TestREADMEExample runs the simulate example of docs/simulate.md and
// checks that the output shown there is what the command prints (but for
// the timing).
func TestREADMEExample(t *testing.T) {
	readme, err := os.ReadFile("../../docs/simulate.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmdPrefix = "go run ./cmd/schedsweep "
	text := string(readme)
	i := strings.Index(text, cmdPrefix+"simulate")
	if i < 0 {
		t.Fatal("docs/simulate.md shows no 'go run ./cmd/schedsweep simulate' command")
	}
	line, rest, _ := strings.Cut(text[i+len(cmdPrefix):], "\n")
	args := strings.Fields(line)
	for k, a := range args {
		if strings.HasPrefix(a, "../shared/") {
			args[k] = "../../" + a // from the README's folder to this package's
			if _, err := os.Stat(args[k]); err != nil {
				t.Skipf("%s is absent: the shared workloads are not beside the checkout", args[k])
			}
		}
	}
	// The command's block closes; the output is the next fenced block.
	_, after, _ := strings.Cut(rest, "```\n")
	_, after, _ = strings.Cut(after, "```")
	_, block, _ := strings.Cut(after, "\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "mean wait") {
		t.Fatalf("found no output block after the README command; got %q", block)
	}
	code, out, errOut := runCLI(args...)
	if code != exitOK {
		t.Fatalf("README command %v: exit %d\n%s", args, code, errOut)
	}
	for _, want := range strings.Split(strings.TrimSpace(block), "\n") {
		if strings.HasPrefix(want, "simulated in") {
			continue
		}
		if !strings.Contains(out, want+"\n") {
			t.Errorf("README shows %q; the command prints:\n%s", want, out)
		}
	}
}

func TestHumanSpan(t *testing.T) {
	for in, want := range map[sim.Time]string{0: "0s", 59: "59s", 60: "1m 0s", 93784: "1d 2h 3m 4s", 86400: "1d 0h 0m 0s"} {
		if got := humanSpan(in); got != want {
			t.Errorf("humanSpan(%d) = %q; want %q", in, got, want)
		}
	}
}

func TestSimulateWithMemory(t *testing.T) {
	needShared(t)
	// tiny.swf's requested memory is at most 4096 KB per processor on 8
	// processors: 32 MiB fits every job, 8 MiB rejects the largest.
	code, out, errOut := runCLI("simulate", "--memory-field", "requested", "--memory", "32MiB", tinyTrace)
	if code != exitOK || !strings.Contains(out, "% of memory") || !strings.Contains(out, "0 rejected") {
		t.Fatalf("32 MiB: exit %d, output:\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI("simulate", "--memory-field", "requested", "--memory", "8MiB", tinyTrace)
	if code != exitOK || !strings.Contains(out, "too-large") {
		t.Errorf("8 MiB: exit %d; want jobs rejected as too large; output:\n%s", code, out)
	}
}

// TestREADMEExperiment parses the experiment the README shows.
func TestREADMEExperiment(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```hcl\n")
	if !ok {
		t.Fatal("README shows no hcl block")
	}
	block, _, _ = strings.Cut(block, "```")
	path := filepath.Join(t.TempDir(), "readme.hcl")
	os.WriteFile(path, []byte(block), 0o644)
	code, stdout, errOut := runCLI("validate", path)
	if code != exitOK {
		t.Errorf("the README's experiment: exit %d\n%s%s", code, stdout, errOut)
	}
}

// TestBadFlagMessage checks that a mistyped flag or value is reported once,
// with the hint to --help, rather than followed by the whole flag list
// and then reported again.
func TestBadFlagMessage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--bogus", "quickstart"},
		{"run", "--jobs", "many", "quickstart"},
		{"simulate", "--procs", "abc", "x.swf"},
	} {
		code, _, errOut := runCLI(args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d; want %d", args, code, exitUsage)
		}
		if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 2 ||
			!strings.HasPrefix(lines[0], "schedsweep "+args[0]+": ") || !strings.Contains(lines[1], "--help") {
			t.Errorf("%v: stderr\n%s\nwant the error on one line, then the --help hint", args, errOut)
		}
	}
	// -h still prints the flags.
	if code, out, _ := runCLI("run", "-h"); code != exitOK || !strings.Contains(out, "-resume") {
		t.Errorf("run -h: exit %d, stdout %q; want the flags", code, out)
	}
}
