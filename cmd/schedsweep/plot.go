package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/schedsweep/schedsweep/internal/atomicfile"
	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/results/plot"
)

const plotUsage = `Usage: schedsweep plot KIND [flags] --out FILE.png|FILE.svg|FILE.pdf DIR

Draws a figure from the results folder DIR that 'schedsweep run' wrote
(runs.parquet, users.parquet, heatmap/, utilization/, jobs/, or their
shards), without simulating anything. KIND is one of:

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
           policy (one panel per policy, grouped by workload, when there
           are several workloads); runs of one load factor. It also
           prints the means as a Markdown table, with each workload's ratio
           of its lowest to its highest class. With --by size, jobs
           instead, by run time and processors: short narrow, short wide,
           long narrow, long wide (--short, default 1h; --narrow, default
           8 processors; Srinivasan et al. 2002), with a jobs-file column
           (default wait)
  utilization
           processor utilization over time of one replicate, a line per
           policy to its makespan, beside the makespans with every
           processor busy and with one job at a time; pick the replicate
           with --replicate (and --workload, --load); prints the
           makespans and both bounds as a Markdown table
  paired   each policy's paired difference from a baseline (--baseline,
           default the first policy) in runs.parquet metrics (default
           wait_mean and bounded_slowdown_mean): on each replicate, where
           both ran the same jobs, the policy's value minus the
           baseline's; a point per policy and load factor at the mean
           difference, whiskers over its 95% confidence interval
           (Student's t); prints them as a Markdown table
  ecdf     the empirical distribution of a jobs-file column (default
           wait; or response, slowdown, bounded_slowdown) over the jobs
           that ran, a line per policy, a panel per load factor, on a log
           axis; prints the mean, median, 90th, 95th and 99th percentiles
           and the largest value
  queue    the jobs waiting and their work (processors × requested
           time, in hours of the whole machine) over time in one
           replicate, a line per policy to its makespan; pick the
           replicate as for utilization; prints the mean and largest
           queue per policy
  gantt    one run's schedule: a rectangle per job from its start to its
           end on the processor rows a first-fit packing gives it (the
           simulator counts processors, it does not name them), coloured by
           user (--color status: by how it ended), below the processors in
           use; pick the run as for heatmap, and a window with --from and
           --to (times since the run's first submission, e.g. 10h)

ecdf, queue, gantt and classes --by size read the jobs files (not written with
output { jobs = false }).

With --csv FILE, means, load, classes, utilization, paired, ecdf and
queue also write the numbers they draw as CSV (a header row; values in
the tables' units, seconds for times; an empty field is NULL), for tools
that read no Parquet.

With --ci, the whiskers of means and load show the 95% confidence interval
of the mean over the replicates (Student's t) instead.

--workload, --policy, --load and --replicate select runs for every kind
(lists are comma-separated); boxes, means and load draw a row of panels
per workload when the runs are of several, classes needs runs of one
load factor. The figure is PNG (150 dots per inch), SVG or PDF, by
--out's extension; SVG and PDF files embed their font. Warnings (such as
--ci over fewer than three replicates) go to standard error; the figure
is drawn all the same.

Examples, after 'schedsweep run quickstart' and 'schedsweep run psp2016':
  schedsweep plot boxes --workload be --out veet.png out/psp2016
  schedsweep plot boxes --workload be --metric weighted_tardiness --load 1 --out wt.svg out/psp2016
  schedsweep plot means --out means.png out/quickstart
  schedsweep plot heatmap --policy easy --load 0.85 --replicate 1 --out heat.png out/quickstart
  schedsweep plot load --metric wait_mean --out wait.png out/quickstart
  schedsweep plot classes --out classes.png out/psp2016
  schedsweep plot classes --by size --short 30m --load 0.85 --out sizes.png out/quickstart
  schedsweep plot utilization --load 0.85 --replicate 1 --out util.png out/quickstart
  schedsweep plot paired --baseline fcfs --out paired.pdf --csv paired.csv out/quickstart
  schedsweep plot ecdf --metric bounded_slowdown --load 0.85 --out bsld.png out/quickstart
  schedsweep plot queue --load 0.95 --replicate 1 --out queue.png out/quickstart
  schedsweep plot gantt --policy easy --load 0.85 --replicate 1 --from 24h --to 48h --out gantt.png out/quickstart

Flags:
`

// plotKind is a figure plot draws, with the table it prints and the CSV
// --csv writes, if any: draw reads what all three need once.
type plotKind struct {
	name string
	draw func(*plot.Results, plot.Options) (plotOutput, error)
	csv  bool // draw returns CSV records
}

// plotOutput is what a kind draws: the figure, a Markdown table to print
// ("" for none) and CSV records (nil when the kind has none).
type plotOutput struct {
	fig   *plot.Figure
	table string
	csv   [][]string
}

