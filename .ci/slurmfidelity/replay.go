package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// replayConfig is what replay's flags resolve to.
type replayConfig struct {
	trace    string
	jobs     int
	skip     int
	factor   float64
	maxProcs int64
	users    []string
	swf      string
	sbatch   string
	// afterPass, if not empty, is the file Slurm's priority plugin
	// rewrites at each recalculation; the replay starts just after one,
	// calcPeriod being their period.
	afterPass  string
	calcPeriod time.Duration
}

// planned is one job of the replay, in Slurm's units.
type planned struct {
	swfID   sim.JobID
	at      time.Duration // submit time after the replay's start
	procs   int64
	sleep   int64 // seconds the job sleeps
	minutes int64 // its time limit (--time), whole minutes
	user    string
	gid     string // the user's primary group, set before submitting
}

func replayMain(args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	var c replayConfig
	var users string
	fs.StringVar(&c.trace, "trace", "", "the SWF `file` (plain or gzip) whose prefix is replayed")
	fs.IntVar(&c.jobs, "jobs", 300, "how many jobs to submit")
	fs.IntVar(&c.skip, "skip", 0, "jobs of the trace to pass over first")
	fs.Float64Var(&c.factor, "factor", 500, "time compression: trace seconds per replay second")
	fs.Int64Var(&c.maxProcs, "max-procs", 100, "leave out jobs on more processors than the node's CPUs")
	fs.StringVar(&users, "users", "", "comma-separated system `users`; SWF user u submits as users[u mod len]")
	fs.StringVar(&c.swf, "swf", "", "write the submitted workload, with Slurm's job ids, as SWF to `file`")
	fs.StringVar(&c.sbatch, "sbatch", "sbatch", "the sbatch `command`")
	fs.StringVar(&c.afterPass, "after-pass", "", "start just after a priority recalculation: the `file` slurmctld rewrites at each (StateSaveLocation/priority_last_decay_ran)")
	fs.DurationVar(&c.calcPeriod, "calc-period", time.Minute, "the `period` of the recalculations (PriorityCalcPeriod)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if c.trace == "" || users == "" || c.factor <= 0 || c.jobs <= 0 {
		fmt.Fprintln(os.Stderr, "replay: -trace and -users are required; -factor and -jobs must be positive")
		return errUsage
	}
	c.users = strings.Split(users, ",")
	plan, err := planReplay(c)
	if err != nil {
		return err
	}
	// Each job runs in its user's primary group (sbatch --uid alone
	// leaves root's).
	gids := map[string]string{}
	for _, u := range c.users {
		pw, err := user.Lookup(u)
		if err != nil {
			return err
		}
		gids[u] = pw.Gid
	}
	for i := range plan {
		plan[i].gid = gids[plan[i].user]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.afterPass != "" {
		if err := awaitPass(ctx, c.afterPass, c.calcPeriod); err != nil {
			return err
		}
	}
	ids, err := submitAll(ctx, c.sbatch, plan)
	if err != nil {
		return err
	}
	if c.swf == "" {
		return nil
	}
	return atomicfile.WriteFile(c.swf, func(w io.Writer) error { return writeSWF(w, plan, ids) })
}

// planReplay reads the trace and returns the jobs to submit: the first
// c.jobs jobs, after c.skip, that have a run time, an estimate and between
// 1 and c.maxProcs processors. Times are divided by c.factor: the submit
// time exactly (from the first job's), the run time rounded to a whole
// second but at least 1, the estimate rounded up to whole minutes (Slurm's
// --time unit) but at least one.
func planReplay(c replayConfig) ([]planned, error) {
	f, err := workloads.OpenTrace(c.trace)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := workloads.NewSWFReader(f, c.trace, workloads.SWFOptions{})
	var plan []planned
	var first sim.Time
	for seen := 0; len(plan) < c.jobs; {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		p := rec.Need[sim.Procs]
		if rec.Runtime < 0 || rec.Estimate <= 0 || p < 1 || p > c.maxProcs {
			continue
		}
		if seen++; seen <= c.skip {
			continue
		}
		if len(plan) == 0 {
			first = rec.Submit
		}
		user := 0
		if rec.User > 0 {
			user = int(rec.User) % len(c.users)
		}
		plan = append(plan, planned{
			swfID:   rec.ID,
			at:      time.Duration(float64(rec.Submit-first) / c.factor * float64(time.Second)),
			procs:   p,
			sleep:   max(1, int64(math.Round(float64(rec.Runtime)/c.factor))),
			minutes: max(1, int64(math.Ceil(float64(rec.Estimate)/c.factor/60))),
			user:    c.users[user],
		})
	}
	if len(plan) < c.jobs {
		return nil, fmt.Errorf("%s: only %d jobs fit, after %d skipped; want %d", c.trace, len(plan), c.skip, c.jobs)
	}
	return plan, nil
}

// passDelay is how long after a priority recalculation the replay
// starts: long enough for the pass to be over, short enough that the
// first submission falls in the same second.
const passDelay = 300 * time.Millisecond

// awaitPass waits for the file that slurmctld's priority/multifactor
// rewrites at each recalculation (_decay_thread in
// src/plugins/priority/multifactor/priority_multifactor.c: the passes
// are period apart from slurmctld's start, and each ends writing
// priority_last_decay_ran), then until just after the next pass at least
// a second away. The simulation recalculates at its time 0, the first
// submission, and every period after; so does Slurm, from then on.
func awaitPass(ctx context.Context, file string, period time.Duration) error {
	var last time.Time
	for deadline := time.Now().Add(2 * period); ; {
		fi, err := os.Stat(file)
		if err == nil {
			last = fi.ModTime()
			break
		}
		if !errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			return fmt.Errorf("waiting for slurmctld's priority pass: %w", err)
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	next := last
	for next.Before(time.Now().Add(time.Second)) {
		next = next.Add(period)
	}
	fmt.Printf("replay: starting %v after the priority pass of %s (the last at %s)\n",
		passDelay, next.UTC().Format("15:04:05.000"), last.UTC().Format("15:04:05.000"))
	select {
	case <-time.After(time.Until(next.Add(passDelay))):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// submitAll submits the plan's jobs, each at its time after the first's
// submission, and returns Slurm's job ids in plan order. A submission
// runs late if the one before it took longer than the gap; the largest
// delay is reported.
func submitAll(ctx context.Context, sbatch string, plan []planned) ([]int64, error) {
	ids := make([]int64, len(plan))
	start := time.Now()
	var late time.Duration
	for i, p := range plan {
		if d := time.Until(start.Add(p.at)); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		late = max(late, time.Since(start.Add(p.at)))
		id, err := submit(ctx, sbatch, p)
		if err != nil {
			return nil, fmt.Errorf("job %d of %d (SWF job %d): %w", i+1, len(plan), p.swfID, err)
		}
		ids[i] = id
	}
	fmt.Printf("replay: %d jobs submitted in %.1f s, the latest %.3f s after its time\n",
		len(plan), time.Since(start).Seconds(), late.Seconds())
	return ids, nil
}

// submit runs sbatch for one job and returns its id.
func submit(ctx context.Context, sbatch string, p planned) (int64, error) {
	cmd := exec.CommandContext(ctx, sbatch, "--parsable",
		"--uid="+p.user, "--gid="+p.gid, "--ntasks="+strconv.FormatInt(p.procs, 10),
		"--time="+strconv.FormatInt(p.minutes, 10),
		"--job-name=swf"+strconv.FormatInt(int64(p.swfID), 10),
		"--output=/dev/null", "--chdir=/tmp",
		"--wrap=sleep "+strconv.FormatInt(p.sleep, 10))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(stderr.String()))
	}
	// --parsable prints "id" or "id;cluster".
	s, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("sbatch printed %q, not a job id", out)
	}
	return id, nil
}

// writeSWF writes the submitted workload as SWF: Slurm's job id, the
// planned submit time in whole seconds, the sleep as run time, the
// processors, the time limit in seconds, and the user's position in the
// -users list (from 1).
func writeSWF(w io.Writer, plan []planned, ids []int64) error {
	bw := bufio.NewWriter(w)
	users := map[string]int{}
	fmt.Fprintln(bw, "; the jobs .ci/slurm-fidelity submitted to Slurm, time compressed; job numbers are Slurm's")
	for i, p := range plan {
		u, ok := users[p.user]
		if !ok {
			u = len(users) + 1
			users[p.user] = u
		}
		fmt.Fprintf(bw, "%d %d -1 %d %d -1 -1 %d %d -1 1 %d -1 -1 -1 -1 -1 -1\n",
			ids[i], int64(math.Round(p.at.Seconds())), p.sleep, p.procs, p.procs, p.minutes*60, u)
	}
	return bw.Flush()
}
