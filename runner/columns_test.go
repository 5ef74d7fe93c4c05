package runner

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestRunParamsOfATrace checks the resolved parameters a trace workload's
// run records: the cluster's three capacities, how the SWF fields were
// read, the cuts that apply and no column for those that do not.
func TestRunParamsOfATrace(t *testing.T) {
	cl := &spec.Cluster{Name: "big", Capacity: sim.Resources{sim.Procs: 128, sim.Memory: 1 << 40, sim.GPUs: 8}}
	w := &spec.Workload{Name: "kth", Trace: "kth.swf", Estimates: "keep", CPUUsage: "none",
		SWF:  workloads.SWFOptions{Procs: workloads.AllocatedProcs, Memory: workloads.UsedMemory, MemoryUnit: workloads.KBPerJob, NegativeAsMissing: true},
		From: 3600, To: 86400, Users: []int32{3, 14}}
	r := &Run{Cluster: cl, Workload: w, Policy: &spec.Policy{Name: "fcfs", Type: "fcfs"}, LoadFactor: 1.5, Replicate: 2}
	want := []results.Param{
		str("workload", "kth"), str("policy", "fcfs"), float("load_factor", 1.5), integer("replicate", 2),
		str("cluster", "big"), integer("cluster_procs", 128), integer("cluster_memory", 1<<40), integer("cluster_gpus", 8),
		str("workload_trace", "kth.swf"),
		str("workload_procs_field", "allocated"), str("workload_memory_field", "used"), str("workload_memory_unit", "kb-per-job"),
		boolean("workload_negative_as_missing", true),
		integer("workload_window_from", 3600), integer("workload_window_to", 86400), str("workload_users", "3,14"),
		str("workload_estimates", "keep"), str("workload_cpu_usage", "none"), str("policy_type", "fcfs"),
	}
	if diff := cmp.Diff(want, runParams(r)); diff != "" {
		t.Errorf("runParams (-want +got):\n%s", diff)
	}

	// The standard reading, every job: no unit for memory not read, no
	// window, users or take columns (NULL in the table), but a take when
	// there is one.
	w.SWF, w.From, w.To, w.Users, w.Take = workloads.SWFOptions{}, 0, 0, nil, 500
	got := map[string]results.Value{}
	for _, p := range runParams(r) {
		got[p.Name] = p.Value
	}
	for _, absent := range []string{"workload_memory_unit", "workload_window_from", "workload_window_to", "workload_users"} {
		if v, ok := got[absent]; ok {
			t.Errorf("%s = %+v for a run without it; want no column (NULL)", absent, v)
		}
	}
	if v := got["workload_take"]; v != results.IntValue(500) {
		t.Errorf("workload_take = %+v; want 500", v)
	}
	if v := got["workload_memory_field"]; v != results.StringValue("none") {
		t.Errorf("workload_memory_field = %+v; want none", v)
	}
}

// TestSeedRegeneratesJobs checks that the seed column of runs.parquet is
// the seed the run's jobs came from: the model and the estimate model
// seeded with it give the jobs file's jobs, as `schedsweep trace generate
// --seed` does. Every policy and load factor of one replicate shares it;
// replicates do not.
func TestSeedRegeneratesJobs(t *testing.T) {
	dir := t.TempDir()
	m, err := workloads.LookupModel("lublin")
	if err != nil {
		t.Fatal(err)
	}
	wp := m.Params().(*workloads.LublinParams)
	wp.Nodes = 64
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 64}}
	w := &spec.Workload{Name: "lublin", Model: "lublin", Params: wp, Take: 300, Estimates: "tsafrir", CPUUsage: "none"}
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "sjf", Type: "sjf"}}
	e := &spec.Experiment{Name: "seeds", Seed: 11, Hash: "h", File: "seeds.hcl",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep:  spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps, LoadFactors: []float64{1, 1.5}, Seeds: []uint64{1, 2}},
		Output: spec.Output{Dir: dir, Jobs: true}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, e, runs, Options{Workers: 2})

	tbl := readTable(t, filepath.Join(dir, "runs.parquet"))
	defer tbl.Release()
	rd := array.NewTableReader(tbl, 0)
	defer rd.Release()
	seedOf := map[uint64]uint64{} // replicate → seed
	var key string
	var seed uint64
	for rd.Next() {
		rec := rd.RecordBatch()
		col := func(name string) int {
			idx := rec.Schema().FieldIndices(name)
			if len(idx) != 1 {
				t.Fatalf("runs.parquet has no column %s", name)
			}
			return idx[0]
		}
		keys := rec.Column(col("run_key")).(*array.String)
		seeds := rec.Column(col("seed")).(*array.Int64)
		reps := rec.Column(col("replicate")).(*array.Int64)
		loads := rec.Column(col("load_factor")).(*array.Float64)
		pols := rec.Column(col("policy")).(*array.String)
		for i := range int(rec.NumRows()) {
			s, rep := uint64(seeds.Value(i)), uint64(reps.Value(i))
			if prev, ok := seedOf[rep]; ok && prev != s {
				t.Errorf("replicate %d: seeds %d and %d; want one seed for every policy and load factor", rep, prev, s)
			}
			seedOf[rep] = s
			if rep == 1 && loads.Value(i) == 1 && pols.Value(i) == "sjf" {
				key, seed = keys.Value(i), s
			}
		}
	}
	if len(seedOf) != 2 || seedOf[1] == seedOf[2] {
		t.Fatalf("seeds by replicate %v; want two different ones", seedOf)
	}
	if key == "" {
		t.Fatal("no sjf run at load factor 1, replicate 1")
	}

	// What trace generate --model lublin --param nodes=64 --jobs 300
	// --estimates tsafrir --seed SEED makes.
	src, err := m.New(wp, seed)
	if err != nil {
		t.Fatal(err)
	}
	src, err = workloads.ApplyEstimates(workloads.Take(src, 300), "tsafrir", seed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sim.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	var r *Run
	for i := range runs {
		if runs[i].Key == key {
			r = &runs[i]
		}
	}
	jobs := readTable(t, JobsPath(dir, r))
	defer jobs.Release()
	if int(jobs.NumRows()) != len(want) {
		t.Fatalf("jobs file has %d rows; the seed regenerates %d jobs", jobs.NumRows(), len(want))
	}
	jr := array.NewTableReader(jobs, 0)
	defer jr.Release()
	n := 0
	for jr.Next() {
		rec := jr.RecordBatch()
		cols := map[string]*array.Int64{}
		for _, name := range []string{"job_id", "submit", "runtime", "requested_time", "procs"} {
			cols[name] = rec.Column(rec.Schema().FieldIndices(name)[0]).(*array.Int64)
		}
		for i := range int(rec.NumRows()) {
			j := want[n]
			got := [5]int64{cols["job_id"].Value(i), cols["submit"].Value(i), cols["runtime"].Value(i), cols["requested_time"].Value(i), cols["procs"].Value(i)}
			exp := [5]int64{int64(j.ID), int64(j.Submit), int64(j.Runtime), int64(j.Estimate), j.Need[sim.Procs]}
			if got != exp {
				t.Fatalf("job %d: file has (id, submit, runtime, requested, procs) %v; the seed gives %v", n, got, exp)
			}
			n++
		}
	}
}
