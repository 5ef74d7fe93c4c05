package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
)

// GCPercent is the garbage collector setting (GOGC) schedsweep run sweeps
// with, unless GOGC is set, and the sweep benchmarks mirror. A sweep
// allocates a result per run and keeps little: collecting less often buys
// 8% of throughput (BenchmarkSweepGC) for a higher peak memory: about 55
// MiB against 42 MiB for the 50-run sweep of BenchmarkSweepPeakRSS (run
// with GOGC=100 in the environment for the second).
const GCPercent = 400

// Options control Execute.
type Options struct {
	// Out is the results folder, e.Output.Dir if empty; it is created if
	// missing.
	Out string
	// Workers is how many runs simulate at once; 0 means GOMAXPROCS.
	Workers int
	// Shard and Shards select the runs whose Index % Shards == Shard, so
	// that Shards processes (a Slurm job array) split one sweep. Shards 0 or
	// 1 runs everything. A folder's tables belong to one split at a time:
	// a sweep split otherwise than the folder's tables is refused
	// (ErrOtherSplit), and the whole sweep's tables replace any shards'.
	Shard, Shards int
	// Resume is accepted and changes nothing: a sweep always continues
	// the folder of its experiment, skipping the runs whose results are
	// complete and simulating the rest (the runs an edited file added).
	Resume bool
	// Force clears a folder that holds results of another experiment (or of
	// this one) before running.
	Force bool
	// Prune removes the finished runs of the folder that are not in the
	// grid (an edited file dropped them): their journal entries and files.
	// Without it they are kept, and reported (Options.Notice); the tables
	// list the grid's runs either way.
	Prune bool
	// Cache is the trace cache for registered trace names.
	Cache string
	// ToolVersion goes into every file's metadata.
	ToolVersion string
	// Progress, if set, is called after each run completes (or is skipped
	// as already complete), from one goroutine, in completion order.
	Progress func(Progress)
	// Notice, if set, is told what Execute found in the results folder and
	// does about it, one sentence at a time, before any run starts: a
	// finished run whose files no longer match its journal entry (it is
	// simulated again), a manifest rebuilt from the journal.
	Notice func(string)
}

// Progress reports how far Execute has come.
type Progress struct {
	Done, Total int // runs finished (or found complete) and selected
	Skipped     int // of Done, found complete in the folder
	Jobs        int64
	Run         *Run // the run just finished
	Elapsed     time.Duration
}

// Summary is what Execute did.
type Summary struct {
	Selected, Simulated, Skipped int
	// Redone counts the runs of Simulated that the journal held as
	// finished but whose files were damaged or missing.
	Redone int
	// Outside counts the finished runs of the folder that are not in the
	// grid, and Pruned those of them removed (Options.Prune).
	Outside, Pruned int
	Jobs            int64 // jobs simulated by this call
	// RunsFile and UsersFile are the tables written, "" if they were not;
	// GroupsFile the node groups table, written only by a sweep with runs
	// on nodes.
	RunsFile, UsersFile, GroupsFile string
	// Replaced names the shards' tables (runs-I-of-N.parquet, …) that the
	// whole sweep's tables superseded and that were removed.
	Replaced []string
}

// ErrOtherExperiment is wrapped by Execute's error for a results folder that
// holds results of a different experiment (another name), or of this one
// under another seed, without Force. Another version of this experiment's
// file is not another experiment: its folder is continued.
var ErrOtherExperiment = errors.New("the output folder holds results of another experiment")

// ErrNotOurs is wrapped by Execute's error for a results folder that
// schedsweep did not write (it has no manifest) but that holds files or
// folders under the names results take (runs.parquet, jobs/, …): they are
// the user's, so the folder is refused, Force or not, as Force clears only
// what schedsweep wrote.
var ErrNotOurs = errors.New("the output folder holds files schedsweep did not write")

// ErrInternal is wrapped by Execute's error for a run that panicked: a
// bug of schedsweep's, reported with the run and the stack, which the
// command line tells apart from bad input.
var ErrInternal = errors.New("internal error, a bug (please report it)")

