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

func TestQueue(t *testing.T) {
	dir := writeFixture(t)
	nan := math.NaN()
	// fcfs: a job that starts at once; one of 2 processors and 100 s
	// asked that waits minutes 0–10; one of 1 processor and 200 s that
	// waits from minute 1 to 20; a rejected job, which never waits.
	writeJobs(t, dir, "fcfs", 1, 1, []fixtureJob{
		{0, 0, 50, 50, 60, 4}, {0, 600, 700, 100, 100, 2}, {60, 1200, 1300, 100, 200, 1}, {30, nan, nan, 10, 10, 999}})
	// easy: nothing waits.
	writeJobs(t, dir, "easy", 1, 1, []fixtureJob{{0, 0, 50, 50, 60, 4}})
	r := load(t, dir)
	one := plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{1}}
	d, err := plot.QueueValues(r, plot.Options{Selection: one, BinMinutes: 10})
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's makespan, 12,000 s, is 20 steps of 10 minutes.
	wantLen, wantWork := make([]float64, 20), make([]float64, 20)
	wantLen[0], wantWork[0] = 1+0.9, 2*100+0.9*200
	wantLen[1], wantWork[1] = 1, 200
	if diff := cmp.Diff([][]float64{wantLen, make([]float64, 20)}, d.Length, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("jobs waiting (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]float64{wantWork, make([]float64, 20)}, d.Work, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("waiting work (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]float64{2, 0}, d.MaxLength); diff != "" {
		t.Errorf("most jobs waiting (-want +got):\n%s", diff)
	}
	// 2.9 job-steps of 600 s over 12,000 s; no cluster_procs in the
	// fixture, so no machine-hours.
	if tab := d.Table(); !strings.Contains(tab, "| fcfs | 0.14 | 2 | – |") {
		t.Errorf("table:\n%s", tab)
	}
	if diff := cmp.Diff([]string{"fcfs-1-r1", "fcfs", "10", "1", "200"}, d.CSV()[2]); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
	f, err := d.Figure(plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(t.TempDir(), "queue.svg")); err != nil {
		t.Error(err)
	}
	if _, err := plot.QueueValues(r, plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}}}); !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "selects both") {
		t.Errorf("two replicates: got %v; want ErrSelection", err)
	}
}
