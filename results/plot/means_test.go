package plot_test

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

func TestPoints(t *testing.T) {
	r := load(t, writeFixture(t))
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		got = append(got, fmt.Sprintf("%s %s@%g: %g [%g, %g] n=%d", p.Metric, p.Policy, p.LoadFactor, p.Mean, p.Min, p.Max, p.N))
	}
	want := []string{
		"wait_mean fcfs@0.5: 101.5 [101, 102] n=2",
		"wait_mean fcfs@1: 201.5 [201, 202] n=2",
		"wait_mean easy@0.5: 51.5 [51, 52] n=2",
		"wait_mean easy@1: 101.5 [101, 102] n=2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("points (-want +got):\n%s", diff)
	}
	// Two replicates, 101 and 102: s = √0.5, t(0.975, 1 d.f.) = 12.7062,
	// half-width 12.7062 × √0.5 / √2 = 6.3531.
	if p := pts[0]; math.Abs(p.Lo-95.1469) > 1e-3 || math.Abs(p.Hi-107.8531) > 1e-3 {
		t.Errorf("fcfs@0.5: confidence interval [%g, %g]; want [95.1469, 107.8531]", p.Lo, p.Hi)
	}
}

// TestPointsWithoutValues checks that a metric no selected run has a value
// of (no job ran in any: runs.parquet holds NULL) is refused, naming it,
// rather than drawn as an empty figure; a metric they have still draws.
func TestPointsWithoutValues(t *testing.T) {
	rows := fixtureRuns()
	for i := range rows {
		rows[i].Finished, rows[i].Rejected = 0, rows[i].Jobs
		rows[i].Wait, rows[i].Response, rows[i].Slowdown, rows[i].BoundedSlowdown = results.Stats{}, results.Stats{}, results.Stats{}, results.Stats{}
	}
	dir := t.TempDir()
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	r := load(t, dir)
	_, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "no selected run has a value of wait_mean") {
		t.Errorf("wait_mean where no job ran: got %v; want ErrSelection naming wait_mean", err)
	}
	if _, err := plot.Points(r, plot.Options{Metrics: []string{"utilization"}}); err != nil {
		t.Errorf("utilization where no job ran: %v", err)
	}
}

// TestCIWarning: the fixture has two replicates a point; intervals over
// them are drawn, with a warning, and none without --ci.
func TestCIWarning(t *testing.T) {
	r := load(t, writeFixture(t))
	for _, tc := range []struct {
		name string
		draw func(*plot.Results, plot.Options) (*plot.Figure, error)
		opt  plot.Options
		want string // "" for no warning
	}{
		{"means with ci", plot.Means, plot.Options{CI: true}, "over 2 replicates"},
		{"load with ci", plot.LoadLines, plot.Options{CI: true}, "over 2 replicates"},
		{"means", plot.Means, plot.Options{}, ""},
		{"load, one replicate", plot.LoadLines, plot.Options{CI: true, Selection: plot.Selection{Replicates: []int64{1}}}, "at least two replicates"},
	} {
		f, err := tc.draw(r, tc.opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := strings.Join(f.Warnings, "; ")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: warnings %q; want %q", tc.name, got, tc.want)
		}
	}
}
