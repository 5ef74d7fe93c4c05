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
	_, _, err = newSources("").simulate(context.Background(), &runs[0])
	if !errors.Is(err, ErrNoJobs) || !strings.Contains(err.Error(), "workload late selects no job") {
		t.Errorf("got %v; want ErrNoJobs naming workload late", err)
	}
}
