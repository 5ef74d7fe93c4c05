package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Point is a runs.parquet metric of one policy at one load factor,
// summarised over the replicates.
type Point struct {
	Metric string
	// Policy is the runs' Series: the policy, with its variant when a
	// vary axis gives it several runs per load factor and replicate.
	Policy     string
	LoadFactor float64
	// Mean, Min and Max are over the replicates with a value (the metric
	// is NULL in a run where no job ran); NaN when none has one.
	Mean, Min, Max float64
	// Lo and Hi bound the 95 % confidence interval of the mean, Mean ±
	// t·s/√N with s the replicates' sample deviation and t the 97.5 %
	// quantile of Student's t with N − 1 degrees of freedom; NaN when N <
	// 2.
	Lo, Hi float64
	N      int      // replicates with a value
	Runs   []string // the keys of every run of the policy and load factor
}

// defaultMeans are the metrics Means draws unless told otherwise.
var defaultMeans = []string{"wait_mean", "response_mean", "bounded_slowdown_mean"}

// Points returns, for each metric of opt.Metrics (default wait_mean,
// response_mean and bounded_slowdown_mean; RunMetrics lists the others),
// each policy in the order of the runs table and each load factor in
// increasing order, the metric over the selected runs' replicates.
func Points(r *Results, opt Options) ([]Point, error) {
	pts, _, _, err := selectPoints(r, opt)
	return pts, err
}

// selectPoints is Points, returning as well the selected runs and their
// workload.
func selectPoints(r *Results, opt Options) ([]Point, []*Run, string, error) {
	names := opt.Metrics
	if len(names) == 0 {
		names = defaultMeans
	}
	var ms []metric
	for _, n := range names {
		m, err := lookup(runMetrics, n, "runs.parquet")
		if err != nil {
			return nil, nil, "", err
		}
		ms = append(ms, m)
	}
	runs, wl, err := r.selectOneWorkload(opt.Selection)
	if err != nil {
		return nil, nil, "", err
	}
	pts, err := points(runs, ms)
	return pts, runs, wl, err
}

func points(runs []*Run, ms []metric) ([]Point, error) {
	policies, loads := axesOf(runs)
	var out []Point
	for _, m := range ms {
		valued := false // some selected run has a value of m
		for _, p := range policies {
			for _, l := range loads {
				pt := Point{Metric: m.name, Policy: p, LoadFactor: l, Min: math.Inf(1), Max: math.Inf(-1)}
				var vals []float64
				for _, x := range runs {
					if x.Series() != p || x.LoadFactor != l {
						continue
					}
					pt.Runs = append(pt.Runs, x.Key)
					v, err := x.Metric(m.name)
					if err != nil {
						return nil, err
					}
					if math.IsNaN(v) {
						continue
					}
					vals = append(vals, v)
					pt.Min, pt.Max = min(pt.Min, v), max(pt.Max, v)
				}
				if len(pt.Runs) == 0 {
					continue
				}
				pt.N = len(vals)
				if pt.N == 0 {
					pt.Min, pt.Max = math.NaN(), math.NaN()
				}
				valued = valued || pt.N > 0
				pt.Mean, pt.Lo, pt.Hi = confidence(vals)
				out = append(out, pt)
			}
		}
		if !valued {
			return nil, fmt.Errorf("%w: no selected run has a value of %s: no job ran in any of them", ErrSelection, m.name)
		}
	}
	return out, nil
}

// confidence returns the mean of vals and the 95 % confidence interval of
// it (Point.Mean, Lo and Hi): NaNs for no values, and an interval of NaNs
// for one.
func confidence(vals []float64) (mean, lo, hi float64) {
	n := len(vals)
	if n < 2 {
		return stat.Mean(vals, nil), math.NaN(), math.NaN()
	}
	mean, sd := stat.MeanStdDev(vals, nil)
	half := distuvT(n) * sd / math.Sqrt(float64(n))
	return mean, mean - half, mean + half
}

// span returns where pt's whiskers go: its confidence interval with ci,
// else its lowest and highest replicate.
func (pt *Point) span(ci bool) (lo, hi float64) {
	if ci {
		return pt.Lo, pt.Hi
	}
	return pt.Min, pt.Max
}

