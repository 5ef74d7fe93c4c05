package plot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsweep/schedsweep/results"
)

// UtilizationData is what Utilization draws: the processor utilization
// over time of runs of one workload, load factor and replicate (so of the
// same jobs), one run per policy, and two bounds on their makespan.
type UtilizationData struct {
	Runs []*Run
	// BinMinutes is a point's width; Procs[i][b] is run i's mean
	// processor utilization, in [0, 1], over minutes [b, b+1) ×
	// BinMinutes from its first submission, up to its makespan (a minute
	// without a row counts 0).
	BinMinutes int
	Procs      [][]float64
	// Makespan is each run's makespan, in seconds.
	Makespan []float64
	// Packed is the processor-seconds the jobs held divided by the
	// processors, the makespan if every processor were busy from the
	// first submission to the end (utilization × makespan); Sequential is
	// the sum of the jobs' run times, the makespan if they ran one at a
	// time ((finished + killed) × (response_mean − wait_mean)). Both in
	// seconds, the mean over the runs, which agree to rounding since they
	// ran the same jobs (jobs killed at their estimate aside).
	Packed, Sequential float64
}

// Table returns the figure's numbers as a Markdown table: each run's
// makespan and the two bounds, in hours, headed by the workload, load
// factor and replicate.
func (d *UtilizationData) Table() string {
	var b strings.Builder
	if len(d.Runs) > 0 {
		r := d.Runs[0]
		fmt.Fprintf(&b, "Makespan in hours: workload %s, %s, replicate %d\n\n", r.Workload, r.loadText(), r.Replicate)
	}
	b.WriteString("| policy | makespan (h) |\n| --- | --- |\n")
	for i, r := range d.Runs {
		fmt.Fprintf(&b, "| %s | %.2f |\n", r.Series(), d.Makespan[i]/3600)
	}
	fmt.Fprintf(&b, "| all processors busy (bound) | %.2f |\n", d.Packed/3600)
	fmt.Fprintf(&b, "| one job at a time (bound) | %.2f |\n", d.Sequential/3600)
	return b.String()
}

// UtilizationValues reads what Utilization draws for the runs
// opt.Selection selects, which must be of one workload, load factor and
// replicate, and at most one per policy: their runs rows and utilization
// files (utilization/…/part-KEY.parquet).
func UtilizationValues(r *Results, opt Options) (*UtilizationData, error) {
	if len(opt.Metrics) > 0 {
		return nil, fmt.Errorf("%w: a utilization figure draws processor utilization, no other metric (got %s)", ErrUnknownMetric, strings.Join(opt.Metrics, ", "))
	}
	if opt.BinMinutes < 0 {
		return nil, fmt.Errorf("%w: point width %d minutes is negative", ErrSelection, opt.BinMinutes)
	}
	runs, err := r.sameJobs(opt.Selection, "a utilization figure")
	if err != nil {
		return nil, err
	}
	d := &UtilizationData{Runs: runs}
	var minutes [][]float64
	span := 1
	for _, x := range runs {
		ut, err := r.partTable(r.utilization, results.UtilizationDir, x, []string{"minute", "procs"})
		if err != nil {
			return nil, err
		}
		var bounds [6]float64
		for i, name := range []string{"makespan", "utilization", "finished", "killed", "response_mean", "wait_mean"} {
			if bounds[i], err = x.Metric(name); err != nil {
				return nil, err
			}
		}
		ms := bounds[0]
		d.Makespan = append(d.Makespan, ms)
		d.Packed += bounds[1] * ms / float64(len(runs))
		if ran := bounds[2] + bounds[3]; ran > 0 {
			d.Sequential += ran * (bounds[4] - bounds[5]) / float64(len(runs))
		}
		// procs by minute, over the makespan and every minute the file names
		procs := make([]float64, int(math.Ceil(ms/60)))
		keys := ut.strs["run_key"]
		for i, m := range ut.nums["minute"] {
			if keys != nil && keys[i] != x.Key {
				continue
			}
			v := ut.nums["procs"][i]
			if math.IsNaN(v) || v < 0 || v > 1+1e-9 {
				return nil, fmt.Errorf("%s: row %d: procs %g is not a utilization in [0, 1]", ut.path, i, v)
			}
			for int(m) >= len(procs) {
				procs = append(procs, 0)
			}
			procs[int(m)] = v
		}
		minutes = append(minutes, procs)
		span = max(span, len(procs))
	}
	d.BinMinutes = binFor(span, opt.BinMinutes)
	for _, m := range minutes {
		bins := make([]float64, (len(m)+d.BinMinutes-1)/d.BinMinutes)
		for i, v := range m {
			bins[i/d.BinMinutes] += v
		}
		for b := range bins {
			bins[b] /= float64(min(d.BinMinutes, len(m)-b*d.BinMinutes))
		}
		d.Procs = append(d.Procs, bins)
	}
	return d, nil
}

// binFor returns bin if it is not 0, else the smallest of binSizes that
// cuts span minutes into at most maxBins cells.
func binFor(span, bin int) int {
	if bin != 0 {
		return bin
	}
	for _, b := range binSizes {
		if (span+b-1)/b <= maxBins {
			return b
		}
	}
	return binSizes[len(binSizes)-1]
}

// Utilization draws the processor utilization over time of runs of the
// same jobs under different policies (see UtilizationValues): a line per
// policy from the first submission to its makespan, with a vertical line
// at each makespan, and dashed lines at the two bounds on any makespan
// that ignore submission times: every processor busy (processor-hours /
// processors) and one job at a time (the sum of the run times), Bode et
// al.'s "theoretical minimum" and "sequential maximum" (ALS 2000, Table 1).
func Utilization(r *Results, opt Options) (*Figure, error) {
	d, err := UtilizationValues(r, opt)
	if err != nil {
		return nil, err
	}
	return d.Figure(opt)
}

