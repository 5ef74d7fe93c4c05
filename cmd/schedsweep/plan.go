package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/workloads"
)

const validateUsage = `Usage: schedsweep validate [--var name=value] FILE

Checks an experiment file and prints its diagnostics; exit 0 when it has no
errors. FILE is a path, or the name of an embedded experiment.

Examples:
  schedsweep validate quickstart
  schedsweep validate --var replicates=3 psp2016

Flags:
`

const planUsage = `Usage: schedsweep plan [flags] FILE

Shows the expanded grid: how many runs, how many jobs they simulate, where
results go and how many of the runs that folder already holds complete
(run simulates only the others), and every run.

Examples:
  schedsweep plan quickstart
  schedsweep plan --shard 1/4 --out out/big quickstart
  schedsweep plan --var replicates=1 psp2016

Flags:
`

const fmtUsage = `Usage: schedsweep fmt [-w | --check] FILE...

Prints experiment files in canonical HCL formatting, or rewrites them with -w;
--check lists the files that are not formatted and exits 1 if any. A file
with syntax errors is left as it is: its errors are printed, exit 2. As with
gofmt, a file that cannot be read (or written) is reported and the others
are formatted; exit 1 at the end.

Examples, for an experiment file mine.hcl:
  schedsweep fmt mine.hcl
  schedsweep fmt -w mine.hcl
  schedsweep fmt --check mine.hcl

Flags:
`

const listUsage = `Usage: schedsweep list [policies|models|estimates|metrics]

Lists what experiment files can name, with parameters, defaults and
descriptions.

Examples:
  schedsweep list
  schedsweep list policies
`

func runValidate(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), validateUsage); fs.PrintDefaults() }
	pos, e, runs, err := parseExperiment(fs, args, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: experiment %q is valid: %s\n", pos, e.Name, nouns(len(runs), "run"))
	return nil
}

