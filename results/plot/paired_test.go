package plot_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

func TestPairedDifferences(t *testing.T) {
	r := load(t, writeFixture(t))
	// wait_mean is 100 × load (× 2 for fcfs) + replicate: easy − fcfs is
	// −100 × load on both replicates, whatever the replicate adds.
	ds, err := plot.PairedDifferences(r, plot.Options{Metrics: []string{"wait_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []plot.Difference{
		{Metric: "wait_mean", Policy: "easy", Baseline: "fcfs", LoadFactor: 0.5, Replicates: []int64{1, 2}, Diffs: []float64{-50, -50}, Mean: -50, Lo: -50, Hi: -50, BaselineMean: 101.5},
		{Metric: "wait_mean", Policy: "easy", Baseline: "fcfs", LoadFactor: 1, Replicates: []int64{1, 2}, Diffs: []float64{-100, -100}, Mean: -100, Lo: -100, Hi: -100, BaselineMean: 201.5},
	}
	if diff := cmp.Diff(want, ds, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	tab := plot.PairedTable(ds)
	if !strings.Contains(tab, "| wait_mean | 1 | easy | 2 | -100 | [-100, -100] | 201.5 | -49.6% |") {
		t.Errorf("table:\n%s", tab)
	}
	csv := plot.PairedCSV(ds)
	if diff := cmp.Diff([]string{"wait_mean", "0.5", "easy", "fcfs", "2", "-50", "-50", "-50", "101.5"}, csv[1]); diff != "" {
		t.Errorf("CSV row (-want +got):\n%s", diff)
	}

	// Against easy, fcfs is 100 × load slower.
	ds, err = plot.PairedDifferences(r, plot.Options{Baseline: "easy", Selection: plot.Selection{LoadFactors: []float64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Policy != "fcfs" || ds[0].Mean != 100 || ds[1].Metric != "bounded_slowdown_mean" || math.Abs(ds[1].Mean-0.5) > 1e-9 {
		t.Errorf("against easy: got %+v", ds)
	}
	f, err := plot.PairedFigure(ds, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "2 replicates") {
		t.Errorf("warnings %q; want one on two replicates", f.Warnings)
	}
	if err := f.Save(filepath.Join(t.TempDir(), "paired.png")); err != nil {
		t.Error(err)
	}

	for _, tc := range []struct {
		name string
		opt  plot.Options
		want string
	}{
		{"unknown baseline", plot.Options{Baseline: "sjf"}, `baseline "sjf"`},
		{"one policy", plot.Options{Selection: plot.Selection{Policies: []string{"easy"}}}, "besides the baseline"},
	} {
		if _, err := plot.PairedDifferences(r, tc.opt); !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want ErrSelection containing %q", tc.name, err, tc.want)
		}
	}
}

// TestPairedNoisyReplicates checks the interval against a hand
// computation: differences 1, 2 and 6 have mean 3, sample deviation
// √7, and t(0.975, 2) = 4.3027, so the interval is 3 ± 4.3027·√7/√3.
func TestPairedNoisyReplicates(t *testing.T) {
	dir := t.TempDir()
	var rows []results.RunRow
	for _, p := range []string{"a", "b"} {
		for rep, w := range []float64{10, 20, 30} {
			if p == "b" {
				w += []float64{1, 2, 6}[rep]
			}
			rows = append(rows, results.RunRow{
				RunInfo: results.RunInfo{Key: p + string(rune('1'+rep)), Experiment: "x", Params: []results.Param{
					{Name: "workload", Value: results.StringValue("w")},
					{Name: "policy", Value: results.StringValue(p)},
					{Name: "load_factor", Value: results.FloatValue(1)},
					{Name: "replicate", Value: results.IntValue(int64(rep + 1))},
				}},
				Jobs: 1, Finished: 1, Wait: results.Stats{Mean: w},
			})
		}
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	ds, err := plot.PairedDifferences(load(t, dir), plot.Options{Metrics: []string{"wait_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	half := 4.302652729911275 * math.Sqrt(7) / math.Sqrt(3)
	if len(ds) != 1 || math.Abs(ds[0].Mean-3) > 1e-9 || math.Abs(ds[0].Lo-(3-half)) > 1e-9 || math.Abs(ds[0].Hi-(3+half)) > 1e-9 {
		t.Errorf("got %+v; want mean 3, interval 3 ± %g", ds, half)
	}
}