// replicateNote says what a point or bar summarises.
func replicateNote(pts []Point, what string, ci bool) string {
	n := 0
	for _, pt := range pts {
		n = max(n, len(pt.Runs))
	}
	if n <= 1 {
		return fmt.Sprintf("Each %s: one run.", what)
	}
	if ci {
		return fmt.Sprintf("Each %s: the mean over %d runs (replicates); whiskers: its 95 %% confidence interval (Student's t).", what, n)
	}
	return fmt.Sprintf("Each %s: the mean over %d runs (replicates); whiskers: the lowest and highest run.", what, n)
}

// ciWarning warns, with ci, when the intervals rest on fewer than three
// replicates: with two, Student's t puts the 97.5 % quantile at 12.7, and
// the interval says little more than that the two runs differ.
func ciWarning(pts []Point, ci bool) []string {
	if !ci {
		return nil
	}
	fewest := 0
	for _, pt := range pts {
		if len(pt.Runs) > 1 && (fewest == 0 || pt.N < fewest) {
			fewest = pt.N
		}
	}
	switch {
	case fewest == 0:
		return []string{"confidence intervals need at least two replicates and the runs have one each: none is drawn; run more replicates (seeds)"}
	case fewest < 3:
		return []string{fmt.Sprintf("confidence intervals over %d replicates are drawn, but with fewer than three they are too wide to say much (Student's t is %.1f for two); run more replicates (seeds)",
			fewest, distuvT(fewest))}
	}
	return nil
}

// distuvT returns the 97.5 % quantile of Student's t for n values.
func distuvT(n int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
}

// Means draws, in one panel per metric of opt.Metrics (see Points), a bar
// per policy, or per policy and load factor, at the mean of the metric
// over the selected runs' replicates, with whiskers from the lowest to the
// highest replicate (with opt.CI, the mean's confidence interval). Times are shown in the unit that suits them,
// utilizations in percent.
func Means(r *Results, opt Options) (*Figure, error) {
	if f, ok, err := perWorkload(r, opt, Means); ok {
		return f, err
	}
	pts, runs, wl, err := selectPoints(r, opt)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	var metrics []string
	for _, pt := range pts {
		if !slices.Contains(metrics, pt.Metric) {
			metrics = append(metrics, pt.Metric)
		}
	}
	if err := tooMany(len(loads), maxFills, "load factors", "choose fewer with --load"); err != nil {
		return nil, err
	}
	f := &Figure{Title: "Metrics per policy: workload " + wl, Notes: []string{replicateNote(pts, "bar", opt.CI)}, Warnings: ciWarning(pts, opt.CI)}
	var row []*plot.Plot
	var legend *legendPanel
	if len(loads) > 1 {
		legend = newLegend()
	}
	slot := 0.8 / float64(len(loads))
	for k, name := range metrics {
		m, _ := lookup(runMetrics, name, "")
		top := 0.0
		for _, pt := range pts {
			if _, hi := pt.span(opt.CI); pt.Metric == name && !math.IsNaN(hi) {
				top = max(top, hi)
			}
		}
		sc := scaleFor(m, top)
		p := newPlot("policy", sc.label)
		p.Add(horizontalGrid())
		for j, l := range loads {
			b := &bars{width: 0.9 * slot, color: color8(j)}
			for _, pt := range pts {
				if pt.Metric != name || pt.LoadFactor != l || pt.N == 0 {
					continue
				}
				i := slices.Index(policies, pt.Policy)
				b.x = append(b.x, float64(i)+(float64(j)-float64(len(loads)-1)/2)*slot)
				b.y = append(b.y, pt.Mean/sc.div)
				lo, hi := math.NaN(), math.NaN()
				if len(pt.Runs) > 1 {
					lo, hi = pt.span(opt.CI)
					lo, hi = lo/sc.div, hi/sc.div
				}
				b.lo, b.hi = append(b.lo, lo), append(b.hi, hi)
			}
			p.Add(b)
			if k == 0 && legend != nil {
				legend.add(loadText(len(runs) > 0 && runs[0].OfferedLoad, l), swatch{color8(j)})
			}
		}
		categoryAxis(p, policies)
		p.Y.Min = 0
		p.Y.Tick.Marker = plainTicks{}
		if m.unit == unitShare {
			p.Y.Max = 100
		}
		p.Y.Max = max(p.Y.Max, 1e-9)
		row = append(row, p)
	}
	perPanel := max(3.5*vg.Inch, vg.Length(len(policies))*vg.Inch)
	f.Width, f.Height = opt.size(perPanel*vg.Length(len(row)), 4.5*vg.Inch)
	if legend != nil {
		for range row {
			f.Widths = append(f.Widths, ((f.Width - legend.width) / vg.Length(len(row))).Points())
		}
		f.Widths = append(f.Widths, legend.width.Points())
		row = append(row, legend.p)
	}
	f.Panels = [][]*plot.Plot{row}
	return f, nil
}

