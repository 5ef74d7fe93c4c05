package plot

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/schedsweep/schedsweep/results"
)

// HeatmapData is what Heatmap draws: one run's violated EETs per user and
// its utilization, in cells of BinMinutes minutes from the run's first
// submission.
type HeatmapData struct {
	Run *Run
	// Users are the rows, bottom to top: every user the users table or
	// the heatmap file gives for the run, by id, the unknown user (NaN)
	// first.
	Users []float64
	// BinMinutes is a cell's width; the Bins() cells of a row cover
	// minutes [0, Bins() × BinMinutes), which holds the run's makespan and
	// every minute of its heatmap and utilization files.
	BinMinutes int
	// Violations[u][b] is the mean, over the minutes of cell b, of the
	// number of user Users[u]'s jobs whose EET was violated in that minute
	// (the heatmap file's violations; a minute without a row counts 0).
	Violations [][]float64
	// Procs and Memory are the mean processor and memory utilization over
	// each cell's minutes, in [0, 1]; a minute without a row counts 0.
	Procs, Memory []float64
}

// Bins returns the number of cells in a row.
func (d *HeatmapData) Bins() int { return len(d.Procs) }

// binSizes are the cell widths Heatmap chooses from, in minutes.
var binSizes = []int{1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080}

// maxBins is the most cells a row gets when the width is chosen for it.
const maxBins = 300

// HeatmapValues reads what Heatmap draws for the one run opt.Selection
// selects: its heatmap and utilization files (heatmap/…/part-KEY.parquet
// and utilization/…/part-KEY.parquet) and its users.
func HeatmapValues(r *Results, opt Options) (*HeatmapData, error) {
	if len(opt.Metrics) > 0 {
		return nil, fmt.Errorf("%w: a heatmap draws violated EETs, no other metric (got %s)", ErrUnknownMetric, strings.Join(opt.Metrics, ", "))
	}
	if opt.BinMinutes < 0 {
		return nil, fmt.Errorf("%w: cell width %d minutes is negative", ErrSelection, opt.BinMinutes)
	}
	run, err := r.oneRun(opt.Selection)
	if err != nil {
		return nil, err
	}
	hm, err := r.partTable(r.heatmaps, results.HeatmapDir, run, []string{"user", "minute", "violations"})
	if err != nil {
		return nil, err
	}
	ut, err := r.partTable(r.utilization, results.UtilizationDir, run, []string{"minute", "procs", "memory"})
	if err != nil {
		return nil, err
	}
	d := &HeatmapData{Run: run}
	span := heatmapSpan(run, hm, ut)
	d.BinMinutes = binFor(span, opt.BinMinutes)
	users, err := r.usersOf(run)
	if err != nil {
		return nil, err
	}
	d.Users = heatmapUsers(users, hm)
	if len(d.Users) == 0 {
		return nil, fmt.Errorf("%w: run %s has no users in users.parquet nor in %s", ErrSelection, run.Key, hm.path)
	}
	if err := d.addViolations(hm, span); err != nil {
		return nil, err
	}
	if err := d.addUtilization(ut, span); err != nil {
		return nil, err
	}
	return d, nil
}

// heatmapSpan returns the minutes a run's heatmap spans: its makespan,
// and every minute its heatmap or utilization file names; at least 1.
func heatmapSpan(run *Run, hm, ut *table) int {
	span := 0
	if ms, err := run.Metric("makespan"); err == nil && !math.IsNaN(ms) {
		span = int(math.Ceil(ms / 60))
	}
	for _, t := range []*table{hm, ut} {
		for _, m := range t.nums["minute"] {
			span = max(span, int(m)+1)
		}
	}
	return max(span, 1)
}

// heatmapUsers returns the rows of a heatmap: the run's users, with any
// user the heatmap file names that users.parquet lacks, sorted, the
// unknown user (NaN) first.
func heatmapUsers(users []float64, hm *table) []float64 {
	known := map[float64]bool{} // NaN, the unknown user, never equals itself: unknownAt marks it
	unknownAt := false
	for _, u := range users {
		known[u], unknownAt = true, unknownAt || math.IsNaN(u)
	}
	for _, u := range hm.nums["user"] {
		switch {
		case math.IsNaN(u) && !unknownAt:
			users, unknownAt = append(users, u), true
		case !math.IsNaN(u) && !known[u]:
			users, known[u] = append(users, u), true
		}
	}
	slices.SortFunc(users, func(a, b float64) int { // NaN first
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
			return 0
		case math.IsNaN(a):
			return -1
		case math.IsNaN(b):
			return 1
		}
		return cmp.Compare(a, b)
	})
	return users
}

