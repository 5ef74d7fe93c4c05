package tables

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/results/plot"
)

// The bounds of a makespan table, named as its columns are; a paper file
// gives the paper's bounds as rows of these policies (metric makespan@h).
const (
	BoundPacked     = "every processor busy"
	BoundSequential = "one job at a time"
)

// MakespanTable holds the makespans of one workload and load factor run
// by run, as Bode et al. (ALS 2000, Table 1) show theirs: per replicate,
// each policy's makespan beside two bounds on any makespan of the
// replicate's jobs. The bounds are those of plot.UtilizationData, computed
// from runs.parquet alone: every processor busy (utilization × makespan)
// and one job at a time (the sum of the jobs' run times, (finished +
// killed) × (response_mean − wait_mean)), each the mean over the
// replicate's runs, which ran the same jobs.
type MakespanTable struct {
	Workload    string
	LoadFactor  float64
	OfferedLoad bool
	Policies    []string      // the runs' Series, in the runs table's order
	Rows        []MakespanRow // by replicate
	// Paper is the paper's makespan of each policy, then of BoundPacked
	// and BoundSequential, in hours; NaN where the paper file gives none.
	Paper []float64
}

// MakespanRow is one replicate of a MakespanTable; every value in
// seconds.
type MakespanRow struct {
	Replicate int64
	// Makespan holds one value per policy of the table: NaN for a policy
	// without a run in this replicate.
	Makespan           []float64
	Packed, Sequential float64
}

// makespanMetric is the paper file's metric of a makespan table.
const makespanMetric = "makespan@h"

// BuildMakespans returns a makespan table per workload and load factor of
// r that opt selects (opt.Metrics and opt.Baseline are not used). Two
// runs of one policy in one replicate, as a sweep's vary axes make, are
// an error: a makespan table compares policies on the same jobs.
func BuildMakespans(r *plot.Results, opt Options) ([]MakespanTable, error) {
	var out []MakespanTable
	for _, w := range workloadsOf(r, opt.Workloads) {
		runs, err := r.Select(plot.Selection{Workload: w, Policies: opt.Policies, LoadFactors: opt.LoadFactors})
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", w, err)
		}
		var loads []float64
		for _, x := range runs {
			if !slices.Contains(loads, x.LoadFactor) {
				loads = append(loads, x.LoadFactor)
			}
		}
		slices.Sort(loads)
		for _, l := range loads {
			t, err := makespanTable(runs, w, l, opt.Paper)
			if err != nil {
				return nil, fmt.Errorf("workload %s, load %g: %w", w, l, err)
			}
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no run of the workloads %s", r.Dir, strings.Join(opt.Workloads, ", "))
	}
	return out, nil
}

// makespanTable builds the table of the runs of load factor l.
func makespanTable(runs []*plot.Run, w string, l float64, paper []PaperValue) (MakespanTable, error) {
	t := MakespanTable{Workload: w, LoadFactor: l}
	byRep := map[int64][]*plot.Run{}
	var reps []int64
	for _, x := range runs {
		if x.LoadFactor != l {
			continue
		}
		t.OfferedLoad = x.OfferedLoad
		if !slices.Contains(t.Policies, x.Series()) {
			t.Policies = append(t.Policies, x.Series())
		}
		if _, ok := byRep[x.Replicate]; !ok {
			reps = append(reps, x.Replicate)
		}
		for _, y := range byRep[x.Replicate] {
			if y.Series() == x.Series() {
				return t, fmt.Errorf("%w: replicate %d has two runs of %s (%s and %s); a makespan table compares one run per policy",
					plot.ErrSelection, x.Replicate, x.Series(), y.Key, x.Key)
			}
		}
		byRep[x.Replicate] = append(byRep[x.Replicate], x)
	}
	slices.Sort(reps)
	for _, rep := range reps {
		row, err := makespanRow(rep, byRep[rep], t.Policies)
		if err != nil {
			return t, err
		}
		t.Rows = append(t.Rows, row)
	}
	for _, p := range append(slices.Clone(t.Policies), BoundPacked, BoundSequential) {
		t.Paper = append(t.Paper, paperFor(paper, w, p, l, makespanMetric))
	}
	return t, nil
}

// makespanRow reads one replicate's makespans and bounds from its runs,
// the bounds summed in the runs' order as plot.UtilizationValues sums
// them, so that the two print the same digits.
func makespanRow(rep int64, runs []*plot.Run, policies []string) (MakespanRow, error) {
	row := MakespanRow{Replicate: rep, Makespan: make([]float64, len(policies))}
	for i := range row.Makespan {
		row.Makespan[i] = math.NaN()
	}
	n := float64(len(runs))
	for _, x := range runs {
		var v [6]float64
		for i, name := range []string{"makespan", "utilization", "finished", "killed", "response_mean", "wait_mean"} {
			var err error
			if v[i], err = x.Metric(name); err != nil {
				return row, err
			}
		}
		row.Makespan[slices.Index(policies, x.Series())] = v[0]
		row.Packed += v[1] * v[0] / n
		if ran := v[2] + v[3]; ran > 0 {
			row.Sequential += ran * (v[4] - v[5]) / n
		}
	}
	return row, nil
}

