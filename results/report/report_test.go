package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/results/report"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// sweep runs a small sweep through the runner, as schedsweep run does:
// the job-mix model on 64 processors, FCFS and EASY, load factors 0.5 and
// 1, two replicates (8 runs); jobs says whether it writes jobs files.
func sweep(t *testing.T, jobs bool) string {
	t.Helper()
	dir := t.TempDir()
	m, err := workloads.LookupModel("job-mix")
	if err != nil {
		t.Fatal(err)
	}
	easy, err := policies.Lookup("easy")
	if err != nil {
		t.Fatal(err)
	}
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "mix", Model: "job-mix", Params: m.Params(), Estimates: "keep", CPUUsage: "none"}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}}
	e := &spec.Experiment{
		Name: "report", Seed: 7, File: "report.hcl", Hash: "report-test",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{0.5, 1}, Seeds: []uint64{1, 2}},
		Output: spec.Output{Dir: dir, Heatmaps: true, Jobs: jobs},
	}
	runs, err := runner.Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	opt := runner.Options{Out: dir, Workers: 2, ToolVersion: "test"}
	if _, err := runner.Execute(context.Background(), e, runs, opt); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page is what the tests read of the page's data.
type page struct {
	Experiment, File, Hash, Version, Chosen, NoGantt string
	Runs                                             [][]any
	Gantt                                            *struct {
		Key                          string
		Procs, Rows                  int64
		ID, Submit, Start, End, User []int64
		Width                        []int64
		Band                         []int
		Lo, Hi                       []int64
	}
	Users *struct {
		Users   []int64
		Series  []string
		Metrics []string
	}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="report-data">(.*?)</script>`)

// write writes the report of dir and returns the page and its data.
func write(t *testing.T, dir string, opt report.Options) (string, page) {
	t.Helper()
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Write(&b, r, opt); err != nil {
		t.Fatal(err)
	}
	m := dataRE.FindStringSubmatch(b.String())
	if m == nil {
		t.Fatal("the page has no report-data script")
	}
	var p page
	if err := json.Unmarshal([]byte(m[1]), &p); err != nil {
		t.Fatalf("the page's data: %v", err)
	}
	return b.String(), p
}

func TestReport(t *testing.T) {
	dir := sweep(t, true)
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sel := plot.Selection{Policies: []string{"easy"}, LoadFactors: []float64{1}, Replicates: []int64{2}}
	html, p := write(t, dir, report.Options{Selection: sel, ToolVersion: "v-test"})
	if len(p.Runs) != 8 {
		t.Errorf("the runs table has %d rows; want 8", len(p.Runs))
	}
	if p.Experiment != "report" || p.File != "report.hcl" || p.Hash != "report-test" || p.Version != "test" {
		t.Errorf("got experiment %q, file %q, hash %q, version %q; want report, report.hcl, report-test, test", p.Experiment, p.File, p.Hash, p.Version)
	}
	runs, err := r.Select(sel)
	if err != nil {
		t.Fatal(err)
	}
	if p.Chosen != runs[0].Key || p.Gantt == nil || p.Gantt.Key != runs[0].Key {
		t.Fatalf("charted run %q; want %s", p.Chosen, runs[0])
	}
	// The page's jobs and bands are what plot packs.
	g, err := plot.GanttValues(r, plot.Options{Selection: plot.Selection{Run: runs[0].Key}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Gantt.ID) != len(g.Jobs) || p.Gantt.Rows != g.Rows || p.Gantt.Procs != 64 {
		t.Fatalf("page: %d jobs, %d rows, %d procs; want %d, %d, 64", len(p.Gantt.ID), p.Gantt.Rows, p.Gantt.Procs, len(g.Jobs), g.Rows)
	}
	for i, j := range g.Jobs {
		var bands []plot.Band
		for k := p.Gantt.Band[i]; k < p.Gantt.Band[i+1]; k++ {
			bands = append(bands, plot.Band{Lo: p.Gantt.Lo[k], Hi: p.Gantt.Hi[k]})
		}
		if !cmp.Equal(bands, j.Bands) || p.Gantt.ID[i] != j.ID || p.Gantt.Start[i] != j.Start-g.Origin || p.Gantt.End[i] != j.End-g.Origin {
			t.Fatalf("job %d: page has id %d, %d–%d, bands %v; want id %d, %d–%d, %v", i, p.Gantt.ID[i], p.Gantt.Start[i], p.Gantt.End[i], bands,
				j.ID, j.Start-g.Origin, j.End-g.Origin, j.Bands)
		}
	}
	if p.Users == nil || len(p.Users.Series) != 2 || len(p.Users.Users) == 0 || len(p.Users.Metrics) == 0 {
		t.Errorf("users: got %+v; want both policies' users", p.Users)
	}
	checkOffline(t, html)
	if n := strings.Count(html, "@font-face"); n != 1 {
		t.Errorf("the page holds %d @font-face rules; want the figures' one font once", n)
	}
	if !strings.Contains(html, "<svg") || strings.Contains(html, "<?xml") {
		t.Error("the page lacks inline SVG figures, or holds an XML prolog")
	}
	again, _ := write(t, dir, report.Options{Selection: sel, ToolVersion: "v-test"})
	if again != html {
		t.Error("writing the report twice gave different bytes")
	}
}

// checkOffline checks that the page asks for nothing outside itself: a
// Content-Security-Policy that refuses any request, and no attribute
// naming a URL other than a fragment or data:.
func checkOffline(t *testing.T, html string) {
	t.Helper()
	if !strings.Contains(html, `content="default-src 'none';`) {
		t.Error("the page lacks its Content-Security-Policy default-src 'none'")
	}
	for _, m := range regexp.MustCompile(`(?i)\b(src|href|action|srcset|poster|data)\s*=\s*["']?([^"' >]*)`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(m[2], "#") && !strings.HasPrefix(m[2], "data:") {
			t.Errorf("the page names an outside resource: %s", m[0])
		}
	}
	if regexp.MustCompile(`url\((["']?)(https?:|//)`).MatchString(html) {
		t.Error("the page's style names an outside resource")
	}
}

func TestReportFirstRunAndErrors(t *testing.T) {
	dir := sweep(t, false)
	_, p := write(t, dir, report.Options{})
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Chosen != r.Runs[0].Key || p.Gantt != nil || !strings.Contains(p.NoGantt, "jobs = false") {
		t.Errorf("without jobs files: charted %q, gantt %v, note %q; want the first run %s, no chart and a note saying why",
			p.Chosen, p.Gantt != nil, p.NoGantt, r.Runs[0].Key)
	}
	err = report.Write(&bytes.Buffer{}, r, report.Options{Selection: plot.Selection{Policies: []string{"easy"}}})
	if !errors.Is(err, plot.ErrSelection) || !strings.Contains(err.Error(), "selects 4") {
		t.Errorf("a selection of 4 runs: got %v; want ErrSelection saying it selects 4", err)
	}
	path := filepath.Join(t.TempDir(), "r.html")
	if err := report.Save(path, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("Save wrote nothing: %v", err)
	}
}
