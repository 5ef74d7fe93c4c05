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
)

// QueueData is what Queue draws: the queue of runs of one workload, load
// factor and replicate (so of the same jobs), one run per policy, over
// time from the runs' first submission.
type QueueData struct {
	Runs []*Run
	// BinMinutes is a step's width. Length[i][b] is the mean number of
	// jobs waiting (submitted, not yet started) in run i over minutes
	// [b, b+1) × BinMinutes; Work[i][b] the mean waiting work over the same
	// minutes: the sum over the waiting jobs of processors × requested
	// time (the estimate, what the scheduler sees), in processor-seconds.
	// Both run to the run's makespan; rejected jobs never wait.
	BinMinutes   int
	Length, Work [][]float64
	// Makespan is each run's makespan in seconds; Procs its machine's
	// processors (cluster_procs; NaN if the runs table lacks it).
	Makespan, Procs []float64
	// MaxLength is each run's largest number of jobs waiting at once
	// for a positive time.
	MaxLength []float64
}

// QueueValues reads what Queue draws for the runs opt.Selection selects,
// which must be of one workload, load factor and replicate, at most one
// per policy: their runs rows and jobs files.
func QueueValues(r *Results, opt Options) (*QueueData, error) {
	if len(opt.Metrics) > 0 {
		return nil, fmt.Errorf("%w: a queue figure draws jobs waiting and their work, no other metric (got %s)", ErrUnknownMetric, strings.Join(opt.Metrics, ", "))
	}
	if opt.BinMinutes < 0 {
		return nil, fmt.Errorf("%w: step width %d minutes is negative", ErrSelection, opt.BinMinutes)
	}
	runs, err := r.sameJobs(opt.Selection, "a queue figure")
	if err != nil {
		return nil, err
	}
	d := &QueueData{Runs: runs}
	type event struct {
		t, jobs, work float64
	}
	var all [][]event
	span := 1
	for _, x := range runs {
		j, err := r.jobsOf(x, "submit", "start", "procs", "requested_time", "runtime")
		if err != nil {
			return nil, err
		}
		ms, err := x.Metric("makespan")
		if err != nil {
			return nil, err
		}
		procs := math.NaN()
		if v, err := x.Metric("cluster_procs"); err == nil {
			procs = v
		}
		d.Makespan, d.Procs = append(d.Makespan, ms), append(d.Procs, procs)
		var evs []event
		for i, s := range j.Cols["submit"] {
			est := j.Cols["requested_time"][i]
			if math.IsNaN(est) {
				est = j.Cols["runtime"][i]
			}
			w := j.Cols["procs"][i] * nanZero(est)
			evs = append(evs, event{s - j.Origin, 1, w}, event{j.Cols["start"][i] - j.Origin, -1, -w})
		}
		// Only the state between distinct times counts (see add): a job
		// that starts when it is submitted never waits.
		slices.SortStableFunc(evs, func(a, b event) int { return cmpFloat(a.t, b.t) })
		all = append(all, evs)
		span = max(span, int(math.Ceil(ms/60)))
	}
	d.BinMinutes = binFor(span, opt.BinMinutes)
	width := float64(d.BinMinutes * 60)
	for i, evs := range all {
		bins := max(1, int(math.Ceil(d.Makespan[i]/width)))
		length, work := make([]float64, bins), make([]float64, bins)
		var q, w, at, peak float64
		// add spreads the queue's state over [at, to) into the bins.
		add := func(to float64) {
			if to > at {
				peak = max(peak, q)
			}
			for at < to {
				b := int(at / width)
				if b >= bins {
					return
				}
				end := min(to, float64(b+1)*width)
				length[b] += q * (end - at)
				work[b] += w * (end - at)
				at = end
			}
		}
		for _, e := range evs {
			add(e.t)
			q, w = q+e.jobs, w+e.work
		}
		ms := d.Makespan[i]
		add(ms)
		for b := range bins {
			// The last step stops at the makespan.
			dt := min(width, ms-float64(b)*width)
			if dt > 0 {
				length[b] /= dt
				work[b] /= dt
			}
		}
		d.Length, d.Work, d.MaxLength = append(d.Length, length), append(d.Work, work), append(d.MaxLength, peak)
	}
	return d, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sameJobs returns the runs s selects, checking that they are of one
// workload, load factor and replicate, one per policy (Series): runs of
// the same jobs, as a figure that overlays them over time needs.
func (r *Results) sameJobs(s Selection, what string) ([]*Run, error) {
	runs, err := r.Select(s)
	if err != nil {
		return nil, err
	}
	seen := map[string]*Run{}
	for _, x := range runs {
		if y := seen[x.Series()]; y != nil || x.Workload != runs[0].Workload || x.LoadFactor != runs[0].LoadFactor || x.Replicate != runs[0].Replicate {
			if y == nil {
				y = runs[0]
			}
			return nil, fmt.Errorf("%w: %s compares policies on the same jobs, one run each, and %s selects both %s and %s; choose a workload, load factor and replicate",
				ErrSelection, what, s, y, x)
		}
		seen[x.Series()] = x
	}
	return runs, nil
}

// Table renders d as a Markdown table: per policy the mean and largest
// number of jobs waiting, and the mean waiting work in hours of the whole
// machine, over the makespan.
func (d *QueueData) Table() string {
	var b strings.Builder
	x := d.Runs[0]
	fmt.Fprintf(&b, "Queue over the makespan: workload %s, load factor %g, replicate %d\n\n", x.Workload, x.LoadFactor, x.Replicate)
	b.WriteString("| policy | mean jobs waiting | most jobs waiting | mean waiting work (machine-hours) |\n| --- | --- | --- | --- |\n")
	for i, run := range d.Runs {
		var q, w, secs float64
		width := float64(d.BinMinutes * 60)
		for k := range d.Length[i] {
			dt := min(width, d.Makespan[i]-float64(k)*width)
			q += d.Length[i][k] * dt
			w += d.Work[i][k] * dt
			secs += dt
		}
		mw := "–"
		if secs > 0 && !math.IsNaN(d.Procs[i]) && d.Procs[i] > 0 {
			mw = strconv.FormatFloat(w/secs/d.Procs[i]/3600, 'f', 2, 64)
		}
		mq := "–"
		if secs > 0 {
			mq = strconv.FormatFloat(q/secs, 'f', 2, 64)
		}
		fmt.Fprintf(&b, "| %s | %s | %g | %s |\n", run.Series(), mq, d.MaxLength[i], mw)
	}
	return b.String()
}

// CSV returns d as CSV records in long form: a header, then a row per run
// and step: the step's start in minutes from the first submission, the
// mean jobs waiting and the mean waiting work in processor-seconds.
func (d *QueueData) CSV() [][]string {
	out := [][]string{{"run_key", "policy", "minute", "jobs_waiting", "waiting_work_proc_seconds"}}
	for i, x := range d.Runs {
		for b := range d.Length[i] {
			out = append(out, []string{x.Key, x.Series(), strconv.Itoa(b * d.BinMinutes), csvFloat(d.Length[i][b]), csvFloat(d.Work[i][b])})
		}
	}
	return out
}

// Queue draws the queue over time of runs of the same jobs under
// different policies (see QueueValues): above, the jobs waiting; below,
// the work they would need, in hours of the whole machine (processors ×
// estimates / the machine's processors: how long it would take to clear
// the queue with nothing else running), a line per policy to its
// makespan.
func Queue(r *Results, opt Options) (*Figure, error) {
	d, err := QueueValues(r, opt)
	if err != nil {
		return nil, err
	}
	return d.Figure(opt)
}

// Figure draws d as Queue does; of opt it uses only the size.
func (d *QueueData) Figure(opt Options) (*Figure, error) {
	if err := tooMany(len(d.Runs), maxLines, "policies", "choose fewer with --policy"); err != nil {
		return nil, err
	}
	machine := !slices.ContainsFunc(d.Procs, func(p float64) bool { return math.IsNaN(p) || p <= 0 })
	workLabel := "waiting work (processor-hours)"
	if machine {
		workLabel = "waiting work (hours of the whole machine)"
	}
	top := newPlot("", "jobs waiting")
	bottom := newPlot("hours since the run's first submission", workLabel)
	legend := newLegend()
	end := 0.0
	for i, run := range d.Runs {
		div := 3600.0
		if machine {
			div *= d.Procs[i]
		}
		for k, p := range []*plot.Plot{top, bottom} {
			var xy plotter.XYs
			vals := d.Length[i]
			scale := 1.0
			if k == 1 {
				vals, scale = d.Work[i], 1/div
			}
			for b, v := range vals {
				xy = append(xy, plotter.XY{X: float64(b*d.BinMinutes) / 60, Y: v * scale})
			}
			ms := d.Makespan[i] / 3600
			if len(xy) > 0 {
				xy = append(xy, plotter.XY{X: ms, Y: xy[len(xy)-1].Y})
			}
			line, err := plotter.NewLine(xy)
			if err != nil {
				return nil, err
			}
			line.StepStyle = plotter.PostStep
			line.LineStyle = lineStyle(i, vg.Points(1.2))
			p.Add(line)
			if k == 0 {
				legend.add(run.Series(), line)
			}
		}
		end = max(end, d.Makespan[i]/3600)
	}
	for _, p := range []*plot.Plot{top, bottom} {
		p.Add(horizontalGrid())
		p.X.Min, p.X.Max = 0, max(end, 1e-9)
		p.Y.Min = 0
		p.Y.Max = max(p.Y.Max, 1e-9)
		p.Y.Tick.Marker = plainTicks{}
		p.X.Tick.Marker = plainTicks{}
	}
	x := d.Runs[0]
	title := fmt.Sprintf("Queue over time: workload %s, load factor %g, replicate %d", x.Workload, x.LoadFactor, x.Replicate)
	notes := []string{fmt.Sprintf("Each step: the mean over %s of the jobs submitted and not yet started (above) and of the sum of their processors × requested times (below)", duration(d.BinMinutes))}
	if machine {
		notes[0] += ", divided by the machine's processors: the hours it would take to clear the queue with nothing else running"
	}
	notes[0] += ". Rejected jobs never wait."
	w, h := opt.size(9*vg.Inch, 6.5*vg.Inch)
	f := &Figure{Title: title, Notes: notes, Width: w, Height: h,
		Panels: [][]*plot.Plot{{top, legend.p}, {bottom, nil}},
		Widths: []float64{(w - legend.width).Points(), legend.width.Points()}}
	return f, nil
}