// ErrOtherSplit is wrapped by Execute's error for a sweep split into shards
// whose results folder holds the tables of another split (the whole sweep,
// or shards of another number), without Force. A folder's tables belong to
// one split at a time; a sweep without shards replaces the others'.
var ErrOtherSplit = errors.New("the output folder holds tables of another split of the sweep")

// finished is a run on its way to the writer: its journal entry, which its
// worker computed (rows and the jobs file's name), and its job count.
type finished struct {
	run  *Run
	en   *entry
	jobs int
}

// Execute simulates runs (as Expand returned them) and writes their results
// under opt.Out: a jobs file per run, written as each run finishes, and the
// runs and users tables at the end (and the node groups table, in a sweep
// with runs on nodes, whose jobs files then say where each job ran). Runs fan out over opt.Workers
// goroutines. Each worker also computes its run's table rows and writes its
// jobs file (a file no other run touches: writing it is the largest cost
// after simulating, and this spreads it over the cores); one writer
// goroutine keeps the journal and writes the shared tables. Every file goes
// to a temporary name, synced and renamed into place, so an interrupted
// sweep (ctx cancelled, or the machine crashed) leaves only complete files
// and the finished runs' tables. Calling Execute again continues: runs the
// folder holds complete (their files as the journal recorded them) are
// skipped, the others simulated, whether the sweep was interrupted or its
// file edited to add runs. Before anything is written, it reads every trace the
// selected runs read: a registered trace missing from the cache is an error
// wrapping workloads.ErrNotCached, a malformed line an error naming the file
// and the line; and it reads the first job of every workload: one whose
// window, users or other cut keeps no job is an error wrapping ErrNoJobs
// that names the workload and the cut.
func Execute(ctx context.Context, e *spec.Experiment, runs []Run, opt Options) (Summary, error) {
	sel := SelectShard(runs, opt.Shard, opt.Shards)
	sum := Summary{Selected: len(sel)}
	srcs, err := readWorkloads(ctx, sel, opt.Cache, opt.Notice)
	if err != nil {
		return sum, err
	}
	out, err := openOutput(e, runs, sel, opt)
	if err != nil {
		return sum, err
	}
	defer out.close()
	sum.Redone, sum.Outside = len(out.redo), len(out.outside)
	if out.pruned {
		sum.Pruned = len(out.outside)
	}
	if opt.Notice != nil {
		out.notices(opt.Notice)
	}
	s := &sweep{ctx: ctx, e: e, opt: opt, out: out, srcs: srcs, sum: sum,
		// The file's base name, not the path as typed: a sweep run as
		// experiments/x.hcl and as /home/me/experiments/x.hcl writes the same
		// bytes; the hash says which file it was.
		meta:  results.Metadata{ToolVersion: opt.ToolVersion, ExperimentFile: filepath.Base(e.File), ExperimentHash: e.Hash},
		begin: time.Now(),
	}
	todo := s.pending(sel)
	err = s.writeTables(runs, sel, s.simulateAll(todo))
	return s.sum, err
}

// readWorkloads reads, before anything is written, every trace the
// selected runs read (readTraces), telling notice its warnings, and the
// first job of every workload (checkWorkloads); it returns the sources the
// runs then share, or the first error, ctx's included.
func readWorkloads(ctx context.Context, sel []*Run, cache string, notice func(string)) (*sources, error) {
	srcs := newSources(cache)
	warnings, err := readTraces(srcs, sel)
	if err != nil {
		return nil, err
	}
	if notice != nil {
		for _, w := range warnings {
			notice(w)
		}
	}
	if err := checkWorkloads(srcs, sel); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return srcs, nil
}

// sweep is one call of Execute once its output folder is open: the runs
// still to simulate (pending), the workers and the writer that simulate
// and record them (simulateAll), and the tables written at the end
// (writeTables). Only the writer goroutine touches done, sum and progress
// while the workers run.
type sweep struct {
	ctx   context.Context
	e     *spec.Experiment
	opt   Options
	out   *output
	srcs  *sources
	meta  results.Metadata
	begin time.Time
	// done marks complete runs by grid index; their rows stay on disk in
	// the journal until the tables are written, so memory does not grow
	// with the number of runs beyond a byte each.
	done     []bool
	sum      Summary
	progress Progress
}