// Figure draws d as Utilization does, reading no file: a caller that also
// wants d.Table reads the utilization files once. Of opt it uses only the
// size. The time axis ends just after the longest makespan; a bound
// beyond it (one job at a time, nearly always) is named at the axis's
// right end, not drawn, since an axis stretched to it would squeeze the
// series into a sliver.
func (d *UtilizationData) Figure(opt Options) (*Figure, error) {
	if err := tooMany(len(d.Runs), maxLines, "policies", "choose fewer with --policy"); err != nil {
		return nil, err
	}
	x := d.Runs[0]
	p := newPlot("hours since the run's first submission", "processors in use (%)")
	p.Add(horizontalGrid())
	legend := newLegend()
	per := 60.0 // minutes an hour
	end := 0.0  // the longest makespan, hours
	for i, run := range d.Runs {
		var xy plotter.XYs
		for b, v := range d.Procs[i] {
			xy = append(xy, plotter.XY{X: float64(b*d.BinMinutes) / per, Y: 100 * v})
		}
		ms := d.Makespan[i] / 3600
		end = max(end, ms)
		if len(xy) > 0 {
			xy = append(xy, plotter.XY{X: ms, Y: xy[len(xy)-1].Y})
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		line.StepStyle = plotter.PostStep
		line.LineStyle = lineStyle(i, vg.Points(1.2))
		mark := &vline{x: ms, style: lineStyle(i, vg.Points(1.2))}
		p.Add(line, mark)
		legend.add(fmt.Sprintf("%s: makespan %s h", run.Series(), groupDigits(ms)), line)
	}
	gray := color.Gray{Y: 90}
	off := 0 // bounds beyond the axis
	for _, b := range []struct {
		name string
		at   float64
		dash []vg.Length
	}{
		{"every processor busy", d.Packed / 3600, []vg.Length{vg.Points(4), vg.Points(3)}},
		{"one job at a time", d.Sequential / 3600, []vg.Length{vg.Points(1), vg.Points(2)}},
	} {
		label := fmt.Sprintf("%s: %s h", b.name, groupDigits(b.at))
		l := &vline{x: b.at, style: draw.LineStyle{Color: gray, Width: vg.Points(1), Dashes: b.dash}, label: b.name}
		if b.at > 1.04*end {
			l.offAxis = off
			off++
			label += " (beyond the axis)"
		}
		p.Add(l)
		legend.add(label, l)
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = plainTicks{}
	p.X.Min, p.X.Max = 0, max(1.04*end, 1e-9)
	p.X.Tick.Marker = plainTicks{}
	title := fmt.Sprintf("Processor utilization over time: workload %s, %s, replicate %d", x.Workload, x.loadText(), x.Replicate)
	notes := []string{fmt.Sprintf("Each step: the mean share of the processors in use over %s. Vertical lines: each policy's makespan, from the first submission to the last end; "+
		"dashed, the makespan with every processor busy from the first submission (processor-hours the jobs held / processors) and with the jobs run one at a time (the sum of their run times). "+
		"The axis ends after the longest makespan; a bound beyond it is named at its right end.", duration(d.BinMinutes))}
	w, h := opt.size(9*vg.Inch, 5*vg.Inch)
	return withLegend(title, notes, p, legend, w, h), nil
}

// groupDigits writes hours with two decimals below 100, one below
// 10,000 and none from there on, the digits before the point in groups of
// three: "12.34", "2,346.8", "249,164".
func groupDigits(h float64) string {
	prec := 0
	switch {
	case h < 100:
		prec = 2
	case h < 10000:
		prec = 1
	}
	s := strconv.FormatFloat(h, 'f', prec, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 && c != '-' && whole[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// vline is a vertical line at x across the plot, drawn with style; as a
// legend thumbnail, a horizontal stroke. A line with a label names it at
// the top of the plot, beside the line. A line beyond the x axis is not
// drawn: its label is, at the axis's right end with an arrow, the
// offAxis-th from the top.
type vline struct {
	x       float64
	style   draw.LineStyle
	label   string
	offAxis int
}

func (v *vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.x)
	sty := textStyle(9)
	sty.Color = v.style.Color
	sty.YAlign = draw.YTop
	if x > c.Max.X+0.5 || x < c.Min.X-0.5 {
		if v.label != "" {
			s := v.label + " →"
			at := vg.Point{X: c.Max.X - 3 - sty.Width(s), Y: c.Max.Y - 3 - vg.Length(v.offAxis)*1.3*sty.Height(s)}
			label(c, sty, at, s)
		}
		return
	}
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
	if v.label != "" {
		label(c, sty, vg.Point{X: x + 3, Y: c.Min.Y + 0.55*(c.Max.Y-c.Min.Y)}, v.label)
	}
}

// label writes s on c from at, its top left corner, over a
// translucent white box that keeps it legible over lines.
func label(c draw.Canvas, sty text.Style, at vg.Point, s string) {
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	w, h := sty.Width(s), sty.Height(s)
	c.FillPolygon(color.NRGBA{255, 255, 255, 210}, []vg.Point{
		{X: at.X - 1, Y: at.Y + 1}, {X: at.X + w + 1, Y: at.Y + 1},
		{X: at.X + w + 1, Y: at.Y - h - 1}, {X: at.X - 1, Y: at.Y - h - 1}})
	c.FillText(sty, at, s)
}

// DataRange covers x; a plot may still end its axis short of it.
func (v *vline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.x, v.x, 0, 0
}

func (v *vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.style, c.Min.X, y, c.Max.X, y)
}
