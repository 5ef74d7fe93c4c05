package runner

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestMergeWorkload runs a merge of a model and a trace: every job of both
// arrives, the trace's users are kept apart, two parts drawn from one model
// get their own seeds, and the merge's identity names its parts.
func TestMergeWorkload(t *testing.T) {
	m, err := workloads.LookupModel("lublin")
	if err != nil {
		t.Fatal(err)
	}
	model := func(name string) *spec.Workload {
		return &spec.Workload{Name: name, Model: "lublin", Params: m.Params(), Take: 40, Estimates: "keep", CPUUsage: "none"}
	}
	a, b := model("a"), model("b")
	tiny := &spec.Workload{Name: "tiny", Trace: "spec/testdata/tiny.swf", Estimates: "keep", CPUUsage: "none"}
	withTrace := &spec.Workload{Name: "mixed", Merge: []*spec.Workload{a, tiny}, Estimates: "keep", CPUUsage: "none"}
	twoModels := &spec.Workload{Name: "models", Merge: []*spec.Workload{a, b}, Estimates: "keep", CPUUsage: "none"}
	e := withPolicies(testExperiment(t))
	e.Workloads = []*spec.Workload{withTrace, twoModels}
	e.Sweep.Workloads = e.Workloads
	e.Sweep.LoadFactors, e.Sweep.Seeds = []float64{1}, []uint64{1}
	e.Sweep.Cluster.Capacity[sim.Procs] = 128
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	s := newSources("")
	results := map[string]*sim.Result{}
	for i := range runs {
		r := &runs[i]
		if r.Policy.Name != "easy" {
			continue
		}
		sr, err := s.simulate(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		res := sr.res
		results[r.Workload.Name] = res
		if !strings.Contains(workloadCanon(r.Workload), "workload=a\n") {
			t.Errorf("%s: the canonical text does not name part a:\n%s", r.Workload.Name, workloadCanon(r.Workload))
		}
	}
	mixed := results["mixed"]
	if len(mixed.Jobs) != 44 {
		t.Fatalf("mixed: got %d jobs; want 40 from the model and 4 from the trace", len(mixed.Jobs))
	}
	fromTrace := 0
	for _, o := range mixed.Jobs {
		if o.User >= workloads.UserOffset {
			fromTrace++
		}
	}
	if fromTrace != 4 {
		t.Errorf("mixed: %d jobs carry the trace's shifted users; want 4", fromTrace)
	}
	// The two model parts would be the same 40 jobs under one seed.
	models := results["models"]
	if len(models.Jobs) != 80 {
		t.Fatalf("models: got %d jobs; want 80", len(models.Jobs))
	}
	if models.Jobs[0].Runtime == models.Jobs[1].Runtime && models.Jobs[0].Need == models.Jobs[1].Need &&
		models.Jobs[2].Runtime == models.Jobs[3].Runtime && models.Jobs[2].Need == models.Jobs[3].Need {
		t.Error("models: the two parts drawn from one model look identical; they should have their own seeds")
	}
}

// TestExecuteMergePartNotCached checks that a merge whose part names a
// registered trace missing from the cache stops Execute before the output
// folder is made, naming the part.
func TestExecuteMergePartNotCached(t *testing.T) {
	m, err := workloads.LookupModel("lublin")
	if err != nil {
		t.Fatal(err)
	}
	a := &spec.Workload{Name: "a", Model: "lublin", Params: m.Params(), Take: 40, Estimates: "keep", CPUUsage: "none"}
	kth := &spec.Workload{Name: "kth", Trace: "KTH-SP2", Estimates: "keep", CPUUsage: "none"}
	mixed := &spec.Workload{Name: "mixed", Merge: []*spec.Workload{a, kth}, Estimates: "keep", CPUUsage: "none"}
	e := withPolicies(testExperiment(t))
	e.Workloads = []*spec.Workload{mixed}
	e.Sweep.Workloads = e.Workloads
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, err = Execute(context.Background(), e, runs, Options{Out: out, Cache: t.TempDir()})
	if !errors.Is(err, workloads.ErrNotCached) || !strings.HasPrefix(err.Error(), "workload kth: ") {
		t.Errorf("got %v; want workload kth's not-cached error", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the output folder exists after a sweep that could not start (stat: %v)", err)
	}
}

// TestExecuteMalformedTrace checks that a trace with a malformed line stops
// Execute before the output folder is made, naming the file and the line.
func TestExecuteMalformedTrace(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.swf")
	if err := os.WriteFile(bad, []byte("1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n2 10 -1 100 -7 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := withPolicies(testExperiment(t))
	w := &spec.Workload{Name: "bad", Trace: bad, Estimates: "keep", CPUUsage: "none"}
	e.Workloads = []*spec.Workload{w}
	e.Sweep.Workloads = e.Workloads
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	_, err = Execute(context.Background(), e, runs, Options{Out: out})
	if err == nil || !strings.Contains(err.Error(), "workload bad: bad.swf:2: field 5") {
		t.Errorf("got %v; want an error naming workload bad and bad.swf:2", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the output folder exists after a sweep whose trace is malformed (stat: %v)", err)
	}
}
