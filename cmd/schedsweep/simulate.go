package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

const simulateUsage = `Usage: schedsweep simulate [flags] TRACE

Simulates one policy on an SWF trace (plain or gzip-compressed; a path or the
name of a registered, fetched trace, see schedsweep trace list) and prints the
jobs finished, killed and rejected, mean wait, mean response, mean bounded
slowdown (tau = 10 s), utilization and makespan.

The machine has --procs processors, or what --machines describes, or the
nodes and partitions of --slurm-conf, or the trace header's MaxProcs (else
MaxNodes), or, for a registered trace, the registry's machine (and its
machines file, if it has one). Memory is simulated only when --memory-field
says which SWF field holds it. With --slurm-conf and --policy slurm, the
file also gives the policy's parameters, --policy-param overriding them; the
options it does not model are printed as warnings (docs/experiments.md).

The flags describe a one-run experiment, which simulate runs as
schedsweep run runs an experiment file: a flag that a workload or cluster
block takes is named as its argument, with hyphens (--memory-field is
memory_field), and the file of docs/simulate.md gives the same schedule.

Examples, once 'schedsweep trace fetch KTH-SP2' has cached the trace:
  schedsweep simulate KTH-SP2
  schedsweep simulate --policy easy --policy-param order=sjf KTH-SP2
  schedsweep simulate --policy conservative --procs 128 --schedule kth.csv KTH-SP2
  schedsweep simulate --format sacct --procs 512 --gpus 8 dump.txt

Flags:
`

// negativeFlagUsage is the help of every command's --negative-as-missing flag.
const negativeFlagUsage = "read a negative SWF value (other than -1) as missing instead of failing, and report it"

// simulateConfig is what the simulate command's flags resolve to.
type simulateConfig struct {
	policy          string
	policyParams    stringList
	procs           int64
	procsField      string
	memory          string
	memoryField     string
	memoryUnit      string
	machines        string
	slurmConf       string
	compat          string
	model           string
	fit             string
	shape           string
	aleaFields      bool
	format          string
	timezone        string
	gpus            int64
	allowOverrun    bool
	missingEstimate string
	negativeMissing bool
	window          string
	users           string
	jobs            int
	estimates       string
	cpuUsage        string
	loadFactor      float64
	offeredLoad     float64
	seed            uint64
	replicate       uint64
	warmup          float64
	cooldown        float64
	schedule        string
	swf             string
	cache           string
	// explicit holds the flags given on the command line.
	explicit map[string]bool
}

func runSimulate(args []string, stdout, stderr io.Writer) error {
	var c simulateConfig
	fs := newFlagSet("simulate", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), simulateUsage)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nPolicies:")
		for _, e := range policies.Entries() {
			listName(fs.Output(), e.Name, e.Summary)
			if e.Params != nil {
				for _, f := range params.Describe(e.Params()) {
					fmt.Fprintf(fs.Output(), "  %-13s   --policy-param %s=%s: %s\n", "", f.Name, f.Default, f.Doc)
				}
			}
		}
	}
	c.flags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	c.explicit = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { c.explicit[f.Name] = true })
	if len(pos) != 1 {
		return usagef("want one TRACE argument, got %d", len(pos))
	}
	if err := checkOutputFile("schedule", c.schedule); err != nil {
		return err
	}
	if err := checkOutputFile("swf", c.swf); err != nil {
		return err
	}
	return simulate(c, pos[0], stdout)
}