func plotKinds() []plotKind {
	return []plotKind{
		{"boxes", figureOnly(plot.Boxes), false},
		{"means", withPoints(plot.Means), true},
		{"heatmap", figureOnly(plot.Heatmap), false},
		{"load", withPoints(plot.LoadLines), true},
		{"classes", classes, true},
		{"utilization", utilization, true},
		{"paired", paired, true},
		{"ecdf", ecdf, true},
		{"queue", queue, true},
		{"gantt", nil, false}, // runPlot gives it its flags (gantt)
	}
}

// figureOnly is a kind that prints no table and writes no CSV.
func figureOnly(draw func(*plot.Results, plot.Options) (*plot.Figure, error)) func(*plot.Results, plot.Options) (plotOutput, error) {
	return func(r *plot.Results, opt plot.Options) (plotOutput, error) {
		f, err := draw(r, opt)
		return plotOutput{fig: f}, err
	}
}

// withPoints is a kind of runs.parquet metrics summarised over the
// replicates, whose CSV holds the points (plot.PointsCSV).
func withPoints(draw func(*plot.Results, plot.Options) (*plot.Figure, error)) func(*plot.Results, plot.Options) (plotOutput, error) {
	return func(r *plot.Results, opt plot.Options) (plotOutput, error) {
		f, err := draw(r, opt)
		if err != nil {
			return plotOutput{}, err
		}
		csv, err := plot.PointsCSV(r, opt)
		return plotOutput{fig: f, csv: csv}, err
	}
}

// classes draws the classes figure and its table from one ClassesOf.
func classes(r *plot.Results, opt plot.Options) (plotOutput, error) {
	d, err := plot.ClassesOf(r, opt)
	if err != nil {
		return plotOutput{}, err
	}
	f, err := d.Figure(opt)
	return plotOutput{f, d.Table(), d.CSV()}, err
}

// utilization draws the utilization figure and its table (makespans and
// their bounds) from one read of the runs' utilization files.
func utilization(r *plot.Results, opt plot.Options) (plotOutput, error) {
	d, err := plot.UtilizationValues(r, opt)
	if err != nil {
		return plotOutput{}, err
	}
	f, err := d.Figure(opt)
	return plotOutput{f, d.Table(), d.CSV()}, err
}

// ecdf draws the distributions and their quantiles from one read of the
// jobs files.
func ecdf(r *plot.Results, opt plot.Options) (plotOutput, error) {
	d, err := plot.ECDFValues(r, opt)
	if err != nil {
		return plotOutput{}, err
	}
	f, err := d.Figure(opt)
	return plotOutput{f, d.Table(), d.CSV()}, err
}

// queue draws the queue over time and its table from one read of the
// jobs files.
func queue(r *plot.Results, opt plot.Options) (plotOutput, error) {
	d, err := plot.QueueValues(r, opt)
	if err != nil {
		return plotOutput{}, err
	}
	f, err := d.Figure(opt)
	return plotOutput{f, d.Table(), d.CSV()}, err
}

// paired draws the paired differences and their table.
func paired(r *plot.Results, opt plot.Options) (plotOutput, error) {
	ds, err := plot.PairedDifferences(r, opt)
	if err != nil {
		return plotOutput{}, err
	}
	f, err := plot.PairedFigure(ds, opt)
	return plotOutput{f, plot.PairedTable(ds), plot.PairedCSV(ds)}, err
}

// plotKindNamed returns the figure kind of that name, or a usage error
// listing the kinds, with the closest name if one is close.
func plotKindNamed(kind string) (*plotKind, error) {
	var names []string
	for _, k := range plotKinds() {
		names = append(names, k.name)
		if k.name == kind {
			return &k, nil
		}
	}
	msg := fmt.Sprintf("unknown figure %q: want %s", kind, strings.Join(names, ", "))
	if c := suggest.Closest(kind, names); c != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", c)
	}
	return nil, usagef("%s", msg)
}

// parseLoadsReplicates reads --load, comma-separated positive numbers,
// and --replicate, comma-separated replicate numbers from 1.
func parseLoadsReplicates(load, replicate string) (loads []float64, reps []int64, err error) {
	for _, s := range splitList(load) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f <= 0 {
			return nil, nil, usagef("--load: %q is not a positive number", s)
		}
		loads = append(loads, f)
	}
	for _, s := range splitList(replicate) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return nil, nil, usagef("--replicate: %q is not a replicate number (1, 2, …)", s)
		}
		reps = append(reps, n)
	}
	return loads, reps, nil
}

