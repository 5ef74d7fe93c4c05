package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/results/plot"
)

const plotUsage = `Usage: schedsweep plot KIND [flags] --out FILE.png|FILE.svg DIR

Draws a figure from the results folder DIR that 'schedsweep run' wrote
(runs.parquet, users.parquet, heatmap/, utilization/, or their shards),
without simulating anything. KIND is one of:

  boxes    the distribution over users of a users.parquet metric, one box
           per policy (per policy and load factor when there are several):
           veet_share (default; % of each user's jobs that missed their
           expected end time, EET), weighted_tardiness (log scale), …
  means    wait, response time and bounded slowdown per policy as bars, the
           mean over the replicates with whiskers from the lowest to the
           highest; --metric picks other runs.parquet columns (comma-separated)
  heatmap  one run's violated EETs per user over time, with processor and
           memory utilization below; pick the run with --run KEY, or with
           --policy, --load and --replicate (and --workload)
  load     a runs.parquet metric (default bounded_slowdown_mean) against the
           load factor, one line per policy, each point the mean over the
           replicates with whiskers from the lowest to the highest
  classes  a users.parquet metric (default mean_wait) averaged over the
           users of each estimate-accuracy class a1-a5 (Rocchetti et al.
           2015, Table 1, on recent_accuracy), a bar per class, grouped by
           workload, one panel per policy; runs of one load factor. It also
           prints the means as a Markdown table, with each workload's ratio
           of its lowest to its highest class
  utilization
           processor utilization over time of one replicate, a line per
           policy to its makespan, beside the makespans with every
           processor busy and with one job at a time; pick the replicate
           with --replicate (and --workload, --load); prints the
           makespans and both bounds as a Markdown table

With --ci, the whiskers of means and load show the 95% confidence interval
of the mean over the replicates (Student's t) instead.

--workload, --policy, --load and --replicate select runs for every kind
(lists are comma-separated); boxes, means and load need runs of one
workload, classes runs of one load factor. The figure is PNG (150 dots per inch) or SVG, by --out's
extension.

Examples, after 'schedsweep run quickstart' and 'schedsweep run psp2016':
  schedsweep plot boxes --workload be --out veet.png out/psp2016
  schedsweep plot boxes --workload be --metric weighted_tardiness --load 1 --out wt.svg out/psp2016
  schedsweep plot means --out means.png out/quickstart
  schedsweep plot heatmap --policy easy --load 0.85 --replicate 1 --out heat.png out/quickstart
  schedsweep plot load --metric wait_mean --out wait.png out/quickstart
  schedsweep plot classes --out classes.png out/psp2016
  schedsweep plot utilization --load 0.85 --replicate 1 --out util.png out/quickstart

Flags:
`

// plotKind is a figure plot draws and the table it prints, if any: draw
// reads what both need once and returns the figure and the table ("" for
// none).
type plotKind struct {
	name string
	draw func(*plot.Results, plot.Options) (*plot.Figure, string, error)
}

func plotKinds() []plotKind {
	return []plotKind{
		{"boxes", figureOnly(plot.Boxes)},
		{"means", figureOnly(plot.Means)},
		{"heatmap", figureOnly(plot.Heatmap)},
		{"load", figureOnly(plot.LoadLines)},
		{"classes", classes},
		{"utilization", utilization},
	}
}

// figureOnly is a kind that prints no table.
func figureOnly(draw func(*plot.Results, plot.Options) (*plot.Figure, error)) func(*plot.Results, plot.Options) (*plot.Figure, string, error) {
	return func(r *plot.Results, opt plot.Options) (*plot.Figure, string, error) {
		f, err := draw(r, opt)
		return f, "", err
	}
}

// classes draws the classes figure and its table from one ClassMeans.
func classes(r *plot.Results, opt plot.Options) (*plot.Figure, string, error) {
	d, err := plot.ClassMeans(r, opt)
	if err != nil {
		return nil, "", err
	}
	f, err := d.Figure(opt)
	return f, d.Table(), err
}

// utilization draws the utilization figure and its table (makespans and
// their bounds) from one read of the runs' utilization files.
func utilization(r *plot.Results, opt plot.Options) (*plot.Figure, string, error) {
	d, err := plot.UtilizationValues(r, opt)
	if err != nil {
		return nil, "", err
	}
	f, err := d.Figure(opt)
	return f, d.Table(), err
}

