package runner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// axes returns a run's sweep axes, the Hive partition of its jobs file:
// workload, policy, load factor (or, in a sweep of target offered loads,
// the target: the solved factor differs from replicate to replicate),
// replicate, then a column per vary axis of the sweep, whether or not it
// applies to the run (partitionColumns).
func axes(r *Run) []results.Param {
	out := []results.Param{
		str("workload", r.Workload.Name),
		str("policy", r.Policy.Name),
		loadAxis(r),
		integer("replicate", int64(r.Replicate)),
	}
	return append(out, r.varied...)
}

// loadAxis is the column of a run's load axis: its load factor, or its
// target offered load.
func loadAxis(r *Run) results.Param {
	if r.TargetLoad > 0 {
		return float("target_offered_load", r.TargetLoad)
	}
	return float("load_factor", r.LoadFactor)
}

// runParams returns every resolved parameter of a run as the columns of its
// row in the runs table: the axes, the cluster, the workload and its
// parameters (workload_NAME), the policy and its parameters (policy_NAME).
// A run of a target offered load has target_offered_load before
// load_factor, the factor solved for it (0 until it is solved: the
// table's columns are declared from unsolved runs, its rows written from
// simulated ones).
func runParams(r *Run) []results.Param {
	out := []results.Param{
		str("workload", r.Workload.Name),
		str("policy", r.Policy.Name),
	}
	if r.TargetLoad > 0 {
		out = append(out, float("target_offered_load", r.TargetLoad))
	}
	out = append(out,
		float("load_factor", r.LoadFactor),
		integer("replicate", int64(r.Replicate)),
		str("cluster", r.Cluster.Name),
		integer("cluster_procs", r.Cluster.Capacity[sim.Procs]),
		integer("cluster_memory", r.Cluster.Capacity[sim.Memory]),
		integer("cluster_gpus", r.Cluster.Capacity[sim.GPUs]),
	)
	w := r.Workload
	switch {
	case w.Model != "":
		out = append(out, str("workload_model", w.Model))
		out = append(out, paramColumns("workload_", w.Params)...)
	case len(w.Merge) > 0:
		names := make([]string, len(w.Merge))
		for i, p := range w.Merge {
			names[i] = p.Name
		}
		out = append(out, str("workload_merge", strings.Join(names, "+")))
	default:
		out = append(out, str("workload_trace", w.Trace))
		out = append(out, swfColumns(w.SWF)...)
	}
	if w.To > 0 {
		out = append(out, integer("workload_window_from", int64(w.From)), integer("workload_window_to", int64(w.To)))
	}
	if len(w.Users) > 0 {
		users := make([]string, len(w.Users))
		for i, u := range w.Users {
			users[i] = strconv.Itoa(int(u))
		}
		out = append(out, str("workload_users", strings.Join(users, ",")))
	}
	if w.Take > 0 { // NULL when every job is taken
		out = append(out, integer("workload_take", int64(w.Take)))
	}
	out = append(out,
		str("workload_estimates", w.Estimates),
		str("workload_cpu_usage", w.CPUUsage))
	out = append(out, runOptionColumns(w)...)
	out = append(out, str("policy_type", r.Policy.Type))
	if r.Policy.Params != nil {
		out = append(out, paramColumns("policy_", r.Policy.Params)...)
	}
	return out
}

// runOptionColumns returns how the engine treated the jobs of workload w
// (allow_overrun, missing_estimate), each only when it is not the default:
// NULL in the table means jobs killed at their estimate and missing
// estimates set to the run time, as in the runs of a folder written before
// these columns existed.
func runOptionColumns(w *spec.Workload) []results.Param {
	var out []results.Param
	if w.AllowOverrun {
		out = append(out, boolean("workload_allow_overrun", true))
	}
	if w.MissingEstimate != sim.EstimateFromRuntime {
		out = append(out, str("workload_missing_estimate", spec.Names("missing_estimate")[w.MissingEstimate]))
	}
	return out
}

// swfColumns returns how a trace's SWF fields are read, as the attributes
// of its workload block name it: workload_procs_field and so on.
func swfColumns(o workloads.SWFOptions) []results.Param {
	out := []results.Param{
		str("workload_procs_field", workloads.ProcsFieldNames()[o.Procs]),
		str("workload_memory_field", workloads.MemoryFieldNames()[o.Memory]),
	}
	if o.Memory != workloads.NoMemory { // the unit applies to memory read
		out = append(out, str("workload_memory_unit", workloads.MemoryUnitNames()[o.MemoryUnit]))
	}
	return append(out, boolean("workload_negative_as_missing", o.NegativeAsMissing))
}

// paramColumns turns a parameter struct into typed columns named
// prefix+name.
func paramColumns(prefix string, p any) []results.Param {
	var out []results.Param
	for _, f := range params.Describe(p) {
		out = append(out, typed(prefix+f.Name, f.Value))
	}
	return out
}

// typed is a parameter's column: v is a params.Field's Value.
func typed(name string, v any) results.Param {
	switch v := v.(type) {
	case int64:
		return integer(name, v)
	case float64:
		return float(name, v)
	case bool:
		return boolean(name, v)
	case string:
		return str(name, v)
	}
	panic(fmt.Sprintf("runner: parameter %s has a value of type %T", name, v))
}

func str(name, v string) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindString, Str: v}}
}

func boolean(name string, v bool) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindBool, Bool: v}}
}

func integer(name string, v int64) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindInt, Int: v}}
}

func float(name string, v float64) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindFloat, Float: v}}
}
