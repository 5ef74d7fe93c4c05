package plot_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results/plot"
)

func TestECDF(t *testing.T) {
	dir := writeFixture(t)
	nan := math.NaN()
	// fcfs waits 0, 10, 100 and 1000 s; a fifth job was rejected. easy
	// waits 0, 0, 10 and 20 s.
	writeJobs(t, dir, "fcfs", 1, 1, []fixtureJob{
		{0, 0, 100, 100, 200, 1}, {0, 10, 110, 100, 200, 1}, {0, 100, 200, 100, 200, 1}, {0, 1000, 1100, 100, 200, 1}, {5, nan, nan, 100, 200, 999}})
	writeJobs(t, dir, "easy", 1, 1, []fixtureJob{
		{0, 0, 100, 100, 200, 1}, {0, 0, 100, 100, 200, 1}, {0, 10, 110, 100, 200, 1}, {0, 20, 120, 100, 200, 1}})
	r := load(t, dir)
	one := plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{1}}
	d, err := plot.ECDFValues(r, plot.Options{Selection: one})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Curves) != 2 || d.Metric != "wait" {
		t.Fatalf("got %d curves of %s; want 2 of wait", len(d.Curves), d.Metric)
	}
	fcfs, easy := d.Curves[0], d.Curves[1]
	if diff := cmp.Diff([]float64{0, 10, 100, 1000}, fcfs.Values); diff != "" || fcfs.Policy != "fcfs" {
		t.Errorf("fcfs (%s) waits (-want +got):\n%s", fcfs.Policy, diff)
	}
	for _, tc := range []struct {
		c          plot.Curve
		at, share  float64
		q, quantil float64
	}{
		{fcfs, 10, 0.5, 0.5, 10},
		{fcfs, 9.9, 0.25, 0.95, 1000},
		{easy, 0, 0.5, 0.5, 0},
		{easy, 20, 1, 0.75, 10},
	} {
		if got := tc.c.At(tc.at); got != tc.share {
			t.Errorf("%s: At(%g) = %g; want %g", tc.c.Policy, tc.at, got, tc.share)
		}
		if got := tc.c.Quantile(tc.q); got != tc.quantil {
			t.Errorf("%s: Quantile(%g) = %g; want %g", tc.c.Policy, tc.q, got, tc.quantil)
		}
	}
	// A largest 95th percentile of 1000 s is shown in minutes.
	if tab := d.Table(); !strings.Contains(tab, "wait (minutes)") || !strings.Contains(tab, "| 1 | fcfs | 4 | 4.62 | 0.17 | 16.67 | 16.67 | 16.67 | 16.67 |") {
		t.Errorf("table:\n%s", tab)
	}
	if diff := cmp.Diff([]string{"mix", "wait", "easy", "1", "4", "7.5", "0", "20", "20", "20", "20"}, d.CSV()[2]); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	f, err := d.Figure(plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(t.TempDir(), "ecdf.png")); err != nil {
		t.Error(err)
	}
	bs, err := plot.ECDFValues(r, plot.Options{Selection: one, Metrics: []string{"bounded_slowdown"}})
	if err != nil || bs.Curves[0].Values[3] != 11 {
		t.Errorf("bounded slowdown: %v, %v; want fcfs's largest 11 ((1000+100)/100)", err, bs)
	}

	for _, tc := range []struct {
		name string
		opt  plot.Options
		err  error
		want string
	}{
		{"no jobs file", plot.Options{Selection: plot.Selection{LoadFactors: []float64{0.5}}}, plot.ErrMissingFile, "part-fcfs-0.5-r1.parquet"},
		{"not a jobs column", plot.Options{Selection: one, Metrics: []string{"wait_mean"}}, plot.ErrUnknownMetric, "wait, response"},
	} {
		if _, err := plot.ECDFValues(r, tc.opt); !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want %v containing %q", tc.name, err, tc.err, tc.want)
		}
	}
	if _, err := plot.ECDFValues(load(t, writeFixture(t)), plot.Options{}); !errors.Is(err, plot.ErrMissingFile) || !strings.Contains(err.Error(), "jobs = false") {
		t.Errorf("a folder without jobs files: got %v", err)
	}
}
