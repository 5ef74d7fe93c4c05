package tables

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/results/plot"
)

// Cell is one metric of one row, in its spec's unit.
type Cell struct {
	// Mean is the mean over the replicates (a runs column) or the
	// summary over the pooled users (a users column); NaN when no run or
	// user has a value.
	Mean float64
	// Lo and Hi bound the 95 % confidence interval of a runs column's
	// mean (Student's t); NaN for a users column and for fewer than two
	// replicates.
	Lo, Hi float64
	// N counts the replicates with a value, or the users summarised.
	N int
	// Ratio is Mean over the baseline policy's Mean in the same workload
	// and load factor, for a runs column; NaN without a baseline and for
	// a users column, whose summaries (a median, a count) rarely divide
	// meaningfully.
	Ratio float64
	// Paper is the paper's value, NaN when the paper file gives none.
	Paper float64
}

// Row is one policy at one load factor.
type Row struct {
	LoadFactor float64
	Policy     string // the runs' Series (plot.Run.Series)
	Cells      []Cell // one per spec of the table
}

// Table is the rows of one workload.
type Table struct {
	Workload string
	// OfferedLoad says that LoadFactor holds target offered loads.
	OfferedLoad bool
	Specs       []Spec
	Baseline    string // "" without ratios
	Rows        []Row  // by load factor, then policy in the runs table's order
	// Replicates is the most replicates of a runs column's cell; Runs
	// the most runs of one policy and load factor.
	Replicates, Runs int
}

// Options say what a table shows.
type Options struct {
	Metrics  []Spec
	Baseline string // a policy (Series) of the runs; "" for no ratios
	Paper    []PaperValue
	// Workloads, Policies and LoadFactors restrict the tables to these;
	// nil for all.
	Workloads, Policies []string
	LoadFactors         []float64
}

// Build returns a table per workload of r (in the runs table's order).
func Build(r *plot.Results, opt Options) ([]Table, error) {
	if len(opt.Metrics) == 0 {
		return nil, fmt.Errorf("no metric to tabulate")
	}
	var out []Table
	for _, w := range workloadsOf(r, opt.Workloads) {
		t, err := buildOne(r, w, opt)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", w, err)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no run of the workloads %s", r.Dir, strings.Join(opt.Workloads, ", "))
	}
	return out, nil
}

func workloadsOf(r *plot.Results, only []string) []string {
	var out []string
	for _, x := range r.Runs {
		if !slices.Contains(out, x.Workload) && (only == nil || slices.Contains(only, x.Workload)) {
			out = append(out, x.Workload)
		}
	}
	return out
}

// key names a cell's policy and load factor.
type key struct {
	policy string
	load   float64
}