// cells returns the number of cells of a row over span minutes, and the
// minutes of the span each cell holds (the last may hold fewer).
func (d *HeatmapData) cells(span int) (int, func(b int) float64) {
	bins := (span + d.BinMinutes - 1) / d.BinMinutes
	return bins, func(b int) float64 { return float64(min(d.BinMinutes, span-b*d.BinMinutes)) }
}

// addViolations fills d.Violations, a row per user of d.Users, from the
// run's rows of the heatmap file hm: each cell's violations per minute.
func (d *HeatmapData) addViolations(hm *table, span int) error {
	bins, minutes := d.cells(span)
	row := map[float64]int{}
	unknown := -1
	for i, u := range d.Users {
		if math.IsNaN(u) {
			unknown = i
		} else {
			row[u] = i
		}
	}
	d.Violations = make([][]float64, len(d.Users))
	for i := range d.Violations {
		d.Violations[i] = make([]float64, bins)
	}
	keys, viol := hm.strs["run_key"], hm.nums["violations"]
	for i, m := range hm.nums["minute"] {
		if keys != nil && keys[i] != d.Run.Key {
			continue
		}
		u := unknown // the union of users above holds every user of the file
		if id := hm.nums["user"][i]; !math.IsNaN(id) {
			u = row[id]
		}
		if math.IsNaN(viol[i]) || viol[i] < 0 {
			return fmt.Errorf("%s: row %d: violations %g is not a count", hm.path, i, viol[i])
		}
		d.Violations[u][int(m)/d.BinMinutes] += viol[i]
	}
	for _, v := range d.Violations {
		for b := range v {
			v[b] /= minutes(b)
		}
	}
	return nil
}

// addUtilization fills d.Procs and d.Memory from the run's rows of the
// utilization file ut: each cell's mean utilization.
func (d *HeatmapData) addUtilization(ut *table, span int) error {
	bins, minutes := d.cells(span)
	d.Procs, d.Memory = make([]float64, bins), make([]float64, bins)
	keys := ut.strs["run_key"]
	for i, m := range ut.nums["minute"] {
		if keys != nil && keys[i] != d.Run.Key {
			continue
		}
		for _, c := range []struct {
			name string
			to   []float64
		}{{"procs", d.Procs}, {"memory", d.Memory}} {
			v := ut.nums[c.name][i]
			if math.IsNaN(v) || v < 0 || v > 1+1e-9 {
				return fmt.Errorf("%s: row %d: %s %g is not a utilization in [0, 1]", ut.path, i, c.name, v)
			}
			c.to[int(m)/d.BinMinutes] += v
		}
	}
	for b := range bins {
		d.Procs[b] /= minutes(b)
		d.Memory[b] /= minutes(b)
	}
	return nil
}

// oneRun returns the one run s selects, or an error listing those it
// selects.
func (r *Results) oneRun(s Selection) (*Run, error) {
	runs, err := r.Select(s)
	if err != nil {
		return nil, err
	}
	if len(runs) == 1 {
		return runs[0], nil
	}
	var b strings.Builder
	for i, x := range runs {
		if i == 10 {
			fmt.Fprintf(&b, "\n  … and %d more", len(runs)-10)
			break
		}
		fmt.Fprintf(&b, "\n  %s", x)
	}
	how := "choose one by key, or by workload, policy, load factor and replicate"
	if slices.ContainsFunc(runs, func(x *Run) bool { return x.Variant != "" }) {
		how = "runs of a vary axis differ only in its parameters: choose one by key"
	}
	return nil, fmt.Errorf("%w: a heatmap shows one run, and %s selects %d; %s:%s",
		ErrSelection, s, len(runs), how, b.String())
}

// partTable reads run's file among files, a map of the folder sub, and
// checks that it has the columns cols and that its minutes are whole
// numbers from the start.
func (r *Results) partTable(files map[string]string, sub string, run *Run, cols []string) (*table, error) {
	path, ok := files[run.Key]
	switch {
	case !ok && len(files) == 0:
		return nil, fmt.Errorf("%w: %s has no %s files: the sweep ran with output { heatmaps = false }, or wrote no run yet",
			ErrMissingFile, r.Dir, sub)
	case !ok:
		return nil, fmt.Errorf("%w: no %s file for run %s: %s/%s/…/%s is missing (results written before schedsweep computed EET heatmaps?)",
			ErrMissingFile, sub, run.Key, r.Dir, sub, results.PartFile(run.Key))
	}
	t, err := readTable(path)
	if err != nil {
		return nil, err
	}
	if err := t.minutesFromBuckets(); err != nil {
		return nil, err
	}
	for _, c := range cols {
		if _, err := t.num(c); err != nil {
			return nil, err
		}
	}
	for i, m := range t.nums["minute"] {
		if m < 0 || m != math.Trunc(m) {
			return nil, fmt.Errorf("%s: row %d: minute %g is not a whole number of minutes from the start", t.path, i, m)
		}
	}
	return t, nil
}

