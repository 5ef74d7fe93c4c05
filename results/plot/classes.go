package plot

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/schedsweep/schedsweep/internal/psp"
)

// AccuracyColumn is the users.parquet column ClassMeans classes users by:
// each user's mean estimate accuracy over their last ten jobs to end.
const AccuracyColumn = "recent_accuracy"

// classNames are the accuracy classes of Table 1 of Rocchetti et al.
// (2015), a1 to a5, with their intervals.
var classNames = [psp.Classes]string{"a1 [0, 0.2)", "a2 [0.2, 0.4)", "a3 [0.4, 0.6)", "a4 [0.6, 0.8)", "a5 [0.8, 1]"}

// ClassMean is a users.parquet metric averaged over the users of one
// estimate-accuracy class in the runs of one workload and policy.
type ClassMean struct {
	Workload, Policy string // Policy: the runs' Series (Run.Series)
	Class            int    // 1 to 5: a1 to a5
	// Mean is over the class's (run, user) pairs: each user of each run
	// counts once, whatever their number of jobs.
	Mean float64
	// Users counts those pairs, Runs the runs in which the class has a
	// user; Min and Max are the lowest and highest mean of the class
	// within one of those runs.
	Users, Runs int
	Min, Max    float64
}

// ClassData is what Classes draws: the classes that have users (or jobs),
// by workload, then policy (both in the order of the runs table), then
// class.
type ClassData struct {
	Metric string
	// Classes names the classes, Classes[c-1] class c: the accuracy
	// classes a1 to a5 of ClassMeans, or the job classes of
	// JobClassMeans. Of is what a class's mean is over, "users" or
	// "jobs": each ClassMean's Users counts those.
	Classes   []string
	Of        string
	Workloads []string
	Policies  []string
	Runs      int // the most runs of one workload and policy
	Means     []ClassMean
	// All holds, for each workload and policy in the same order, the mean
	// over all the users with a value, whatever their class (Class 0).
	All []ClassMean
	// Unknown counts the rows of the unknown user (NULL user), NoValue
	// the users without a value of the metric or of recent_accuracy (none
	// of their jobs ran), or the jobs without a run time; neither is in a
	// class.
	Unknown, NoValue int

	m      metric   // Metric's metric
	short  []string // the classes' short names, for the table
	note   string   // how the classes are made, for the figure
	spread bool     // the table gives the lowest class over the highest
}

// ClassMeans returns the means Classes draws: a users.parquet metric
// (Metrics, default mean_wait) averaged over the users of each accuracy
// class, for each workload and policy of the selected runs, which must be
// of one load factor. A user's class is that of their recent_accuracy by
// Table 1 of Rocchetti et al. (2015), as the Penalty Scheduling Policy
// would rank them when the run ends; the paper's Table 3 groups users so.
func ClassMeans(r *Results, opt Options) (*ClassData, error) {
	m, err := oneMetric(userMetrics, opt.Metrics, "mean_wait", "users.parquet")
	if err != nil {
		return nil, err
	}
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	if len(loads) > 1 {
		return nil, fmt.Errorf("%w: the runs are at %d load factors; choose one with --load", ErrSelection, len(loads))
	}
	vals, err := r.userColumn(runs, m.name)
	if err != nil {
		return nil, err
	}
	accs, err := r.userColumn(runs, AccuracyColumn)
	if errors.Is(err, ErrMissingColumn) {
		return nil, fmt.Errorf("%w (results written before schedsweep computed %s?)", err, AccuracyColumn)
	}
	if err != nil {
		return nil, err
	}
	d := &ClassData{Metric: m.name, Policies: policies, Classes: classNames[:], Of: "users", m: m,
		short: []string{"a1", "a2", "a3", "a4", "a5"}, spread: true,
		note: fmt.Sprintf("Users classed by Table 1 of Rocchetti et al. (2015) on %s, the mean runtime/requested time of their last 10 jobs to end.", AccuracyColumn)}
	for _, x := range runs {
		if !slices.Contains(d.Workloads, x.Workload) {
			d.Workloads = append(d.Workloads, x.Workload)
		}
	}
	for _, w := range d.Workloads {
		for _, p := range policies {
			t := newClassTally(psp.Classes + 1)
			for _, x := range runs {
				if x.Workload != w || x.Series() != p {
					continue
				}
				rsum, rn := t.run()
				for i, uv := range vals[x.Key] {
					acc := accs[x.Key][i].value
					switch {
					case math.IsNaN(uv.user):
						d.Unknown++
					case math.IsNaN(uv.value) || math.IsNaN(acc):
						d.NoValue++
					default:
						c := psp.Class(acc)
						rsum[c] += uv.value
						rn[c]++
						rsum[0] += uv.value
						rn[0]++
					}
				}
				t.fold(rsum, rn)
			}
			t.means(d, w, p)
		}
	}
	if len(d.Means) == 0 {
		return nil, fmt.Errorf("%w: no user of the selected runs (%s) has an id and values of %s and %s",
			ErrSelection, opt.Selection, m.name, AccuracyColumn)
	}
	return d, nil
}

