package plot

import (
	"errors"
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

// Options choose what a figure draws and its size.
type Options struct {
	// Selection picks the runs. Boxes, Means and LoadLines draw a row of
	// panels per workload when the selected runs are of several (their
	// Values functions need one); Heatmap needs exactly one run.
	Selection
	// Metrics are the columns drawn: Boxes and LoadLines draw one (by
	// default veet_share and bounded_slowdown_mean), Means one panel each
	// (by default wait_mean, response_mean and bounded_slowdown_mean).
	Metrics []string
	// BinMinutes is the width of a heatmap cell in minutes; 0 picks the
	// smallest of 1, 2, 5, 10, 15, 30 minutes, 1, 2, 3, 6, 12 hours, 1,
	// 2 days and 1 week that gives at most 300 columns.
	BinMinutes int
	// CI makes the whiskers of Means and LoadLines show the 95 %
	// confidence interval of the mean over the replicates (Point.Lo, Hi)
	// instead of the lowest and highest replicate.
	CI bool
	// Log gives LoadLines a log value axis, for metrics whose policies
	// lie orders of magnitude apart (slowdown near saturation). Points
	// and whisker ends at or below 0 cannot be drawn on it and are left
	// out, with a note.
	Log bool
	// ClassBy is what Classes classes by: "accuracy" (or "") users by
	// their estimate accuracy (ClassMeans), "size" jobs by run time and
	// processors (JobClassMeans), whose thresholds ShortSeconds and
	// NarrowProcs are (0: DefaultShortSeconds, DefaultNarrowProcs).
	ClassBy                   string
	ShortSeconds, NarrowProcs int64
	// Baseline is the policy (or Series) Paired subtracts from the
	// others; "" is the first policy of the runs table.
	Baseline string
	// Width and Height are the figure's size; 0 gives each figure's
	// default.
	Width, Height vg.Length
}

// size returns opt's size, with w and h for what it leaves at 0.
func (opt Options) size(w, h vg.Length) (vg.Length, vg.Length) {
	if opt.Width > 0 {
		w = opt.Width
	}
	if opt.Height > 0 {
		h = opt.Height
	}
	return w, h
}

// Box is the data of one box of Boxes: one value per user and run.
type Box struct {
	Policy     string // the runs' Series (Run.Series)
	LoadFactor float64
	Runs       []string  // the keys of the runs whose users it holds
	Users      []int64   // each value's user
	Values     []float64 // the column's values as stored, unscaled
}

// BoxData is what Boxes draws.
type BoxData struct {
	Workload string
	Metric   string
	Log      bool  // the values axis is logarithmic
	Boxes    []Box // by policy in the order of the runs table, then by load factor
	// OfferedLoads says that the boxes' LoadFactor holds target offered
	// loads (Run.OfferedLoad).
	OfferedLoads bool
	// Unknown counts the rows of users with no id (NULL user) and
	// NoValue those whose value is NULL (veet_share when none of the
	// user's jobs ran); neither enters a box.
	Unknown, NoValue int
}

// BoxValues returns the boxes Boxes draws: for each policy, and each load
// factor when the selected runs have several, the values of a users.parquet
// column over the users and runs of that policy and load factor. Metrics
// holds the column's name (default veet_share); UserMetrics lists those it
// can be. veet_share must be a fraction in [0, 1].
func BoxValues(r *Results, opt Options) (*BoxData, error) {
	m, err := oneMetric(userMetrics, opt.Metrics, "veet_share", "users.parquet")
	if err != nil {
		return nil, err
	}
	runs, wl, err := r.selectOneWorkload(opt.Selection)
	if err != nil {
		return nil, err
	}
	vals, err := r.userColumn(runs, m.name)
	if errors.Is(err, ErrMissingColumn) && m.eet {
		return nil, fmt.Errorf("%w (results written before schedsweep computed EET metrics?)", err)
	}
	if err != nil {
		return nil, err
	}
	d := &BoxData{Workload: wl, Metric: m.name, Log: m.log, OfferedLoads: len(runs) > 0 && runs[0].OfferedLoad}
	policies, loads := axesOf(runs)
	for _, p := range policies {
		for _, l := range loads {
			b := Box{Policy: p, LoadFactor: l}
			for _, x := range runs {
				if x.Series() != p || x.LoadFactor != l {
					continue
				}
				b.Runs = append(b.Runs, x.Key)
				for _, uv := range vals[x.Key] {
					switch {
					case math.IsNaN(uv.user):
						d.Unknown++
					case math.IsNaN(uv.value):
						d.NoValue++
					case m.unit == unitShare && (uv.value < 0 || uv.value > 1+1e-9):
						return nil, fmt.Errorf("%s of user %g in run %s is %g; want a fraction in [0, 1]",
							m.name, uv.user, x.Key, uv.value)
					default:
						b.Users = append(b.Users, int64(uv.user))
						b.Values = append(b.Values, uv.value)
					}
				}
			}
			if len(b.Runs) > 0 {
				d.Boxes = append(d.Boxes, b)
			}
		}
	}
	if !slices.ContainsFunc(d.Boxes, func(b Box) bool { return len(b.Values) > 0 }) {
		return nil, fmt.Errorf("%w: no user of the selected runs (%s) has an id and a value of %s: the workload gives no user ids, or no job ran",
			ErrSelection, opt.Selection, m.name)
	}
	return d, nil
}

// Boxes draws box plots of a users.parquet column (see BoxValues), like
// Figures 6a and 6b of Tóth and Klusáček, "User-Aware Metrics for
// Measuring Quality of Parallel Job Schedules": one box per policy, or per
// policy and load factor, each summarising one value per user and run.
// Boxes show the quartiles and median (Tukey's hinges), whiskers reach the
// furthest values within 1.5 interquartile ranges, and dots mark values
// beyond. veet_share is shown in percent on a 0–100% axis.
// weighted_tardiness is shown on a log scale, as in Figure 6b, with zero
// (no tardiness) drawn at 1, its floor; its boxes are those of the
// values' logarithms, so that quartiles, whiskers and outliers are
// symmetric on the axis as drawn (as ggplot2's log scales do; gonum's
// LogScale would compute them on the raw values, and mislays the axis
// label).
func Boxes(r *Results, opt Options) (*Figure, error) {
	if f, ok, err := perWorkload(r, opt, Boxes); ok {
		return f, err
	}
	d, err := BoxValues(r, opt)
	if err != nil {
		return nil, err
	}
	m, _ := lookup(userMetrics, d.Metric, "")
	top := 0.0
	for _, b := range d.Boxes {
		for _, v := range b.Values {
			top = max(top, v)
		}
	}
	sc := scaleFor(m, top)
	policies, loads := axes(d.Boxes, func(b Box) (string, float64) { return b.Policy, b.LoadFactor })
	if err := tooMany(len(loads), maxFills, "load factors", "choose fewer with --load"); err != nil {
		return nil, err
	}
	p := newPlot("policy", sc.label)
	title := fmt.Sprintf("%s, per user: workload %s", capitalize(m.label), d.Workload)
	notes := boxNotes(d)
	p.Add(horizontalGrid())
	slot := 0.8 / float64(len(loads)) // each box's share of a policy's unit of x
	var ticks []string
	for _, pol := range policies {
		n := 0
		for _, b := range d.Boxes {
			if b.Policy == pol {
				n += len(b.Values)
			}
		}
		ticks = append(ticks, fmt.Sprintf("%s\n(n = %d)", pol, n))
	}
	for _, b := range d.Boxes {
		i, j := slices.Index(policies, b.Policy), slices.Index(loads, b.LoadFactor)
		vs := make(plotter.Values, len(b.Values))
		for k, v := range b.Values {
			vs[k] = v / sc.div
			if d.Log {
				vs[k] = math.Log10(max(vs[k], 1))
			}
		}
		x := float64(i) + (float64(j)-float64(len(loads)-1)/2)*slot
		bp, err := newBoxPlot(x, vs)
		if err != nil {
			return nil, err
		}
		if len(loads) > 1 {
			bp.FillColor = color8(j)
		}
		p.Add(&sizedBox{bp, 0.8 * slot})
	}
	var legend *legendPanel
	if len(loads) > 1 {
		legend = newLegend()
		for j, l := range loads {
			legend.add(loadText(d.OfferedLoads, l), swatch{color8(j)})
		}
	}
	categoryAxis(p, ticks)
	switch {
	case d.Log:
		p.Y.Min, p.Y.Max = 0, math.Ceil(max(p.Y.Max, 1))
		p.Y.Tick.Marker = decades{}
	case m.unit == unitShare:
		p.Y.Min, p.Y.Max = 0, 100
		p.Y.Tick.Marker = plainTicks{}
	default:
		p.Y.Min, p.Y.Max = 0, max(p.Y.Max, 1)
		p.Y.Tick.Marker = plainTicks{}
	}
	w, h := opt.size(max(7*vg.Inch, vg.Length(len(policies))*1.6*vg.Inch), 5.5*vg.Inch)
	return withLegend(title, notes, p, legend, w, h), nil
}

// boxNotes say what a box holds and what was left out.
func boxNotes(d *BoxData) []string {
	n := 0
	for _, b := range d.Boxes {
		n = max(n, len(b.Runs))
	}
	each := "Each box: one value per user of its run"
	if n > 1 {
		each = fmt.Sprintf("Each box: one value per user in each of its %d runs (replicates); n: the values in a policy's boxes", n)
	}
	notes := []string{each + ". Box: quartiles and median; whiskers: furthest values within 1.5 × IQR; dots: values beyond."}
	if d.Log {
		notes = append(notes, "Log scale; boxes and whiskers summarise the logarithms. A user with no tardiness is drawn at 1, the floor.")
	}
	return append(notes, leftOut(d.Unknown, d.NoValue)...)
}

// leftOut is the note, if any, on the users.parquet rows a figure left
// out: those of the unknown user, in unknown runs, and noValue users
// without a value.
func leftOut(unknown, noValue int) []string {
	var out []string
	if unknown > 0 {
		out = append(out, "jobs without a user id (the unknown user, in "+plural(unknown, "run", "runs")+")")
	}
	if noValue > 0 {
		out = append(out, plural(noValue, "user", "users")+" without a value (no job ran)")
	}
	if len(out) == 0 {
		return nil
	}
	return []string{"Left out: " + strings.Join(out, "; ") + "."}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// decades are the ticks of an axis of log10 values: majors at whole
// powers of ten, labelled with the power, minors at 2–9 times them.
type decades struct{}

func (decades) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Floor(lo); k <= hi; k++ {
		ts = append(ts, plot.Tick{Value: k, Label: powerOfTen(int(k))})
		for m := 2.0; m < 10 && k+math.Log10(m) <= hi; m++ {
			ts = append(ts, plot.Tick{Value: k + math.Log10(m)})
		}
	}
	return ts
}

// powerOfTen writes 10^k with an SI suffix: 1, 10, 100, 1000, 10k, 100k,
// 1M, … 1E (superscript digits are not in every font the figures use).
// Negative powers are written as decimals.
func powerOfTen(k int) string {
	if k < 0 {
		return strconv.FormatFloat(math.Pow10(k), 'f', -1, 64)
	}
	if k <= 3 {
		return strconv.Itoa(int(math.Pow10(k)))
	}
	suffixes := "kMGTPE"
	i := min(k/3, len(suffixes))
	return strconv.Itoa(int(math.Pow10(k-3*i))) + string(suffixes[i-1])
}

// sizedBox is a box plot whose width is given in data units, so that
// boxes side by side fill their slots whatever the figure's size.
type sizedBox struct {
	*plotter.BoxPlot
	width float64
}

func (b *sizedBox) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	b.Width = trX(b.Location+b.width/2) - trX(b.Location-b.width/2)
	b.CapWidth = b.Width / 2
	b.BoxPlot.Plot(c, p)
}

