package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"
	"github.com/schollz/progressbar/v3"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
)

const runUsage = `Usage: schedsweep run [flags] [FILE]

Runs the sweep an experiment file declares and writes its results: one
Parquet file per run under jobs/ (Hive-partitioned by the sweep's axes),
then runs.parquet and users.parquet (and node_groups.parquet when a run is
on a cluster of nodes). FILE is a path, or the name of an
experiment embedded in schedsweep; without one, run runs the embedded
quickstart.

Runs fan out over --jobs workers; Ctrl-C stops cleanly: finished runs keep
their results. Running a sweep again into its folder continues it: runs
already complete are kept, the rest simulated, so a finished sweep does
nothing and a file edited to add loads or policies simulates only the new
runs. Finished runs the file no longer has are kept (but left out of the
tables) unless --prune; --force starts over. --shard i/n runs the i-th of n slices
of the grid (0 ≤ i < n), so that n machines, e.g. a Slurm job array, split a
sweep; their outputs merge by reading the folder. A whole sweep ends by
writing report.html in the folder (see 'schedsweep report'; --report=false
writes none) and saying where the report and the tables are.

Examples:
  schedsweep run quickstart
  schedsweep run --resume quickstart
  schedsweep run --jobs 4 --shard 0/2 --out out/half quickstart
  schedsweep run --var replicates=1 --force --quiet psp2016

Flags:
`

// runDefault is the experiment run runs when given no FILE.
const runDefault = "quickstart"

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), runUsage); fs.PrintDefaults() }
	sf := addSweepFlags(fs)
	workers := fs.Int("jobs", runtime.GOMAXPROCS(0), "`number` of runs simulated at once")
	resume := fs.Bool("resume", false, "accepted, changes nothing: a sweep always skips the runs whose results are complete")
	force := fs.Bool("force", false, "clear a results folder that holds other results (of this or another experiment)")
	prune := fs.Bool("prune", false, "remove the folder's finished runs that the sweep no longer has")
	quiet := fs.Bool("quiet", false, "print no progress")
	withReport := fs.Bool("report", true, "at the end of a whole (unsharded) sweep, write the folder's report.html (see schedsweep report); --report=false writes none")
	_, e, runs, err := parseExperiment(fs, args, stderr)
	if err != nil {
		return err
	}
	if *workers < 1 {
		return usagef("--jobs: %d is not a positive number", *workers)
	}
	opt, err := sf.options(e)
	if err != nil {
		return err
	}
	opt.Workers, opt.Resume, opt.Force, opt.Prune, opt.ToolVersion = *workers, *resume, *force, *prune, version
	opt.Notice = func(s string) { fmt.Fprintf(stderr, "schedsweep: %s\n", s) }
	endProgress := func() {}
	if !*quiet {
		opt.Progress, endProgress = newProgress(stderr, len(runs), opt.Shards, isTerminal(stderr))
	}
	if err := tuneGC(); err != nil {
		fmt.Fprintf(stderr, "schedsweep: warning: %v\n", err)
	}
	ctx, stop := notifyContext()
	defer stop()
	began := time.Now()
	sum, err := runner.Execute(ctx, e, runs, opt)
	took := time.Since(began)
	endProgress()
	err = withCacheFlag(err, *sf.cache)
	// A sweep that failed with finished runs, on a full disk say, keeps
	// them as an interrupted one does: say how to go on.
	if err != nil && !errors.Is(err, context.Canceled) && sum.Simulated+sum.Skipped > 0 {
		err = fmt.Errorf("%w\nfinished runs are saved; once that is fixed, run again with --resume to continue", err)
	}
	if err != nil && !errors.Is(err, context.Canceled) && sum.Simulated == 0 {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s simulated", e.Name, nouns(sum.Simulated, "run"))
	if sum.Skipped > 0 {
		fmt.Fprintf(stdout, ", %d already complete", sum.Skipped)
	}
	fmt.Fprintf(stdout, " of %d, %d jobs in %s\n", sum.Selected, sum.Jobs, took.Round(time.Millisecond))
	if sum.RunsFile != "" {
		written := []string{sum.RunsFile, sum.UsersFile}
		if sum.GroupsFile != "" {
			written = append(written, sum.GroupsFile)
		}
		var dirs []string
		if e.Output.Jobs {
			dirs = append(dirs, results.JobsDir)
		}
		if e.Output.Heatmaps {
			dirs = append(dirs, results.HeatmapDir, results.UtilizationDir)
		}
		for _, d := range dirs {
			written = append(written, filepath.Join(opt.Out, d)+string(filepath.Separator))
		}
		fmt.Fprintf(stdout, "results: %s\n", strings.Join(written, ", "))
		if err == nil && opt.Shards <= 1 {
			endReport(stdout, stderr, opt.Out, *withReport)
		}
	}
	if len(sum.Replaced) > 0 {
		fmt.Fprintf(stdout, "removed the shards' tables, which these replace: %s\n", strings.Join(sum.Replaced, ", "))
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: finished runs are saved; run again with --resume to continue", interrupted(ctx))
	}
	return err
}

// endReport ends a whole sweep's output: it writes the results folder's
// report, unless told not to, and says where it and the tables are. A
// report that cannot be written is a warning: the results are complete.
func endReport(stdout, stderr io.Writer, dir string, write bool) {
	if write {
		path := filepath.Join(dir, reportFile)
		if err := writeReport(dir, path, plot.Selection{}); err != nil {
			fmt.Fprintf(stderr, "schedsweep: warning: no report: %v\n", err)
		} else {
			fmt.Fprintf(stdout, "report: %s (open it in a browser)\n", path)
		}
	}
	fmt.Fprintf(stdout, "tables: schedsweep tables %s\n", dir)
}