// flags defines simulate's flags on fs. A flag that a workload or cluster
// block of an experiment file also takes has the argument's name, with
// hyphens for underscores.
func (c *simulateConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.policy, "policy", "easy", "scheduling `policy` (see below)")
	fs.Var(&c.policyParams, "policy-param", "set a policy parameter, `name=value` (repeatable; e.g. order=sjf for easy)")
	fs.Int64Var(&c.procs, "procs", 0, "`number` of processors (default: from the trace header or --machines)")
	fs.StringVar(&c.procsField, "procs-field", "requested", "processors of a job: `requested` (SWF field 8, else 5) or allocated (field 5)")
	fs.StringVar(&c.memory, "memory", "", "memory `size` of the machine, e.g. 64GiB (needs --memory-field)")
	fs.StringVar(&c.memoryField, "memory-field", "none", "memory of a job: `none`, requested (SWF field 10) or used (field 7)")
	fs.StringVar(&c.memoryUnit, "memory-unit", "kb-per-proc", "unit of the memory field: `kb-per-proc` (SWF), bytes-per-job (Alea data sets) or kb-per-job (METACENTRUM-2009-2's used memory)")
	fs.StringVar(&c.machines, "machines", "", "Alea .machines `file` giving the machine's processors and memory")
	fs.StringVar(&c.slurmConf, "slurm-conf", "", "slurm.conf `file` giving the machine's nodes and partitions and, for --policy slurm, its parameters (--policy-param overrides them)")
	fs.StringVar(&c.compat, "compat", "", "compatibility `profile`: alea runs Alea's node-level rules on --machines, policies fcfs and easy (docs/simulate.md)")
	fs.StringVar(&c.model, "model", "pool", "machine model: the aggregate `pool`, or nodes (the node groups of --machines)")
	fs.StringVar(&c.fit, "fit", "first", "placement on nodes (--model nodes): `first` fit in node order, or best fit")
	fs.StringVar(&c.shape, "shape", "tasks", "job shape on nodes: `tasks` (processors anywhere), whole-nodes, or per-node:K")
	fs.BoolVar(&c.aleaFields, "alea-fields", false, "read SWF fields 20 (queue: partition) and 21 (node request) of Alea's data sets")
	fs.StringVar(&c.format, "format", "swf", "`format` of TRACE: swf, or sacct (a dump of Slurm's sacct --parsable2; see schedsweep trace import --help)")
	fs.StringVar(&c.timezone, "timezone", "", "for --format sacct: the time `zone` of the dump's times, e.g. Europe/Prague (default UTC)")
	fs.Int64Var(&c.gpus, "gpus", 0, "`number` of GPUs of the machine")
	fs.BoolVar(&c.allowOverrun, "allow-overrun", false, "let jobs run past their requested time (default: killed there)")
	fs.StringVar(&c.missingEstimate, "missing-estimate", "runtime", "job without requested time: use its `runtime`, or reject it")
	fs.BoolVar(&c.negativeMissing, "negative-as-missing", false, negativeFlagUsage)
	fs.StringVar(&c.window, "window", "", "keep the jobs submitted in [`FROM,TO`), seconds of the trace")
	fs.StringVar(&c.users, "users", "", "keep the jobs of these users, `ID,ID,...`")
	fs.IntVar(&c.jobs, "jobs", 0, "then take the first `N` jobs (default: all)")
	fs.StringVar(&c.estimates, "estimates", "keep", "estimate `model`: keep, exact, badness:F, tsafrir[:MAX[:SHARE]] or psp:SCENARIO")
	fs.StringVar(&c.cpuUsage, "cpu-usage", "none", "per-process CPU usage of the jobs, for two-tier policies: `none`, default or full")
	fs.Float64Var(&c.loadFactor, "load-factor", 1, "multiply the offered load by `f` (inter-arrival times divided by f)")
	fs.Float64Var(&c.offeredLoad, "offered-load", 0, "instead of --load-factor: the offered `load` to reach, the factor solved for it")
	fs.Uint64Var(&c.seed, "seed", 1, "experiment `seed` the run's random streams derive from, as an experiment file's")
	fs.Uint64Var(&c.replicate, "replicate", 1, "replicate `number`, as a sweep's seeds give it: another replicate draws other random streams")
	fs.Float64Var(&c.warmup, "warmup", 0, "leave this `share` of the first jobs, in submit order, out of the metrics, as an output block's warmup")
	fs.Float64Var(&c.cooldown, "cooldown", 0, "leave this `share` of the last jobs out of the metrics, as an output block's cooldown")
	fs.StringVar(&c.cache, "cache", "", cacheFlagUsage)
	fs.StringVar(&c.schedule, "schedule", "", "write the schedule as CSV to `file`")
	fs.StringVar(&c.swf, "swf", "", "write the schedule as SWF, wait times filled in, to `file`")
}

// negativeHint follows an error about a negative SWF value.
const negativeHint = "\n(--negative-as-missing reads such values as missing and lists them)"

