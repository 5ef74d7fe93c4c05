package plot

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Curve is the empirical distribution of a jobs-file metric over the jobs
// that ran in the runs of one policy at one load factor, pooled over the
// replicates.
type Curve struct {
	Policy     string // the runs' Series
	LoadFactor float64
	Runs       []string  // the keys of the runs pooled
	Values     []float64 // ascending
}

// At returns the share of the curve's values at or below v.
func (c *Curve) At(v float64) float64 {
	if len(c.Values) == 0 {
		return math.NaN()
	}
	return float64(sort.Search(len(c.Values), func(i int) bool { return c.Values[i] > v })) / float64(len(c.Values))
}

// Quantile returns the nearest-rank p-quantile of the values, the
// ⌈p·n⌉-th smallest, as runs.parquet's medians and percentiles are (see
// results/README.md).
func (c *Curve) Quantile(p float64) float64 {
	n := len(c.Values)
	if n == 0 {
		return math.NaN()
	}
	k := int(math.Ceil(p * float64(n)))
	return c.Values[min(max(k, 1), n)-1]
}

// ECDFData is what ECDF draws: a curve per policy and load factor.
type ECDFData struct {
	Workload, Metric string
	Curves           []Curve // by load factor, then policy in the order of the runs table
}

// ECDFValues reads what ECDF draws: a jobs-file column (opt.Metrics,
// default wait; JobMetrics lists the others) over the jobs that ran in
// the selected runs, which must be of one workload, pooled per policy and
// load factor.
func ECDFValues(r *Results, opt Options) (*ECDFData, error) {
	m, err := oneMetric(jobMetrics, opt.Metrics, "wait", "the jobs files")
	if err != nil {
		return nil, err
	}
	runs, wl, err := r.selectOneWorkload(opt.Selection)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	d := &ECDFData{Workload: wl, Metric: m.name}
	for _, l := range loads {
		for _, p := range policies {
			c := Curve{Policy: p, LoadFactor: l}
			for _, x := range runs {
				if x.Series() != p || x.LoadFactor != l {
					continue
				}
				j, err := r.jobsOf(x, m.name)
				if err != nil {
					return nil, err
				}
				c.Runs = append(c.Runs, x.Key)
				for _, v := range j.Cols[m.name] {
					if !math.IsNaN(v) {
						c.Values = append(c.Values, v)
					}
				}
			}
			if len(c.Runs) == 0 {
				continue
			}
			slices.Sort(c.Values)
			d.Curves = append(d.Curves, c)
		}
	}
	return d, nil
}

// ecdfQuantiles are the quantiles Table and CSV give.
var ecdfQuantiles = []float64{0.5, 0.9, 0.95, 0.99}