// LoadLines draws one metric of runs.parquet (opt.Metrics, default
// bounded_slowdown_mean) against the load factor: a line per policy
// through its mean over the replicates at each load, with whiskers from
// the lowest to the highest replicate (with opt.CI, the mean's 95 %
// confidence interval).
func LoadLines(r *Results, opt Options) (*Figure, error) {
	if f, ok, err := perWorkload(r, opt, LoadLines); ok {
		return f, err
	}
	m, err := oneMetric(runMetrics, opt.Metrics, "bounded_slowdown_mean", "runs.parquet")
	if err != nil {
		return nil, err
	}
	opt.Metrics = []string{m.name}
	pts, runs, wl, err := selectPoints(r, opt)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	top := 0.0
	for _, pt := range pts {
		if _, hi := pt.span(opt.CI); !math.IsNaN(hi) {
			top = max(top, hi)
		}
	}
	sc := scaleFor(m, top)
	// y places a value on the axis: scaled, and its logarithm on a log
	// axis, where a value at or below 0 has no place (ok false).
	y := func(v float64) (float64, bool) {
		v /= sc.div
		if !opt.Log {
			return v, true
		}
		if v <= 0 || math.IsNaN(v) {
			return math.NaN(), false
		}
		return math.Log10(v), true
	}
	if err := tooMany(len(policies), maxLines, "policies", "choose fewer with --policy"); err != nil {
		return nil, err
	}
	dropped, drawn, cut := 0, 0, 0
	xLabel := "load factor (submission rate × factor; job sizes and run times unchanged)"
	if len(runs) > 0 && runs[0].OfferedLoad {
		xLabel = "target offered load (work ÷ (processors × span of submits))"
	}
	p := newPlot(xLabel, sc.label)
	title := fmt.Sprintf("%s against load: workload %s", capitalize(m.label), wl)
	legend := newLegend()
	p.Add(plotter.NewGrid())
	for i, pol := range policies {
		l := policyLine(pts, pol, i, y, opt.CI)
		dropped, cut = dropped+l.dropped, cut+l.ncut
		if len(l.xy) == 0 {
			continue
		}
		drawn++
		line, dots, err := plotter.NewLinePoints(l.xy)
		if err != nil {
			return nil, err
		}
		line.LineStyle = lineStyle(i, vg.Points(1.5))
		dots.Color = color8(i)
		dots.Shape = shape(i)
		dots.Radius = vg.Points(3.5)
		p.Add(errorBars(l.wx, l.wlo, l.whi, color8(i)), l.cut, line, dots)
		legend.add(pol, line, dots)
	}
	ticks := make([]plot.Tick, len(loads))
	for i, l := range loads {
		ticks[i] = plot.Tick{Value: l, Label: formatFloat(l)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	if span := loads[len(loads)-1] - loads[0]; span > 0 {
		p.X.Min, p.X.Max = loads[0]-0.05*span, loads[len(loads)-1]+0.05*span
	}
	if drawn == 0 {
		return nil, fmt.Errorf("%w: every point of %s is at or below 0, which a log axis cannot show", ErrSelection, m.name)
	}
	notes := []string{replicateNote(pts, "point", opt.CI)}
	if opt.Log {
		p.Y.Min, p.Y.Max = math.Floor(p.Y.Min), math.Ceil(max(p.Y.Max, p.Y.Min+1e-9))
		p.Y.Tick.Marker = decades{}
		note := "Log scale."
		if dropped > 0 {
			note += fmt.Sprintf(" %s at 0 not drawn.", plural(dropped, "point", "points"))
		}
		if cut > 0 {
			note += fmt.Sprintf(" %s 0 or below: drawn to the bottom of the axis, without a cap there.", plural(cut, "whisker reaches", "whiskers reach"))
		}
		notes = append(notes, note)
	} else {
		p.Y.Min = 0
		p.Y.Max = max(p.Y.Max, 1e-9)
		p.Y.Tick.Marker = plainTicks{}
	}
	w, h := opt.size(8*vg.Inch, 5*vg.Inch)
	f := withLegend(title, notes, p, legend, w, h)
	f.Warnings = ciWarning(pts, opt.CI)
	return f, nil
}

// loadLine is one policy's line of LoadLines, on the y axis's scale: its
// points, its whiskers, and those a log axis cuts; dropped counts the
// points a log axis cannot show, cut the whiskers it cuts.
type loadLine struct {
	xy            plotter.XYs
	wx, wlo, whi  []float64
	cut           *cutWhiskers
	dropped, ncut int
}

// policyLine returns the line of policy pol, the i-th, through its points
// of pts, placed on the axis by y (false for a value a log axis cannot
// show); a point of more than one run gets a whisker over its span (the
// confidence interval with ci).
func policyLine(pts []Point, pol string, i int, y func(float64) (float64, bool), ci bool) *loadLine {
	l := &loadLine{cut: &cutWhiskers{color: color8(i)}}
	for _, pt := range pts {
		if pt.Policy != pol || pt.N == 0 {
			continue
		}
		mean, ok := y(pt.Mean)
		if !ok {
			l.dropped++
			continue
		}
		l.xy = append(l.xy, plotter.XY{X: pt.LoadFactor, Y: mean})
		if len(pt.Runs) <= 1 {
			continue
		}
		lo, hi := pt.span(ci)
		ylo, okLo := y(lo)
		yhi, okHi := y(hi)
		if !okLo && okHi && !math.IsNaN(lo) { // below a log axis: drawn down to it
			l.cut.x, l.cut.hi = append(l.cut.x, pt.LoadFactor), append(l.cut.hi, yhi)
			l.ncut++
			continue
		}
		l.wx, l.wlo, l.whi = append(l.wx, pt.LoadFactor), append(l.wlo, ylo), append(l.whi, yhi)
	}
	return l
}

// cutWhiskers are whiskers whose lower end lies at or below 0, which a
// log axis cannot show: each is drawn from the bottom of the data area up
// to hi, with a cap at hi only.
type cutWhiskers struct {
	x, hi []float64
	color color.Color
}

func (w *cutWhiskers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: w.color, Width: vg.Points(1)}
	half := vg.Points(4)
	for i, x := range w.x {
		cx, cy := trX(x), trY(w.hi[i])
		c.StrokeLines(sty, c.ClipLinesY([]vg.Point{{X: cx, Y: c.Min.Y}, {X: cx, Y: cy}})...)
		c.StrokeLines(sty, c.ClipLinesY([]vg.Point{{X: cx - half, Y: cy}, {X: cx + half, Y: cy}})...)
	}
}

// DataRange covers the whiskers' upper ends: their lower ends are the
// axis's.
func (w *cutWhiskers) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range w.x {
		xmin, xmax = min(xmin, x), max(xmax, x)
		ymin, ymax = min(ymin, w.hi[i]), max(ymax, w.hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// bars draws bars from 0 to y, width wide in data units, with whiskers
// from lo to hi where those are not NaN.
type bars struct {
	x, y, lo, hi []float64
	width        float64
	color        color.Color
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	for i, x := range b.x {
		x0, x1 := trX(x-b.width/2), trX(x+b.width/2)
		y0, y1 := trY(0), trY(b.y[i])
		rect := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.color, c.ClipPolygonY(rect))
		c.StrokeLines(line, c.ClipLinesY(append(rect, rect[0]))...)
	}
	errorBars(b.x, b.lo, b.hi, color.Black).Plot(c, p)
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 0
	for i, x := range b.x {
		xmin, xmax = min(xmin, x-b.width/2), max(xmax, x+b.width/2)
		ymax = max(ymax, b.y[i])
		if !math.IsNaN(b.hi[i]) {
			ymax = max(ymax, b.hi[i])
		}
	}
	return xmin, xmax, ymin, ymax
}

// errorBars returns gonum's error bars from lo[i] to hi[i] at x[i], in
// colour c, leaving out those with a NaN end. They are clipped to the data
// area, so an interval reaching below an axis that starts at 0 stops there.
func errorBars(x, lo, hi []float64, c color.Color) *plotter.YErrorBars {
	e := &plotter.YErrorBars{LineStyle: draw.LineStyle{Color: c, Width: vg.Points(1)}, CapWidth: vg.Points(8)}
	for i := range x {
		if math.IsNaN(lo[i]) || math.IsNaN(hi[i]) {
			continue
		}
		e.XYs = append(e.XYs, plotter.XY{X: x[i], Y: lo[i]})
		e.YErrors = append(e.YErrors, struct{ Low, High float64 }{0, hi[i] - lo[i]})
	}
	return e
}