// simulate runs the one-run experiment the flags c describe on trace, as
// schedsweep run runs an experiment file's (runner.SimulateOne), and
// prints its summary.
func simulate(c simulateConfig, trace string, stdout io.Writer) error {
	path, t, err := resolveTrace(trace, c.cache, os.Getenv)
	if err != nil {
		return err
	}
	if t != nil && t.MachinesFile != "" && c.machines == "" && c.procs == 0 && c.slurmConf == "" {
		c.machines = filepath.Join(filepath.Dir(path), t.MachinesFile)
	}
	one, err := c.experiment(path, t)
	if err != nil {
		return err
	}
	for _, w := range one.warnings { // the slurm.conf's, once, before the run
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	cacheDir, err := traceCacheDir(c.cache, os.Getenv)
	if err != nil {
		return err
	}
	runs, err := runner.Expand(one.exp)
	if err != nil {
		return err
	}
	out, err := runner.SimulateOne(context.Background(), &runs[0], cacheDir)
	if errors.Is(err, workloads.ErrNegative) {
		return fmt.Errorf("%w%s", err, negativeHint)
	}
	if err != nil {
		return err
	}
	if err := writeSchedules(c, one.header, out.Result, results.PlacementOf(out.Model)); err != nil {
		return err
	}
	printSummary(stdout, filepath.Base(path), one, out.Result, results.PlacementOf(out.Model), out.Wall)
	if out.RuntimesCut > 0 {
		fmt.Fprintf(stdout, "note: the tsafrir estimates cut the run times of %d jobs to the largest estimate\n", out.RuntimesCut)
	}
	if tr, m := aleaOf(out); tr != nil || m != nil {
		printAlea(stdout, tr, m)
	}
	printRepairs(stdout, out.Repaired)
	for _, n := range out.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(stdout, "warning: %v\n", w)
	}
	return nil
}

// writeSchedules writes the schedule res to the files --schedule and --swf
// name, if they do; h is the trace's header, which the SWF file repeats.
// p is where the run placed its jobs, nil for a run on the pool: on nodes
// both files say which nodes each job ran on (writeScheduleCSV,
// writeScheduleSWF).
func writeSchedules(c simulateConfig, h *workloads.Header, res *sim.Result, p results.Placement) error {
	if c.schedule != "" {
		if err := atomicfile.WriteFile(c.schedule, func(w io.Writer) error { return writeScheduleCSV(w, res, p) }); err != nil {
			return fmt.Errorf("writing the schedule: %w", err)
		}
	}
	if c.swf == "" {
		return nil
	}
	err := atomicfile.WriteFile(c.swf, func(w io.Writer) error { return writeScheduleSWF(w, h, res, p) })
	if err != nil {
		return fmt.Errorf("writing the SWF schedule: %w", err)
	}
	return nil
}

// printSummary prints the run's metrics; p is where it placed its jobs,
// nil on the pool: a run on nodes adds the utilization of each node group.
func printSummary(w io.Writer, trace string, s *oneRun, res *sim.Result, p results.Placement, took time.Duration) {
	trim := results.Trim{Warmup: s.exp.Output.Warmup, Cooldown: s.exp.Output.Cooldown}
	sum := results.SummarizeTrimmed(res, results.DefaultTau, trim)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "trace\t%s: %d jobs\n", trace, sum.Jobs)
	fmt.Fprintf(tw, "machine\t%v (%s)\n", s.machine(), s.source)
	fmt.Fprintf(tw, "policy\t%s\n", res.Policy)
	if !trim.IsZero() {
		fmt.Fprintf(tw, "measured\t%d of %d jobs (warmup %g, cooldown %g); makespan and utilization count all\n",
			sum.Measured, sum.Jobs, trim.Warmup, trim.Cooldown)
	}
	fmt.Fprintf(tw, "jobs\t%d finished, %d killed at their requested time, %d rejected\n", sum.Finished, sum.Killed, sum.Rejected)
	for _, rc := range res.RejectionReasons() {
		fmt.Fprintf(tw, "  rejected\t%d %s\n", rc.Count, rc.Reason)
	}
	if sum.EstimatesFilled > 0 {
		fmt.Fprintf(tw, "estimates\t%d missing, set to the job's run time\n", sum.EstimatesFilled)
	}
	fmt.Fprintf(tw, "mean wait\t%.1f s\n", sum.MeanWait)
	fmt.Fprintf(tw, "mean response\t%.1f s\n", sum.MeanResponse)
	fmt.Fprintf(tw, "mean bounded slowdown\t%.3f (tau = %d s)\n", sum.MeanBoundedSlowdown, results.DefaultTau)
	fmt.Fprintf(tw, "utilization\t%.2f%% of processors", 100*sum.Utilization[sim.Procs])
	if s.machine()[sim.Memory] > 0 {
		fmt.Fprintf(tw, ", %.2f%% of memory", 100*sum.Utilization[sim.Memory])
	}
	fmt.Fprintln(tw)
	if p != nil {
		fmt.Fprintf(tw, "node groups\t%s\n", groupsText(results.GroupRows("", res, p)))
	}
	fmt.Fprintf(tw, "makespan\t%d s (%s)\n", sum.Makespan, humanSpan(sum.Makespan))
	fmt.Fprintf(tw, "simulated in\t%s (%d scheduling passes)\n", took.Round(time.Millisecond), res.Passes)
	tw.Flush()
}

