package runner

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// testExperiment builds, by hand, the experiment a small file would decode
// to: the job-mix model under fcfs and easy, three load factors, two
// replicates.
func testExperiment(t *testing.T) *spec.Experiment {
	t.Helper()
	m, err := workloads.LookupModel("job-mix")
	if err != nil {
		t.Fatal(err)
	}
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "mix", Model: "job-mix", Params: m.Params(), Estimates: "keep", CPUUsage: "none"}
	easy, _ := policies.Lookup("easy")
	return &spec.Experiment{
		Name: "t", Seed: 7,
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w},
		Policies: []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}},
		Sweep: spec.Sweep{
			Cluster: cl, Workloads: []*spec.Workload{w},
			LoadFactors: []float64{0.5, 1, 2}, Seeds: []uint64{1, 2},
		},
	}
}

func withPolicies(e *spec.Experiment) *spec.Experiment {
	e.Sweep.Policies = e.Policies
	return e
}

func TestExpandGrid(t *testing.T) {
	e := withPolicies(testExperiment(t))
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 12 {
		t.Fatalf("got %d runs; want 1 workload × 2 policies × 3 loads × 2 replicates = 12", len(runs))
	}
	keys := map[string]bool{}
	for i, r := range runs {
		if r.Index != i {
			t.Errorf("run %d has index %d", i, r.Index)
		}
		if keys[r.Key] {
			t.Errorf("key %s repeats", r.Key)
		}
		keys[r.Key] = true
	}
	// Grid order: policy, then load factor, then replicate fastest.
	if got := runs[1].Values(); got["seed"] != "2" || got["load_factor"] != "0.5" || got["policy"] != "fcfs" {
		t.Errorf("second run: got %v; want fcfs, load 0.5, replicate 2", got)
	}
	// Common random numbers: one replicate's workload seed is the same under
	// every policy and load factor, and differs between replicates.
	seeds := map[uint64]map[uint64]bool{}
	for _, r := range runs {
		if seeds[r.Replicate] == nil {
			seeds[r.Replicate] = map[uint64]bool{}
		}
		seeds[r.Replicate][r.WorkloadSeed] = true
	}
	if len(seeds[1]) != 1 || len(seeds[2]) != 1 {
		t.Errorf("workload seeds per replicate: %v; want one each", seeds)
	}
	for s := range seeds[1] {
		if seeds[2][s] {
			t.Error("replicates 1 and 2 share a workload seed")
		}
	}

	// Stable keys: expanding again gives the same keys; another experiment
	// seed keeps the keys (they hash parameters) but changes the seeds.
	again, _ := Expand(withPolicies(testExperiment(t)))
	e2 := withPolicies(testExperiment(t))
	e2.Seed = 8
	other, _ := Expand(e2)
	for i := range runs {
		if again[i].Key != runs[i].Key || again[i].WorkloadSeed != runs[i].WorkloadSeed {
			t.Fatalf("run %d: keys or seeds differ between two expansions", i)
		}
		if other[i].Key != runs[i].Key || other[i].WorkloadSeed == runs[i].WorkloadSeed {
			t.Fatalf("run %d: another experiment seed should keep the key and change the seed", i)
		}
	}
}