func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", stdout)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), plotUsage)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\nMetrics of boxes (users.parquet): %s\n", strings.Join(plot.UserMetrics(), ", "))
		fmt.Fprintf(fs.Output(), "Metrics of means, load and paired (runs.parquet): %s\n", strings.Join(plot.RunMetrics(), ", "))
		fmt.Fprintf(fs.Output(), "Metrics of ecdf and classes --by size (jobs files): %s\n", strings.Join(plot.JobMetrics(), ", "))
	}
	metric := fs.String("metric", "", "the `column` to draw (means: a comma-separated list); see the lists below")
	out := fs.String("out", "", "write the figure to `file`, .png, .svg or .pdf (required)")
	workload := fs.String("workload", "", "only runs of `workload`")
	policy := fs.String("policy", "", "only runs of these `policies` (comma-separated)")
	load := fs.String("load", "", "only runs at these load `factors`, or target offered loads in a sweep of them (comma-separated)")
	replicate := fs.String("replicate", "", "only these `replicates` (comma-separated, from 1)")
	runKey := fs.String("run", "", "only the run with this `key` (runs.parquet's run_key)")
	width := fs.String("width", "", "figure `width`, e.g. 8in, 20cm or 1200px (default: the kind's)")
	height := fs.String("height", "", "figure `height`, likewise")
	logAxis := fs.Bool("log", false, "load: a log value axis (points at 0 are left out, with a note)")
	ci := fs.Bool("ci", false, "load, means: whiskers show the 95% confidence interval of the mean over the replicates (Student's t), not the lowest and highest replicate")
	by := fs.String("by", "accuracy", "classes: class users by estimate `accuracy`, or jobs by size (run time and processors)")
	short := fs.Duration("short", plot.DefaultShortSeconds*time.Second, "classes --by size: the longest run time of a short job")
	narrow := fs.Int64("narrow", plot.DefaultNarrowProcs, "classes --by size: the most `processors` of a narrow job")
	baseline := fs.String("baseline", "", "paired: the `policy` the others are compared with (default: the first of the runs table)")
	csvOut := fs.String("csv", "", "also write the figure's numbers to `file` as CSV (means, load, classes, utilization, paired, ecdf, queue)")
	bin := fs.Int("bin", 0, "heatmap, utilization, queue: `minutes` per cell or step (default: the smallest of 1, 2, 5, … minutes giving at most 300 cells)")
	gf := addGanttFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want KIND and DIR, got %d arguments", len(pos))
	}
	kind, dir := pos[0], pos[1]
	chosen, err := plotKindNamed(kind)
	if err != nil {
		return err
	}
	if err := gf.bind(chosen); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out FILE.png, FILE.svg or FILE.pdf is required")
	}
	if _, err := plot.Format(*out); err != nil {
		return usagef("--out %q: want a file name ending in .png, .svg or .pdf", *out)
	}
	if *csvOut != "" && !chosen.csv {
		var with []string
		for _, k := range plotKinds() {
			if k.csv {
				with = append(with, k.name)
			}
		}
		return usagef("--csv: plot %s writes no CSV; these kinds do: %s", kind, strings.Join(with, ", "))
	}
	if *short < time.Second || *short%time.Second != 0 {
		return usagef("--short: %s is not a whole positive number of seconds", *short)
	}
	if *narrow < 1 {
		return usagef("--narrow: %d is not a positive number of processors", *narrow)
	}
	opt := plot.Options{BinMinutes: *bin, CI: *ci, Log: *logAxis, Baseline: *baseline,
		ClassBy: *by, ShortSeconds: int64(*short / time.Second), NarrowProcs: *narrow}
	if *bin < 0 {
		return usagef("--bin: %d is negative", *bin)
	}
	if *metric != "" {
		opt.Metrics = splitList(*metric)
	}
	opt.Run, opt.Workload, opt.Policies = *runKey, *workload, splitList(*policy)
	if opt.LoadFactors, opt.Replicates, err = parseLoadsReplicates(*load, *replicate); err != nil {
		return err
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
	o, err := chosen.draw(res, opt)
	if errors.Is(err, plot.ErrUnknownMetric) || errors.Is(err, plot.ErrSelection) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	f := o.fig
	for _, w := range f.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if err := f.Save(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s, %.3g × %.3g in\n", *out, kind, float64(f.Width/vg.Inch), float64(f.Height/vg.Inch))
	if *csvOut != "" {
		if err := writeCSV(*csvOut, o.csv); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d rows\n", *csvOut, len(o.csv)-1)
	}
	if o.table != "" {
		fmt.Fprintf(stdout, "\n%s", o.table)
	}
	return nil
}

// writeCSV writes records to path through a temporary file renamed into
// place.
func writeCSV(path string, records [][]string) error {
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(records); err != nil {
			return err
		}
		return cw.Error()
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
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
