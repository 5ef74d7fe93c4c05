package plot

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"sort"
)

// A Gantt chart draws one run's schedule: time across, processors up, a
// rectangle per job from its start to its end. The pool machine gives jobs
// a number of processors, not which ones, so the chart chooses: Pack
// gives each job rows of processors by first fit, the lowest free rows
// at its start, in as many bands as the free rows are split into. Rows
// are freed at a job's end, before any job starting then takes rows, so
// two jobs never share a row at any time, and a job's bands add up to
// its processors. Jobs are placed in the order of their start, ties in
// the jobs file's order (arrival order), so the same run always gives
// the same chart. A two-tier machine runs jobs in a background VM on
// processors the foreground holds; such jobs take rows above the
// machine's, which the chart shows beyond its processors.

// Band is a range of processor rows, [Lo, Hi), that a job holds for the
// whole of its run in a Gantt chart.
type Band struct{ Lo, Hi int64 }

// GanttJob is one job of a Gantt chart: a row of a run's jobs file. Times
// are seconds from the trace's start, as the jobs file gives them.
type GanttJob struct {
	ID     int64
	User   int64 // -1 when the jobs file has it NULL (unknown)
	Submit int64
	// Start and End are when the job ran; both 0 for a job that did not
	// run (Ran false: rejected).
	Start, End int64
	Procs      int64
	Status     string // finished, killed or rejected
	Ran        bool   // finished or killed
	// Bands are the processor rows Pack gave the job; nil if it did not
	// run or holds no processors.
	Bands []Band
}

// Wait is the job's wait in seconds, start − submit; 0 if it did not run.
func (j *GanttJob) Wait() int64 {
	if !j.Ran {
		return 0
	}
	return j.Start - j.Submit
}

// Pack gives every job that ran its processor rows (see the comment at
// the top of this file), in place, and returns the number of rows the
// chart needs: one more than the highest row any job holds. It takes
// O(n log n) time in the jobs plus, per job, the number of free ranges it
// scans. A job with no processors, or with an end before its start, gets
// no rows.
func Pack(jobs []GanttJob) int64 {
	order := make([]int, 0, len(jobs))
	for i := range jobs {
		jobs[i].Bands = nil
		if jobs[i].Ran && jobs[i].Procs > 0 && jobs[i].End >= jobs[i].Start {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Start, jobs[b].Start) })
	free := freeRows{{0, math.MaxInt64}}
	running := &endHeap{jobs: jobs}
	var rows int64
	for _, i := range order {
		for running.Len() > 0 && jobs[running.idx[0]].End <= jobs[i].Start {
			for _, b := range jobs[heap.Pop(running).(int)].Bands {
				free = free.release(b)
			}
		}
		var bands []Band
		free, bands = free.take(jobs[i].Procs)
		jobs[i].Bands = bands
		rows = max(rows, bands[len(bands)-1].Hi)
		heap.Push(running, i)
	}
	return rows
}

// freeRows are the free processor rows as ranges, in increasing order,
// none empty, none touching the next.
type freeRows []Band

// take removes the lowest n free rows, which must be there, and returns
// them as bands in increasing order.
func (f freeRows) take(n int64) (freeRows, []Band) {
	var bands []Band
	k := 0
	for n > 0 {
		b := f[k]
		w := min(n, b.Hi-b.Lo)
		bands = append(bands, Band{b.Lo, b.Lo + w})
		n -= w
		if w == b.Hi-b.Lo {
			k++
		} else {
			f[k].Lo += w
		}
	}
	return slices.Delete(f, 0, k), bands
}

// release adds b, which must be held, back to the free rows, merging it
// with its neighbours.
func (f freeRows) release(b Band) freeRows {
	i := sort.Search(len(f), func(i int) bool { return f[i].Lo >= b.Hi })
	// f[i-1], if any, ends at or before b.Lo; f[i] starts at or after b.Hi.
	joinLeft := i > 0 && f[i-1].Hi == b.Lo
	joinRight := i < len(f) && f[i].Lo == b.Hi
	switch {
	case joinLeft && joinRight:
		f[i-1].Hi = f[i].Hi
		return slices.Delete(f, i, i+1)
	case joinLeft:
		f[i-1].Hi = b.Hi
	case joinRight:
		f[i].Lo = b.Lo
	default:
		f = slices.Insert(f, i, b)
	}
	return f
}

// endHeap holds the running jobs' indexes, the earliest end on top.
type endHeap struct {
	jobs []GanttJob
	idx  []int
}

