package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/results"
)

const slurmUsage = `Usage: schedsweep slurm --shards N [flags] FILE

Writes the two sbatch scripts that run an experiment's sweep on a Slurm
cluster, and with --submit submits them:

  shards.sbatch  a job array of N tasks; task i runs
                 schedsweep run --shard i/N into the results folder
  merge.sbatch   submitted with --dependency=afterany on the array: once
                 every task has ended, however it ended, it runs the whole
                 sweep with --resume, which simulates only what a cancelled,
                 failed or timed-out task left, and writes runs.parquet and
                 users.parquet in place of the shards' tables

The scripts write N into the --shard flag rather than reading
$SLURM_ARRAY_TASK_COUNT, the size of the current submission, so a task
re-submitted alone before the merge runs (sbatch --array=2 shards.sbatch)
still runs shard 2 of N. They exec schedsweep, so that scancel, a requeue or
the time limit sends SIGTERM to schedsweep itself, which saves its finished
runs and exits 75; they run --jobs ${SLURM_CPUS_PER_TASK:-1} workers, and
append to their logs (--open-mode=append), so that a requeued task keeps
its first attempt's log. Paths are absolute: the schedsweep binary, the
file, the results folder, and the folder the jobs run in (the current one).

Examples (add --submit to submit the scripts too):
  schedsweep slurm --shards 4 --out out/split quickstart
  schedsweep slurm --shards 9 --cpus-per-task 2 --time 30:00 --partition short --out out/split9 quickstart

Flags:
`

// slurmFlags are the flags of slurm.
type slurmFlags struct {
	shards               *int
	out, dir, bin, cache *string
	partition, timeLimit *string
	account, mem         *string
	cpus                 *int
	sbatchArgs           stringList
	submit               *bool
}

func addSlurmFlags(fs *flag.FlagSet) *slurmFlags {
	f := &slurmFlags{
		shards:    fs.Int("shards", 0, "`number` of array tasks the sweep is split into (required)"),
		out:       fs.String("out", "", "results `folder` (default: the file's output block, else out/NAME)"),
		dir:       fs.String("dir", "", "`folder` for the scripts and the jobs' logs (default: the results folder's path with -slurm added)"),
		bin:       fs.String("schedsweep", "", "`path` of the schedsweep the jobs run (default: this one)"),
		cache:     fs.String("cache", "", "trace cache `directory` the jobs use (default: theirs: $SCHEDSWEEP_CACHE, else the user cache)"),
		partition: fs.String("partition", "", "Slurm `partition` of both jobs"),
		timeLimit: fs.String("time", "", "time `limit` of each task and of the merge, as sbatch takes it (4:00:00)"),
		account:   fs.String("account", "", "Slurm `account` to charge"),
		mem:       fs.String("mem", "", "memory per task, as sbatch takes it (`size`: 8G)"),
		cpus:      fs.Int("cpus-per-task", 0, "CPUs per task, and so --jobs workers (`number`; default: Slurm's, 1)"),
		submit:    fs.Bool("submit", false, "submit both scripts with sbatch and print their job ids"),
	}
	fs.Var(&f.sbatchArgs, "sbatch-arg", "an sbatch `option` for both scripts, as in --sbatch-arg=--qos=long (repeatable)")
	return f
}

// slurmSpec is what the scripts say, fixed when they are written.
type slurmSpec struct {
	name    string   // the experiment's name, the jobs' name
	bin     string   // absolute path of the schedsweep the jobs run
	file    string   // absolute path of the experiment file, or an embedded experiment's name
	out     string   // absolute results folder
	dir     string   // absolute folder of the scripts and logs
	workdir string   // absolute folder the jobs run in
	shards  int      // array tasks
	runs    int      // runs of the sweep
	vars    []string // --var values, name=value
	cache   string   // --cache, absolute, or "" for the jobs' own
	options []string // sbatch options of both scripts, "--partition=short"
}

// Names of the files slurm writes in its folder.
const (
	shardsScript = "shards.sbatch"
	mergeScript  = "merge.sbatch"
	shardLog     = "shard-%a.log" // %a: sbatch's array task id
	mergeLog     = "merge.log"
)

func runSlurm(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("slurm", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), slurmUsage); fs.PrintDefaults() }
	f := addSlurmFlags(fs)
	arg, e, runs, err := parseExperiment(fs, args, stderr)
	if err != nil {
		return err
	}
	s := slurmSpec{name: e.Name, runs: len(runs), shards: *f.shards, vars: *fs.Lookup("var").Value.(*stringList)}
	if err := f.fill(&s, arg, e.Output.Dir); err != nil {
		return err
	}
	if err := checkSplit(s.out, s.shards); err != nil {
		return err
	}
	if strings.Contains(s.bin, "go-build") {
		fmt.Fprintf(stderr, "schedsweep slurm: warning: the scripts run %s, a temporary build (go run) that will be gone; give --schedsweep PATH\n", s.bin)
	}
	if err := s.write(); err != nil {
		return err
	}
	shards, merge := filepath.Join(s.dir, shardsScript), filepath.Join(s.dir, mergeScript)
	if !*f.submit {
		fmt.Fprintf(stdout, "wrote %s (%s of %s) and %s; submit them with\n", shards, nouns(s.shards, "task"), nouns(s.runs, "run"), merge)
		fmt.Fprintf(stdout, "  array=$(sbatch --parsable %s)\n", shellQuote(shards))
		fmt.Fprintf(stdout, "  sbatch --dependency=afterany:\"${array%%%%;*}\" %s\n", shellQuote(merge))
		return nil
	}
	return submitSlurm(shards, merge, s, stdout)
}

