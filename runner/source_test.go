package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestEmptyWorkload checks that a workload whose cuts keep no job is
// refused before anything is written, by an error that names the workload
// and the cut that emptied it, whether it is swept or only merged, and
// that JobCounts counts it 0 and names it too.
func TestEmptyWorkload(t *testing.T) {
	m, err := workloads.LookupModel("lublin")
	if err != nil {
		t.Fatal(err)
	}
	model := &spec.Workload{Name: "model", Model: "lublin", Params: m.Params(), Take: 40, Estimates: "keep", CPUUsage: "none"}
	// tiny.swf: jobs submitted at 0, 10, 20 and 30 by users 3, 7, 3 and 9.
	tiny := func(name string, users ...int32) *spec.Workload {
		return &spec.Workload{Name: name, Trace: "spec/testdata/tiny.swf", From: 0, To: 15, Users: users, Estimates: "keep", CPUUsage: "none"}
	}
	for _, tc := range []struct {
		name      string
		workloads []*spec.Workload
		want      string // "" for a sweep that runs
	}{
		{"kept", []*spec.Workload{tiny("tiny", 7)}, ""},
		{"users", []*spec.Workload{tiny("tiny", 9)},
			"workload tiny selects no job: of the 4 jobs of trace tiny.swf, its window [0, 15) keeps 2 and its user 9 keeps none"},
		{"window", []*spec.Workload{{Name: "late", Trace: "spec/testdata/tiny.swf", From: 100, To: 200, Estimates: "keep", CPUUsage: "none"}},
			"workload late selects no job: of the 4 jobs of trace tiny.swf, its window [100, 200) keeps none"},
		{"merged", []*spec.Workload{{Name: "mixed", Merge: []*spec.Workload{model, tiny("part", 8, 9)}, Estimates: "keep", CPUUsage: "none"}},
			"workload part selects no job: of the 4 jobs of trace tiny.swf, its window [0, 15) keeps 2 and its users 8, 9 keep none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := withPolicies(testExperiment(t))
			e.Workloads, e.Sweep.Workloads = tc.workloads, tc.workloads
			e.Sweep.LoadFactors, e.Sweep.Seeds = []float64{1}, []uint64{1}
			e.Sweep.Cluster.Capacity[sim.Procs] = 128
			e.Hash, e.File = "hash-1", "t.hcl"
			runs, err := Expand(e)
			if err != nil {
				t.Fatal(err)
			}
			counts, cerr := JobCounts(runs, "")
			out := filepath.Join(t.TempDir(), "out")
			_, err = Execute(context.Background(), e, runs, Options{Out: out, Workers: 2})
			if tc.want == "" {
				if err != nil || cerr != nil || counts[runs[0].WorkloadKey] != 1 {
					t.Errorf("Execute: %v; JobCounts: %v, %v; want no error and 1 job", err, counts, cerr)
				}
				return
			}
			if !errors.Is(err, ErrNoJobs) || err.Error() != tc.want {
				t.Errorf("Execute: got %v; want ErrNoJobs: %q", err, tc.want)
			}
			if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
				t.Errorf("Execute refused the sweep but made %s (%v); want nothing written", out, serr)
			}
			if !errors.Is(cerr, ErrNoJobs) || cerr.Error() != tc.want || len(counts) != 1 {
				t.Errorf("JobCounts: got %v, %v; want every count and ErrNoJobs: %q", counts, cerr, tc.want)
			}
			if counts[runs[0].WorkloadKey] != 0 {
				t.Errorf("JobCounts: got %d jobs; want 0", counts[runs[0].WorkloadKey])
			}
		})
	}
}

// TestEmptyRun checks the last guard: a run that simulates no job, as a
// model's cut may give under one replicate's seed and not another's, is
// an error rather than an empty result.
func TestEmptyRun(t *testing.T) {
	e := withPolicies(testExperiment(t))
	w := &spec.Workload{Name: "late", Trace: "spec/testdata/tiny.swf", From: 100, To: 200, Estimates: "keep", CPUUsage: "none"}
	e.Workloads, e.Sweep.Workloads = []*spec.Workload{w}, []*spec.Workload{w}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newSources("").simulate(context.Background(), &runs[0])
	if !errors.Is(err, ErrNoJobs) || !strings.Contains(err.Error(), "workload late selects no job") {
		t.Errorf("got %v; want ErrNoJobs naming workload late", err)
	}
}

// TestRuntimesCut checks runs.parquet's runtimes_cut: the jobs whose run
// time the Tsafrir estimate model cut to its largest estimate, counted
// independently as the jobs of the same workload without estimates that
// run longer than that; a merge of two such workloads counts both parts,
// and a workload with its own estimates counts none.
func TestRuntimesCut(t *testing.T) {
	dir := t.TempDir()
	m, err := workloads.LookupModel("lublin")
	if err != nil {
		t.Fatal(err)
	}
	lublin := func(name, estimates string) *spec.Workload {
		p := m.Params().(*workloads.LublinParams)
		p.Nodes = 64
		return &spec.Workload{Name: name, Model: "lublin", Params: p, Take: 3000, Estimates: estimates, CPUUsage: "none"}
	}
	a, b := lublin("a", "tsafrir"), lublin("b", "tsafrir")
	merged := &spec.Workload{Name: "ab", Merge: []*spec.Workload{a, b}, Estimates: "keep", CPUUsage: "none"}
	kept := lublin("kept", "keep")
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	ws := []*spec.Workload{a, merged, kept}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}}
	e := &spec.Experiment{Name: "cut", Seed: 3, Hash: "cut", Clusters: []*spec.Cluster{cl}, Workloads: ws, Policies: ps,
		Sweep:  spec.Sweep{Cluster: cl, Workloads: ws, Policies: ps, LoadFactors: []float64{1}, Seeds: []uint64{1}},
		Output: spec.Output{Dir: dir}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, e, runs, Options{Workers: 2})

	// The jobs each run would have without estimates, and how many of them
	// run longer than the model's largest estimate.
	limit := workloads.DefaultTsafrirParams().MaxEstimate
	longer := func(w *spec.Workload, seed uint64) int {
		keep := *w
		keep.Estimates = "keep"
		if len(w.Merge) > 0 {
			keep.Merge = nil
			for _, p := range w.Merge {
				q := *p
				q.Estimates = "keep"
				keep.Merge = append(keep.Merge, &q)
			}
		}
		src, _, err := newSources("").jobs(&keep, &spec.Cluster{Capacity: sim.Resources{sim.Procs: 64}}, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := sim.ReadAll(src)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range recs {
			if r.Runtime > limit {
				n++
			}
		}
		return n
	}
	tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
	defer tbl.Release()
	got := map[string]int64{}
	keys, cut := columnValues[string](t, tbl, "run_key"), columnValues[int64](t, tbl, "runtimes_cut")
	for i, k := range keys {
		got[k] = cut[i]
	}
	for _, r := range runs {
		want := 0
		if r.Workload.Name != "kept" {
			want = longer(r.Workload, r.WorkloadSeed)
		}
		if r.Workload.Name == "ab" && want == 0 || r.Workload.Name == "a" && want == 0 {
			t.Fatalf("workload %s has no job longer than %d s: the test shows nothing", r.Workload.Name, limit)
		}
		if got[r.Key] != int64(want) {
			t.Errorf("workload %s: runtimes_cut %d; want %d", r.Workload.Name, got[r.Key], want)
		}
	}
}
