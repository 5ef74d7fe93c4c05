package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/experiments"
)

// TestReadmeSweepTwice runs the README's sweep command, as the README
// shows it, twice in a fresh folder laid out as a clone: both succeed, and
// the second simulates nothing and says so.
func TestReadmeSweepTwice(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmdPrefix = "go run ./cmd/schedsweep run"
	_, line, ok := strings.Cut(string(readme), cmdPrefix)
	if !ok {
		t.Fatalf("README.md shows no %q command", cmdPrefix)
	}
	line, _, _ = strings.Cut(line, "\n")
	args := append([]string{"run"}, strings.Fields(line)...)
	t.Chdir(t.TempDir())
	src, err := experiments.Files.ReadFile("quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll("experiments", 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("experiments", "quickstart.hcl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errOut := runCLI(args...)
	if code != exitOK || !strings.Contains(stdout, "quickstart: 18 runs simulated of 18") {
		t.Fatalf("first sweep %v: exit %d, stdout %q, stderr %q", args, code, stdout, errOut)
	}
	code, stdout, errOut = runCLI(args...)
	if code != exitOK || !strings.Contains(stdout, "quickstart: 0 runs simulated, 18 already complete of 18, 0 jobs") ||
		!strings.Contains(errOut, "18/18 runs already complete; nothing to simulate") {
		t.Errorf("second sweep %v: exit %d, stdout %q, stderr %q; want exit 0 and nothing simulated", args, code, stdout, errOut)
	}
}

// TestReadmeIsShort keeps the README a front door: what the tool is, how
// to install it, the two commands and the next step fit on a few screens,
// and everything else is a link.
func TestReadmeIsShort(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 150 {
		t.Errorf("README.md has %d lines; keep it to 150 and move detail to docs/", n)
	}
	for _, link := range []string{"docs/simulate.md", "docs/running-at-scale.md", "results/README.md", "sim/README.md", "experiments/README.md", "docs/checks.md", "docs/development.md", "docs/adding-a-policy.md", "docs/experiments.md"} {
		if !strings.Contains(string(readme), "("+link+")") {
			t.Errorf("README.md does not link %s", link)
		}
		if _, err := os.Stat("../../" + link); err != nil {
			t.Errorf("README.md links %s: %v", link, err)
		}
	}
}

// TestGrowSweepCommand edits a finished sweep's file to add a load factor
// and a policy: plan counts the runs the folder holds and the new ones, and
// run simulates only the new ones. Dropping the load again: plan and run
// report the runs outside the grid, which --prune removes.
func TestGrowSweepCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "res")
	file := writeExperiment(t, smallExperiment)
	if code, _, errOut := runCLI("run", "--quiet", "--out", out, file); code != exitOK {
		t.Fatalf("first sweep: exit %d, stderr %q", code, errOut)
	}
	grown := strings.Replace(smallExperiment, "load_factors = [1, 2]", "load_factors = [1, 2, 3]", 1)
	grown = strings.Replace(grown, `policy "easy" {}`, "policy \"easy\" {}\npolicy \"sjf\" {}", 1)
	grown = strings.Replace(grown, "[policy.fcfs, policy.easy]", "[policy.fcfs, policy.easy, policy.sjf]", 1)
	if err := os.WriteFile(file, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errOut := runCLI("plan", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "9 runs") || !strings.Contains(stdout, "the folder holds 4 runs complete; 5 new to simulate\n") {
		t.Errorf("plan of the grown sweep: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	code, stdout, errOut = runCLI("run", "--quiet", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "5 runs simulated, 4 already complete of 9") {
		t.Errorf("the grown sweep: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	shrunk := strings.Replace(grown, "load_factors = [1, 2, 3]", "load_factors = [1, 2]", 1)
	if err := os.WriteFile(file, []byte(shrunk), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCLI("plan", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "nothing to simulate; it also holds 3 finished runs the sweep no longer has, kept unless run --prune") {
		t.Errorf("plan of the shrunk sweep: exit %d, stdout %q", code, stdout)
	}
	code, stdout, errOut = runCLI("run", "--quiet", "--out", out, file)
	if code != exitOK || !strings.Contains(stdout, "0 runs simulated, 6 already complete of 6") ||
		!strings.Contains(errOut, "3 finished runs that the grid no longer has") {
		t.Errorf("the shrunk sweep: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	code, _, errOut = runCLI("run", "--quiet", "--prune", "--out", out, file)
	if code != exitOK || !strings.Contains(errOut, "removed 3 finished runs") {
		t.Errorf("--prune: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "jobs", "workload=mix", "policy=easy", "load_factor=3")); !os.IsNotExist(err) {
		t.Errorf("--prune left the pruned runs' partition folder (%v)", err)
	}
}
