package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/schedsweep/schedsweep/workloads"
)

// traceCommands are the subcommands of "schedsweep trace".
func traceCommands() []command {
	return []command{
		{"info", "summarise a trace: jobs, users, span, load, estimates", runTraceInfo},
		{"list", "list the registered archive traces and whether they are cached", runTraceList},
		{"fetch", "download registered traces into the cache", runTraceFetch},
		{"generate", "write a synthetic workload as SWF", runTraceGenerate},
		{"import", "convert a Slurm sacct dump to SWF (trace import sacct FILE)", runTraceImport},
		{"models", "list the synthetic workload models and their parameters", runTraceModels},
	}
}

const traceUsage = `Usage: schedsweep trace COMMAND [flags] [args]

Commands:
`

const traceExamples = `Examples:
  schedsweep trace list
  schedsweep trace fetch KTH-SP2
  schedsweep trace info KTH-SP2
  schedsweep trace generate lublin --param nodes=256 --jobs 10000 --out lublin.swf
  schedsweep trace import sacct --timezone Europe/Prague dump.txt
`

func runTrace(args []string, stdout, stderr io.Writer) error {
	if len(args) > 1 && args[0] == "help" { // trace help info: trace info --help
		args = append(slices.Clip(args[1:]), "--help")
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		w := stderr // no command is a mistake; help asked for is output
		if len(args) > 0 {
			w = stdout
		}
		fmt.Fprint(w, traceUsage)
		for _, c := range traceCommands() {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\nRun 'schedsweep trace COMMAND --help' for a command's flags.")
		fmt.Fprint(w, "\n"+traceExamples)
		fmt.Fprintf(w, "\nExit codes: %s.\n", exitCodes("trace"))
		if len(args) == 0 {
			return usagef("trace needs a command")
		}
		return flag.ErrHelp
	}
	for _, c := range traceCommands() {
		if c.name == args[0] {
			if err := c.run(args[1:], stdout, stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
				return subcommandError{c.name, err}
			}
			return nil
		}
	}
	return usagef("unknown trace command %q", args[0])
}

const traceInfoUsage = `Usage: schedsweep trace info [flags] TRACE...

TRACE is a path or the name of a registered, fetched trace (schedsweep trace
list).

Summarises each trace: jobs and users, the submit span, the largest job and
longest run, the machine size its header gives, the offered load on that
machine (or on --procs), how many jobs give an estimate and the quartiles of
run time / estimate, and the header's notes.

Examples:
  schedsweep trace info KTH-SP2
  schedsweep trace info --procs 128 KTH-SP2

Flags:
`

func runTraceInfo(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trace info", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), traceInfoUsage); fs.PrintDefaults() }
	procs := fs.Int64("procs", 0, "`number` of processors for the offered load (default: the header's MaxProcs, else MaxNodes)")
	negative := fs.Bool("negative-as-missing", false, negativeFlagUsage)
	cache := fs.String("cache", "", cacheFlagUsage)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want at least one TRACE")
	}
	if *procs < 0 {
		return usagef("--procs: %d is negative", *procs)
	}
	for i, arg := range pos {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		path, t, err := resolveTrace(arg, *cache, os.Getenv)
		if err != nil {
			return err
		}
		if err := traceInfo(stdout, path, t, *procs, workloads.SWFOptions{NegativeAsMissing: *negative}); err != nil {
			return err
		}
	}
	return nil
}

// traceInfo prints the summary of the trace at path; t is its registry
// entry if it was named, else nil.
func traceInfo(w io.Writer, path string, t *workloads.ArchiveTrace, procs int64, opt workloads.SWFOptions) error {
	f, err := workloads.OpenTrace(path)
	if err != nil {
		return err
	}
	defer f.Close()
	name := filepath.Base(path)
	r := workloads.NewSWFReader(f, name, opt)
	h, err := r.Header()
	if err != nil {
		return err
	}
	info, err := workloads.Describe(r)
	if err != nil {
		return err
	}
	if info.Jobs == 0 {
		return fmt.Errorf("%s: the trace has no jobs", path)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "trace\t%s\n", name)
	fmt.Fprintf(tw, "jobs\t%d from %d users", info.Jobs, info.Users)
	if info.UnknownUser > 0 {
		fmt.Fprintf(tw, " (%d jobs without a user)", info.UnknownUser)
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "submitted\tover %s (t=%d to %d)\n", humanSpan(info.Span), info.First, info.Last)
	fmt.Fprintf(tw, "largest job\t%d processors; longest run %s\n", info.LargestJob, humanSpan(info.MaxRuntime))
	machine, from := procs, "--procs"
	if machine == 0 {
		machine, from = traceMachine(h, t)
	}
	var header []string
	if h.MaxProcs > 0 {
		header = append(header, fmt.Sprintf("MaxProcs %d", h.MaxProcs))
	}
	if h.MaxNodes > 0 {
		header = append(header, fmt.Sprintf("MaxNodes %d", h.MaxNodes))
	}
	if len(header) == 0 {
		header = append(header, "the header gives no machine size")
	}
	if t != nil && t.Procs > 0 {
		header = append(header, fmt.Sprintf("registry: %d processors on %d nodes", t.Procs, t.Nodes))
	}
	fmt.Fprintf(tw, "machine\t%s\n", strings.Join(header, ", "))
	if machine > 0 {
		fmt.Fprintf(tw, "offered load\t%.3f on %d processors (%s)\n", info.OfferedLoad(machine), machine, from)
	} else {
		fmt.Fprintf(tw, "offered load\tunknown: give --procs\n")
	}
	share := 0.0
	if info.Jobs > 0 {
		share = 100 * float64(info.WithEstimate) / float64(info.Jobs)
	}
	fmt.Fprintf(tw, "estimates\t%d jobs (%.1f%%) give one", info.WithEstimate, share)
	if info.Accuracy != [3]float64{} {
		fmt.Fprintf(tw, "; run time / estimate quartiles %.3f, %.3f, %.3f", info.Accuracy[0], info.Accuracy[1], info.Accuracy[2])
	}
	fmt.Fprintln(tw)
	if t != nil && t.Acknowledge != "" {
		fmt.Fprintf(tw, "acknowledge\t%s\n", oneLine(t.Acknowledge))
	} else if h.Acknowledge != "" {
		fmt.Fprintf(tw, "acknowledge\t%s\n", oneLine(h.Acknowledge))
	}
	for _, n := range h.Notes {
		fmt.Fprintf(tw, "note\t%s\n", oneLine(n))
	}
	if reps := r.Repaired(); len(reps) > 0 {
		fmt.Fprintf(tw, "read as missing\t%d negative values (--negative-as-missing)\n", len(reps))
	}
	return tw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