// pending returns the selected runs the folder does not hold complete, in
// grid order, marks the others done and skipped, and reports them to
// opt.Progress if there are any.
func (s *sweep) pending(sel []*Run) []*Run {
	last := -1
	for _, r := range sel {
		last = max(last, r.Index)
	}
	s.done = make([]bool, last+1)
	var todo []*Run
	for _, r := range sel {
		if s.out.journal[r.Key] {
			s.done[r.Index] = true
			s.sum.Skipped++
			continue
		}
		todo = append(todo, r)
	}
	s.progress = Progress{Total: len(sel), Done: s.sum.Skipped, Skipped: s.sum.Skipped}
	if s.opt.Progress != nil && s.sum.Skipped > 0 {
		s.opt.Progress(s.progress)
	}
	return todo
}

// simulateAll simulates the runs of todo over opt.Workers goroutines
// (GOMAXPROCS if 0), each of which writes its run's files, while one
// writer goroutine records each finished run in the journal (writer). It
// returns the first error of a run, or the writer's.
func (s *sweep) simulateAll(todo []*Run) error {
	workers := s.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ch := make(chan finished, workers)
	// A failed journal write stops the workers as a failed run does: the
	// runs after it could not be recorded, and a full disk or read-only
	// folder would only fail them one by one after simulating them.
	wctx, stopWorkers := context.WithCancel(s.ctx)
	defer stopWorkers()
	g, gctx := errgroup.WithContext(wctx)
	g.SetLimit(workers)
	writeErr := make(chan error, 1)
	go func() { writeErr <- s.writer(ch, stopWorkers) }()
	for _, r := range todo {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return s.simulate(gctx, r, ch) })
	}
	runErr := g.Wait()
	close(ch)
	// The workers stopped by the writer return its cancellation, which is
	// not the user's: the writer's error is what went wrong.
	if werr := <-writeErr; werr != nil && (runErr == nil || s.ctx.Err() == nil && errors.Is(runErr, context.Canceled)) {
		runErr = werr
	}
	return runErr
}

// writer is the one goroutine that writes the journal: it records each
// finished run that arrives on ch until ch is closed. After a failed write
// it calls stopWorkers and drains ch, and returns that error.
func (s *sweep) writer(ch <-chan finished, stopWorkers func()) error {
	var werr error
	for f := range ch {
		if werr != nil {
			continue // drain
		}
		if err := s.out.record(f.run, f.en); err != nil {
			werr = err
			stopWorkers()
			continue
		}
		s.done[f.run.Index] = true
		s.sum.Simulated++
		s.sum.Jobs += int64(f.jobs)
		s.progress.Done++
		s.progress.Jobs += int64(f.jobs)
		s.progress.Run, s.progress.Elapsed = f.run, time.Since(s.begin)
		if s.opt.Progress != nil {
			s.opt.Progress(s.progress)
		}
	}
	return werr
}

