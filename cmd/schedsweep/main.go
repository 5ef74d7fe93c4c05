// Command schedsweep simulates batch-scheduling policies on parallel
// workloads.
//
// Usage:
//
//	schedsweep run [flags] [FILE]
//	schedsweep validate FILE
//	schedsweep plan [flags] FILE
//	schedsweep fmt [-w | --check] FILE...
//	schedsweep list [policies|models|estimates|metrics]
//	schedsweep simulate [flags] TRACE
//	schedsweep plot boxes|means|heatmap|load|classes|utilization|gantt [flags] --out FILE.png|FILE.svg DIR
//	schedsweep report [flags] DIR
//	schedsweep tables [flags] [--readme FILE [--block NAME] [--check]] DIR
//	schedsweep trace list [--cache DIR] [-v]
//	schedsweep trace fetch [--cache DIR] NAME...
//	schedsweep trace info [flags] TRACE...
//	schedsweep trace generate MODEL [flags] --out FILE.swf
//	schedsweep trace models
//	schedsweep slurm --shards N [--submit] [flags] FILE
//	schedsweep version
//	schedsweep help [COMMAND]
//
// Help asked for (-h, --help, help) goes to stdout with exit 0; usage
// printed because of a mistake goes to stderr with exit 2.
//
// Exit codes: 0 success, 1 the command failed, 2 bad usage (unknown command,
// flag or value) or an experiment file with errors, 70 an internal error (a
// bug), 75 interrupted by Ctrl-C (SIGINT) or SIGTERM, with finished work
// saved (sysexits' EX_TEMPFAIL: run again to continue). Not 130 or 143, as
// a shell reports a process those signals ended: Slurm 22.05's sacct shows
// an exit of 130 as 2:0, the code of bad usage, and 143 as 15:0; it shows
// 75 as 75:0.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"

	"github.com/schedsweep/schedsweep/runner"
)

// Exit codes scripts can rely on.
const (
	exitOK          = 0
	exitFailure     = 1  // the command failed (a run, a file, the network)
	exitUsage       = 2  // bad usage, or an experiment file with errors
	exitInterrupted = 75 // Ctrl-C (SIGINT) or SIGTERM stopped the command; finished work is saved (sysexits' EX_TEMPFAIL)
	exitInternal    = 70 // a bug: a panic, caught (sysexits' EX_SOFTWARE); never 2, which means bad input
)

// usageError marks errors caused by how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run the sweep of an experiment file and write its results", runRun},
		{"validate", "check an experiment file", runValidate},
		{"plan", "show the runs an experiment file expands to", runPlan},
		{"fmt", "format experiment files canonically", runFmt},
		{"list", "list policies, workload models, estimate models and metrics", runList},
		{"simulate", "simulate one policy on one trace and print its metrics", runSimulate},
		{"trace", "archive traces and synthetic workloads (list, fetch, info, generate, models)", runTrace},
		{"plot", "draw figures of a results folder (boxes, means, heatmap, load, classes, utilization)", runPlot},
		{"report", "write a results folder as one self-contained HTML page, with a Gantt chart of a run", runReport},
		{"tables", "print a results folder's tables (Markdown or CSV), or rewrite a README's block of them", runTables},
		{"slurm", "write (and submit) the sbatch scripts of a sweep on a Slurm job array", runSlurm},
		{"version", "print the tool version, the Go version and the VCS revision (also --version)", runVersion},
	}
}

func main() { os.Exit(runSafe(os.Args[1:], os.Stdout, os.Stderr)) }