// sweepFlags are the flags run and plan share, so that plan shows the runs,
// results folder and traces run would use.
type sweepFlags struct {
	out, shard, cache *string
}

func addSweepFlags(fs *flag.FlagSet) sweepFlags {
	return sweepFlags{
		out:   fs.String("out", "", "results `folder` (default: the file's output block, else out/NAME)"),
		shard: fs.String("shard", "", "only slice `i/n` of the grid"),
		cache: fs.String("cache", "", cacheFlagUsage),
	}
}

// options returns the runner options the flags set for experiment e: the
// results folder, the shard and the trace cache.
func (f sweepFlags) options(e *spec.Experiment) (opt runner.Options, err error) {
	if opt.Out = *f.out; opt.Out == "" {
		opt.Out = e.Output.Dir
	}
	if *f.shard != "" {
		if opt.Shard, opt.Shards, err = runner.ParseShard(*f.shard); err != nil {
			return opt, usageError{err}
		}
	}
	opt.Cache, err = traceCacheDir(*f.cache, os.Getenv)
	return opt, err
}

// newProgress returns a progress callback, a bar if tty (w is a terminal)
// and plain lines otherwise, and a function to call once the sweep has
// ended: it ends the bar's line if the sweep stopped short of the end
// (Ctrl-C, a failed run), where the bar does not end it itself.
func newProgress(w io.Writer, total, shards int, tty bool) (report func(runner.Progress), end func()) {
	if shards > 1 {
		total = (total + shards - 1) / shards // about; the bar's max follows the first report
	}
	if !tty {
		return func(p runner.Progress) { fmt.Fprintln(w, progressLine(p)) }, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("runs"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
	report = func(p runner.Progress) {
		bar.ChangeMax(p.Total)
		if resumeReport(p) {
			bar.Describe(fmt.Sprintf("runs (%d already complete)", p.Skipped))
		} else {
			bar.Describe(fmt.Sprintf("runs (%.0f jobs/s)", jobsPerSecond(p)))
		}
		bar.Set(p.Done)
	}
	end = func() {
		if bar.IsStarted() && !bar.IsFinished() {
			bar.Exit() // keeps the bar as it is and ends its line
		}
	}
	return report, end
}

// progressLine is the plain line for a progress report: the run that
// finished, the pace and the time left; or, for the report --resume makes
// before any run (resumeReport), how many runs were complete already.
func progressLine(p runner.Progress) string {
	if resumeReport(p) {
		if p.Done >= p.Total {
			return fmt.Sprintf("%d/%d runs already complete; nothing to simulate", p.Done, p.Total)
		}
		return fmt.Sprintf("%d/%d runs already complete; %d to simulate", p.Done, p.Total, p.Total-p.Done)
	}
	name := ""
	if p.Run != nil {
		load := fmt.Sprintf("load %v", p.Run.LoadFactor)
		if p.Run.TargetLoad > 0 {
			// The solved factor has every digit of a float; the target is
			// what the file says.
			load = fmt.Sprintf("offered load %v (factor %.4g)", p.Run.TargetLoad, p.Run.LoadFactor)
		}
		name = fmt.Sprintf(" (%s, %s, %s, replicate %d)", p.Run.Workload.Name, p.Run.Policy.Name,
			load, p.Run.Replicate)
	}
	return fmt.Sprintf("run %d/%d done%s; %.0f jobs/s; %s", p.Done, p.Total, name, jobsPerSecond(p), timeLeft(p))
}

// resumeReport says whether p is the report Execute makes, under --resume,
// before any run: every run done so far was found complete.
func resumeReport(p runner.Progress) bool {
	return p.Run == nil && p.Skipped > 0 && p.Done == p.Skipped
}

// timeLeft says how long the sweep has run and, from its pace so far over
// the runs it simulated (not those --resume found complete), about how long
// the rest will take: what a Slurm log, which gets plain lines, needs in
// place of the bar's estimate.
func timeLeft(p runner.Progress) string {
	simulated := p.Done - p.Skipped
	if simulated <= 0 || p.Done >= p.Total {
		return fmt.Sprintf("%v elapsed", roundish(p.Elapsed))
	}
	left := time.Duration(float64(p.Elapsed) / float64(simulated) * float64(p.Total-p.Done))
	if left < time.Second { // never "about 0s left" while a run remains
		return fmt.Sprintf("%v elapsed, under 1s left", roundish(p.Elapsed))
	}
	return fmt.Sprintf("%v elapsed, about %v left", roundish(p.Elapsed), roundish(left))
}

// roundish rounds d to tenths of a second under ten seconds, else to
// seconds.
func roundish(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// jobsPerSecond is the sweep's rate so far; 0 before any time has passed.
func jobsPerSecond(p runner.Progress) float64 {
	if s := p.Elapsed.Seconds(); s > 0 {
		return float64(p.Jobs) / s
	}
	return 0
}

// tuneGC sets the garbage collector for a sweep, leaving alone what the
// environment sets: GOGC to runner.GCPercent, which buys speed with memory
// headroom, and a soft memory limit (GOMEMLIMIT) at 90% of what the
// process may use: its cgroup's limit (a Slurm job's --mem, a container's)
// or else the machine's memory. Near the limit the collector works harder,
// so a sweep over a large trace is not killed for memory that GOGC=400
// kept only as headroom. AUTOMEMLIMIT=off, or another ratio such as 0.7,
// changes the second (github.com/KimMachineGun/automemlimit reads it).
func tuneGC() error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(runner.GCPercent)
	}
	_, err := memlimit.Set(memlimit.WithProvider(memlimit.ApplyFallback(memlimit.FromCgroup, memlimit.FromSystem)))
	return err
}