func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), plotUsage)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nMetrics of boxes (users.parquet): %s\n", strings.Join(plot.UserMetrics(), ", "))
		fmt.Fprintf(fs.Output(), "Metrics of means and load (runs.parquet): %s\n", strings.Join(plot.RunMetrics(), ", "))
	}
	metric := fs.String("metric", "", "the `column` to draw (means: a comma-separated list); see the lists below")
	out := fs.String("out", "", "write the figure to `file`, .png or .svg (required)")
	workload := fs.String("workload", "", "only runs of `workload`")
	policy := fs.String("policy", "", "only runs of these `policies` (comma-separated)")
	load := fs.String("load", "", "only runs at these load `factors`, or target offered loads in a sweep of them (comma-separated)")
	replicate := fs.String("replicate", "", "only these `replicates` (comma-separated, from 1)")
	runKey := fs.String("run", "", "only the run with this `key` (runs.parquet's run_key)")
	width := fs.String("width", "", "figure `width`, e.g. 8in, 20cm or 1200px (default: the kind's)")
	height := fs.String("height", "", "figure `height`, likewise")
	logAxis := fs.Bool("log", false, "load: a log value axis (points at 0 are left out, with a note)")
	ci := fs.Bool("ci", false, "load, means: whiskers show the 95% confidence interval of the mean over the replicates (Student's t), not the lowest and highest replicate")
	bin := fs.Int("bin", 0, "heatmap, utilization: `minutes` per cell or step (default: the smallest of 1, 2, 5, … minutes giving at most 300 cells)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want KIND and DIR, got %d arguments", len(pos))
	}
	kind, dir := pos[0], pos[1]
	var chosen *plotKind
	var names []string
	for _, k := range plotKinds() {
		names = append(names, k.name)
		if k.name == kind {
			chosen = &k
		}
	}
	if chosen == nil {
		msg := fmt.Sprintf("unknown figure %q: want %s", kind, strings.Join(names, ", "))
		if c := suggest.Closest(kind, names); c != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", c)
		}
		return usagef("%s", msg)
	}
	if *out == "" {
		return usagef("--out FILE.png or FILE.svg is required")
	}
	if _, err := plot.Format(*out); err != nil {
		return usagef("--out %q: want a file name ending in .png or .svg", *out)
	}
	opt := plot.Options{BinMinutes: *bin, CI: *ci, Log: *logAxis}
	if *bin < 0 {
		return usagef("--bin: %d is negative", *bin)
	}
	if *metric != "" {
		opt.Metrics = splitList(*metric)
	}
	opt.Run, opt.Workload, opt.Policies = *runKey, *workload, splitList(*policy)
	for _, s := range splitList(*load) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 {
			return usagef("--load: %q is not a positive number", s)
		}
		opt.LoadFactors = append(opt.LoadFactors, f)
	}
	for _, s := range splitList(*replicate) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return usagef("--replicate: %q is not a replicate number (1, 2, …)", s)
		}
		opt.Replicates = append(opt.Replicates, n)
	}
	if opt.Width, err = parseLength("--width", *width); err != nil {
		return err
	}
	if opt.Height, err = parseLength("--height", *height); err != nil {
		return err
	}

	res, err := plot.Load(dir)
	if err != nil {
		return err
	}
	f, table, err := chosen.draw(res, opt)
	if errors.Is(err, plot.ErrUnknownMetric) || errors.Is(err, plot.ErrSelection) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if err := f.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s, %.3g × %.3g in\n", *out, kind, float64(f.Width/vg.Inch), float64(f.Height/vg.Inch))
	if table != "" {
		fmt.Fprintf(stdout, "\n%s", table)
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseLength parses a figure size: a number with a unit, in, cm, mm, pt
// or px (pixels of a PNG, at plot.DPI). Empty is 0, the figure's default.
func parseLength(flagName, s string) (vg.Length, error) {
	if s == "" {
		return 0, nil
	}
	var l vg.Length
	var err error
	if n, ok := strings.CutSuffix(s, "px"); ok {
		var px float64
		px, err = strconv.ParseFloat(n, 64)
		l = vg.Length(px/plot.DPI) * vg.Inch
	} else if strings.TrimLeft(s, "0123456789.") == "" {
		err = errors.New("no unit")
	} else {
		l, err = vg.ParseLength(s)
	}
	if err != nil || l <= 0 {
		return 0, usagef("%s: %q is not a length: want a positive number and a unit, in, cm, mm, pt or px (e.g. 8in)", flagName, s)
	}
	return l, nil
}