// fill completes s from the flags, for the experiment file arg whose output
// block names the results folder fileOut: absolute paths, and the sbatch
// options, checked.
func (f *slurmFlags) fill(s *slurmSpec, arg, fileOut string) (err error) {
	switch {
	case s.shards < 1:
		return usagef("--shards: want the number of array tasks, 1 or more (got %d)", s.shards)
	case s.shards > s.runs:
		return usagef("--shards: %d tasks for %s would leave %d with nothing to do", s.shards, nouns(s.runs, "run"), s.shards-s.runs)
	case *f.cpus < 0:
		return usagef("--cpus-per-task: %d is not a positive number", *f.cpus)
	}
	if s.workdir, err = os.Getwd(); err != nil {
		return err
	}
	s.file = arg
	if _, err := os.Stat(arg); err == nil { // else an embedded experiment, by name
		s.file = filepath.Join(s.workdir, arg)
		if filepath.IsAbs(arg) {
			s.file = filepath.Clean(arg)
		}
	}
	if s.out = *f.out; s.out == "" {
		s.out = fileOut
	}
	s.out = absIn(s.workdir, s.out)
	if s.dir = *f.dir; s.dir == "" {
		s.dir = s.out + "-slurm"
	}
	s.dir = absIn(s.workdir, s.dir)
	if *f.cache != "" {
		s.cache = absIn(s.workdir, *f.cache)
	}
	if s.bin, err = schedsweepBinary(*f.bin); err != nil {
		return err
	}
	s.bin = absIn(s.workdir, s.bin)
	s.options, err = f.sbatchOptions()
	if err != nil {
		return err
	}
	for _, p := range []struct{ flag, path string }{{"dir", s.dir}, {"the current folder", s.workdir}} {
		if strings.ContainsAny(p.path, " \t\n\"'\\%") {
			return usagef("%s: %q: sbatch splits #SBATCH lines at spaces and quotes, and reads %% as a pattern; use a path without them", p.flag, p.path)
		}
	}
	return nil
}

// checkSplit returns a usage error if the results folder out holds the
// tables of another split than n shards, which the runner would refuse
// each shard for.
func checkSplit(out string, n int) error {
	files, err := results.TableFiles(out, results.RunsTable)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, f := range files {
		_, shards, _ := results.TableShard(results.RunsTable, filepath.Base(f))
		switch {
		case shards == n:
		case shards == 1:
			return usagef("--out: %s holds %s, of a run of the whole sweep, where shards are refused; finish it with schedsweep run, or give another --out", out, filepath.Base(f))
		default:
			return usagef("--shards %d: %s holds %s, of a split in %d, where shards of another count are refused; give --shards %d, or another --out", n, out, filepath.Base(f), shards, shards)
		}
	}
	return nil
}

// absIn is path made absolute against dir, cleaned.
func absIn(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// schedsweepBinary is the schedsweep the jobs run: path if given, else the
// running executable with its links resolved.
func schedsweepBinary(path string) (string, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", usagef("--schedsweep: %w", err)
		}
		return path, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this schedsweep's path for the scripts (give it with --schedsweep): %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return exe, nil
}

// sbatchOptions returns the sbatch options the flags give, in the order
// the scripts list them; an option sbatch would misread is a usage error.
func (f *slurmFlags) sbatchOptions() ([]string, error) {
	var opts []string
	named := []struct{ name, value string }{
		{"partition", *f.partition}, {"time", *f.timeLimit}, {"account", *f.account}, {"mem", *f.mem},
	}
	if *f.cpus > 0 {
		named = append(named, struct{ name, value string }{"cpus-per-task", strconv.Itoa(*f.cpus)})
	}
	for _, o := range named {
		if o.value == "" {
			continue
		}
		if strings.ContainsAny(o.value, " \t\n\r") {
			return nil, usagef("--%s: %q has a space; sbatch would read only what comes before it", o.name, o.value)
		}
		opts = append(opts, "--"+o.name+"="+o.value)
	}
	for _, a := range f.sbatchArgs {
		switch {
		case !strings.HasPrefix(a, "-"):
			return nil, usagef("--sbatch-arg: %q is not an sbatch option; want one such as --qos=long", a)
		case strings.ContainsAny(a, "\n\r"):
			return nil, usagef("--sbatch-arg: %q has a line break", a)
		}
		opts = append(opts, a)
	}
	return opts, nil
}

