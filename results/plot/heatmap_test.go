package plot_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results/plot"
)

func TestHeatmapValues(t *testing.T) {
	r := load(t, writeFixture(t))
	d, err := plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Policies: []string{"easy"}, LoadFactors: []float64{1}, Replicates: []int64{1}}, BinMinutes: 60})
	if err != nil {
		t.Fatal(err)
	}
	if d.Run.Key != heatmapRun || d.Bins != 4 || d.BinMinutes != 60 {
		t.Fatalf("got run %s, %d cells of %d minutes; want %s, 4 of 60", d.Run.Key, d.Bins, d.BinMinutes, heatmapRun)
	}
	if got := fmt.Sprint(d.Users); got != "[NaN 1 2 3]" {
		t.Errorf("users %s; want [NaN 1 2 3], the unknown user first", got)
	}
	// User 1: 10 violation-minutes in the first hour; user 3: 2 × 20 in
	// the second. The last cell holds 20 minutes of the 200.
	want := [][]float64{{0, 0, 0, 0}, {10.0 / 60, 0, 0, 0}, {0, 0, 0, 0}, {0, 40.0 / 60, 0, 0}}
	if diff := cmp.Diff(want, d.Violations); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]float64{0.5, 0.5, 0.5, 0.5}, d.Procs); diff != "" {
		t.Errorf("procs (-want +got):\n%s", diff)
	}
	// Chosen width: 200 minutes fit 300 one-minute cells.
	d, err = plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Run: heatmapRun}})
	if err != nil || d.BinMinutes != 1 || d.Bins != 200 || d.Violations[3][100] != 2 {
		t.Errorf("automatic cells: got %d of %d minutes, %v; want 200 of 1, user 3 at 2 in minute 100", d.Bins, d.BinMinutes, err)
	}
	// Not one run.
	_, err = plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Policies: []string{"easy"}}})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "selects 4") || !strings.Contains(err.Error(), "easy-0.5-r2 (workload mix") {
		t.Errorf("a heatmap of 4 runs: got %v; want ErrSelection listing them", err)
	}
}