// simulate is a worker's part of run r: it simulates the run, writes its
// files (output.finish) and hands its journal entry to the writer on ch.
func (s *sweep) simulate(ctx context.Context, r *Run, ch chan<- finished) (err error) {
	// A panic in a run is a bug; it fails the sweep as an error
	// the command can tell from bad input, not as Go's exit 2.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w in run %s: %v\n%s", ErrInternal, r.Key, p, debug.Stack())
		}
	}()
	if err := ctx.Err(); err != nil {
		return err
	}
	sr, err := s.srcs.simulate(ctx, r)
	if err != nil {
		return err
	}
	en, err := s.out.finish(r, s.e, sr, s.meta)
	if err != nil {
		return err
	}
	select {
	case ch <- finished{run: r, en: en, jobs: len(sr.res.Jobs)}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeTables writes the runs and users tables of every selected run that
// is complete, even after an interruption, in grid order, and for the
// whole sweep removes the shards' tables they supersede. It returns runErr,
// the error of simulateAll, joined with its own; or, if runErr is nil but
// the sweep was cancelled before every selected run was complete, ctx's.
func (s *sweep) writeTables(grid []Run, sel []*Run, runErr error) error {
	var complete []*Run
	for _, r := range sel {
		if s.done[r.Index] {
			complete = append(complete, r)
		}
	}
	runsFile, usersFile := s.out.tables().names(s.opt.Shard, s.opt.Shards)
	groupsFile := s.out.tables().groupsName(s.opt.Shard, s.opt.Shards)
	if err := s.out.writeTables(grid, complete, s.meta, runsFile, usersFile, groupsFile); err != nil {
		return errors.Join(runErr, err)
	}
	s.sum.RunsFile, s.sum.UsersFile = runsFile, usersFile
	if s.out.nodes {
		s.sum.GroupsFile = groupsFile
	}
	// The whole sweep's tables, once written, hold every complete run, even
	// after an interruption: the tables of shards they supersede go.
	if s.opt.Shards <= 1 {
		removed, err := s.out.tables().removeOtherSplits()
		s.sum.Replaced = removed
		if err != nil {
			return errors.Join(runErr, err)
		}
	}
	// Cancelled once every selected run was complete (Ctrl-C while the
	// tables were written), the sweep has nothing left to resume.
	if runErr == nil && len(complete) < len(sel) {
		runErr = s.ctx.Err()
	}
	return runErr
}

// readTraces reads, before anything is written, every trace the runs
// read, into the sources the runs then share: a registered trace that is
// not in the cache, or a malformed line, would otherwise fail the first run
// after the output folder was made and claimed. A merge's parts are never
// merges themselves (spec.Workload.Merge).
func readTraces(srcs *sources, sel []*Run) (warnings []string, err error) {
	seen := map[*spec.Workload]bool{}
	read := func(w *spec.Workload, cl *spec.Cluster) error {
		if w.Trace == "" || seen[w] {
			return nil
		}
		seen[w] = true
		if _, err := srcs.read(w, cl); err != nil {
			return err
		}
		warnings = append(warnings, srcs.traceWarnings(w)...)
		return nil
	}
	for _, r := range sel {
		if err := read(r.Workload, r.Cluster); err != nil {
			return nil, err
		}
		for _, part := range r.Workload.Merge {
			if err := read(part, r.Cluster); err != nil {
				return nil, err
			}
		}
	}
	return warnings, nil
}

// SelectShard returns the runs of shard i of n (Options.Shard and
// Shards), in grid order; n 0 or 1 selects every run.
func SelectShard(runs []Run, i, n int) []*Run {
	var out []*Run
	for k := range runs {
		if n <= 1 || runs[k].Index%n == i {
			out = append(out, &runs[k])
		}
	}
	return out
}

// ParseShard reads "i/n" with 0 ≤ i < n; anything else in s, such as a
// trailing character, is an error rather than ignored.
func ParseShard(s string) (i, n int, err error) {
	is, ns, _ := strings.Cut(s, "/")
	i, ierr := strconv.Atoi(is)
	n, nerr := strconv.Atoi(ns)
	// Atoi takes a sign; a shard is digits only, as Slurm gives them.
	signed := strings.ContainsAny(s, "+-")
	if ierr != nil || nerr != nil || signed || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 0 ≤ i < n, e.g. 0/4 for the first of four (Slurm: $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=0-3)", s)
	}
	return i, n, nil
}

// JobsPath returns the path of a run's jobs file under the results folder
// out: jobs/<axis>=<value>/…/part-KEY.parquet (results.RunFile).
func JobsPath(out string, r *Run) string {
	return runFile(out, results.JobsDir, r)
}

// runFile returns the path of run r's file under sub (results.JobsDir,
// HeatmapDir or UtilizationDir) of the results folder out.
func runFile(out, sub string, r *Run) string {
	return filepath.Join(out, filepath.FromSlash(results.RunFile(sub, axes(r), r.Key)))
}

// ctxSource ends a run promptly when ctx is cancelled: it checks ctx every
// 4096 jobs.
type ctxSource struct {
	ctx context.Context
	src sim.Source
	n   int
}

func (c *ctxSource) Next() (sim.Record, error) {
	if c.n++; c.n&4095 == 0 {
		if err := c.ctx.Err(); err != nil {
			return sim.Record{}, err
		}
	}
	return c.src.Next()
}