// write writes both scripts into s.dir, creating it.
func (s slurmSpec) write() error {
	for name, text := range map[string]string{shardsScript: s.shardsScript(), mergeScript: s.mergeScript()} {
		err := atomicfile.WriteFile(filepath.Join(s.dir, name), func(w io.Writer) error {
			_, err := io.WriteString(w, text)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// shardsScript is the text of the job array's script.
func (s slurmSpec) shardsScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by schedsweep slurm: experiment %q, %s in %s,\n", s.name, nouns(s.runs, "run"), nouns(s.shards, "shard"))
	b.WriteString("# one per task of this job array. Submit merge.sbatch after it with\n# --dependency=afterany:<this job's id>.\n")
	s.header(&b, jobName(s.name), fmt.Sprintf("--array=0-%d", s.shards-1), filepath.Join(s.dir, shardLog))
	fmt.Fprintf(&b, `
# The shard count, %d, is written here: $SLURM_ARRAY_TASK_COUNT is the size of
# the current submission, so a task re-submitted alone (sbatch --array=2)
# would see 1. exec makes schedsweep the job's process: scancel, a requeue
# and the time limit send their SIGTERM to it, and it saves its finished runs
# and exits 75.
`, s.shards)
	s.execLine(&b, "--shard", "\"${SLURM_ARRAY_TASK_ID:?not a Slurm array task}/"+strconv.Itoa(s.shards)+"\"")
	return b.String()
}

// mergeScript is the text of the merge job's script.
func (s slurmSpec) mergeScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by schedsweep slurm: the merge of experiment %q's %s.\n", s.name, nouns(s.shards, "shard"))
	b.WriteString("# Submit it with --dependency=afterany:<the array's job id>.\n")
	s.header(&b, jobName(s.name)+"-merge", "", filepath.Join(s.dir, mergeLog))
	b.WriteString(`
# It starts once every task has ended, however it ended (afterany), simulates
# the runs a cancelled or failed task left and writes runs.parquet and
# users.parquet in place of the shards' tables.
`)
	s.execLine(&b, "--resume")
	return b.String()
}

// header writes the #SBATCH lines of a script: the job's name, array (if
// any) and log, then the options the flags give.
func (s slurmSpec) header(b *strings.Builder, job, array, log string) {
	fmt.Fprintf(b, "#SBATCH --job-name=%s\n", job)
	if array != "" {
		fmt.Fprintf(b, "#SBATCH %s\n", array)
	}
	fmt.Fprintf(b, "#SBATCH --output=%s\n#SBATCH --open-mode=append\n#SBATCH --chdir=%s\n", log, s.workdir)
	for _, o := range s.options {
		fmt.Fprintf(b, "#SBATCH %s\n", o)
	}
}

// execLine writes the command that runs schedsweep, with extra arguments
// (already quoted for the shell) before the results folder.
func (s slurmSpec) execLine(b *strings.Builder, extra ...string) {
	fmt.Fprintf(b, "exec %s run --jobs \"${SLURM_CPUS_PER_TASK:-1}\"", shellQuote(s.bin))
	for _, a := range extra {
		b.WriteString(" " + a)
	}
	b.WriteString(" \\\n  --out " + shellQuote(s.out))
	if s.cache != "" {
		b.WriteString(" --cache " + shellQuote(s.cache))
	}
	for _, v := range s.vars {
		b.WriteString(" --var " + shellQuote(v))
	}
	b.WriteString(" " + shellQuote(s.file) + "\n")
}

// jobName is an experiment's name as a Slurm job name: what sbatch would
// misread (a space, a quote) becomes "-".
func jobName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '-'
	}, name)
}

// shellQuote quotes s for bash: as it is if it needs no quoting, else in
// single quotes.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// submitSlurm submits the scripts, the merge depending on the array, and
// prints their job ids.
func submitSlurm(shards, merge string, s slurmSpec, stdout io.Writer) error {
	array, err := sbatch(shards)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "shards: job %s (tasks 0-%d), logs %s\n", array, s.shards-1, filepath.Join(s.dir, "shard-N.log"))
	job, err := sbatch("--dependency=afterany:"+array, merge)
	if err != nil {
		return fmt.Errorf("%w\nthe shards are submitted as job %s; submit the merge with: sbatch --dependency=afterany:%s %s", err, array, array, shellQuote(merge))
	}
	fmt.Fprintf(stdout, "merge:  job %s (after every shard: --dependency=afterany:%s), log %s\n", job, array, filepath.Join(s.dir, mergeLog))
	return nil
}

// sbatch runs sbatch --parsable with args and returns the job id it prints.
func sbatch(args ...string) (string, error) {
	cmd := exec.Command("sbatch", append([]string{"--parsable"}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if errors.Is(err, exec.ErrNotFound) {
		return "", fmt.Errorf("sbatch is not on PATH: submit the scripts on a Slurm login node, or by hand: %w", err)
	}
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";") // id;cluster on a federation
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q; want a job id", strings.Join(args, " "), out.String())
	}
	return id, nil
}
