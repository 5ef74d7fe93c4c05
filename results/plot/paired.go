package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Difference is a policy's paired difference from a baseline policy in a
// runs.parquet metric, at one load factor of one workload. Runs of one
// workload, load factor and replicate share their jobs (the runner seeds
// a replicate's workload the same for every policy), so the difference
// of two policies' run-level values on the same replicate is free of the
// workload's chance variation, and its mean over the replicates is known
// far more precisely than either policy's mean alone.
type Difference struct {
	Metric     string
	Policy     string // the runs' Series
	Baseline   string
	LoadFactor float64
	// Replicates are those in which both runs have a value, in order;
	// Diffs[i] is the policy's value minus the baseline's on replicate
	// Replicates[i].
	Replicates []int64
	Diffs      []float64
	// Mean is the mean of Diffs; Lo and Hi bound its 95 % confidence
	// interval, Mean ± t·s/√n with s the differences' sample deviation
	// and t Student's with n − 1 degrees of freedom (NaN for n < 2).
	Mean, Lo, Hi float64
	// BaselineMean is the baseline's mean over the same replicates.
	BaselineMean float64
}

// defaultPaired are the metrics PairedDifferences compares by default.
var defaultPaired = []string{"wait_mean", "bounded_slowdown_mean"}

// PairedDifferences returns, for each metric of opt.Metrics (default
// wait_mean and bounded_slowdown_mean), each policy but opt.Baseline
// (default the first policy of the runs table) and each load factor, the
// policy's differences from the baseline replicate by replicate over the
// selected runs, which must be of one workload. opt.Baseline may name a
// policy or a Series ("easy (policy_order=sjf)").
func PairedDifferences(r *Results, opt Options) ([]Difference, error) {
	names := opt.Metrics
	if len(names) == 0 {
		names = defaultPaired
	}
	var ms []metric
	for _, n := range names {
		m, err := lookup(runMetrics, n, "runs.parquet")
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	runs, _, err := r.selectOneWorkload(opt.Selection)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	base, err := baselineOf(policies, opt.Baseline)
	if err != nil {
		return nil, err
	}
	pr := newPairing(runs)
	var out []Difference
	for _, m := range ms {
		for _, p := range policies {
			if p == base {
				continue
			}
			for _, l := range loads {
				d := Difference{Metric: m.name, Policy: p, Baseline: base, LoadFactor: l}
				ok, err := pr.pair(&d)
				if err != nil {
					return nil, err
				}
				if ok {
					out = append(out, d)
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no replicate of %s has runs of both the baseline %s and another policy with a value", ErrSelection, opt.Selection, base)
	}
	return out, nil
}

// baselineOf returns the Series of policies that base names (the first
// if base is ""): base itself, or the one Series of policy base ("easy"
// for "easy (policy_order=sjf)"). It fails if base names none, or several,
// or if there is no policy besides it.
func baselineOf(policies []string, base string) (string, error) {
	if base == "" {
		base = policies[0]
	}
	if !slices.Contains(policies, base) {
		var matches []string
		for _, p := range policies {
			if strings.HasPrefix(p, base+" (") {
				matches = append(matches, p)
			}
		}
		if len(matches) != 1 {
			return "", fmt.Errorf("%w: baseline %q is not one of the selected runs' policies (%s)", ErrSelection, base, strings.Join(policies, ", "))
		}
		base = matches[0]
	}
	if len(policies) < 2 {
		return "", fmt.Errorf("%w: paired differences need a policy besides the baseline %s", ErrSelection, base)
	}
	return base, nil
}

// pairCell is where a run sits for pairing: its Series, load factor and
// replicate.
type pairCell struct {
	policy string
	load   float64
	rep    int64
}

// pairing is the selected runs by cell, and their replicates, sorted.
type pairing struct {
	byCell map[pairCell]*Run
	reps   []int64
}

func newPairing(runs []*Run) *pairing {
	pr := &pairing{byCell: map[pairCell]*Run{}}
	for _, x := range runs {
		pr.byCell[pairCell{x.Series(), x.LoadFactor, x.Replicate}] = x
	}
	for _, x := range runs {
		if !slices.Contains(pr.reps, x.Replicate) {
			pr.reps = append(pr.reps, x.Replicate)
		}
	}
	slices.Sort(pr.reps)
	return pr
}

// pair fills d, whose metric, policy, baseline and load factor are set,
// from the replicates that have a run of both with a value of the metric
// (not NaN), and reports whether there was any.
func (pr *pairing) pair(d *Difference) (bool, error) {
	var bs []float64
	for _, rep := range pr.reps {
		x, b := pr.byCell[pairCell{d.Policy, d.LoadFactor, rep}], pr.byCell[pairCell{d.Baseline, d.LoadFactor, rep}]
		if x == nil || b == nil {
			continue
		}
		xv, err := x.Metric(d.Metric)
		if err != nil {
			return false, err
		}
		bv, err := b.Metric(d.Metric)
		if err != nil {
			return false, err
		}
		if math.IsNaN(xv) || math.IsNaN(bv) {
			continue
		}
		d.Replicates = append(d.Replicates, rep)
		d.Diffs = append(d.Diffs, xv-bv)
		bs = append(bs, bv)
	}
	if len(d.Diffs) == 0 {
		return false, nil
	}
	d.Mean, d.Lo, d.Hi = confidence(d.Diffs)
	d.BaselineMean, _, _ = confidence(bs)
	return true, nil
}

// PairedTable renders ds as a Markdown table: a row per metric, load
// factor and policy, with the number of replicates paired, the mean
// difference and its confidence interval in the metric's unit, and the
// difference relative to the baseline's mean.
func PairedTable(ds []Difference) string {
	var b strings.Builder
	if len(ds) > 0 {
		fmt.Fprintf(&b, "Paired differences from %s (policy − baseline, replicate by replicate; in runs.parquet's units, seconds for times)\n\n", ds[0].Baseline)
	}
	b.WriteString("| metric | load factor | policy | replicates | mean difference | 95% CI | baseline mean | relative |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, d := range ds {
		ci := "–"
		if !math.IsNaN(d.Lo) {
			ci = fmt.Sprintf("[%s, %s]", num(d.Lo), num(d.Hi))
		}
		rel := "–"
		if d.BaselineMean != 0 {
			rel = fmt.Sprintf("%+.1f%%", 100*d.Mean/d.BaselineMean)
		}
		fmt.Fprintf(&b, "| %s | %g | %s | %d | %s | %s | %s | %s |\n", d.Metric, d.LoadFactor, d.Policy, len(d.Diffs), num(d.Mean), ci, num(d.BaselineMean), rel)
	}
	return b.String()
}

// PairedCSV returns ds as CSV records, a header and a row per
// difference: unscaled values, NaN as an empty field.
func PairedCSV(ds []Difference) [][]string {
	out := [][]string{{"metric", "load_factor", "policy", "baseline", "replicates", "mean_difference", "ci_low", "ci_high", "baseline_mean"}}
	for _, d := range ds {
		out = append(out, []string{d.Metric, formatFloat(d.LoadFactor), d.Policy, d.Baseline, strconv.Itoa(len(d.Diffs)),
			csvFloat(d.Mean), csvFloat(d.Lo), csvFloat(d.Hi), csvFloat(d.BaselineMean)})
	}
	return out
}

// num writes v with four significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// csvFloat writes v in its shortest exact form, NaN as "".
func csvFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Paired draws PairedDifferences: a panel per metric, a point per policy
// (and load factor, side by side) at its mean difference from the
// baseline with whiskers over the 95 % confidence interval, and a line at
// 0, where a policy does as well as the baseline. An interval that misses
// 0 is a difference the replicates resolve.
func Paired(r *Results, opt Options) (*Figure, error) {
	ds, err := PairedDifferences(r, opt)
	if err != nil {
		return nil, err
	}
	return PairedFigure(ds, opt)
}

// PairedFigure draws ds as Paired does; of opt it uses only the size.
func PairedFigure(ds []Difference, opt Options) (*Figure, error) {
	var metrics, policies []string
	var loads []float64
	fewest := 0
	for _, d := range ds {
		if !slices.Contains(metrics, d.Metric) {
			metrics = append(metrics, d.Metric)
		}
		if !slices.Contains(policies, d.Policy) {
			policies = append(policies, d.Policy)
		}
		if !slices.Contains(loads, d.LoadFactor) {
			loads = append(loads, d.LoadFactor)
		}
		if fewest == 0 || len(d.Diffs) < fewest {
			fewest = len(d.Diffs)
		}
	}
	slices.Sort(loads)
	if err := tooMany(len(loads), maxLines, "load factors", "choose fewer with --load"); err != nil {
		return nil, err
	}
	base := ds[0].Baseline
	most := 0
	for _, d := range ds {
		most = max(most, len(d.Diffs))
	}
	each := fmt.Sprintf("Each point: the mean over the replicates of the policy's run-level value minus %s's on the same replicate (the same jobs); whiskers: its 95 %% confidence interval (Student's t, paired).", base)
	if most == 1 {
		each = fmt.Sprintf("Each point: the policy's run-level value minus %s's on the one replicate (the same jobs); an interval needs two replicates or more.", base)
	}
	f := &Figure{Title: "Paired differences from " + base + " on the same replicates",
		Notes: []string{each + fmt.Sprintf(" Below 0: lower than %s (better, for times and slowdowns).", base)}}
	if fewest < 3 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("some differences rest on %s: with fewer than three the confidence intervals are missing or too wide to say much; run more replicates (seeds)", plural(fewest, "replicate", "replicates")))
	}
	legend := newLegend()
	slot := 0.6 / float64(len(loads))
	var row []*plot.Plot
	for k, name := range metrics {
		m, _ := lookup(runMetrics, name, "")
		top := 0.0
		for _, d := range ds {
			if d.Metric == name {
				top = max(top, math.Abs(d.Mean), nanZero(math.Abs(d.Lo)), nanZero(math.Abs(d.Hi)))
			}
		}
		m.label = "Δ " + m.label + " vs " + base
		sc := scaleFor(m, top)
		p := newPlot("policy", sc.label)
		p.Add(horizontalGrid(), &hline{y: 0, style: draw.LineStyle{Color: colors[7], Width: vg.Points(0.8)}})
		for j, l := range loads {
			var xy plotter.XYs
			var wx, wlo, whi []float64
			for _, d := range ds {
				if d.Metric != name || d.LoadFactor != l {
					continue
				}
				x := float64(slices.Index(policies, d.Policy)) + (float64(j)-float64(len(loads)-1)/2)*slot
				xy = append(xy, plotter.XY{X: x, Y: d.Mean / sc.div})
				wx, wlo, whi = append(wx, x), append(wlo, d.Lo/sc.div), append(whi, d.Hi/sc.div)
			}
			if len(xy) == 0 {
				continue
			}
			dots, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, err
			}
			dots.Color, dots.Shape, dots.Radius = color8(j), shape(j), vg.Points(3.5)
			p.Add(errorBars(wx, wlo, whi, color8(j)), dots)
			if k == 0 {
				legend.add(fmt.Sprintf("load factor %g", l), dots)
			}
		}
		categoryAxis(p, policies)
		p.Y.Tick.Marker = plainTicks{}
		// Room around the points and 0, which would sit on the frame.
		lo, hi := min(p.Y.Min, 0), max(p.Y.Max, 0)
		pad := 0.05 * max(hi-lo, 1e-9)
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
		row = append(row, p)
	}
	perPanel := max(3.5*vg.Inch, vg.Length(len(policies))*vg.Inch)
	f.Width, f.Height = opt.size(perPanel*vg.Length(len(row))+legend.width, 4.5*vg.Inch)
	for range row {
		f.Widths = append(f.Widths, ((f.Width - legend.width) / vg.Length(len(row))).Points())
	}
	f.Widths = append(f.Widths, legend.width.Points())
	f.Panels = [][]*plot.Plot{append(row, legend.p)}
	return f, nil
}

func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// hline is a horizontal line at y across the plot.
type hline struct {
	y     float64
	style draw.LineStyle
}

func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.y)
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}