func runPlan(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plan", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), planUsage); fs.PrintDefaults() }
	sf := addSweepFlags(fs)
	pos, e, runs, err := parseExperiment(fs, args, stderr)
	if err != nil {
		return err
	}
	opt, err := sf.options(e)
	if err != nil {
		return err
	}
	// A workload that selects no job is shown, then named in the error:
	// run would refuse the sweep.
	jobs, emptyErr := runner.JobCounts(runs, opt.Cache)
	if emptyErr != nil && !errors.Is(emptyErr, runner.ErrNoJobs) {
		return emptyErr
	}
	if err := runner.SolveFactors(runs, opt.Cache); err != nil {
		return err
	}
	sel := runner.SelectShard(runs, opt.Shard, opt.Shards)
	unknown := false
	var total int64
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	loadHead := "load factor"
	if len(e.Sweep.OfferedLoads) > 0 {
		loadHead = "offered load (factor)"
	}
	fmt.Fprintf(tw, "key\tworkload\tpolicy\t%s\treplicate\tjobs\n", loadHead)
	for _, r := range sel {
		nj, known := jobs[r.WorkloadKey]
		total += int64(nj)
		count := "? (trace not fetched)"
		switch {
		case known && nj == 0:
			count = "0 (selects no job)"
		case known:
			count = fmt.Sprint(nj)
		default:
			unknown = true
		}
		load := fmt.Sprintf("%g", r.LoadFactor)
		switch {
		case r.TargetLoad > 0 && r.LoadFactor > 0:
			load = fmt.Sprintf("%g (%.4g)", r.TargetLoad, r.LoadFactor)
		case r.TargetLoad > 0:
			load = fmt.Sprintf("%g (?)", r.TargetLoad) // trace not fetched
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.Key, r.Workload.Name, r.Policy.Name, load, r.Replicate, count)
	}
	fmt.Fprintf(stdout, "experiment %q (%s): %s", e.Name, pos, nouns(len(runs), "run"))
	if opt.Shards > 1 {
		fmt.Fprintf(stdout, ", %d in shard %d/%d", len(sel), opt.Shard, opt.Shards)
	}
	if unknown {
		fmt.Fprintf(stdout, ", at least %d jobs to simulate (a trace is not fetched yet)\nresults go to %s\n", total, opt.Out)
	} else {
		fmt.Fprintf(stdout, ", %d jobs to simulate\nresults go to %s\n", total, opt.Out)
	}
	st, err := runner.Status(e, runs, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n\n", folderLine(st))
	if err := printNodes(stdout, e.Sweep.Cluster); err != nil { // plan_nodes.go
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if emptyErr != nil {
		return fmt.Errorf("%w\nrun refuses a sweep with such a workload; change its window, users or jobs", emptyErr)
	}
	return nil
}

// folderLine says what the results folder holds of the sweep: how many of
// its runs are complete and how many run would simulate, how many finished
// runs the sweep no longer has, or why run would refuse the folder.
func folderLine(st runner.FolderStatus) string {
	if st.Refused != nil {
		return fmt.Sprintf("run would refuse the folder: %v", st.Refused)
	}
	var line string
	switch {
	case st.Complete == 0:
		line = fmt.Sprintf("the folder holds none of these runs: %s to simulate", nouns(st.ToSimulate, "run"))
	case st.ToSimulate == 0:
		line = fmt.Sprintf("the folder holds all %s complete: nothing to simulate", nouns(st.Complete, "run"))
	default:
		line = fmt.Sprintf("the folder holds %s complete; %d new to simulate", nouns(st.Complete, "run"), st.ToSimulate)
	}
	if st.Outside > 0 {
		line += fmt.Sprintf("; it also holds %s the sweep no longer has, kept unless run --prune", nouns(st.Outside, "finished run"))
	}
	return line
}

func runFmt(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("fmt", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), fmtUsage); fs.PrintDefaults() }
	write := fs.Bool("w", false, "rewrite the files in place")
	check := fs.Bool("check", false, "only report files that are not formatted")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want at least one FILE")
	}
	if *write && *check {
		return usagef("-w and --check do not go together: -w rewrites the files, --check only lists those it would rewrite")
	}
	// As gofmt does, a file that cannot be read or written is reported
	// and the others are formatted; the exit code says so at the end.
	unformatted, broken, failed := 0, 0, 0
	for _, path := range pos {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "schedsweep fmt: %v\n", err)
			failed++
			continue
		}
		// hclwrite formats whatever it is given, broken or not; a file
		// that does not parse, or is too large or deep to parse safely,
		// is reported and left as it is.
		if _, diags := spec.ParseSyntax(src, path); diags.HasErrors() {
			printDiagnostics(stderr, diags, map[string]*hcl.File{path: {Bytes: src}})
			broken++
			continue
		}
		out := spec.Format(src)
		switch {
		case *check:
			if !bytes.Equal(src, out) {
				fmt.Fprintln(stdout, path)
				unformatted++
			}
		case *write:
			if !bytes.Equal(src, out) {
				if err := rewriteFile(path, out); err != nil {
					fmt.Fprintf(stderr, "schedsweep fmt: %v\n", err)
					failed++
				}
			}
		default:
			stdout.Write(out)
		}
	}
	var also []string
	if failed > 0 {
		also = append(also, fmt.Sprintf("%d file(s) could not be read or written", failed))
	}
	if unformatted > 0 {
		also = append(also, fmt.Sprintf("%d file(s) not formatted", unformatted))
	}
	if broken > 0 {
		return usageError{fmt.Errorf("%w; %s", errInvalid, strings.Join(append([]string{fmt.Sprintf("%d file(s) left as they are", broken)}, also...), "; "))}
	}
	if len(also) > 0 {
		return errors.New(strings.Join(also, "; "))
	}
	return nil
}

// rewriteFile replaces the contents of the existing file path with data as
// gofmt -w does: through a symbolic link, the file it names, and keeping
// the file's permissions, so that a private file stays private. The data
// goes to a temporary file beside the file, created readable by its owner
// only and given the file's permissions, then renamed over it, so that a
// failure leaves the file as it was.
func rewriteFile(path string, data []byte) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(fi.Mode().Perm())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), target)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("rewriting %s: %w", path, err)
	}
	return nil
}

