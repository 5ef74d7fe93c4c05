package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/results/report"
)

const reportUsage = `Usage: schedsweep report [flags] DIR

Writes one HTML page for the results folder DIR that 'schedsweep run'
wrote, to DIR/report.html unless --out says otherwise: the experiment (its
file, hash and tool version), the grid, the runs in a table that sorts and
filters (with each run's wall time), the per-policy figures, the users of
one replicate under each policy, and an interactive Gantt chart of one
run's schedule (zoom, pan, hover for a job's id, user, times and wait)
below the processors in use. The page is self-contained: it loads nothing
from the network and can be mailed or archived as it is.

The chart shows the first run of the runs table unless --run KEY (a
run_key of runs.parquet) or --policy, --load and --replicate (and
--workload) pick another; it needs that run's jobs file.

Examples, after 'schedsweep run quickstart':
  schedsweep report out/quickstart
  schedsweep report --policy easy --load 0.85 --replicate 1 --out easy.html out/quickstart

Flags:
`

// reportFile is the report's name in a results folder.
const reportFile = "report.html"

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", stdout)
	fs.Usage = func() { fmt.Fprint(fs.Output(), reportUsage); fs.PrintDefaults() }
	out := fs.String("out", "", "write the page to `file` (default: DIR/report.html)")
	workload := fs.String("workload", "", "chart a run of `workload`")
	policy := fs.String("policy", "", "chart a run of `policy`")
	load := fs.String("load", "", "chart a run at this load `factor` (or target offered load)")
	replicate := fs.String("replicate", "", "chart a run of this `replicate`")
	runKey := fs.String("run", "", "chart the run with this `key` (runs.parquet's run_key)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want DIR, got %d arguments", len(pos))
	}
	dir := pos[0]
	sel := plot.Selection{Run: *runKey, Workload: *workload, Policies: splitList(*policy)}
	for _, s := range splitList(*load) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 {
			return usagef("--load: %q is not a positive number", s)
		}
		sel.LoadFactors = append(sel.LoadFactors, f)
	}
	for _, s := range splitList(*replicate) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return usagef("--replicate: %q is not a replicate number (1, 2, …)", s)
		}
		sel.Replicates = append(sel.Replicates, n)
	}
	path := *out
	if path == "" {
		path = filepath.Join(dir, reportFile)
	}
	err = writeReport(dir, path, sel)
	if errors.Is(err, plot.ErrSelection) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report: %s\n", path)
	return nil
}

// writeReport writes the report of the results folder dir to path,
// charting the run sel selects (the first run if sel is empty).
func writeReport(dir, path string, sel plot.Selection) error {
	r, err := plot.Load(dir)
	if err != nil {
		return err
	}
	return report.Save(path, r, report.Options{Selection: sel, ToolVersion: version})
}