func buildOne(r *plot.Results, w string, opt Options) (Table, error) {
	sel := plot.Selection{Workload: w, Policies: opt.Policies, LoadFactors: opt.LoadFactors}
	runs, err := r.Select(sel)
	if err != nil {
		return Table{}, err
	}
	t := Table{Workload: w, OfferedLoad: runs[0].OfferedLoad, Specs: opt.Metrics, Baseline: opt.Baseline}
	var policies []string
	var loads []float64
	count := map[key]int{}
	for _, x := range runs {
		count[key{x.Series(), x.LoadFactor}]++
		t.Runs = max(t.Runs, count[key{x.Series(), x.LoadFactor}])
		if !slices.Contains(policies, x.Series()) {
			policies = append(policies, x.Series())
		}
		if !slices.Contains(loads, x.LoadFactor) {
			loads = append(loads, x.LoadFactor)
		}
	}
	slices.Sort(loads)
	if opt.Baseline != "" && !slices.Contains(policies, opt.Baseline) {
		return Table{}, fmt.Errorf("baseline %q is not a policy of the runs (they have %s)", opt.Baseline, strings.Join(policies, ", "))
	}
	cols := make([]map[key]Cell, len(opt.Metrics))
	for i, sp := range opt.Metrics {
		if cols[i], err = cellsOf(r, sel, sp, loads); err != nil {
			return Table{}, err
		}
	}
	for _, l := range loads {
		for _, p := range policies {
			row := Row{LoadFactor: l, Policy: p}
			for i, sp := range opt.Metrics {
				c, ok := cols[i][key{p, l}]
				if !ok {
					c = Cell{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
				}
				c.Ratio = math.NaN()
				if b, ok := cols[i][key{opt.Baseline, l}]; ok && opt.Baseline != "" && !sp.Users {
					c.Ratio = c.Mean / b.Mean
				}
				c.Paper = paperFor(opt.Paper, w, p, l, sp.Text)
				if !sp.Users {
					t.Replicates = max(t.Replicates, c.N)
				}
				row.Cells = append(row.Cells, c)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t, nil
}

// cellsOf returns a spec's cells of the selected runs, by policy and load.
func cellsOf(r *plot.Results, sel plot.Selection, sp Spec, loads []float64) (map[key]Cell, error) {
	out := map[key]Cell{}
	switch {
	case !sp.Users:
		pts, err := plot.Points(r, plot.Options{Selection: sel, Metrics: []string{sp.Column}})
		if err != nil {
			return nil, err
		}
		for _, pt := range pts {
			out[key{pt.Policy, pt.LoadFactor}] = Cell{Mean: sp.scale(pt.Mean), Lo: sp.scale(pt.Lo), Hi: sp.scale(pt.Hi), N: pt.N}
		}
	case strings.HasPrefix(sp.Agg, "a") || sp.Agg == "spread": // a1 … a5, aX/aY
		for _, l := range loads {
			if err := classCells(r, sel, sp, l, out); err != nil {
				return nil, err
			}
		}
	default:
		d, err := plot.BoxValues(r, plot.Options{Selection: sel, Metrics: []string{sp.Column}})
		if err != nil {
			return nil, err
		}
		for _, b := range d.Boxes {
			out[key{b.Policy, b.LoadFactor}] = Cell{Mean: sp.scale(aggregate(sp.Agg, b.Values)), Lo: math.NaN(), Hi: math.NaN(), N: len(b.Values)}
		}
	}
	return out, nil
}

// classCells adds to out, for load factor l, the mean of sp's class for
// each policy (sp.Agg a1 … a5), the ratio of two classes' means (aX/aY),
// or the lowest class's mean over the highest's among the classes with
// users (spread).
func classCells(r *plot.Results, sel plot.Selection, sp Spec, l float64, out map[key]Cell) error {
	s := sel
	s.LoadFactors = []float64{l}
	d, err := plot.ClassMeans(r, plot.Options{Selection: s, Metrics: []string{sp.Column}})
	if err != nil {
		return err
	}
	if sp.Agg != "spread" {
		x, y, ratio := strings.Cut(sp.Agg, "/")
		byPolicy := func(class string) map[string]plot.ClassMean {
			m := map[string]plot.ClassMean{}
			for _, c := range d.Means {
				if c.Class == int(class[1]-'0') {
					m[c.Policy] = c
				}
			}
			return m
		}
		num, den := byPolicy(x), map[string]plot.ClassMean{}
		if ratio {
			den = byPolicy(y)
		}
		for p, c := range num {
			switch d, ok := den[p]; {
			case !ratio:
				out[key{p, l}] = Cell{Mean: sp.scale(c.Mean), Lo: math.NaN(), Hi: math.NaN(), N: c.Users}
			case ok:
				out[key{p, l}] = Cell{Mean: c.Mean / d.Mean, Lo: math.NaN(), Hi: math.NaN(), N: c.Users + d.Users}
			}
		}
		return nil
	}
	lowest, highest := map[string]plot.ClassMean{}, map[string]plot.ClassMean{}
	for _, c := range d.Means { // by policy, then class
		if _, ok := lowest[c.Policy]; !ok {
			lowest[c.Policy] = c
		}
		highest[c.Policy] = c
	}
	for p, lo := range lowest {
		hi := highest[p]
		out[key{p, l}] = Cell{Mean: lo.Mean / hi.Mean, Lo: math.NaN(), Hi: math.NaN(), N: lo.Users + hi.Users}
	}
	return nil
}

// aggregate summarises users' values: agg is one of mean, median, p75,
// sum and ones. Quantiles interpolate linearly between the sorted values
// (Hyndman and Fan's type 7, as R's default and DuckDB's quantile_cont).
func aggregate(agg string, vals []float64) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	s := slices.Clone(vals)
	slices.Sort(s)
	rank := func(p float64) float64 {
		h := p * float64(len(s)-1)
		lo := int(math.Floor(h))
		if lo+1 >= len(s) {
			return s[lo]
		}
		return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
	}
	total, ones := 0.0, 0
	for _, v := range s {
		total += v
		if v == 1 {
			ones++
		}
	}
	switch agg {
	case "median":
		return rank(0.5)
	case "p75":
		return rank(0.75)
	case "sum":
		return total
	case "ones":
		return float64(ones)
	}
	return total / float64(len(s))
}
