package plot_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

func TestBoxValues(t *testing.T) {
	r := load(t, writeFixture(t))
	d, err := plot.BoxValues(r, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Metric != "veet_share" || d.Workload != "mix" || d.Log {
		t.Errorf("got metric %s of workload %s, log %v; want veet_share of mix, linear", d.Metric, d.Workload, d.Log)
	}
	// Eight runs, one row per run of the unknown user; one user with no
	// job that ran.
	if d.Unknown != 8 || d.NoValue != 1 {
		t.Errorf("left out %d unknown-user rows and %d without a value; want 8 and 1", d.Unknown, d.NoValue)
	}
	var got []string
	for _, b := range d.Boxes {
		got = append(got, fmt.Sprintf("%s@%g %v %v %.2f", b.Policy, b.LoadFactor, b.Runs, b.Users, b.Values))
	}
	want := []string{
		"fcfs@0.5 [fcfs-0.5-r1 fcfs-0.5-r2] [1 2 3 1 2 3] [0.65 0.75 0.85 0.65 0.75 0.85]",
		"fcfs@1 [fcfs-1-r1 fcfs-1-r2] [1 2 3 1 2] [0.70 0.80 0.90 0.70 0.80]",
		"easy@0.5 [easy-0.5-r1 easy-0.5-r2] [1 2 3 1 2 3] [0.15 0.25 0.35 0.15 0.25 0.35]",
		"easy@1 [easy-1-r1 easy-1-r2] [1 2 3 1 2 3] [0.20 0.30 0.40 0.20 0.30 0.40]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("boxes (-want +got):\n%s", diff)
	}
	// One load factor: one box per policy.
	d, err = plot.BoxValues(r, plot.Options{Metrics: []string{"weighted_tardiness"}, Selection: plot.Selection{LoadFactors: []float64{1}}})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Log || len(d.Boxes) != 2 || d.Boxes[1].Policy != "easy" || d.Boxes[1].Values[0] != 0 || d.Boxes[0].Values[2] != 3000 {
		t.Errorf("weighted_tardiness at load 1: got %+v; want a log axis, fcfs then easy, easy's user 1 at 0, fcfs's user 3 at 3000", d)
	}
}

func TestBoxesLogScale(t *testing.T) {
	r := load(t, writeFixture(t))
	for _, tc := range []struct {
		metric string
		log    bool
	}{{"weighted_tardiness", true}, {"veet_share", false}} {
		f, err := plot.Boxes(r, plot.Options{Metrics: []string{tc.metric}})
		if err != nil {
			t.Fatal(err)
		}
		p := f.Panels[0][0]
		// A log axis holds log10 of the values and labels whole powers of
		// ten.
		var labels []string
		for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		isLog := fmt.Sprint(labels) == "[1 10 100 1000 10k]"
		if isLog != tc.log {
			t.Errorf("%s: y axis %g to %g labelled %v; want log scale %v", tc.metric, p.Y.Min, p.Y.Max, labels, tc.log)
		}
		if !tc.log && (p.Y.Min != 0 || p.Y.Max != 100 || !strings.Contains(p.Y.Label.Text, "%")) {
			t.Errorf("%s: y axis [%g, %g] %q; want [0, 100] in percent", tc.metric, p.Y.Min, p.Y.Max, p.Y.Label.Text)
		}
	}
}

func TestMissingColumns(t *testing.T) {
	dir := t.TempDir()
	rows := fixtureRuns()
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	// users.parquet as results.WriteUsers wrote it before the EET columns.
	writeParquet(t, filepath.Join(dir, "users.parquet"),
		col{name: "run_key", values: []string{rows[0].Key}}, col{name: "user", values: []int64{1}},
		col{name: "jobs", values: []int64{1}}, col{name: "ran", values: []int64{1}},
		col{name: "mean_wait", values: []float64{0}})
	r := load(t, dir)
	for _, m := range []string{"veet_share", "weighted_tardiness"} {
		_, err := plot.Boxes(r, plot.Options{Metrics: []string{m}})
		if !errors.Is(err, plot.ErrMissingColumn) || !strings.Contains(err.Error(), `"`+m+`"`) || !strings.Contains(err.Error(), "users.parquet") {
			t.Errorf("Boxes of %s from a users.parquet without it: got %v; want ErrMissingColumn naming the column and file", m, err)
		}
	}
	_, err := plot.Heatmap(r, plot.Options{Selection: plot.Selection{Run: rows[0].Key}})
	if !errors.Is(err, plot.ErrMissingFile) || !strings.Contains(err.Error(), "no heatmap files: the sweep ran with output { heatmaps = false }") {
		t.Errorf("Heatmap without heatmap files: got %v; want ErrMissingFile saying the folder has none, and why", err)
	}
}

func TestUnknownMetric(t *testing.T) {
	r := load(t, writeFixture(t))
	for _, tc := range []struct {
		name string
		draw func(*plot.Results, plot.Options) (*plot.Figure, error)
		want string
	}{
		{"boxes", plot.Boxes, "veet_share, weighted_tardiness"},
		{"means", plot.Means, "wait_mean, wait_median"},
		{"load", plot.LoadLines, "bounded_slowdown_mean"},
	} {
		_, err := tc.draw(r, plot.Options{Metrics: []string{"wiat_mean"}})
		if !errors.Is(err, plot.ErrUnknownMetric) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s with metric wiat_mean: got %v; want ErrUnknownMetric listing %s", tc.name, err, tc.want)
		}
	}
}