// traceMachine returns the processors of the machine a trace ran on, from
// its header (MaxProcs, else MaxNodes) or its registry entry t (may be nil),
// and where the number came from; "" if neither says.
func traceMachine(h *workloads.Header, t *workloads.ArchiveTrace) (int64, string) {
	switch {
	case h.MaxProcs > 0:
		return h.MaxProcs, "MaxProcs of the trace header"
	case h.MaxNodes > 0:
		return h.MaxNodes, "MaxNodes of the trace header"
	case t != nil && t.Procs > 0:
		return t.Procs, "the registry's " + t.Name
	}
	return 0, ""
}

// printRepairs lists the values --negative-as-missing read as missing.
func printRepairs(w io.Writer, repairs []*workloads.ParseError) {
	const show = 5
	if len(repairs) == 0 {
		return
	}
	fmt.Fprintf(w, "read as missing (--negative-as-missing): %d values\n", len(repairs))
	for i, r := range repairs {
		if i == show {
			fmt.Fprintf(w, "  ... and %d more\n", len(repairs)-show)
			break
		}
		fmt.Fprintf(w, "  %v\n", r)
	}
}

// writeScheduleCSV writes one row per job: job_id,submit,start,end,procs,status.
// Rejected jobs have empty start and end and status "rejected:<reason>".
// A run on nodes (p not nil) adds a column, nodes: the job's nodes in
// hostlist notation (results.JobNodes), quoted as CSV quotes a value with
// a comma ("a2,b1"); empty for a rejected job. A cluster that declares
// partitions adds a last one, partition: the partition the job ran in, or
// asked for if it was rejected (the jobs table's column).
func writeScheduleCSV(w io.Writer, res *sim.Result, p results.Placement) error {
	head := "job_id,submit,start,end,procs,status\n"
	pp := partitioned(p)
	switch {
	case pp != nil:
		head = "job_id,submit,start,end,procs,status,nodes,partition\n"
	case p != nil:
		head = "job_id,submit,start,end,procs,status,nodes\n"
	}
	if _, err := io.WriteString(w, head); err != nil {
		return err
	}
	var b []byte
	var names []string
	for i := range res.Jobs {
		o := &res.Jobs[i]
		b = b[:0]
		b = strconv.AppendInt(b, int64(o.ID), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(o.Submit), 10)
		b = append(b, ',')
		if o.State != sim.Rejected {
			b = strconv.AppendInt(b, int64(o.Start), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(o.End), 10)
		} else {
			b = append(b, ',')
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, o.Need[sim.Procs], 10)
		b = append(b, ',')
		b = append(b, o.State.String()...)
		if o.State == sim.Rejected {
			b = append(b, ':')
			b = append(b, o.Reason.String()...)
		}
		if p != nil {
			var s string
			var err error
			if s, names, err = results.JobNodes(p, o.Seq, names); err != nil {
				return fmt.Errorf("job %d: its nodes: %w", o.ID, err)
			}
			b = appendCSVField(append(b, ','), s)
		}
		if pp != nil {
			b = appendCSVField(append(b, ','), pp.PartitionOf(&o.Job))
		}
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// humanSpan formats seconds as days, hours, minutes and seconds, leaving
// out leading zero units: 93784 s is "1d 2h 3m 4s".
func humanSpan(t sim.Time) string {
	if t < 0 {
		return "-" + humanSpan(-t)
	}
	units := []struct {
		suffix string
		size   sim.Time
	}{{"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1}}
	var parts []string
	for _, u := range units {
		if n := t / u.size; n > 0 || len(parts) > 0 || u.size == 1 {
			parts = append(parts, strconv.FormatInt(int64(n), 10)+u.suffix)
		}
		t %= u.size
	}
	return strings.Join(parts, " ")
}
