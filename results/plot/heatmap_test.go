package plot_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/sim"
)

func TestHeatmapValues(t *testing.T) {
	r := load(t, writeFixture(t))
	d, err := plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Policies: []string{"easy"}, LoadFactors: []float64{1}, Replicates: []int64{1}}, BinMinutes: 60})
	if err != nil {
		t.Fatal(err)
	}
	if d.Run.Key != heatmapRun || d.Bins() != 4 || d.BinMinutes != 60 {
		t.Fatalf("got run %s, %d cells of %d minutes; want %s, 4 of 60", d.Run.Key, d.Bins(), d.BinMinutes, heatmapRun)
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
	if err != nil || d.BinMinutes != 1 || d.Bins() != 200 || d.Violations[3][100] != 2 {
		t.Errorf("automatic cells: got %d of %d minutes, %v; want 200 of 1, user 3 at 2 in minute 100", d.Bins(), d.BinMinutes, err)
	}
	// Not one run.
	_, err = plot.HeatmapValues(r, plot.Options{Selection: plot.Selection{Policies: []string{"easy"}}})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "selects 4") || !strings.Contains(err.Error(), "easy-0.5-r2 (workload mix") {
		t.Errorf("a heatmap of 4 runs: got %v; want ErrSelection listing them", err)
	}
}

// TestHeatmapValuesBuckets reads heatmap and utilization files as results
// writes them, in buckets of 60 s and of 120 s, holding the fixture's
// minutes: both give the values of the fixture's files.
func TestHeatmapValuesBuckets(t *testing.T) {
	dir := writeFixture(t)
	opt := plot.Options{Selection: plot.Selection{Run: heatmapRun}, BinMinutes: 60}
	want, err := plot.HeatmapValues(load(t, dir), opt)
	if err != nil {
		t.Fatal(err)
	}
	wantUtil, err := plot.UtilizationValues(load(t, dir), opt)
	if err != nil {
		t.Fatal(err)
	}
	part := "workload=mix/policy=easy/load_factor=1/replicate=1/part-" + heatmapRun + ".parquet"
	for _, minutes := range []int64{1, 2} {
		// The fixture: user 1 has one violated EET in minutes 0–9, user 3
		// two in minutes 100–119; processors are half busy and memory a
		// quarter over 200 minutes.
		var cells []results.HeatCell
		for m := int64(0); m < 10; m += minutes {
			cells = append(cells, results.HeatCell{User: 1, Bucket: m / minutes, Count: 1})
		}
		for m := int64(100); m < 120; m += minutes {
			cells = append(cells, results.HeatCell{User: 3, Bucket: m / minutes, Count: 2})
		}
		var pts []results.UtilPoint
		for m := int64(0); m < 200; m += minutes {
			pts = append(pts, results.UtilPoint{Bucket: m / minutes, Procs: 0.5, Memory: 0.25})
		}
		bucket := sim.Time(60 * minutes)
		if err := results.WriteHeatmap(filepath.Join(dir, "heatmap", part), heatmapRun, bucket, cells, results.Metadata{}); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteUtilization(filepath.Join(dir, "utilization", part), heatmapRun, bucket, pts, results.Metadata{}); err != nil {
			t.Fatal(err)
		}
		got, err := plot.HeatmapValues(load(t, dir), opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateNaNs(), cmpopts.IgnoreFields(plot.HeatmapData{}, "Run")); d != "" {
			t.Errorf("buckets of %d s: heatmap values (-minutes +buckets):\n%s", bucket, d)
		}
		gotUtil, err := plot.UtilizationValues(load(t, dir), opt)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantUtil.Procs, gotUtil.Procs); d != "" {
			t.Errorf("buckets of %d s: utilization (-minutes +buckets):\n%s", bucket, d)
		}
	}
}