// Table renders d as a Markdown table: per load factor and policy the
// jobs, the mean, the nearest-rank median, 90th, 95th and 99th
// percentiles and the largest value; times in the unit that suits the
// largest 95th percentile.
func (d *ECDFData) Table() string {
	m, _ := lookup(jobMetrics, d.Metric, "")
	sc := d.scale(m)
	var b strings.Builder
	fmt.Fprintf(&b, "Distribution of %s over the jobs that ran: workload %s\n\n", sc.label, d.Workload)
	b.WriteString("| load factor | policy | jobs | mean | median | p90 | p95 | p99 | max |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	f := func(v float64) string { return strconv.FormatFloat(v/sc.div, 'f', 2, 64) }
	for _, c := range d.Curves {
		if len(c.Values) == 0 {
			fmt.Fprintf(&b, "| %g | %s | 0 | – | – | – | – | – | – |\n", c.LoadFactor, c.Policy)
			continue
		}
		fmt.Fprintf(&b, "| %g | %s | %d | %s |", c.LoadFactor, c.Policy, len(c.Values), f(stat.Mean(c.Values, nil)))
		for _, q := range ecdfQuantiles {
			fmt.Fprintf(&b, " %s |", f(c.Quantile(q)))
		}
		fmt.Fprintf(&b, " %s |\n", f(c.Values[len(c.Values)-1]))
	}
	return b.String()
}

// CSV returns the numbers of Table, unscaled (seconds for times), as CSV
// records with a header.
func (d *ECDFData) CSV() [][]string {
	out := [][]string{{"workload", "metric", "policy", "load_factor", "jobs", "mean", "p50", "p90", "p95", "p99", "max"}}
	for _, c := range d.Curves {
		row := []string{d.Workload, d.Metric, c.Policy, formatFloat(c.LoadFactor), strconv.Itoa(len(c.Values))}
		if len(c.Values) == 0 {
			row = append(row, "", "", "", "", "", "")
		} else {
			row = append(row, csvFloat(stat.Mean(c.Values, nil)))
			for _, q := range ecdfQuantiles {
				row = append(row, csvFloat(c.Quantile(q)))
			}
			row = append(row, csvFloat(c.Values[len(c.Values)-1]))
		}
		out = append(out, row)
	}
	return out
}

func (d *ECDFData) scale(m metric) scale {
	top := 0.0
	for _, c := range d.Curves {
		top = max(top, nanZero(c.Quantile(0.95)))
	}
	return scaleFor(m, top)
}

// ECDF draws the empirical distribution functions of a jobs-file metric
// (see ECDFValues): a panel per load factor, a line per policy giving the
// share of jobs at or below each value, on a log axis, where waits of a
// second and an hour both show. Values below 1 (a job that started at
// once; slowdowns below 1) are drawn at 1, the axis's floor: the curve
// starts at the share of such jobs.
func ECDF(r *Results, opt Options) (*Figure, error) {
	d, err := ECDFValues(r, opt)
	if err != nil {
		return nil, err
	}
	return d.Figure(opt)
}

// ecdfPoints is how many points, evenly spaced on the log axis, draw a
// curve: enough for any width of figure, few enough for a small SVG.
const ecdfPoints = 600

// Figure draws d as ECDF does; of opt it uses only the size.
func (d *ECDFData) Figure(opt Options) (*Figure, error) {
	m, _ := lookup(jobMetrics, d.Metric, "")
	var policies []string
	var loads []float64
	top := 1.0
	for _, c := range d.Curves {
		if !slices.Contains(policies, c.Policy) {
			policies = append(policies, c.Policy)
		}
		if !slices.Contains(loads, c.LoadFactor) {
			loads = append(loads, c.LoadFactor)
		}
		if n := len(c.Values); n > 0 {
			top = max(top, c.Values[n-1])
		}
	}
	if err := tooMany(len(policies), maxLines, "policies", "choose fewer with --policy"); err != nil {
		return nil, err
	}
	hi := math.Log10(top)
	if hi <= 0 {
		hi = 1
	}
	label := m.label + ", log scale"
	var ticks plot.Ticker = decades{}
	floor := "Values below 1 are drawn at 1, where a curve starts at their share."
	if m.unit == unitSeconds {
		ticks = logTimeTicks{}
		floor = "Values below 1 s (jobs that started at once) are drawn at 1 s, where a curve starts at their share."
	}
	legend := newLegend()
	var row []*plot.Plot
	runs := 0
	for k, l := range loads {
		p := newPlot(label, "jobs at or below (%)")
		if len(loads) > 1 {
			p.Title.Text = fmt.Sprintf("load factor %g", l)
		}
		p.Add(plotter.NewGrid())
		for _, c := range d.Curves {
			if c.LoadFactor != l || len(c.Values) == 0 {
				continue
			}
			runs = max(runs, len(c.Runs))
			i := slices.Index(policies, c.Policy)
			xy := make(plotter.XYs, 0, ecdfPoints+1)
			for s := range ecdfPoints + 1 {
				x := hi * float64(s) / ecdfPoints
				xy = append(xy, plotter.XY{X: x, Y: 100 * c.At(math.Pow(10, x))})
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.StepStyle = plotter.PostStep
			line.LineStyle = lineStyle(i, vg.Points(1.5))
			p.Add(line)
			if k == 0 {
				legend.add(c.Policy, line)
			}
		}
		p.X.Min, p.X.Max = 0, hi
		p.Y.Min, p.Y.Max = 0, 100
		p.X.Tick.Marker = ticks
		p.Y.Tick.Marker = plainTicks{}
		row = append(row, p)
	}
	each := "Each line: the jobs that ran in one run"
	if runs > 1 {
		each = fmt.Sprintf("Each line: the jobs that ran in %d runs (replicates), pooled", runs)
	}
	notes := []string{each + "; the share at or below each value. " + floor}
	title := fmt.Sprintf("Distribution of %s per policy: workload %s", m.label, d.Workload)
	f := &Figure{Title: title, Notes: notes}
	f.Width, f.Height = opt.size(max(6*vg.Inch, vg.Length(len(row))*4*vg.Inch)+legend.width, 4.5*vg.Inch)
	for range row {
		f.Widths = append(f.Widths, ((f.Width - legend.width) / vg.Length(len(row))).Points())
	}
	f.Widths = append(f.Widths, legend.width.Points())
	f.Panels = [][]*plot.Plot{append(row, legend.p)}
	return f, nil
}

// logTimeTicks are the ticks of an axis of log10 seconds: labelled at 1 s,
// 10 s, 1 min, 10 min, 1 h, 1 d, 10 d and 100 d, minor ticks at the other
// powers of ten (10 h would crowd 1 d).
type logTimeTicks struct{}

func (logTimeTicks) Ticks(lo, hi float64) []plot.Tick {
	marks := []struct {
		s     float64
		label string
	}{{1, "1 s"}, {10, "10 s"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {86400, "1 d"}, {864000, "10 d"}, {8640000, "100 d"}}
	var ts []plot.Tick
	for _, m := range marks {
		if v := math.Log10(m.s); v >= lo-1e-9 && v <= hi+1e-9 {
			ts = append(ts, plot.Tick{Value: v, Label: m.label})
		}
	}
	for k := math.Ceil(lo); k <= hi; k++ {
		if k != 0 && k != 1 {
			ts = append(ts, plot.Tick{Value: k})
		}
	}
	return ts
}
