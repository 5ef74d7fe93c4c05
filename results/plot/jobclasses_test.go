package plot_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedsweep/schedsweep/results/plot"
)

func TestJobClassMeans(t *testing.T) {
	dir := writeFixture(t)
	nan := math.NaN()
	// fcfs: one job of each class, waiting 0, 100, 1000 and 50 s, and a
	// rejected one; easy: a short narrow job waiting 10 s.
	writeJobs(t, dir, "fcfs", 1, 1, []fixtureJob{
		{0, 0, 100, 100, 200, 1}, {0, 100, 200, 100, 200, 16}, {0, 1000, 8200, 7200, 8000, 1}, {0, 50, 7250, 7200, 8000, 64}, {0, nan, nan, 10, 10, 999}})
	writeJobs(t, dir, "easy", 1, 1, []fixtureJob{{0, 10, 110, 100, 200, 8}})
	r := load(t, dir)
	one := plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{1}}
	d, err := plot.ClassesOf(r, plot.Options{Selection: one, ClassBy: "size"})
	if err != nil {
		t.Fatal(err)
	}
	cm := func(p string, c int, mean float64, jobs int) plot.ClassMean {
		return plot.ClassMean{Workload: "mix", Policy: p, Class: c, Mean: mean, Users: jobs, Runs: 1, Min: mean, Max: mean}
	}
	want := []plot.ClassMean{cm("fcfs", 1, 0, 1), cm("fcfs", 2, 100, 1), cm("fcfs", 3, 1000, 1), cm("fcfs", 4, 50, 1), cm("easy", 1, 10, 1)}
	if diff := cmp.Diff(want, d.Means); diff != "" {
		t.Errorf("means (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]plot.ClassMean{cm("fcfs", 0, 287.5, 4), cm("easy", 0, 10, 1)}, d.All); diff != "" {
		t.Errorf("all jobs (-want +got):\n%s", diff)
	}
	if d.Of != "jobs" || d.Classes[0] != "short narrow (≤ 1 hour, ≤ 8 procs)" {
		t.Errorf("of %q, classes %q", d.Of, d.Classes)
	}
	tab := d.Table()
	for _, s := range []string{"| workload | policy | short narrow | short wide | long narrow | long wide | all jobs |",
		"| mix | fcfs | 0.0 (1) | 1.7 (1) | 16.7 (1) | 0.8 (1) | 4.8 (4) |", "| mix | easy | 0.2 (1) | – | – | – | 0.2 (1) |"} {
		if !strings.Contains(tab, s) {
			t.Errorf("table lacks %q:\n%s", s, tab)
		}
	}
	if diff := cmp.Diff([]string{"mix", "fcfs", "short wide", "wait", "100", "1", "1", "100", "100"}, d.CSV()[2]); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	f, err := d.Figure(plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(t.TempDir(), "classes.png")); err != nil {
		t.Error(err)
	}

	// Two hours is short, sixteen processors narrow.
	d, err = plot.JobClassMeans(r, plot.Options{Selection: one, ShortSeconds: 7200, NarrowProcs: 16})
	if err != nil {
		t.Fatal(err)
	}
	want = []plot.ClassMean{cm("fcfs", 1, 1100.0/3, 3), cm("fcfs", 2, 50, 1), cm("easy", 1, 10, 1)}
	want[0].Min, want[0].Max = 1100.0/3, 1100.0/3
	if diff := cmp.Diff(want, d.Means, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("thresholds 2 h, 16 procs (-want +got):\n%s", diff)
	}
	if _, err := plot.ClassesOf(r, plot.Options{Selection: one, ClassBy: "width"}); !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "accuracy") {
		t.Errorf("classes by width: got %v", err)
	}
}
