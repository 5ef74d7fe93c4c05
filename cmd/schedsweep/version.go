package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the tool version written into every results file (the
// schedsweep.tool_version metadata) and printed by schedsweep version.
const version = "0.1.0-dev"

const versionUsage = `Usage: schedsweep version

Prints the tool version, which results files record as
schedsweep.tool_version; the Go version and platform the binary was built
with; and, for a binary built by go build or go install in a Git checkout,
the revision, marked (modified) if the checkout had uncommitted changes.
go run records no revision, nor does a build in a linked Git worktree
(golang/go#58218). Also 'schedsweep --version'.

Examples:
  schedsweep version
  schedsweep --version
`

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), versionUsage) }
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("takes no arguments, got %q", pos)
	}
	bi, _ := debug.ReadBuildInfo()
	writeVersion(stdout, bi)
	return nil
}

// writeVersion writes the version lines: the tool version, the Go version
// and platform, and the VCS revision from bi (nil when the binary carries
// no build information), marked "(modified)" when the checkout had
// uncommitted changes. go run and go test record no revision.
func writeVersion(w io.Writer, bi *debug.BuildInfo) {
	fmt.Fprintf(w, "schedsweep %s\n", version)
	fmt.Fprintf(w, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if bi == nil {
		return
	}
	var revision, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision == "" {
		return
	}
	fmt.Fprintf(w, "revision %s", revision)
	if modified == "true" {
		fmt.Fprint(w, " (modified)")
	}
	fmt.Fprintln(w)
}