// minutesFromBuckets gives a heatmap or utilization table written by
// results (a "bucket" column, its length in seconds in the file's
// schedsweep.bucket_seconds metadata) the "minute" column the figures read.
// A bucket of k minutes becomes k rows, one per minute, each with the
// bucket's values: its count of violated EETs, or its mean utilization,
// holds in each of its minutes.
func (t *table) minutesFromBuckets() error {
	buckets, ok := t.nums["bucket"]
	if !ok {
		return nil
	}
	secs := 60.0
	if v, ok := t.meta[results.MetaBucketSeconds]; ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return fmt.Errorf("%s: %s %q is not a positive number of seconds", t.path, results.MetaBucketSeconds, v)
		}
		secs = f
	}
	if math.Mod(secs, 60) != 0 {
		return fmt.Errorf("%s: buckets of %g s are not whole minutes", t.path, secs)
	}
	k := int(secs / 60)
	if k > 1 {
		for name, c := range t.nums {
			t.nums[name] = repeatEach(c, k)
		}
		for name, c := range t.strs {
			t.strs[name] = repeatEach(c, k)
		}
	}
	minutes := make([]float64, 0, len(buckets)*k)
	for _, b := range buckets {
		for j := range k {
			minutes = append(minutes, b*float64(k)+float64(j))
		}
	}
	t.nums["minute"] = minutes
	return nil
}

// repeatEach returns xs with each value repeated k times in place.
func repeatEach[T any](xs []T, k int) []T {
	out := make([]T, 0, len(xs)*k)
	for _, x := range xs {
		for range k {
			out = append(out, x)
		}
	}
	return out
}

// usersOf returns the ids of run's users in the users tables (NaN for the
// unknown user); none if the folder has no users table.
func (r *Results) usersOf(run *Run) ([]float64, error) {
	if len(r.userFiles) == 0 {
		return nil, nil
	}
	vals, err := r.userColumn([]*Run{run}, "jobs")
	if err != nil {
		return nil, err
	}
	var out []float64
	for _, uv := range vals[run.Key] {
		out = append(out, uv.user)
	}
	return out, nil
}

// Heatmap draws one run's violated EETs per user over time, like Figure 7
// of Tóth and Klusáček, "User-Aware Metrics for Measuring Quality of
// Parallel Job Schedules": users on the y
// axis, time since the run's first submission on the x axis (hours, or
// days beyond three), and each cell coloured by the mean number of the
// user's violated EETs over its minutes (white: none); see HeatmapValues.
// Below, on the same time axis, strips show processor and memory
// utilization (the memory strip is left out for a machine without
// memory).
func Heatmap(r *Results, opt Options) (*Figure, error) {
	d, err := HeatmapValues(r, opt)
	if err != nil {
		return nil, err
	}
	end := float64(d.Bins() * d.BinMinutes)
	unit, per := "hours", 60.0
	if end > 3*24*60 {
		unit, per = "days", 24*60
	}
	x := d.Run
	f := &Figure{Title: fmt.Sprintf("Violated EETs per user over time: workload %s, policy %s, %s, replicate %d (run %s)",
		x.Workload, x.Series(), x.loadText(), x.Replicate, x.Key)}
	cell := fmt.Sprintf("Each cell: one user over %s; its colour, the mean number of the user's jobs past their EET in each minute of it (white: none).", duration(d.BinMinutes))
	if d.BinMinutes == 1 {
		cell = "Each cell: one user in one minute; its colour, the number of the user's jobs past their EET in it (white: none)."
	}
	f.Notes = []string{cell + " Below: the share of the processors and of the memory in use, averaged likewise."}
	if slices.ContainsFunc(d.Users, math.IsNaN) {
		f.Notes = append(f.Notes, `Row "?": jobs without a user id.`)
	}

	// The heatmap and its colour bar.
	top := 0.0
	for _, v := range d.Violations {
		for _, c := range v {
			top = max(top, c)
		}
	}
	if top == 0 {
		top = 1
	}
	cm, err := moreland.NewLuminance([]color.Color{
		color.RGBA{128, 0, 38, 255}, color.RGBA{227, 26, 28, 255},
		color.RGBA{253, 141, 60, 255}, color.RGBA{254, 217, 118, 255}})
	if err != nil {
		return nil, err
	}
	cm = palette.Reverse(cm) // light for few, dark for many
	cm.SetMin(0)
	cm.SetMax(top)
	hp := newPlot("", "user (id in the trace)")
	hm := plotter.NewHeatMap(grid{d.Violations, float64(d.BinMinutes) / per}, cm.Palette(256))
	hm.Min, hm.Max = 0, top
	hp.Add(hm, frame{})
	f.heatmaps = append(f.heatmaps, hm)
	var ticks []plot.Tick
	step := (len(d.Users) + 24) / 25
	for i, u := range d.Users {
		t := plot.Tick{Value: float64(i)}
		if i%step == 0 {
			t.Label = "?"
			if !math.IsNaN(u) {
				t.Label = formatFloat(u)
			}
		}
		ticks = append(ticks, t)
	}
	hp.Y.Tick.Marker = plot.ConstantTicks(ticks)
	hp.Y.Min, hp.Y.Max = -0.5, float64(len(d.Users))-0.5
	hp.Y.Padding = 0
	hp.HideX()
	hp.X.Min, hp.X.Max = 0, end/per

	cb := plot.New()
	cb.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	cb.HideX()
	cb.Y.Label.Text = "violated EETs"
	cb.Y.Padding = 0

	// The utilization strips.
	strips := []struct {
		label string
		v     []float64
	}{{"CPU\n%", d.Procs}, {"RAM\n%", d.Memory}}
	if mem, err := x.Metric("cluster_memory"); err == nil && mem == 0 {
		strips = strips[:1]
		f.Notes = append(f.Notes, "The machine has no memory: no memory strip.")
	}
	f.Panels = [][]*plot.Plot{{hp, cb}}
	f.Heights = []float64{5}
	for i, s := range strips {
		p := newPlot("", s.label)
		p.Y.Label.TextStyle.Font.Size = vg.Points(9)
		var xy plotter.XYs
		for b, v := range s.v {
			xy = append(xy, plotter.XY{X: float64(b*d.BinMinutes) / per, Y: 100 * v})
		}
		xy = append(xy, plotter.XY{X: end / per, Y: 100 * s.v[len(s.v)-1]})
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		line.StepStyle = plotter.PostStep
		line.FillColor = color.RGBA{160, 160, 160, 255}
		line.Color = color.Black
		line.Width = vg.Points(0.5)
		p.Add(line)
		p.Y.Min, p.Y.Max = 0, 100
		p.Y.Padding = 0
		p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 100, Label: "100"}}
		p.X.Min, p.X.Max = 0, end/per
		p.X.Tick.Marker = timeTicks(end/per, unit)
		if i < len(strips)-1 {
			p.HideX()
		} else {
			p.X.Label.Text = fmt.Sprintf("%s since the run's first submission", unit)
		}
		f.Panels = append(f.Panels, []*plot.Plot{p, nil})
		f.Heights = append(f.Heights, 0.7)
	}
	f.Width, f.Height = opt.size(10*vg.Inch, 7.5*vg.Inch)
	bar := 0.9 * vg.Inch // the colour bar's column, axis included
	f.Widths = []float64{(f.Width - bar).Points(), bar.Points()}
	return f, nil
}

