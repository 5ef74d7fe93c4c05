package tables

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Markdown renders the tables: a line saying what the numbers are, then
// for each workload its name (when there are several) and a table with a
// row per load factor and policy and, per metric, a column of means (with
// "± half-width" of the confidence interval when there are replicates), a
// column of ratios to the baseline when there is one, and a column of the
// paper's values when the paper file gives any for the metric.
func Markdown(ts []Table) string {
	var b strings.Builder
	b.WriteString(legend(ts))
	for _, t := range ts {
		b.WriteString("\n")
		if len(ts) > 1 {
			fmt.Fprintf(&b, "*%s*:\n\n", t.Workload)
		}
		writeTable(&b, t)
	}
	return b.String()
}

// legend says what the cells hold.
func legend(ts []Table) string {
	n, runs, ratio := 0, 0, ""
	var aggs []string
	for _, t := range ts {
		n, runs = max(n, t.Replicates), max(runs, t.Runs)
		for _, s := range t.Specs {
			if s.Users {
				aggs = append(aggs, s.Agg)
			}
		}
		if t.Baseline != "" {
			ratio = t.Baseline
		}
	}
	var parts []string
	switch {
	case n > 1:
		parts = append(parts, fmt.Sprintf("Means over %d replicates ± the half-width of the 95 %% confidence interval of the mean (Student's t, %d degrees of freedom).", n, n-1))
	case runs > 1:
		parts = append(parts, fmt.Sprintf("Each cell: %d runs (replicates).", runs))
	default:
		parts = append(parts, "One run per cell.")
	}
	if len(aggs) > 0 {
		parts = append(parts, "Users' columns pool the users of every replicate"+aggNotes(aggs)+".")
	}
	if ratio != "" {
		parts = append(parts, fmt.Sprintf("÷ %s: the policy's mean over %s's at the same load (runs' columns only).", ratio, ratio))
	}
	return strings.Join(parts, " ") + "\n"
}

// aggNotes says what the users' summaries in aggs are, for the legend:
// each kind once, in a fixed order.
func aggNotes(aggs []string) string {
	has := func(f func(string) bool) bool { return slices.ContainsFunc(aggs, f) }
	is := func(names ...string) func(string) bool {
		return func(a string) bool { return slices.Contains(names, a) }
	}
	var notes []string
	if has(is("median", "p75")) {
		notes = append(notes, "median and p75 interpolate linearly (type 7)")
	}
	if has(is("ones")) {
		notes = append(notes, "ones counts the users at 100 %")
	}
	if has(is("a1", "a2", "a3", "a4", "a5")) {
		notes = append(notes, "a1–a5 are the mean over the users of that accuracy class")
	}
	if has(is("spread")) {
		notes = append(notes, "spread is the lowest class's mean over the highest's")
	}
	if has(func(a string) bool { return strings.Contains(a, "/") }) {
		notes = append(notes, "aX/aY is class X's mean over class Y's")
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ")
}

func writeTable(b *strings.Builder, t Table) {
	load := "load factor"
	if t.OfferedLoad {
		load = "offered load"
	}
	head := []string{load, "policy"}
	paper := make([]bool, len(t.Specs))
	for i, s := range t.Specs {
		head = append(head, s.header())
		if t.Baseline != "" && !s.Users {
			head = append(head, "÷ "+t.Baseline)
		}
		for _, r := range t.Rows {
			paper[i] = paper[i] || !math.IsNaN(r.Cells[i].Paper)
		}
		if paper[i] {
			head = append(head, "paper")
		}
	}
	line(b, head)
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	line(b, sep)
	for _, r := range t.Rows {
		cells := []string{strconv.FormatFloat(r.LoadFactor, 'g', -1, 64), r.Policy}
		for i, c := range r.Cells {
			cells = append(cells, meanText(t.Specs[i], c))
			if t.Baseline != "" && !t.Specs[i].Users {
				cells = append(cells, ratioText(c.Ratio))
			}
			if paper[i] {
				cells = append(cells, Number(c.Paper))
			}
		}
		line(b, cells)
	}
}

func line(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

func meanText(s Spec, c Cell) string {
	if (s.Agg == "spread" || strings.Contains(s.Agg, "/")) && !math.IsNaN(c.Mean) {
		return strconv.FormatFloat(c.Mean, 'f', 2, 64)
	}
	if s.Agg == "ones" && !math.IsNaN(c.Mean) {
		return strconv.Itoa(int(c.Mean))
	}
	if math.IsNaN(c.Lo) || math.IsNaN(c.Mean) {
		return Number(c.Mean)
	}
	return Number(c.Mean) + " ± " + Number((c.Hi-c.Lo)/2)
}

func ratioText(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "–"
	}
	return strconv.FormatFloat(r, 'f', 2, 64)
}

// Number formats a value for a table: three significant digits but at
// most two decimals, whole numbers from 1,000 with thousands separators,
// "–" for NaN.
func Number(v float64) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v == 0:
		return "0"
	}
	a := math.Abs(v)
	if a >= 1000 {
		return thousands(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	decimals := max(0, min(2, 2-int(math.Floor(math.Log10(a)))))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s == "-0" || strings.Trim(s, "-0.") == "" {
		return "0"
	}
	return s
}

// thousands puts commas between groups of three digits of an integer.
func thousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}

// CSV returns the tables as CSV records in long form: a header, then a
// row per workload, load factor, policy and metric with the mean, the
// confidence interval's bounds, N, the ratio to the baseline and the
// paper's value, in the metric's unit, in their shortest exact form (an
// empty field for NaN).
func CSV(ts []Table) [][]string {
	out := [][]string{{"workload", "load_factor", "policy", "metric", "unit", "mean", "ci_low", "ci_high", "n", "baseline", "ratio", "paper"}}
	f := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, t := range ts {
		for _, r := range t.Rows {
			for i, c := range r.Cells {
				s := t.Specs[i]
				out = append(out, []string{t.Workload, f(r.LoadFactor), r.Policy, s.Text, s.Unit,
					f(c.Mean), f(c.Lo), f(c.Hi), strconv.Itoa(c.N), t.Baseline, f(c.Ratio), f(c.Paper)})
			}
		}
	}
	return out
}
