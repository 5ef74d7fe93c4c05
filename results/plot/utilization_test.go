package plot_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results/plot"
)

func TestUtilizationValues(t *testing.T) {
	dir := writeFixture(t)
	// fcfs-1-r1, beside the fixture's easy-1-r1 (half the processors in
	// every minute of 200): all processors in minutes 0–99, no row after.
	fcfs := fixtureKey("fcfs", 1, 1)
	var keys []string
	var mins []int64
	var procs, mem []float64
	for m := int64(0); m < 100; m++ {
		keys, mins, procs, mem = append(keys, fcfs), append(mins, m), append(procs, 1), append(mem, 0)
	}
	writeParquet(t, filepath.Join(dir, "utilization", "workload=mix/policy=fcfs/load_factor=1/replicate=1/part-"+fcfs+".parquet"),
		col{name: "run_key", values: keys}, col{name: "minute", values: mins},
		col{name: "procs", values: procs}, col{name: "memory", values: mem})
	r := load(t, dir)
	one := plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{1}}
	d, err := plot.UtilizationValues(r, plot.Options{Selection: one, BinMinutes: 60})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 2 || d.Runs[0].Key != fcfs || d.Runs[1].Key != heatmapRun || d.BinMinutes != 60 {
		t.Fatalf("got %d runs (%v), steps of %d minutes; want %s and %s, 60", len(d.Runs), d.Runs, d.BinMinutes, fcfs, heatmapRun)
	}
	// Makespan 12,000 s = 200 minutes: 4 steps, the last of 20 minutes.
	want := [][]float64{{1, 40.0 / 60, 0, 0}, {0.5, 0.5, 0.5, 0.5}}
	if diff := cmp.Diff(want, d.Procs); diff != "" {
		t.Errorf("procs (-want +got):\n%s", diff)
	}
	// Every run of the fixture at load 1: utilization 0.5 of 12,000 s;
	// 10 jobs finished, each responding 3,600 s after its wait.
	if d.Packed != 6000 || d.Sequential != 36000 || d.Makespan[0] != 12000 {
		t.Errorf("got packed %g s, sequential %g s, makespan %g s; want 6000, 36000, 12000", d.Packed, d.Sequential, d.Makespan[0])
	}
	// 12,000 s = 3.33 h; 6,000 s = 1.67 h; 36,000 s = 10 h.
	wantTable := "| policy | makespan (h) |\n| --- | --- |\n| fcfs | 3.33 |\n| easy | 3.33 |\n" +
		"| all processors busy (bound) | 1.67 |\n| one job at a time (bound) | 10.00 |\n"
	if tab := d.Table(); !strings.HasPrefix(tab, "Makespan in hours: workload mix, load factor 1, replicate 1\n\n") || !strings.HasSuffix(tab, wantTable) {
		t.Errorf("table:\n%s\nwant it to end with:\n%s", tab, wantTable)
	}
	f, err := plot.Utilization(r, plot.Options{Selection: one})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Save(filepath.Join(t.TempDir(), "u.png")); err != nil {
		t.Errorf("Save: %v", err)
	}
	// The time axis ends just after the longest makespan (3.33 h), not at
	// the one-job-at-a-time bound (10 h), which would squeeze the series
	// into a third of the plot.
	if x := f.Panels[0][0].X; x.Min != 0 || math.Abs(x.Max-1.04*12000/3600) > 1e-9 {
		t.Errorf("time axis [%g, %g] h; want [0, %g]", x.Min, x.Max, 1.04*12000/3600)
	}

	for _, tc := range []struct {
		name string
		opt  plot.Options
		err  error
		want string
	}{
		{"two replicates", plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}}}, plot.ErrSelection, "selects both"},
		{"two loads", plot.Options{Selection: plot.Selection{Policies: []string{"easy"}, Replicates: []int64{1}}}, plot.ErrSelection, "easy-1-r1"},
		{"no utilization file", plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}, Replicates: []int64{2}}}, plot.ErrMissingFile, "part-fcfs-1-r2.parquet"},
		{"a metric", plot.Options{Selection: one, Metrics: []string{"wait_mean"}}, plot.ErrUnknownMetric, "wait_mean"},
		{"negative width", plot.Options{Selection: one, BinMinutes: -1}, plot.ErrSelection, "negative"},
	} {
		_, err := plot.UtilizationValues(r, tc.opt)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v; want %v containing %q", tc.name, err, tc.err, tc.want)
		}
	}
}

// TestFractionalMinute checks that both figures that read a utilization
// file refuse a minute that is not a whole number.
func TestFractionalMinute(t *testing.T) {
	dir := writeFixture(t)
	writeParquet(t, filepath.Join(dir, "utilization", "workload=mix/policy=easy/load_factor=1/replicate=1/part-"+heatmapRun+".parquet"),
		col{name: "run_key", values: []string{heatmapRun, heatmapRun}}, col{name: "minute", values: []float64{0, 1.5}},
		col{name: "procs", values: []float64{0.5, 0.5}}, col{name: "memory", values: []float64{0, 0}})
	r := load(t, dir)
	opt := plot.Options{Selection: plot.Selection{Run: heatmapRun}}
	for name, read := range map[string]func() error{
		"UtilizationValues": func() error { _, err := plot.UtilizationValues(r, opt); return err },
		"HeatmapValues":     func() error { _, err := plot.HeatmapValues(r, opt); return err },
	} {
		if err := read(); err == nil || !strings.Contains(err.Error(), "row 1: minute 1.5 is not a whole number") {
			t.Errorf("%s: got %v; want an error naming row 1's minute 1.5", name, err)
		}
	}
}

// TestUtilizationFigureFromData checks that UtilizationData.Figure draws
// what Utilization draws without reading a file, so that a caller wanting
// both the figure and the table (schedsweep plot utilization) reads the
// utilization files once: with the files gone, Utilization fails and
// Figure still draws the same bytes.
func TestUtilizationFigureFromData(t *testing.T) {
	dir := writeFixture(t)
	r := load(t, dir)
	opt := plot.Options{Selection: plot.Selection{Run: heatmapRun}}
	d, err := plot.UtilizationValues(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plot.Utilization(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "utilization")); err != nil {
		t.Fatal(err)
	}
	if _, err := plot.Utilization(r, opt); err == nil {
		t.Fatal("Utilization without the utilization files: got no error; want one, or the check below proves nothing")
	}
	got, err := d.Figure(opt)
	if err != nil {
		t.Fatalf("Figure without the utilization files: %v", err)
	}
	var a, b bytes.Buffer
	if err := want.Write(&a, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := got.Write(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() == 0 {
		t.Errorf("Figure drew %d bytes of SVG, Utilization %d; want the same bytes", b.Len(), a.Len())
	}
}
