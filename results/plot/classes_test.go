package plot_test

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

// writeClassFixture writes a results folder of two workloads (cf, ge),
// two policies (psp, easy), load 1 and two replicates, with the real
// writers. In cf, per run: user 1 (recent accuracy 0.1, a1) waits 600 s ×
// replicate, user 2 (0.5, a3) 1200 s × replicate, user 3 (0.9, a5) 1800 s
// × replicate, user 5 (0.15, a1) 3000 s in replicate 1 only; the unknown
// user (0.3) and user 4 (none of whose jobs ran) are in no class. In ge
// every user is in a5. Under easy every wait is 10× psp's.
func writeClassFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var runs []results.RunRow
	var users []results.UserRow
	for _, w := range []string{"cf", "ge"} {
		for _, p := range []string{"psp", "easy"} {
			for rep := 1; rep <= 2; rep++ {
				key := w + "-" + p + "-" + string(rune('0'+rep))
				runs = append(runs, results.RunRow{RunInfo: results.RunInfo{Key: key, Params: []results.Param{
					{Name: "workload", Value: results.StringValue(w)},
					{Name: "policy", Value: results.StringValue(p)},
					{Name: "load_factor", Value: results.FloatValue(1)},
					{Name: "replicate", Value: results.IntValue(int64(rep))},
				}}, Jobs: 10, Finished: 10})
				scale := 1.0
				if p == "easy" {
					scale = 10
				}
				add := func(user int32, acc, wait float64) {
					users = append(users, results.UserRow{RunKey: key, User: user, Jobs: 2, Ran: 2,
						MeanWait: scale * wait, RecentAccuracy: acc})
				}
				if w == "ge" {
					add(1, 0.85, 100*float64(rep))
					add(2, 1, 300)
					continue
				}
				add(-1, 0.3, 99999)
				add(1, 0.1, 600*float64(rep))
				add(2, 0.5, 1200*float64(rep))
				add(3, 0.9, 1800*float64(rep))
				users = append(users, results.UserRow{RunKey: key, User: 4, Jobs: 1})
				if rep == 1 {
					add(5, 0.15, 3000)
				}
			}
		}
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), runs, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteUsers(filepath.Join(dir, "users.parquet"), users, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestClassMeans checks the means against the fixture, by hand: a class's
// mean pools its users over the runs, each user of each run once.
func TestClassMeans(t *testing.T) {
	r := load(t, writeClassFixture(t))
	d, err := plot.ClassMeans(r, plot.Options{Selection: plot.Selection{Policies: []string{"psp"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []plot.ClassMean{
		// a1: users 1 and 5 in replicate 1 (600, 3000: run mean 1800),
		// user 1 in replicate 2 (1200): (600 + 3000 + 1200)/3 = 1600.
		{Workload: "cf", Policy: "psp", Class: 1, Mean: 1600, Users: 3, Runs: 2, Min: 1200, Max: 1800},
		{Workload: "cf", Policy: "psp", Class: 3, Mean: 1800, Users: 2, Runs: 2, Min: 1200, Max: 2400},
		{Workload: "cf", Policy: "psp", Class: 5, Mean: 2700, Users: 2, Runs: 2, Min: 1800, Max: 3600},
		// ge: (100 + 300 + 200 + 300)/4 = 225; run means 200 and 250.
		{Workload: "ge", Policy: "psp", Class: 5, Mean: 225, Users: 4, Runs: 2, Min: 200, Max: 250},
	}
	if diff := cmp.Diff(want, d.Means); diff != "" {
		t.Errorf("class means (-want +got):\n%s", diff)
	}
	// All cf users with a class: (600+3000+1200 + 1200+2400 + 1800+3600)/7.
	if got := d.All[0]; got.Users != 7 || math.Abs(got.Mean-13800.0/7) > 1e-9 {
		t.Errorf("cf, all users: %+v; want 7 users, mean %v", got, 13800.0/7)
	}
	// The unknown user and user 4 in each of the four cf runs.
	if d.Unknown != 2 || d.NoValue != 2 {
		t.Errorf("left out: %d unknown, %d without a value; want 2 and 2", d.Unknown, d.NoValue)
	}
	if label, ratio, ok := d.Spread("cf", "psp"); !ok || label != "a1/a5" || math.Abs(ratio-1600.0/2700) > 1e-12 {
		t.Errorf("cf spread: %q %v %v; want a1/a5 = %v", label, ratio, ok, 1600.0/2700)
	}
	if _, _, ok := d.Spread("ge", "psp"); ok {
		t.Error("ge has one class; Spread should say so")
	}
	table := d.Table()
	for _, row := range []string{
		"| cf | psp | 26.7 (3) | – | 30.0 (2) | – | 45.0 (2) | 32.9 (7) | a1/a5 = 0.59 |",
		"| ge | psp | – | – | – | – | 3.8 (4) | 3.8 (4) | – |",
	} {
		if !strings.Contains(table, row) {
			t.Errorf("table lacks row %q:\n%s", row, table)
		}
	}
}

func TestClassesFigure(t *testing.T) {
	r := load(t, writeClassFixture(t))
	f, err := plot.Classes(r, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 2 {
		t.Errorf("%d rows of panels; want one per policy, 2", len(f.Panels))
	}
	if err := f.Save(filepath.Join(t.TempDir(), "classes.png")); err != nil {
		t.Fatal(err)
	}
	// ClassData.Figure, which schedsweep plot uses to print the table
	// from the same means, draws the same figure.
	d, err := plot.ClassMeans(r, plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.Figure(plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := f.Write(&a, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := g.Write(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() == 0 {
		t.Errorf("ClassData.Figure drew %d bytes of SVG, Classes %d; want the same bytes", b.Len(), a.Len())
	}
}

func TestClassMeansErrors(t *testing.T) {
	r := load(t, writeFixture(t)) // two load factors, no recent_accuracy
	if _, err := plot.ClassMeans(r, plot.Options{}); !errors.Is(err, plot.ErrSelection) {
		t.Errorf("two load factors: got %v; want ErrSelection", err)
	}
	_, err := plot.ClassMeans(r, plot.Options{Selection: plot.Selection{LoadFactors: []float64{1}}})
	if !errors.Is(err, plot.ErrMissingColumn) || !strings.Contains(err.Error(), "recent_accuracy") {
		t.Errorf("no recent_accuracy: got %v; want ErrMissingColumn naming it", err)
	}
	r = load(t, writeClassFixture(t))
	if _, err := plot.ClassMeans(r, plot.Options{Metrics: []string{"wait_mean"}}); !errors.Is(err, plot.ErrUnknownMetric) {
		t.Errorf("a runs.parquet metric: got %v; want ErrUnknownMetric", err)
	}
}