// runSafe is run, with a panic turned into exit code exitInternal and a
// report on stderr: Go exits 2 on a panic, the code that says the input
// (the usage, the experiment file) has errors, and a script must be able
// to tell a bug from a mistake of its own. A panic in a sweep's run comes
// back as runner.ErrInternal, with the same exit code; a panic in another
// goroutine, or a fatal runtime error, still ends the process with Go's
// exit 2.
func runSafe(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "schedsweep: internal error, a bug (please report it with the command that caused it): %v\n%s", r, debug.Stack())
			code = exitInternal
		}
	}()
	return run(args, stdout, stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 { // a mistake: the usage goes with the error output
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 { // help trace info: trace info --help
			return run(append(slices.Clip(args[1:]), "--help"), stdout, stderr)
		}
		printUsage(stdout)
		return exitOK
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		name := c.name
		if sub := (subcommandError{}); errors.As(err, &sub) {
			name += " " + sub.name
		}
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.Is(err, runner.ErrInternal):
			fmt.Fprintf(stderr, "schedsweep %s: %v\n", name, err)
			return exitInternal
		case errors.Is(err, errInterrupted):
			fmt.Fprintf(stderr, "schedsweep %s: %v\n", name, err)
			return exitInterrupted
		case errors.As(err, new(usageError)):
			fmt.Fprintf(stderr, "schedsweep %s: %v\n", name, err)
			if !errors.Is(err, errInvalid) { // the diagnostics say what to fix
				fmt.Fprintf(stderr, "run 'schedsweep %s --help' for usage\n", name)
			}
			return exitUsage
		default:
			fmt.Fprintf(stderr, "schedsweep %s: %v\n", name, err)
			return exitFailure
		}
	}
	fmt.Fprintf(stderr, "schedsweep: unknown command %q\n", args[0])
	printUsage(stderr)
	return exitUsage
}

// subcommandError is an error of a subcommand, such as info of trace: run
// names the subcommand before the message and points at its own --help.
type subcommandError struct {
	name string // "info"
	err  error
}

func (e subcommandError) Error() string { return e.err.Error() }
func (e subcommandError) Unwrap() error { return e.err }

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "schedsweep: what would this scheduling policy do to our users?")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: schedsweep COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'schedsweep COMMAND --help' for a command's flags.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, exitCodesHelp)
}

// exitCodesHelp lists the exit codes, for the top-level help.
const exitCodesHelp = `Exit codes: 0 success, 1 the command failed, 2 bad usage (unknown command,
flag or value) or an experiment file with errors, 70 an internal error (a bug),
75 interrupted (Ctrl-C or SIGTERM; finished work is saved).`

// exitCodes returns the exit codes of a command ("run", "trace fetch"),
// which its help ends with.
func exitCodes(command string) string {
	switch command {
	case "run":
		return "0 success, 1 a run failed or a file or trace could not be read, 2 bad\nusage or an experiment file with errors, 75 interrupted (Ctrl-C or\nSIGTERM); finished runs are saved"
	case "validate", "plan":
		return "0 success, 1 a file or trace could not be read, 2 bad usage or an\nexperiment file with errors"
	case "fmt":
		return "0 success, 1 a file could not be read or written, or --check found one\nnot formatted, 2 bad usage or a file with syntax errors"
	case "plot":
		return "0 success, 1 the results could not be read or the figure written, 2 bad\nusage, including a selection or metric the results do not have"
	case "slurm":
		return "0 success, 1 a script could not be written or sbatch failed, 2 bad\nusage or an experiment file with errors"
	case "trace fetch":
		return "0 every trace is in the cache, 1 a download failed, 2 bad usage, 75\ninterrupted (Ctrl-C or SIGTERM); nothing partial is saved"
	}
	return "0 success, 1 the command failed, 2 bad usage"
}

// newFlagSet returns the flag set of a command. Its output is stdout, where
// the help a user asks for (-h, --help) goes; parseArgs holds back the flag
// package's own report of a bad flag, which run prints to stderr.
func newFlagSet(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	return fs
}

// parseArgs parses a command's arguments with parseInterspersed and returns
// the positional ones; a bad flag is a usage error, and -h passes through
// as flag.ErrHelp after printing the command's usage and exit codes to fs's
// output (stdout: newFlagSet). The flag package's own report of a bad flag, the
// error followed by every flag, is held back: run prints the error once,
// to stderr, with a pointer to --help.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	pos, err := parseInterspersed(fs, args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		fmt.Fprintf(fs.Output(), "\nExit codes: %s.\n", exitCodes(fs.Name()))
		return nil, err
	case err != nil:
		return nil, usageError{err}
	}
	return pos, nil
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments, and returns the positional ones. Everything after a
// "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos, tail []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, tail = args[:i], args[i+1:]
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return append(pos, tail...), nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// checkOutputFile returns a usage error if the file an output flag names is
// an existing folder. Commands check before they work: the file is written
// to a temporary name and renamed, and the rename onto a folder would fail
// only at the end, with a message about the temporary file.
func checkOutputFile(flagName, path string) error {
	if fi, err := os.Stat(path); path != "" && err == nil && fi.IsDir() {
		return usagef("--%s: %s is a folder; give a file name", flagName, path)
	}
	return nil
}
