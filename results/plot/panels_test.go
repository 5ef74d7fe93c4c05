package plot_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

// twoWorkloads writes a runs table of the fixture's runs twice over, as
// workloads mix and other, and returns its folder.
func twoWorkloads(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rows := fixtureRuns()
	for _, r := range fixtureRuns() {
		r.Key = "o-" + r.Key
		r.Params = append([]results.Param(nil), r.Params...)
		r.Params[0] = results.Param{Name: "workload", Value: results.StringValue("other")}
		rows = append(rows, r)
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), rows, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestPanelPerWorkload(t *testing.T) {
	r := load(t, twoWorkloads(t))
	for _, tc := range []struct {
		name string
		draw func(*plot.Results, plot.Options) (*plot.Figure, error)
		opt  plot.Options
		rows []string // each row's first panel's title
	}{
		{"means", plot.Means, plot.Options{}, []string{"workload mix", "workload other"}},
		{"load", plot.LoadLines, plot.Options{}, []string{"workload mix", "workload other"}},
		{"means of one", plot.Means, plot.Options{Selection: plot.Selection{Workload: "other"}}, []string{""}},
	} {
		f, err := tc.draw(r, tc.opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, row := range f.Panels {
			got = append(got, row[0].Title.Text)
		}
		if strings.Join(got, "|") != strings.Join(tc.rows, "|") {
			t.Errorf("%s: rows titled %q; want %q", tc.name, got, tc.rows)
		}
		if several := len(tc.rows) > 1; several != strings.Contains(f.Title, "2 workloads, a row each") {
			t.Errorf("%s: title %q", tc.name, f.Title)
		}
		if err := f.Save(filepath.Join(t.TempDir(), "f.png")); err != nil {
			t.Errorf("%s: Save: %v", tc.name, err)
		}
	}
}
