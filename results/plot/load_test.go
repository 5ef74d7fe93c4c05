package plot_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

func load(t *testing.T, dir string) *plot.Results {
	t.Helper()
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoad(t *testing.T) {
	r := load(t, writeFixture(t))
	if len(r.Runs) != 8 {
		t.Fatalf("got %d runs; want 8", len(r.Runs))
	}
	x := r.Runs[2]
	if x.Key != "fcfs-1-r1" || x.Workload != "mix" || x.Policy != "fcfs" || x.LoadFactor != 1 || x.Replicate != 1 {
		t.Errorf("third run: got %s; want fcfs-1-r1 (workload mix, policy fcfs, load factor 1, replicate 1)", x)
	}
	if v, err := x.Metric("wait_mean"); err != nil || v != 201 {
		t.Errorf("wait_mean of %s: got %g, %v; want 201", x.Key, v, err)
	}
	if _, err := x.Metric("nonesuch"); !errors.Is(err, plot.ErrMissingColumn) || !strings.Contains(err.Error(), "runs.parquet") {
		t.Errorf("a missing runs column: got %v; want ErrMissingColumn naming runs.parquet", err)
	}
}

func TestLoadShardsCountOnce(t *testing.T) {
	dir := t.TempDir()
	rows := fixtureRuns()
	for _, w := range []struct {
		name string
		rows []results.RunRow
	}{{"runs.parquet", rows}, {"runs-0-of-2.parquet", rows[:4]}, {"runs-1-of-2.parquet", rows[4:]}} {
		if err := results.WriteRuns(filepath.Join(dir, w.name), w.rows, results.Metadata{}); err != nil {
			t.Fatal(err)
		}
	}
	if r := load(t, dir); len(r.Runs) != 8 {
		t.Errorf("runs.parquet and two shards of the same 8 runs: got %d runs; want 8", len(r.Runs))
	}
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	for _, dir := range []string{empty, filepath.Join(empty, "nonesuch")} {
		_, err := plot.Load(dir)
		if !errors.Is(err, plot.ErrNoResults) || !strings.Contains(err.Error(), dir) {
			t.Errorf("Load(%s): got %v; want ErrNoResults naming the folder", dir, err)
		}
	}
	// A runs table without the sweep's axes.
	writeParquet(t, filepath.Join(empty, "runs.parquet"), col{name: "run_key", values: []string{"a"}})
	_, err := plot.Load(empty)
	if !errors.Is(err, plot.ErrMissingColumn) || !strings.Contains(err.Error(), `"workload"`) {
		t.Errorf("runs.parquet without workload: got %v; want ErrMissingColumn naming workload", err)
	}
}

func TestSelectErrors(t *testing.T) {
	r := load(t, writeFixture(t))
	for _, tc := range []struct {
		name string
		sel  plot.Selection
		want string
	}{
		{"policy", plot.Selection{Policies: []string{"esy"}}, `has policy "esy"; did you mean "easy"? (there are: fcfs, easy)`},
		{"load", plot.Selection{LoadFactors: []float64{0.8}}, `has load factor "0.8" (there are: 0.5, 1)`},
		{"replicate", plot.Selection{Replicates: []int64{3}}, `has replicate "3"`},
		{"workload", plot.Selection{Workload: "mux"}, `did you mean "mix"?`},
		{"run", plot.Selection{Run: "easy-1-r3"}, `no run "easy-1-r3"; did you mean "easy-1-r1"?`},
		{"nothing", plot.Selection{Run: "easy-1-r1", Policies: []string{"fcfs"}}, "no run of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Select(tc.sel)
			if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Select(%s): got %v; want ErrSelection with %q", tc.sel, err, tc.want)
			}
		})
	}
}

func TestLoadLinesLog(t *testing.T) {
	r := load(t, writeFixture(t))
	f, err := plot.LoadLines(r, plot.Options{Metrics: []string{"wait_mean"}, Log: true})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log.svg")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Log scale.") {
		t.Error("the figure does not say its value axis is logarithmic")
	}
	// The fixture's runs reject no job: a log axis has nothing to show.
	_, err = plot.LoadLines(r, plot.Options{Metrics: []string{"rejected"}, Log: true})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "log axis") {
		t.Errorf("rejected on a log axis: got %v, want an ErrSelection about the log axis", err)
	}
	// Without Log the same metric draws, at 0.
	if _, err := plot.LoadLines(r, plot.Options{Metrics: []string{"rejected"}}); err != nil {
		t.Errorf("rejected on a linear axis: %v", err)
	}
}

// TestLogAxisCutsWhiskers draws a log axis whose confidence intervals,
// over two replicates, reach below 0 for some points: such a whisker is
// drawn down to the axis, not left out, which would show the least
// certain points as the most certain, and a note says so.
func TestLogAxisCutsWhiskers(t *testing.T) {
	r := load(t, sweep(t))
	pts, err := plot.Points(r, plot.Options{Metrics: []string{"wait_mean"}})
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for _, p := range pts {
		if p.N > 1 && p.Mean > 0 && p.Lo <= 0 {
			cut++
		}
	}
	if cut == 0 {
		t.Fatal("no confidence interval reaches 0; the test needs one")
	}
	f, err := plot.LoadLines(r, plot.Options{Metrics: []string{"wait_mean"}, Log: true, CI: true})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(f.Notes, " ")
	want := fmt.Sprintf("%d whiskers reach 0 or below", cut)
	if cut == 1 {
		want = "1 whisker reaches 0 or below"
	}
	if !strings.Contains(notes, want) {
		t.Errorf("notes %q; want them to say %q", notes, want)
	}
	svg := filepath.Join(t.TempDir(), "log.svg")
	if err := f.Save(svg); err != nil {
		t.Fatal(err)
	}
}