// columns returns the row's values in the table's column order: each
// policy's makespan, then the two bounds, in seconds.
func (r MakespanRow) columns() []float64 {
	return append(slices.Clone(r.Makespan), r.Packed, r.Sequential)
}

// means returns the mean over the rows of each column, in seconds.
func (t MakespanTable) means() []float64 {
	out := make([]float64, len(t.Policies)+2)
	for _, r := range t.Rows {
		for i, v := range r.columns() {
			out[i] += v / float64(len(t.Rows))
		}
	}
	return out
}

// MakespanMarkdown renders makespan tables: a line saying what the
// numbers are, then for each table its workload and load and a row per
// replicate with each policy's makespan and the two bounds in hours (two
// decimals), their means, the means over the mean of the every-processor-
// busy bound, and, where the paper file gives them, the paper's values
// (in bold, as the file writes them) and those over the paper's bound.
func MakespanMarkdown(ts []MakespanTable) string {
	var b strings.Builder
	b.WriteString("Makespan in hours, from the first submission to the last end, of each replicate (the same jobs under each policy), " +
		"beside two bounds on any makespan of its jobs: " + BoundPacked + " (utilization × makespan, the processor-hours held over the processors) " +
		"and " + BoundSequential + " (the sum of the run times); each bound the mean over the replicate's runs.\n")
	for _, t := range ts {
		load := "load factor"
		if t.OfferedLoad {
			load = "offered load"
		}
		fmt.Fprintf(&b, "\n*%s, %s %s*:\n\n", t.Workload, load, strconv.FormatFloat(t.LoadFactor, 'g', -1, 64))
		writeMakespans(&b, t)
	}
	return b.String()
}

func writeMakespans(b *strings.Builder, t MakespanTable) {
	head := append([]string{"replicate"}, t.Policies...)
	line(b, append(head, BoundPacked, BoundSequential))
	sep := make([]string, len(head)+2)
	for i := range sep {
		sep[i] = "---"
	}
	line(b, sep)
	hours := func(label string, vals []float64) {
		cells := []string{label}
		for _, v := range vals {
			cells = append(cells, hoursText(v/3600))
		}
		line(b, cells)
	}
	for _, r := range t.Rows {
		hours(strconv.FormatInt(r.Replicate, 10), r.columns())
	}
	means := t.means()
	hours("mean", means)
	packed := len(t.Policies)
	ratios := []string{"÷ " + BoundPacked}
	for i, v := range means {
		ratios = append(ratios, boundRatio(i == packed, v/means[packed]))
	}
	line(b, ratios)
	if !slices.ContainsFunc(t.Paper, func(v float64) bool { return !math.IsNaN(v) }) {
		return
	}
	paper, over := []string{"**paper**"}, []string{"paper ÷ " + BoundPacked}
	for i, v := range t.Paper {
		if math.IsNaN(v) {
			paper = append(paper, "–")
		} else {
			paper = append(paper, "**"+strconv.FormatFloat(v, 'f', -1, 64)+"**")
		}
		over = append(over, boundRatio(i == packed, v/t.Paper[packed]))
	}
	line(b, paper)
	line(b, over)
}

// hoursText prints hours with two decimals, "–" for NaN.
func hoursText(h float64) string {
	if math.IsNaN(h) {
		return "–"
	}
	return strconv.FormatFloat(h, 'f', 2, 64)
}

// boundRatio prints a ratio to the packed bound: "1" for the bound
// itself, two decimals otherwise.
func boundRatio(self bool, r float64) string {
	if self && !math.IsNaN(r) {
		return "1"
	}
	return ratioText(r)
}

// MakespanCSV returns makespan tables as CSV records in long form: a
// header, then a row per workload, load factor, replicate and column (a
// policy or a bound) with the value in hours in its shortest exact form.
func MakespanCSV(ts []MakespanTable) [][]string {
	out := [][]string{{"workload", "load_factor", "replicate", "column", "hours"}}
	f := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, t := range ts {
		names := append(slices.Clone(t.Policies), BoundPacked, BoundSequential)
		for _, r := range t.Rows {
			for i, v := range r.columns() {
				out = append(out, []string{t.Workload, f(t.LoadFactor), strconv.FormatInt(r.Replicate, 10), names[i], f(v / 3600)})
			}
		}
	}
	return out
}
