package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, err
	}
	seen := map[string]*Run{}
	for _, x := range runs {
		if y := seen[x.Series()]; y != nil || x.Workload != runs[0].Workload || x.LoadFactor != runs[0].LoadFactor || x.Replicate != runs[0].Replicate {
			if y == nil {
				y = runs[0]
			}
			return nil, fmt.Errorf("%w: a utilization figure compares policies on the same jobs, one run each, and %s selects both %s and %s; choose a workload, load factor and replicate",
				ErrSelection, opt.Selection, y, x)
		}
		seen[x.Series()] = x
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
// size.
func (d *UtilizationData) Figure(opt Options) (*Figure, error) {
	x := d.Runs[0]
	p := newPlot("hours since the run's first submission", "processors in use (%)")
	p.Add(horizontalGrid())
	legend := newLegend()
	per := 60.0 // minutes an hour
	for i, run := range d.Runs {
		var xy plotter.XYs
		for b, v := range d.Procs[i] {
			xy = append(xy, plotter.XY{X: float64(b*d.BinMinutes) / per, Y: 100 * v})
		}
		end := d.Makespan[i] / 3600
		if len(xy) > 0 {
			xy = append(xy, plotter.XY{X: end, Y: xy[len(xy)-1].Y})
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		line.StepStyle = plotter.PostStep
		line.Color = color8(i)
		line.Width = vg.Points(1.2)
		mark := &vline{end, draw.LineStyle{Color: color8(i), Width: vg.Points(1.2)}}
		p.Add(line, mark)
		legend.add(fmt.Sprintf("%s: makespan %.2f h", run.Series(), end), line)
	}
	gray := color.Gray{Y: 90}
	for _, b := range []struct {
		name string
		at   float64
		dash []vg.Length
	}{
		{"every processor busy: %.2f h", d.Packed, []vg.Length{vg.Points(4), vg.Points(3)}},
		{"one job at a time: %.2f h", d.Sequential, []vg.Length{vg.Points(1), vg.Points(2)}},
	} {
		l := &vline{b.at / 3600, draw.LineStyle{Color: gray, Width: vg.Points(1), Dashes: b.dash}}
		p.Add(l)
		legend.add(fmt.Sprintf(b.name, b.at/3600), l)
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min = 0
	title := fmt.Sprintf("Processor utilization over time: workload %s, %s, replicate %d", x.Workload, x.loadText(), x.Replicate)
	notes := []string{fmt.Sprintf("Each step: the mean share of the processors in use over %s. Vertical lines: each policy's makespan, from the first submission to the last end; "+
		"dashed, the makespan with every processor busy from the first submission (processor-hours the jobs held / processors) and with the jobs run one at a time (the sum of their run times).", duration(d.BinMinutes))}
	w, h := opt.size(9*vg.Inch, 5*vg.Inch)
	return withLegend(title, notes, p, legend, w, h), nil
}

// vline is a vertical line at x across the plot, drawn with style; as a
// legend thumbnail, a horizontal stroke.
type vline struct {
	x     float64
	style draw.LineStyle
}

func (v *vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.x)
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

func (v *vline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.x, v.x, 0, 0
}

func (v *vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.style, c.Min.X, y, c.Max.X, y)
}