func runList(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("list", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), listUsage) }
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	what := "all"
	if len(pos) > 1 {
		return usagef("want at most one of policies, models, estimates, metrics")
	}
	if len(pos) == 1 {
		what = pos[0]
	}
	show := func(s string) bool { return what == "all" || what == s }
	known := false
	if show("policies") {
		known = true
		fmt.Fprintln(stdout, "Policies (policy blocks: type = NAME, params = {…}):")
		for _, e := range policies.Entries() {
			listName(stdout, e.Name, e.Summary)
			if e.Params != nil {
				listParams(stdout, e.Params())
			}
		}
		fmt.Fprintln(stdout)
	}
	if show("models") {
		known = true
		fmt.Fprintln(stdout, "Workload models (workload blocks: model = NAME, params = {…}):")
		for _, m := range workloads.Models() {
			listName(stdout, m.Name, m.Summary)
			fmt.Fprintf(stdout, "  %-13s (%s)\n", "", m.Note)
			listParams(stdout, m.Params())
		}
		fmt.Fprintln(stdout)
	}
	if show("estimates") {
		known = true
		fmt.Fprintf(stdout, "Estimate models (workload blocks: estimates = \"…\"):\n  %s\n\n", workloads.EstimateModels)
	}
	if show("metrics") {
		known = true
		fmt.Fprintln(stdout, "Metrics (columns of runs.parquet, each with _mean, _median and _p95):")
		for _, m := range [][2]string{
			{"wait", "seconds from submission to start"},
			{"response", "seconds from submission to end"},
			{"slowdown", "response / max(run time, 1 s)"},
			{"bounded_slowdown", "max(1, response / max(run time, 10 s))"},
		} {
			fmt.Fprintf(stdout, "  %-17s %s\n", m[0], m[1])
		}
		fmt.Fprintln(stdout, "  and per run: finished, killed, rejected, jobs_measured (after warmup and cooldown),\n"+
			"    makespan, utilization, memory_utilization, offered_load (and target_offered_load in a\n"+
			"    sweep of offered loads), runtimes_cut, restarts, migrations, swaps, lost_work\n"+
			"    (two-tier policies), wall_seconds; results/README.md defines each")
	}
	if !known {
		return usagef("unknown list %q: want policies, models, estimates or metrics", what)
	}
	return nil
}

// listName writes a name and its summary on one line, or, when the name is
// wider than the name column, the summary on the next line, so the
// summaries stay aligned.
func listName(w io.Writer, name, summary string) {
	if len(name) > 13 {
		fmt.Fprintf(w, "  %s\n  %-13s %s\n", name, "", summary)
		return
	}
	fmt.Fprintf(w, "  %-13s %s\n", name, summary)
}

func listParams(w io.Writer, p any) {
	for _, f := range params.Describe(p) {
		fmt.Fprintf(w, "  %-13s   %s = %s (%s): %s\n", "", f.Name, f.Default, f.Type, f.Doc)
	}
}

// parseExperiment adds the --var flag to a command's flags, parses them and
// its one FILE argument, loads the experiment (printing its diagnostics) and
// expands its sweep.
func parseExperiment(fs *flag.FlagSet, args []string, stderr io.Writer) (string, *spec.Experiment, []runner.Run, error) {
	var vars stringList
	fs.Var(&vars, "var", "set a variable, `name=value` (an HCL expression; repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", nil, nil, err
	}
	if len(pos) == 0 && fs.Name() == "run" { // run alone runs the quickstart
		fmt.Fprintf(stderr, "schedsweep run: no FILE given; running the embedded %s experiment\n", runDefault)
		pos = []string{runDefault}
	}
	if len(pos) != 1 {
		return "", nil, nil, usagef("want one experiment FILE, got %d", len(pos))
	}
	e, err := loadExperiment(pos[0], vars, stderr)
	if err != nil {
		return "", nil, nil, err
	}
	runs, err := runner.Expand(e)
	if err != nil {
		return "", nil, nil, usageError{err}
	}
	return pos[0], e, runs, nil
}

// nouns is n and noun, plural unless n is 1: "1 run", "18 runs".
func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