// Spread returns the mean of the lowest class over that of the highest
// among the classes of workload and policy that have users ("a1/a4",
// 2.43 for the paper's CF scenario), and false when fewer than two classes
// have users.
func (d *ClassData) Spread(workload, policy string) (label string, ratio float64, ok bool) {
	var first, last *ClassMean
	for i := range d.Means {
		c := &d.Means[i]
		if c.Workload != workload || c.Policy != policy {
			continue
		}
		if first == nil {
			first = c
		}
		last = c
	}
	if first == nil || first == last {
		return "", 0, false
	}
	return fmt.Sprintf("a%d/a%d", first.Class, last.Class), first.Mean / last.Mean, true
}

// classScale shows times in minutes, the unit of the paper's Table 3 and
// Figure 1, and other metrics as scaleFor does.
func (d *ClassData) classScale() scale {
	m := d.m
	if m.unit == unitSeconds {
		return scale{60, m.label + " (minutes)"}
	}
	return scaleFor(m, d.top())
}

// Table renders d as a Markdown table: a row per workload and policy, a
// column per class holding the mean (times in minutes) and, in
// parentheses, the number of users (or jobs) it is over; the mean over
// all of them; then, for accuracy classes, the spread of the lowest to
// the highest class.
func (d *ClassData) Table() string {
	sc := d.classScale()
	var b strings.Builder
	fmt.Fprintf(&b, "%s, by class (%s in parentheses)\n\n", capitalize(sc.label), d.Of)
	head := append(append([]string{"workload", "policy"}, d.short...), "all "+d.Of)
	if d.spread {
		head = append(head, "lowest / highest class")
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat(" --- |", len(head)) + "\n")
	cell := func(c ClassMean) string { return fmt.Sprintf("%.1f (%d)", c.Mean/sc.div, c.Users) }
	for _, w := range d.Workloads {
		for _, p := range d.Policies {
			cells := make([]string, len(d.Classes)+1)
			for c := range cells {
				cells[c] = "–"
			}
			for _, c := range d.Means {
				if c.Workload == w && c.Policy == p {
					cells[c.Class] = cell(c)
				}
			}
			for _, c := range d.All {
				if c.Workload == w && c.Policy == p && c.Users > 0 {
					cells[0] = cell(c)
				}
			}
			row := append(append([]string{w, p}, cells[1:]...), cells[0])
			if d.spread {
				spread := "–"
				if label, ratio, ok := d.Spread(w, p); ok {
					spread = fmt.Sprintf("%s = %.2f", label, ratio)
				}
				row = append(row, spread)
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	return b.String()
}

// top returns the largest value a bar or whisker reaches.
func (d *ClassData) top() float64 {
	top := 0.0
	for _, c := range d.Means {
		top = max(top, c.Mean, c.Max)
	}
	return top
}

// ClassesOf returns ClassMeans or JobClassMeans by opt.ClassBy.
func ClassesOf(r *Results, opt Options) (*ClassData, error) {
	switch opt.ClassBy {
	case "", "accuracy":
		return ClassMeans(r, opt)
	case "size":
		return JobClassMeans(r, opt)
	}
	return nil, fmt.Errorf("%w: classes by %q: want accuracy (users, by estimate accuracy) or size (jobs, by run time and processors)", ErrSelection, opt.ClassBy)
}

// Classes draws ClassMeans (or JobClassMeans, see ClassesOf) as grouped bars, as the paper's Figure 1: one
// panel per policy, stacked, with a shared axis; a group of bars per workload, a bar per accuracy class
// (a1 to a5) at the class's mean, with whiskers from the lowest to the
// highest run when there are several. Empty classes have no bar. Times
// are in minutes.
func Classes(r *Results, opt Options) (*Figure, error) {
	d, err := ClassesOf(r, opt)
	if err != nil {
		return nil, err
	}
	return d.Figure(opt)
}

// Figure draws d as Classes does, without computing the means again: a
// caller that also wants d.Table computes them once. Of opt it uses only
// the size.
func (d *ClassData) Figure(opt Options) (*Figure, error) {
	m := d.m
	sc := d.classScale()
	notes := []string{d.note}
	each := "Each bar: the mean over the class's users, each user counting once."
	if d.Runs > 1 {
		each = fmt.Sprintf("Each bar: the mean over the class's users in %d runs (replicates), each user of each run counting once; whiskers: the lowest and highest run's mean.", d.Runs)
	}
	if d.Of == "jobs" {
		each = "Each bar: the mean over the class's jobs that ran."
		if d.Runs > 1 {
			each = fmt.Sprintf("Each bar: the mean over the class's jobs that ran in %d runs (replicates); whiskers: the lowest and highest run's mean.", d.Runs)
		}
	}
	notes = append(notes, each)
	notes = append(notes, leftOut(d.Unknown, d.NoValue)...)
	kind := " per estimate-accuracy class"
	if d.Of == "jobs" {
		kind = " per job class"
	}
	f := &Figure{Title: capitalize(m.label) + kind, Notes: notes}
	legend := newLegend()
	for c, name := range d.Classes {
		legend.add(name, swatch{color8(c)})
	}
	nc := len(d.Classes)
	if len(d.Workloads) == 1 {
		return d.onePanel(opt, f, legend, sc)
	}
	for k, p := range d.Policies {
		x := ""
		if k == len(d.Policies)-1 {
			x = "workload"
		}
		pl := newPlot(x, sc.label)
		pl.Title.Text = "policy " + p
		pl.Add(horizontalGrid())
		for c := 1; c <= nc; c++ {
			pl.Add(d.classBars(c, sc, func(cm ClassMean) int {
				if cm.Policy != p {
					return -1
				}
				return slices.Index(d.Workloads, cm.Workload)
			}))
		}
		categoryAxis(pl, d.Workloads)
		pl.Y.Min, pl.Y.Max = 0, max(d.top()/sc.div, 1e-9)
		pl.Y.Tick.Marker = plainTicks{}
		var side *plot.Plot
		if k == 0 {
			side = legend.p
		}
		f.Panels = append(f.Panels, []*plot.Plot{pl, side})
	}
	f.Width, f.Height = opt.size(max(6*vg.Inch, vg.Length(len(d.Workloads))*1.2*vg.Inch)+legend.width,
		1.2*vg.Inch+vg.Length(len(d.Policies))*2.6*vg.Inch)
	f.Widths = []float64{(f.Width - legend.width).Points(), legend.width.Points()}
	return f, nil
}

// plainTicks label an axis at four to eight round values, steps of 1,
// 2, 2.5 or 5 times a power of ten, with the shortest form of each
// ("2.5", not "2.50"; "2500", not "2.5e+03"), and put unlabelled minor
// ticks between them. gonum's default ticks label as few as two values.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	var step float64
	for k := math.Floor(math.Log10(hi-lo)) - 1; step == 0; k++ {
		for _, m := range []float64{1, 2, 2.5, 5} {
			if s := m * math.Pow(10, k); (hi-lo)/s <= 8 {
				step = s
				break
			}
		}
	}
	minor := step / 5
	if m := step / math.Pow(10, math.Floor(math.Log10(step))); m == 2.5 {
		minor = step / 5
	} else if m == 2 {
		minor = step / 4
	}
	var ts []plot.Tick
	for i := math.Ceil(lo / minor); i*minor <= hi*(1+1e-12); i++ {
		v := i * minor
		t := plot.Tick{Value: v}
		if q := v / step; math.Abs(q-math.Round(q)) < 1e-9 {
			t.Label = strconv.FormatFloat(math.Round(q)*step, 'f', -1, 64)
			if math.Abs(v) < step*1e-9 {
				t.Label = "0"
			}
		}
		ts = append(ts, t)
	}
	return ts
}

// onePanel finishes f, the figure of d's one workload, as a single panel:
// a group of bars per policy, a bar per class, rather than a panel per
// policy holding one group.
func (d *ClassData) onePanel(opt Options, f *Figure, legend *legendPanel, sc scale) (*Figure, error) {
	nc := len(d.Classes)
	f.Title += ": workload " + d.Workloads[0]
	pl := newPlot("policy", sc.label)
	pl.Add(horizontalGrid())
	for c := 1; c <= nc; c++ {
		pl.Add(d.classBars(c, sc, func(cm ClassMean) int { return slices.Index(d.Policies, cm.Policy) }))
	}
	categoryAxis(pl, d.Policies)
	pl.Y.Min, pl.Y.Max = 0, max(d.top()/sc.div, 1e-9)
	pl.Y.Tick.Marker = plainTicks{}
	f.Panels = [][]*plot.Plot{{pl, legend.p}}
	f.Width, f.Height = opt.size(max(6*vg.Inch, vg.Length(len(d.Policies))*1.5*vg.Inch)+legend.width, 5*vg.Inch)
	f.Widths = []float64{(f.Width - legend.width).Points(), legend.width.Points()}
	return f, nil
}

// classTally gathers a class breakdown of one workload and series: index 0
// every class together, then each class. Each run adds its sums and
// counts (run, fold); the mean is over the members (users or jobs) of all
// runs, and Min and Max are the lowest and highest run's mean.
type classTally struct {
	sum, lo, hi []float64
	members     []int
	runs        []int
	n           int // runs folded in
}

func newClassTally(classes int) *classTally {
	t := &classTally{sum: make([]float64, classes), lo: make([]float64, classes), hi: make([]float64, classes),
		members: make([]int, classes), runs: make([]int, classes)}
	for c := range classes {
		t.lo[c], t.hi[c] = math.Inf(1), math.Inf(-1)
	}
	return t
}

// run returns zeroed sums and counts for one run's members.
func (t *classTally) run() ([]float64, []int) {
	return make([]float64, len(t.sum)), make([]int, len(t.sum))
}

// fold adds one run's sums and counts.
func (t *classTally) fold(rsum []float64, rn []int) {
	t.n++
	for c := range t.sum {
		if rn[c] == 0 {
			continue
		}
		t.sum[c] += rsum[c]
		t.members[c] += rn[c]
		t.runs[c]++
		mean := rsum[c] / float64(rn[c])
		t.lo[c], t.hi[c] = min(t.lo[c], mean), max(t.hi[c], mean)
	}
}

// means appends the tally of workload w and series p to d: index 0 to
// d.All, every class with members to d.Means.
func (t *classTally) means(d *ClassData, w, p string) {
	d.Runs = max(d.Runs, t.n)
	for c := range t.sum {
		cm := ClassMean{Workload: w, Policy: p, Class: c, Mean: math.NaN(), Users: t.members[c], Runs: t.runs[c], Min: t.lo[c], Max: t.hi[c]}
		if t.members[c] > 0 {
			cm.Mean = t.sum[c] / float64(t.members[c])
		}
		switch {
		case c == 0:
			d.All = append(d.All, cm)
		case t.members[c] > 0:
			d.Means = append(d.Means, cm)
		}
	}
}

// classBars returns the bars of class c (from 1): one per mean of d.Means
// in that class that at picks, in category at(cm) (−1: not drawn), offset
// within the category by the class; whiskers span the runs' lowest and
// highest mean where there is more than one run.
func (d *ClassData) classBars(c int, sc scale, at func(ClassMean) int) *bars {
	nc := len(d.Classes)
	slot := 0.8 / float64(nc)
	b := &bars{width: 0.9 * slot, color: color8(c - 1)}
	for _, cm := range d.Means {
		i := -1
		if cm.Class == c {
			i = at(cm)
		}
		if i < 0 {
			continue
		}
		b.x = append(b.x, float64(i)+(float64(c)-float64(nc+1)/2)*slot)
		b.y = append(b.y, cm.Mean/sc.div)
		lo, hi := math.NaN(), math.NaN()
		if cm.Runs > 1 {
			lo, hi = cm.Min/sc.div, cm.Max/sc.div
		}
		b.lo, b.hi = append(b.lo, lo), append(b.hi, hi)
	}
	return b
}