func TestExpandFiltersAndVary(t *testing.T) {
	e := withPolicies(testExperiment(t))
	e.Sweep.Exclude = []spec.Filter{{Match: map[string]string{"policy": "fcfs", "load_factor": "2"}}}
	e.Sweep.Vary = []spec.Axis{{Target: "policy.easy.order", Kind: "policy", Block: "easy", Param: "order", Values: []string{"arrival", "sjf"}}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	// fcfs: 3 loads × 2 replicates − 2 excluded = 4; easy: 2 orders × 6 = 12.
	if len(runs) != 16 {
		t.Fatalf("got %d runs; want 16", len(runs))
	}
	orders := map[string]int{}
	for _, r := range runs {
		if r.Values()["policy"] == "fcfs" && r.Values()["load_factor"] == "2" {
			t.Errorf("excluded run kept: %v", r.Values())
		}
		if r.Policy.Name == "easy" {
			o := r.Policy.Params.(*policies.OrderParams).Order
			orders[o]++
			if r.Values()["policy.easy.order"] != o {
				t.Errorf("axis value %q but parameter %q", r.Values()["policy.easy.order"], o)
			}
		}
	}
	if orders["arrival"] != 6 || orders["sjf"] != 6 {
		t.Errorf("orders: %v; want 6 each", orders)
	}
	// The original parameter struct is untouched.
	if o := e.Policies[1].Params.(*policies.OrderParams).Order; o != "arrival" {
		t.Errorf("the experiment's own easy parameters changed to %q", o)
	}

	e.Sweep.Include = []spec.Filter{{Match: map[string]string{"policy": "nothing"}}}
	if _, err := Expand(e); err == nil {
		t.Error("a sweep whose filters leave nothing: got no error")
	}
}

func TestSimulateRun(t *testing.T) {
	runs, err := Expand(withPolicies(testExperiment(t)))
	if err != nil {
		t.Fatal(err)
	}
	s := newSources("")
	byLoad := map[string]*sim.Result{}
	for i := range runs {
		r := &runs[i]
		if r.Replicate != 1 || r.Policy.Name != "easy" {
			continue
		}
		sr, err := s.simulate(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		res := sr.res
		byLoad[r.Values()["load_factor"]] = res
	}
	// Same jobs at every load; a load factor of 2 halves the submit times.
	a, b := byLoad["1"], byLoad["2"]
	if len(a.Jobs) != 76 || len(b.Jobs) != 76 {
		t.Fatalf("got %d and %d jobs; want the 76 of the mix", len(a.Jobs), len(b.Jobs))
	}
	first := a.Jobs[0].Submit
	for i := range a.Jobs {
		if a.Jobs[i].Runtime != b.Jobs[i].Runtime {
			t.Fatalf("job %d: run time %d at load 1, %d at load 2", a.Jobs[i].ID, a.Jobs[i].Runtime, b.Jobs[i].Runtime)
		}
		want := first + sim.Time(float64(a.Jobs[i].Submit-first)/2+0.5)
		if d := b.Jobs[i].Submit - want; d < -1 || d > 1 {
			t.Fatalf("job %d: submitted at %d at load 2; want about %d", a.Jobs[i].ID, b.Jobs[i].Submit, want)
		}
	}
}

// TestPartitionsNameEveryAxis checks that every run's jobs file lies at the
// same depth under the same partition names, whether or not a vary axis
// applies to it: Hive readers (DuckDB's hive_partitioning, Polars) refuse a
// folder whose files differ there ("Hive partition mismatch"). A run whose
// block has the axis's parameter shows its own value, as runs.parquet
// does; one whose block lacks it shows Hive's NULL.
func TestPartitionsNameEveryAxis(t *testing.T) {
	e := testExperiment(t)
	fcfs, _ := policies.Lookup("fcfs")
	e.Policies = append(e.Policies, &spec.Policy{Name: "fcfs-p", Type: "fcfs", Params: fcfs.Params()})
	e = withPolicies(e)
	e.Sweep.Vary = []spec.Axis{{Target: "policy.easy.order", Kind: "policy", Block: "easy", Param: "order", Values: []string{"arrival", "sjf"}}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // the last partition of each run, by policy
		"fcfs":   "policy_order=__HIVE_DEFAULT_PARTITION__", // no parameters
		"fcfs-p": "policy_order=arrival",                    // its own, not varied
	}
	for i := range runs {
		r := &runs[i]
		dir := results.PartitionDir(axes(r))
		parts := strings.Split(dir, "/")
		if len(parts) != 5 {
			t.Errorf("run %d (%s): partition %s; want 5 levels", i, r.Policy.Name, dir)
			continue
		}
		var names []string
		for _, p := range parts {
			name, _, _ := strings.Cut(p, "=")
			names = append(names, name)
		}
		if got := strings.Join(names, ","); got != "workload,policy,load_factor,replicate,policy_order" {
			t.Errorf("run %d (%s): partition names %s", i, r.Policy.Name, got)
		}
		w, ok := want[r.Policy.Name]
		if !ok {
			w = "policy_order=" + r.Values()["policy.easy.order"]
		}
		if parts[4] != w {
			t.Errorf("run %d (%s): last partition %s; want %s", i, r.Policy.Name, parts[4], w)
		}
	}
}

// TestVaryEmbeddedParamKeys: a parameter that a policy's struct takes from
// an embedded one (half_life, from the shared fairshare knobs) is part of
// the run key, so the runs of a vary over it are told apart.
func TestVaryEmbeddedParamKeys(t *testing.T) {
	e := withPolicies(testExperiment(t))
	e.Sweep.Vary = []spec.Axis{{Target: "policy.easy.half_life", Kind: "policy", Block: "easy", Param: "half_life", Values: []string{"3600", "7200"}}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]map[string]string{}
	for _, r := range runs {
		if prev, ok := keys[r.Key]; ok {
			t.Fatalf("runs %v and %v have one key %s", prev, r.Values(), r.Key)
		}
		keys[r.Key] = r.Values()
	}
}

// TestKeysOfEarlierFolders: the quickstart's run keys are those that
// schedsweep wrote before the shared policy knobs counted in keys
// (d8f0803), so a results folder made then resumes instead of simulating
// every run again beside its old files. A knob set to another value than
// its default changes the key (TestVaryEmbeddedParamKeys).
func TestKeysOfEarlierFolders(t *testing.T) {
	src, err := os.ReadFile("../experiments/quickstart.hcl")
	if err != nil {
		t.Fatal(err)
	}
	e, diags := spec.Parse("quickstart.hcl", src, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Key)
	}
	slices.Sort(got)
	want := strings.Fields(`3136ebb0faf730dc 3b95a8bf1c323f38 3fb0e80dcca0eec2 463c6f6febc50c25 59ac367d549dfa74
		5bff965631b8a18a 775d106713af1cfc 9a86120dc858500e a7c753e5bd0bdff7 b12ac653a4559e5b
		b90506fa6807818d c5a8618dfeafd5a6 c7417cc3f30c2e4d cdffac219f74afb0 e1ff97153ca754a5
		f121bed73e9104dc f43323749af4df52 f4e46b4cda88cf03`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("quickstart run keys (-before +now):\n%s", diff)
	}
}
