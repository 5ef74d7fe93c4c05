package plot

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GanttOptions are what a Gantt chart takes beyond Options.
type GanttOptions struct {
	// From and To are the window drawn, in seconds from the run's first
	// submit; To ≤ From draws the whole run, to its makespan.
	From, To int64
	// ByStatus colours jobs by how they ended (finished, killed) instead
	// of by user.
	ByStatus bool
}

// Gantt draws the schedule of the one run opt.Selection selects (see
// GanttValues), as GanttData.Figure does.
func Gantt(r *Results, opt Options, g GanttOptions) (*Figure, error) {
	d, err := GanttValues(r, opt)
	if err != nil {
		return nil, err
	}
	return d.Figure(opt, g)
}

// Figure draws d: below, a rectangle per band of every job (Rects) over
// the window, time in hours across and processor rows up; above, a strip
// of the processors in use, in percent of the machine's. Jobs are
// coloured by user, eight colours in turn over the users in increasing
// order, or by status; rectangles wide enough have a white edge so that
// neighbours of one colour stay apart. Of opt it uses only the size.
func (d *GanttData) Figure(opt Options, g GanttOptions) (*Figure, error) {
	from, to := g.From, g.To
	if to <= from {
		from, to = 0, max(d.Makespan, 1)
	}
	if from < 0 {
		return nil, fmt.Errorf("%w: window start %d s is before the run's first submit", ErrSelection, from)
	}
	rects := d.Rects(from, to)
	boxes := &ganttBoxes{rects: rects, colors: d.rectColors(rects, g.ByStatus),
		x0: float64(from) / 3600, x1: float64(to) / 3600, rows: float64(max(d.Rows, d.Procs, 1))}
	gp := newPlot("hours since the run's first submission", "processors")
	gp.Add(boxes)
	if d.Rows > d.Procs {
		gp.Add(&hline{y: float64(d.Procs), style: draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}})
	}
	gp.X.Min, gp.X.Max = boxes.x0, boxes.x1
	gp.Y.Min, gp.Y.Max = 0, boxes.rows
	gp.X.Tick.Marker, gp.Y.Tick.Marker = plainTicks{}, plainTicks{}

	up := newPlot("", "in use (%)")
	up.Add(horizontalGrid())
	line, err := plotter.NewLine(d.busyXY(from, to))
	if err != nil {
		return nil, err
	}
	line.StepStyle = plotter.PostStep
	line.LineStyle = lineStyle(0, vg.Points(1))
	up.Add(line)
	up.X.Min, up.X.Max = boxes.x0, boxes.x1
	up.Y.Min, up.Y.Max = 0, 100*max(1, float64(d.Rows)/float64(max(d.Procs, 1)))
	up.X.Tick.Marker, up.Y.Tick.Marker = plainTicks{}, plainTicks{}

	x := d.Run
	title := fmt.Sprintf("Schedule of run %s: workload %s, policy %s, %s, replicate %d", x.Key, x.Workload, x.Series(), x.loadText(), x.Replicate)
	colour := "by user, eight colours in turn over the users in increasing order"
	if g.ByStatus {
		colour = "blue: finished, vermillion: killed at its estimate"
	}
	notes := []string{fmt.Sprintf("Each rectangle: a job from its start to its end, on the processor rows a first-fit packing gives it "+
		"(the simulator gives a job a number of processors, not which ones; a job may take several bands of rows). Colour %s. "+
		"Above: processors in use, in percent of the machine's %d.", colour, d.Procs)}
	if d.Rows > d.Procs {
		notes = append(notes, fmt.Sprintf("Rows above the dashed line (%d to %d) are jobs in a background VM of the two-tier machine.", d.Procs, d.Rows))
	}
	w, h := opt.size(9*vg.Inch, 6*vg.Inch)
	f := &Figure{Title: title, Notes: notes, Panels: [][]*plot.Plot{{up}, {gp}}, Heights: []float64{1, 4}, Width: w, Height: h}
	return f, nil
}

// busyXY returns the processors in use, in percent of the machine's, over
// seconds [from, to) from the origin, as points of a post-step line in
// hours.
func (d *GanttData) busyXY(from, to int64) plotter.XYs {
	times, busy := d.Busy()
	procs := float64(max(d.Procs, 1))
	at := func(t int64) float64 { // busy at time t from the origin
		i, ok := slices.BinarySearch(times, t+d.Origin)
		if !ok {
			i--
		}
		if i < 0 {
			return 0
		}
		return 100 * float64(busy[i]) / procs
	}
	xy := plotter.XYs{{X: float64(from) / 3600, Y: at(from)}}
	for i, t := range times {
		if t -= d.Origin; t > from && t < to {
			xy = append(xy, plotter.XY{X: float64(t) / 3600, Y: 100 * float64(busy[i]) / procs})
		}
	}
	return append(xy, plotter.XY{X: float64(to) / 3600, Y: xy[len(xy)-1].Y})
}

// rectColors returns each rectangle's fill.
func (d *GanttData) rectColors(rects []GanttRect, byStatus bool) []color.Color {
	rank := map[int64]int{}
	if !byStatus {
		var users []int64
		for _, j := range d.Jobs {
			if _, ok := rank[j.User]; !ok {
				rank[j.User] = 0
				users = append(users, j.User)
			}
		}
		slices.Sort(users)
		for i, u := range users {
			rank[u] = i
		}
	}
	out := make([]color.Color, len(rects))
	for i, r := range rects {
		j := &d.Jobs[r.Job]
		switch {
		case !byStatus:
			out[i] = color8(rank[j.User])
		case j.Status == "killed":
			out[i] = colors[5]
		default:
			out[i] = colors[0]
		}
	}
	return out
}

// ganttBoxes draws a Gantt chart's rectangles, x in hours.
type ganttBoxes struct {
	rects  []GanttRect
	colors []color.Color
	x0, x1 float64
	rows   float64
}

// Plot fills each rectangle, at least a third of a point wide so that a
// short job still shows, with a white edge when it is wider than two
// points.
func (g *ganttBoxes) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	edge := draw.LineStyle{Color: color.White, Width: vg.Points(0.3)}
	for i, r := range g.rects {
		x0, x1 := trX(float64(r.X0)/3600), trX(float64(r.X1)/3600)
		y0, y1 := trY(float64(r.Y0)), trY(float64(r.Y1))
		x1 = max(x1, x0+vg.Points(1.0/3))
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(g.colors[i], pts)
		if x1-x0 > vg.Points(2) && y1-y0 > vg.Points(2) {
			c.StrokeLines(edge, append(pts, pts[0]))
		}
	}
}

// DataRange is the window and every row.
func (g *ganttBoxes) DataRange() (xmin, xmax, ymin, ymax float64) {
	return g.x0, g.x1, 0, g.rows
}
