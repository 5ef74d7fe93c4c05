// Command slurmfidelity is the Go half of .ci/slurm-fidelity, the check
// of schedsweep's slurm policy against a real slurmctld:
//
//	go run ./.ci/slurmfidelity replay [flags]   submit an SWF prefix to Slurm, time compressed
//	go run ./.ci/slurmfidelity compare [flags]  compare Slurm's starts (sacct) with a simulated schedule
//
// Run a subcommand with -h for its flags. Exit 0 on success, 1 on failure
// (compare: the agreement is below a threshold), 2 on bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: slurmfidelity replay|compare [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "replay":
		err = replayMain(os.Args[2:])
	case "compare":
		err = compareMain(os.Args[2:])
	default:
		fmt.Fprintf(os.Stderr, "slurmfidelity: unknown subcommand %q; want replay or compare\n", os.Args[1])
		os.Exit(2)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "slurmfidelity:", err)
		os.Exit(1)
	}
}

// errUsage marks an error in the command line, reported by the flag
// package already.
var errUsage = errors.New("bad usage")

// parseFlags parses args into fs, which reports its own errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}