// axesOf returns the policies of runs in their order and the load factors
// in increasing order.
func axesOf(runs []*Run) (policies []string, loads []float64) {
	return axes(runs, func(x *Run) (string, float64) { return x.Series(), x.LoadFactor })
}

// axes returns the distinct policies of xs in their order and the
// distinct load factors in increasing order; at gives an x's policy and
// load factor.
func axes[T any](xs []T, at func(T) (string, float64)) (policies []string, loads []float64) {
	for _, x := range xs {
		p, l := at(x)
		if !slices.Contains(policies, p) {
			policies = append(policies, p)
		}
		if !slices.Contains(loads, l) {
			loads = append(loads, l)
		}
	}
	slices.Sort(loads)
	return policies, loads
}

// oneMetric returns the one metric of names among ms, def if names is
// empty.
func oneMetric(ms []metric, names []string, def, table string) (metric, error) {
	switch len(names) {
	case 0:
		return lookup(ms, def, table)
	case 1:
		return lookup(ms, names[0], table)
	}
	return metric{}, fmt.Errorf("%w: this figure draws one metric; got %d (%s)", ErrUnknownMetric, len(names), strings.Join(names, ", "))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// newBoxPlot returns gonum's box plot of vs at x with Tukey's hinges for
// quartiles: the medians of the lower and upper halves of the sorted
// values, each half holding the median when their number is odd. gonum
// puts the median in the upper half only, which lowers the first
// quartile of an odd number of values (1.5, not 2, for 1 to 5) and moves
// the whiskers and outliers with it; they are worked out again here.
func newBoxPlot(x float64, vs plotter.Values) (*plotter.BoxPlot, error) {
	b, err := plotter.NewBoxPlot(0, x, vs)
	if err != nil || len(b.Values) < 2 {
		return b, err
	}
	sorted := slices.Clone(b.Values)
	slices.Sort(sorted)
	half := (len(sorted) + 1) / 2
	b.Quartile1 = median(sorted[:half])
	b.Quartile3 = median(sorted[len(sorted)-half:])
	low := b.Quartile1 - 1.5*(b.Quartile3-b.Quartile1)
	high := b.Quartile3 + 1.5*(b.Quartile3-b.Quartile1)
	b.AdjLow, b.AdjHigh, b.Outside = math.Inf(1), math.Inf(-1), nil
	for i, v := range b.Values {
		if v < low || v > high {
			b.Outside = append(b.Outside, i)
			continue
		}
		b.AdjLow, b.AdjHigh = min(b.AdjLow, v), max(b.AdjHigh, v)
	}
	return b, nil
}

// median returns the median of sorted values, the mean of the two middle
// ones for an even number.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
