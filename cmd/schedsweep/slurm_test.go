//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goldenSpec is the spec of the golden scripts in testdata/slurm.
var goldenSpec = slurmSpec{
	name:    "big sweep",
	bin:     "/opt/schedsweep/bin/schedsweep",
	file:    "/home/ada/study/big sweep.hcl",
	out:     "/scratch/ada/out/big",
	dir:     "/scratch/ada/out/big-slurm",
	workdir: "/home/ada/study",
	shards:  16,
	runs:    240,
	vars:    []string{"trace=KTH-SP2", "note=it's"},
	cache:   "/scratch/ada/traces",
	options: []string{"--partition=long", "--time=4:00:00", "--cpus-per-task=8", "--qos=low"},
}

// TestSlurmScriptsGolden checks the text of both scripts against
// testdata/slurm; SCHEDSWEEP_UPDATE_GOLDEN=1 rewrites the files, for a
// change to review in the diff.
func TestSlurmScriptsGolden(t *testing.T) {
	for name, got := range map[string]string{shardsScript: goldenSpec.shardsScript(), mergeScript: goldenSpec.mergeScript()} {
		path := filepath.Join("testdata", "slurm", name)
		if os.Getenv("SCHEDSWEEP_UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// fakeProgram writes an executable shell script named name into dir.
func fakeProgram(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSlurmScriptsRun runs the written scripts with bash, as Slurm would,
// with a stand-in for schedsweep that prints its arguments and its parent:
// each task runs its shard of the count written in the script, whatever
// the submission's size, with --jobs from --cpus-per-task or 1; the merge
// runs --resume; both exec schedsweep (its parent is the test, not bash);
// and the --var values reach it as given.
func TestSlurmScriptsRun(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	spec := goldenSpec
	spec.bin = fakeProgram(t, dir, "schedsweep", `echo "parent=$PPID"; for a in "$@"; do echo "[$a]"; done`+"\n")
	spec.dir, spec.out = dir, filepath.Join(dir, "out")
	if err := spec.write(); err != nil {
		t.Fatal(err)
	}
	parent := "parent=" + strconv.Itoa(os.Getpid())
	for _, tc := range []struct {
		name, script string
		env          []string
		want         string
	}{
		{"task 3 of a re-submission of one", shardsScript, []string{"SLURM_ARRAY_TASK_ID=3", "SLURM_ARRAY_TASK_COUNT=1"},
			"[run] [--jobs] [1] [--shard] [3/16]"},
		{"with --cpus-per-task", shardsScript, []string{"SLURM_ARRAY_TASK_ID=0", "SLURM_CPUS_PER_TASK=8"},
			"[run] [--jobs] [8] [--shard] [0/16]"},
		{"merge", mergeScript, []string{"SLURM_CPUS_PER_TASK=2"},
			"[run] [--jobs] [2] [--resume] [--out] [" + spec.out + "] [--cache] [/scratch/ada/traces] [--var] [trace=KTH-SP2] [--var] [note=it's] [/home/ada/study/big sweep.hcl]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", filepath.Join(dir, tc.script))
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, tc.env...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			if lines[0] != parent {
				t.Errorf("got %s; want %s: the script does not exec schedsweep", lines[0], parent)
			}
			if got := strings.Join(lines[1:], " "); !strings.HasPrefix(got, tc.want) {
				t.Errorf("schedsweep got %s; want it to begin %s", got, tc.want)
			}
		})
	}
	// A task without an array task id (the script run by hand) stops
	// rather than run a shard "/16".
	cmd := exec.Command("bash", filepath.Join(dir, shardsScript))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "not a Slurm array task") {
		t.Errorf("got %v, %s; want the missing array task id named", err, out)
	}
}

// TestSlurmWrites runs the command: it writes both scripts with absolute
// paths (the binary, the file, the results folder, the folder the jobs run
// in), the options of the flags, and says how to submit them.
func TestSlurmWrites(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("mine.hcl", []byte(smallExperiment), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errOut := runCLI("slurm", "--shards", "2", "--out", "res", "--partition", "short", "--time", "10:00",
		"--account", "proj", "--mem", "4G", "--cpus-per-task", "4", "--sbatch-arg", "--qos=low", "mine.hcl")
	if code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	shards, merge := filepath.Join(dir, "res-slurm", shardsScript), filepath.Join(dir, "res-slurm", mergeScript)
	if !strings.Contains(stdout, "sbatch --parsable "+shards) || !strings.Contains(stdout, "sbatch --dependency=afterany:") {
		t.Errorf("stdout %q; want the commands that submit %s", stdout, shards)
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	for _, path := range []string{shards, merge} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, want := range []string{
			"#SBATCH --partition=short\n#SBATCH --time=10:00\n#SBATCH --account=proj\n#SBATCH --mem=4G\n#SBATCH --cpus-per-task=4\n#SBATCH --qos=low\n",
			"#SBATCH --open-mode=append\n", "#SBATCH --chdir=" + dir + "\n",
			"exec " + exe + " run --jobs \"${SLURM_CPUS_PER_TASK:-1}\"",
			"--out " + filepath.Join(dir, "res") + " " + filepath.Join(dir, "mine.hcl") + "\n",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s:\n%s\nwant it to hold %q", path, text, want)
			}
		}
	}
}

// TestSlurmRefuses checks the mistakes slurm refuses before writing
// anything, among them a results folder whose tables would make the
// runner refuse every shard: a whole sweep's, or another split's.
func TestSlurmRefuses(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, f := range []string{"whole/runs.parquet", "split/runs-1-of-3.parquet"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a whole sweep's tables", []string{"--shards", "2", "--out", "whole", "quickstart"}, "whole holds runs.parquet, of a run of the whole sweep"},
		{"another split's tables", []string{"--shards", "2", "--out", "split", "quickstart"}, "split holds runs-1-of-3.parquet, of a split in 3"},
		{"no shard count", []string{"quickstart"}, "--shards: want the number of array tasks"},
		{"more shards than runs", []string{"--shards", "19", "quickstart"}, "19 tasks for 18 runs would leave 1 with nothing to do"},
		{"a space in a value", []string{"--shards", "2", "--partition", "a b", "quickstart"}, `--partition: "a b" has a space`},
		{"not an option", []string{"--shards", "2", "--sbatch-arg", "qos=low", "quickstart"}, `"qos=low" is not an sbatch option`},
		{"a space in the folder", []string{"--shards", "2", "--dir", "my scripts", "quickstart"}, "sbatch splits #SBATCH lines"},
		{"no such binary", []string{"--shards", "2", "--schedsweep", "nowhere/schedsweep", "quickstart"}, "--schedsweep: stat nowhere/schedsweep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(append([]string{"slurm"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", code, errOut, exitUsage, tc.want)
			}
			for _, dir := range []string{"out", "whole-slurm", "split-slurm"} {
				if _, err := os.Stat(dir); err == nil {
					t.Errorf("wrote %s", dir)
				}
			}
		})
	}
	// The split's own count is fine: its tasks are re-submitted so.
	if code, _, errOut := runCLI("slurm", "--shards", "3", "--out", "split", "quickstart"); code != exitOK {
		t.Errorf("--shards 3 into a folder of a split in 3: exit %d, stderr %q; want 0", code, errOut)
	}
}

