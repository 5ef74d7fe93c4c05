package runner

import (
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
)

// TestRunOptionsKeyAndColumns checks that a workload's allow_overrun and
// missing_estimate key its runs and appear in runs.parquet only when they
// are not the defaults: the runs of a folder written before they existed
// keep their keys, and so stay resumable.
func TestRunOptionsKeyAndColumns(t *testing.T) {
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 8}}
	run := func(w *spec.Workload) *Run {
		return &Run{Cluster: cl, Workload: w, Policy: &spec.Policy{Name: "fcfs", Type: "fcfs"}, LoadFactor: 1, Replicate: 1}
	}
	plain := &spec.Workload{Name: "w", Trace: "t.swf", Estimates: "keep", CPUUsage: "none"}
	if canon := workloadCanon(plain); strings.Contains(canon, "allow_overrun") || strings.Contains(canon, "missing_estimate") {
		t.Errorf("the defaults enter the key:\n%s", canon)
	}
	for _, p := range runParams(run(plain)) {
		if p.Name == "workload_allow_overrun" || p.Name == "workload_missing_estimate" {
			t.Errorf("column %s for the defaults; want none (NULL)", p.Name)
		}
	}
	overrun, reject := *plain, *plain
	overrun.AllowOverrun = true
	reject.MissingEstimate = sim.RejectMissingEstimate
	keys := map[string]string{}
	for name, w := range map[string]*spec.Workload{"plain": plain, "overrun": &overrun, "reject": &reject} {
		k := hash(runCanon(run(w)))
		if other, dup := keys[k]; dup {
			t.Errorf("%s and %s share the key %s", name, other, k)
		}
		keys[k] = name
	}
	got := map[string]results.Value{}
	for _, p := range append(runParams(run(&overrun)), runParams(run(&reject))...) {
		got[p.Name] = p.Value
	}
	if v := got["workload_allow_overrun"]; v != results.BoolValue(true) {
		t.Errorf("workload_allow_overrun = %+v; want true", v)
	}
	if v := got["workload_missing_estimate"]; v != results.StringValue("reject") {
		t.Errorf("workload_missing_estimate = %+v; want reject", v)
	}
}
