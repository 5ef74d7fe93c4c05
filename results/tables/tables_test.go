package tables_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results/plot"
	"github.com/schedsweep/schedsweep/results/tables"
	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// sweep runs the psp model (200 jobs) on 64 processors under FCFS and
// EASY at load factors 1 and 2, three replicates, and returns the results
// folder, utilization files included (TestMakespans reads them).
func sweep(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	m, err := workloads.LookupModel("psp")
	if err != nil {
		t.Fatal(err)
	}
	params := m.Params()
	params.(*workloads.PSPParams).Jobs = 200
	easy, err := policies.Lookup("easy")
	if err != nil {
		t.Fatal(err)
	}
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "mix", Model: "psp", Params: params, Estimates: "keep", CPUUsage: "none"}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}}
	e := &spec.Experiment{
		Name: "tables", Seed: 7, File: "tables.hcl", Hash: "tables-test",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{1, 2}, Seeds: []uint64{1, 2, 3}},
		Output: spec.Output{Dir: dir, Heatmaps: true},
	}
	runs, err := runner.Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Execute(context.Background(), e, runs, runner.Options{Out: dir, Workers: 2, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBuild(t *testing.T) {
	dir := sweep(t)
	r, err := plot.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := tables.ParseSpecs("wait_mean@min,users:mean_wait:median@h")
	if err != nil {
		t.Fatal(err)
	}
	paper := []tables.PaperValue{{Policy: "easy", LoadFactor: 2, Metric: "wait_mean@min", Value: 42}}
	ts, err := tables.Build(r, tables.Options{Metrics: specs, Baseline: "fcfs", Paper: paper})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || len(ts[0].Rows) != 4 || ts[0].Replicates != 3 {
		t.Fatalf("got %d tables, %+v; want one of 4 rows over 3 replicates", len(ts), ts)
	}
	// Each cell, recomputed from the runs: the mean of the three
	// replicates in minutes and the t interval's half-width.
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 2}.Quantile(0.975)
	base := map[float64]float64{}
	for _, row := range ts[0].Rows {
		var vals []float64
		for _, x := range r.Runs {
			if x.Policy == row.Policy && x.LoadFactor == row.LoadFactor {
				v, err := x.Metric("wait_mean")
				if err != nil {
					t.Fatal(err)
				}
				vals = append(vals, v/60)
			}
		}
		mean, sd := stat.MeanStdDev(vals, nil)
		c := row.Cells[0]
		half := tq * sd / math.Sqrt(3)
		if math.Abs(c.Mean-mean) > 1e-9*mean || math.Abs((c.Hi-c.Lo)/2-half) > 1e-9*(half+1) || c.N != 3 {
			t.Errorf("%s at %g: got %g ± %g over %d; want %g ± %g over 3", row.Policy, row.LoadFactor, c.Mean, (c.Hi-c.Lo)/2, c.N, mean, half)
		}
		if row.Policy == "fcfs" {
			base[row.LoadFactor] = mean
		}
	}
	for _, row := range ts[0].Rows {
		c := row.Cells[0]
		if want := c.Mean / base[row.LoadFactor]; math.Abs(c.Ratio-want) > 1e-9 {
			t.Errorf("%s at %g: ratio %g; want %g", row.Policy, row.LoadFactor, c.Ratio, want)
		}
		wantPaper := row.Policy == "easy" && row.LoadFactor == 2
		if wantPaper != (c.Paper == 42) || !wantPaper && !math.IsNaN(c.Paper) {
			t.Errorf("%s at %g: paper %g", row.Policy, row.LoadFactor, c.Paper)
		}
		if u := row.Cells[1]; !math.IsNaN(u.Ratio) || !math.IsNaN(u.Lo) || u.N == 0 {
			t.Errorf("%s at %g: users cell %+v; want no ratio, no interval, some users", row.Policy, row.LoadFactor, u)
		}
	}
	md := tables.Markdown(ts)
	for _, want := range []string{"95 % confidence interval", "Student's t, 2 degrees of freedom", "| load factor | policy | wait_mean (min) | ÷ fcfs | paper | median mean_wait (h) |", "| 2 | easy |", "| 42.0 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	if got := len(tables.CSV(ts)); got != 1+4*2 {
		t.Errorf("CSV has %d records; want a header and 8", got)
	}
	if _, err := tables.Build(r, tables.Options{Metrics: specs, Baseline: "sjf"}); err == nil || !strings.Contains(err.Error(), `baseline "sjf"`) {
		t.Errorf("an unknown baseline: got %v", err)
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want tables.Spec
		err  string
	}{
		{in: "wait_mean", want: tables.Spec{Text: "wait_mean", Column: "wait_mean"}},
		{in: "wait_mean@h", want: tables.Spec{Text: "wait_mean@h", Column: "wait_mean", Unit: "h"}},
		{in: "users:veet_share:p75@%", want: tables.Spec{Text: "users:veet_share:p75@%", Users: true, Column: "veet_share", Agg: "p75", Unit: "%"}},
		{in: "users:mean_wait:a3@min", want: tables.Spec{Text: "users:mean_wait:a3@min", Users: true, Column: "mean_wait", Agg: "a3", Unit: "min"}},
		{in: "users:mean_wait:a1/a4", want: tables.Spec{Text: "users:mean_wait:a1/a4", Users: true, Column: "mean_wait", Agg: "a1/a4"}},
		{in: "users:mean_wait:a1/a6", err: `got "a1/a6"`},
		{in: "users:mean_wait:a1/a4@min", err: "takes no unit"},
		{in: "wait_mean@weeks", err: `unknown unit "weeks"`},
		{in: "users:veet_share", err: "needs one of the summaries"},
		{in: "users:veet_share:p99", err: `got "p99"`},
		{in: "wait_mean:median", err: "only a users column"},
		{in: "users:veet_share:ones@%", err: "takes no unit"},
		{in: "users:mean_wait:spread@min", err: "takes no unit"},
		{in: "@h", err: "no column"},
	} {
		got, err := tables.ParseSpec(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v; want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{0, "0"}, {0.0001, "0"}, {0.01234, "0.01"}, {0.5, "0.50"}, {1.2345, "1.23"}, {22.66, "22.7"}, {999.4, "999"},
		{1000, "1,000"}, {966050.2, "966,050"}, {-1234567, "-1,234,567"}, {math.NaN(), "–"}} {
		if got := tables.Number(tc.in); got != tc.want {
			t.Errorf("Number(%g) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlocks(t *testing.T) {
	text := "# title\n<!-- tables:a --baseline x -->\nold\n<!-- /tables:a -->\nmid\n<!-- tables:b -->\n<!-- /tables:b -->\nend\n"
	bs, err := tables.Blocks("R.md", text)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{bs[0].Name, strings.Join(bs[0].Args, " "), bs[0].Body, bs[1].Name, bs[1].Body}
	if d := cmp.Diff([]string{"a", "--baseline x", "old\n", "b", ""}, got); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
	b, err := tables.Find("R.md", bs, "b")
	if err != nil {
		t.Fatal(err)
	}
	want := "# title\n<!-- tables:a --baseline x -->\nold\n<!-- /tables:a -->\nmid\n<!-- tables:b -->\nnew\n<!-- /tables:b -->\nend\n"
	if got := tables.Replace(text, b, "new\n"); got != want {
		t.Errorf("Replace:\n%s\nwant\n%s", got, want)
	}
	if _, err := tables.Find("R.md", bs, "c"); err == nil || !strings.Contains(err.Error(), "its blocks: a, b") {
		t.Errorf("Find c: %v", err)
	}
	for _, tc := range []struct{ text, err string }{
		{"<!-- tables:a -->\n", "R.md:1: block \"a\" is never closed"},
		{"x\n<!-- /tables:a -->\n", "R.md:2:"},
		{"<!-- tables:a -->\n<!-- tables:b -->\n", "R.md:2: block"},
		{"<!-- tables:a -->\n<!-- /tables:a -->\n<!-- tables:a -->\n<!-- /tables:a -->\n", "R.md:3: block \"a\" again"},
		{"<!-- tables: -->\n", "want <!-- tables:NAME"},
	} {
		if _, err := tables.Blocks("R.md", tc.text); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: got %v; want %q", tc.text, err, tc.err)
		}
	}
}

func TestReadPaper(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.csv", "# Table 3\nworkload,policy,load_factor,metric,value,note\ncf,psp,,users:mean_wait:a1@min,1093,Table 3\n,easy,1.5,wait_mean@h,2.5,\n")
	got, err := tables.ReadPaper(good)
	if err != nil {
		t.Fatal(err)
	}
	want := []tables.PaperValue{
		{Workload: "cf", Policy: "psp", LoadFactor: math.NaN(), Metric: "users:mean_wait:a1@min", Value: 1093, Line: 3},
		{Policy: "easy", LoadFactor: 1.5, Metric: "wait_mean@h", Value: 2.5, Line: 4},
	}
	if d := cmp.Diff(want, got, cmpopts.EquateNaNs()); d != "" {
		t.Errorf("ReadPaper (-want +got):\n%s", d)
	}
	for _, tc := range []struct{ text, err string }{
		{"workload,policy,metric,value\n", "wrong number of fields"},
		{"workload,policy,load_factor,metric,value,notes\n", "bad.csv:1: header"},
		{"workload,policy,load_factor,metric,value,note\n,,,wait_mean,x,\n", `bad.csv:2: value "x" is not a number`},
		{"workload,policy,load_factor,metric,value,note\n,,one,wait_mean,1,\n", `bad.csv:2: load_factor "one"`},
		{"workload,policy,load_factor,metric,value,note\n,,,users:x,1,\n", "bad.csv:2: metric"},
	} {
		if _, err := tables.ReadPaper(write("bad.csv", tc.text)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: got %v; want %q", tc.text, err, tc.err)
		}
	}
}

// TestClassColumns checks the accuracy-class summaries against each
// other: a1/a3 is a1's mean over aY's, and spread is the lowest class's
// over the highest's among the classes with users.
func TestClassColumns(t *testing.T) {
	r, err := plot.Load(sweep(t))
	if err != nil {
		t.Fatal(err)
	}
	specs, err := tables.ParseSpecs("users:mean_wait:a1,users:mean_wait:a2,users:mean_wait:a3,users:mean_wait:a4,users:mean_wait:a5,users:mean_wait:a1/a3,users:mean_wait:spread")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := tables.Build(r, tables.Options{Metrics: specs})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, row := range ts[0].Rows {
		c := row.Cells
		if want := c[0].Mean / c[2].Mean; !math.IsNaN(want) {
			checked++
			if math.Abs(c[5].Mean-want) > 1e-12*want {
				t.Errorf("%s at %g: a1/a3 %g; want %g", row.Policy, row.LoadFactor, c[5].Mean, want)
			}
		}
		lo, hi := math.NaN(), math.NaN()
		for _, x := range c[:5] {
			if !math.IsNaN(x.Mean) {
				if math.IsNaN(lo) {
					lo = x.Mean
				}
				hi = x.Mean
			}
		}
		if want := lo / hi; math.Abs(c[6].Mean-want) > 1e-12*want {
			t.Errorf("%s at %g: spread %g; want %g", row.Policy, row.LoadFactor, c[6].Mean, want)
		}
	}
	if checked == 0 {
		t.Error("no row has users in both a1 and a3")
	}
}
