package tables_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/results/tables"
)

// TestMakespans checks the makespan tables against the utilization
// figure's numbers, replicate by replicate (the same makespans and the
// same bounds, to the last bit), and the rows the Markdown adds: the
// means, the means over the packed bound, and the paper's values.
func TestMakespans(t *testing.T) {
	r, err := plot.Load(sweep(t))
	if err != nil {
		t.Fatal(err)
	}
	paper := []tables.PaperValue{
		{Policy: "easy", LoadFactor: 2, Metric: "makespan@h", Value: 30},
		{Policy: tables.BoundPacked, LoadFactor: 2, Metric: "makespan@h", Value: 20},
		{Policy: "fcfs", LoadFactor: math.NaN(), Metric: "wait_mean@h", Value: 99}, // another metric
	}
	ts, err := tables.BuildMakespans(r, tables.Options{Paper: paper})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].LoadFactor != 1 || ts[1].LoadFactor != 2 || len(ts[0].Rows) != 3 || strings.Join(ts[0].Policies, ",") != "fcfs,easy" {
		t.Fatalf("got %+v; want tables at load factors 1 and 2 of 3 replicates under fcfs and easy", ts)
	}
	for _, tb := range ts {
		for _, row := range tb.Rows {
			d, err := plot.UtilizationValues(r, plot.Options{Selection: plot.Selection{
				Workload: tb.Workload, LoadFactors: []float64{tb.LoadFactor}, Replicates: []int64{row.Replicate}}})
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range d.Runs {
				if got := row.Makespan[i]; x.Series() != tb.Policies[i] || got != d.Makespan[i] {
					t.Errorf("load %g, replicate %d, %s: makespan %g; the utilization figure's %s %g", tb.LoadFactor, row.Replicate, tb.Policies[i], got, x.Series(), d.Makespan[i])
				}
			}
			if row.Packed != d.Packed || row.Sequential != d.Sequential || !(row.Packed > 0) || !(row.Sequential >= row.Packed) {
				t.Errorf("load %g, replicate %d: bounds %g and %g; the utilization figure's %g and %g", tb.LoadFactor, row.Replicate, row.Packed, row.Sequential, d.Packed, d.Sequential)
			}
		}
	}
	want := []float64{math.NaN(), 30, 20, math.NaN()}
	for i, v := range ts[1].Paper {
		if v != want[i] && !(math.IsNaN(v) && math.IsNaN(want[i])) {
			t.Errorf("load 2: paper %v; want %v", ts[1].Paper, want)
			break
		}
	}

	// The mean row and its ratios, from the rows.
	tb := ts[1]
	means := make([]float64, 4)
	for _, row := range tb.Rows {
		for i, v := range []float64{row.Makespan[0], row.Makespan[1], row.Packed, row.Sequential} {
			means[i] += v / 3600 / 3
		}
	}
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	md := tables.MakespanMarkdown(ts)
	load2 := md[strings.Index(md, "*mix, load factor 2*"):]
	for _, line := range []string{
		"| replicate | fcfs | easy | every processor busy | one job at a time |\n| --- | --- | --- | --- | --- |\n| 1 | ",
		"| mean | " + f2(means[0]) + " | " + f2(means[1]) + " | " + f2(means[2]) + " | " + f2(means[3]) + " |\n",
		"| ÷ every processor busy | " + f2(means[0]/means[2]) + " | " + f2(means[1]/means[2]) + " | 1 | " + f2(means[3]/means[2]) + " |\n",
		"| **paper** | – | **30** | **20** | – |\n",
		"| paper ÷ every processor busy | – | 1.50 | 1 | – |\n",
	} {
		if !strings.Contains(load2, line) {
			t.Errorf("Markdown at load factor 2 lacks %q:\n%s", line, load2)
		}
	}
	if strings.Count(md, "| **paper** |") != 1 {
		t.Errorf("the paper's rows should appear only where the paper file gives a value:\n%s", md)
	}
	if got := len(tables.MakespanCSV(ts)); got != 1+2*3*4 {
		t.Errorf("CSV has %d records; want a header and 24", got)
	}
}