func (h *endHeap) Len() int { return len(h.idx) }
func (h *endHeap) Less(a, b int) bool {
	ea, eb := h.jobs[h.idx[a]].End, h.jobs[h.idx[b]].End
	return ea < eb || ea == eb && h.idx[a] < h.idx[b]
}
func (h *endHeap) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *endHeap) Push(x any)    { h.idx = append(h.idx, x.(int)) }
func (h *endHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

// GanttData is one run's schedule as a Gantt chart draws it.
type GanttData struct {
	Run *Run
	// Jobs are every job of the run's jobs file, in its order, packed.
	Jobs []GanttJob
	// Procs is the machine's processors (cluster_procs), or Rows if the
	// runs table lacks it; Rows the rows the packing needs, at most Procs
	// but on a two-tier machine.
	Procs, Rows int64
	// Origin is the first submit of any job: the chart's time 0, as in
	// the utilization and heatmap figures. Makespan is the last end,
	// from Origin.
	Origin, Makespan int64
}

// GanttValues reads the jobs file of the one run opt.Selection selects
// and packs its jobs (Pack). A selection of several runs is an error
// wrapping ErrSelection; a folder without the run's jobs file, one
// wrapping ErrMissingFile.
func GanttValues(r *Results, opt Options) (*GanttData, error) {
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, err
	}
	if len(runs) != 1 {
		return nil, fmt.Errorf("%w: a Gantt chart draws one run and %s selects %d; choose one with --run KEY, or with --policy, --load and --replicate (and --workload)",
			ErrSelection, opt.Selection, len(runs))
	}
	return r.ganttOf(runs[0])
}

// ganttOf reads run's jobs file into a GanttData.
func (r *Results) ganttOf(run *Run) (*GanttData, error) {
	path, ok := r.jobs[run.Key]
	if !ok {
		_, err := r.jobsOf(run) // its error says what is missing
		return nil, err
	}
	t, err := readTable(path)
	if err != nil {
		return nil, err
	}
	cols := map[string][]float64{}
	for _, c := range []string{"job_id", "user", "submit", "start", "end", "procs"} {
		if cols[c], err = t.num(c); err != nil {
			return nil, err
		}
	}
	status, err := t.str("status")
	if err != nil {
		return nil, err
	}
	d := &GanttData{Run: run, Jobs: make([]GanttJob, len(status)), Origin: math.MaxInt64}
	for i := range d.Jobs {
		j := GanttJob{ID: int64(cols["job_id"][i]), User: -1, Submit: int64(cols["submit"][i]),
			Procs: int64(cols["procs"][i]), Status: status[i]}
		if u := cols["user"][i]; !math.IsNaN(u) {
			j.User = int64(u)
		}
		if s, e := cols["start"][i], cols["end"][i]; (j.Status == "finished" || j.Status == "killed") && !math.IsNaN(s) && !math.IsNaN(e) {
			j.Ran, j.Start, j.End = true, int64(s), int64(e)
		}
		d.Jobs[i] = j
		d.Origin = min(d.Origin, j.Submit)
	}
	if len(d.Jobs) == 0 {
		d.Origin = 0
	}
	d.Rows = Pack(d.Jobs)
	for _, j := range d.Jobs {
		if j.Ran {
			d.Makespan = max(d.Makespan, j.End-d.Origin)
		}
	}
	d.Procs = d.Rows
	if p, err := run.Metric("cluster_procs"); err == nil && !math.IsNaN(p) && p > 0 {
		d.Procs = int64(p)
	}
	return d, nil
}

// Busy returns the processors in use over time from the jobs' bands as
// a step function: at times[i] (seconds from the trace's start, in
// increasing order) the count becomes busy[i], and stays until
// times[i+1]. It ends with 0 at the last end.
func (d *GanttData) Busy() (times, busy []int64) {
	delta := map[int64]int64{}
	for _, j := range d.Jobs {
		var w int64
		for _, b := range j.Bands {
			w += b.Hi - b.Lo
		}
		if w > 0 && j.End > j.Start {
			delta[j.Start] += w
			delta[j.End] -= w
		}
	}
	for t := range delta {
		times = append(times, t)
	}
	slices.Sort(times)
	var n int64
	for _, t := range times {
		n += delta[t]
		busy = append(busy, n)
	}
	return times, busy
}

// GanttRect is one rectangle of a Gantt chart: job Job (an index into
// GanttData.Jobs) holding processor rows [Y0, Y1) over seconds [X0, X1)
// from the run's first submit.
type GanttRect struct {
	Job    int
	X0, X1 int64
	Y0, Y1 int64
}

// Rects returns the chart's rectangles within seconds [from, to) from the
// origin, clipped to it, a rectangle per band of every job that ran and
// overlaps the window, in the order of the jobs and of their bands. A job
// that ran for no time overlaps a window holding its start. to ≤ from
// means no window: every job's rectangles.
func (d *GanttData) Rects(from, to int64) []GanttRect {
	var out []GanttRect
	window := to > from
	for i, j := range d.Jobs {
		x0, x1 := j.Start-d.Origin, j.End-d.Origin
		if window {
			if x1 < from || x0 >= to || (x1 == from && x0 != x1) {
				continue
			}
			x0, x1 = max(x0, from), min(x1, to)
		}
		for _, b := range j.Bands {
			out = append(out, GanttRect{Job: i, X0: x0, X1: x1, Y0: b.Lo, Y1: b.Hi})
		}
	}
	return out
}