// TestSlurmSubmit submits with a stand-in for sbatch on PATH: the array
// first, then the merge with afterany on the array's id (of a federation's
// "id;cluster" too), and both ids printed; a failing sbatch fails the
// command with its message, and a missing one says so.
func TestSlurmSubmit(t *testing.T) {
	bin := t.TempDir()
	t.Chdir(t.TempDir())
	calls := filepath.Join(bin, "calls")
	fakeProgram(t, bin, "sbatch", `echo "$*" >> `+calls+`
n=$(wc -l < `+calls+`)
if [ -n "$SBATCH_FAIL" ] && [ "$n" = 2 ]; then echo "sbatch: error: Batch job submission failed: Invalid account" >&2; exit 1; fi
echo "$((40 + n));ci"
`)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	code, stdout, errOut := runCLI("slurm", "--shards", "4", "--submit", "quickstart")
	if code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, errOut)
	}
	dir, _ := filepath.Abs(filepath.Join("out", "quickstart-slurm"))
	b, _ := os.ReadFile(calls)
	want := "--parsable " + filepath.Join(dir, shardsScript) + "\n--parsable --dependency=afterany:41 " + filepath.Join(dir, mergeScript) + "\n"
	if string(b) != want {
		t.Errorf("sbatch calls:\n%s\nwant\n%s", b, want)
	}
	if !strings.Contains(stdout, "shards: job 41 (tasks 0-3)") || !strings.Contains(stdout, "merge:  job 42 (after every shard: --dependency=afterany:41)") {
		t.Errorf("stdout %q; want both job ids", stdout)
	}

	os.Remove(calls)
	t.Setenv("SBATCH_FAIL", "1")
	code, _, errOut = runCLI("slurm", "--shards", "4", "--submit", "quickstart")
	if code != exitFailure || !strings.Contains(errOut, "Invalid account") || !strings.Contains(errOut, "the shards are submitted as job 41; submit the merge with: sbatch --dependency=afterany:41 ") {
		t.Errorf("exit %d, stderr %q; want exit %d, sbatch's message and how to submit the merge", code, errOut, exitFailure)
	}

	t.Setenv("PATH", t.TempDir())
	code, _, errOut = runCLI("slurm", "--shards", "4", "--submit", "quickstart")
	if code != exitFailure || !strings.Contains(errOut, "sbatch is not on PATH") {
		t.Errorf("exit %d, stderr %q; want exit %d saying sbatch is missing", code, errOut, exitFailure)
	}
}