// frame outlines a plot's data area: a heatmap without an x axis would
// have no visible right and bottom edges.
type frame struct{}

func (frame) Plot(c draw.Canvas, _ *plot.Plot) {
	r := c.Rectangle
	c.StrokeLines(draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(0.5)}, []vg.Point{
		r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}, r.Min})
}

// timeTicks returns ticks from 0 to end, in hours or days: labelled ones
// at a round step giving at most ten, and minor ones between.
func timeTicks(end float64, unit string) plot.Ticker {
	steps := []float64{0.25, 0.5, 1, 2, 3, 6, 12, 24}
	if unit == "days" {
		steps = []float64{0.5, 1, 2, 5, 7, 14, 28, 56, 112, 364}
	}
	step := steps[len(steps)-1]
	for _, s := range steps {
		if end/s <= 10 {
			step = s
			break
		}
	}
	return plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ts []plot.Tick
		for k := 0.0; k*step <= hi; k++ {
			ts = append(ts, plot.Tick{Value: k * step, Label: formatFloat(k * step)})
			if mid := (k + 0.5) * step; mid <= hi {
				ts = append(ts, plot.Tick{Value: mid})
			}
		}
		return ts
	})
}

// duration formats minutes as the largest whole unit.
func duration(minutes int) string {
	switch {
	case minutes%1440 == 0:
		return plural(minutes/1440, "day", "days")
	case minutes%60 == 0:
		return plural(minutes/60, "hour", "hours")
	}
	return plural(minutes, "minute", "minutes")
}

// grid is a heatmap's cells as plotter.HeatMap reads them: column c is a
// cell of width w from c·w, row r a user; an empty cell is NaN, which
// the heatmap leaves white.
type grid struct {
	z [][]float64
	w float64
}

func (g grid) Dims() (c, r int) { return len(g.z[0]), len(g.z) }
func (g grid) X(c int) float64  { return (float64(c) + 0.5) * g.w }
func (g grid) Y(r int) float64  { return float64(r) }
func (g grid) Z(c, r int) float64 {
	if v := g.z[r][c]; v != 0 {
		return v
	}
	return math.NaN()
}
