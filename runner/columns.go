package runner

import (
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

// axes returns a run's sweep axes, the Hive partition of its jobs file:
// workload, policy, load factor, replicate, then each vary axis as the
// parameter column it sets.
func axes(r *Run) []results.Param {
	out := []results.Param{
		str("workload", r.Workload.Name),
		str("policy", r.Policy.Name),
		float("load_factor", r.LoadFactor),
		integer("replicate", int64(r.Replicate)),
	}
	return append(out, r.varied...)
}

// runParams returns every resolved parameter of a run as the columns of its
// row in the runs table: the axes, the cluster, the workload and its
// parameters (workload_NAME), the policy and its parameters (policy_NAME).
func runParams(r *Run) []results.Param {
	out := []results.Param{
		str("workload", r.Workload.Name),
		str("policy", r.Policy.Name),
		float("load_factor", r.LoadFactor),
		integer("replicate", int64(r.Replicate)),
		str("cluster", r.Cluster.Name),
		integer("cluster_procs", r.Cluster.Capacity[sim.Procs]),
		integer("cluster_memory", r.Cluster.Capacity[sim.Memory]),
	}
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
	}
	out = append(out,
		integer("workload_take", int64(w.Take)),
		str("workload_estimates", w.Estimates),
		str("workload_cpu_usage", w.CPUUsage),
		str("policy_type", r.Policy.Type))
	if r.Policy.Params != nil {
		out = append(out, paramColumns("policy_", r.Policy.Params)...)
	}
	return out
}

// paramColumns turns a parameter struct into typed columns named
// prefix+name.
func paramColumns(prefix string, p any) []results.Param {
	var out []results.Param
	for _, f := range params.Describe(p) {
		out = append(out, typed(prefix+f.Name, f.Type, f.Default))
	}
	return out
}

// typed converts a parameter's text (as params.Describe gives it) to a
// column value of its type.
func typed(name, kind, text string) results.Param {
	switch kind {
	case "int":
		v, _ := strconv.ParseInt(text, 10, 64)
		return integer(name, v)
	case "float":
		v, _ := strconv.ParseFloat(text, 64)
		return float(name, v)
	case "bool":
		return results.Param{Name: name, Value: results.Value{Kind: results.KindBool, Bool: text == "true"}}
	}
	return str(name, text)
}

func str(name, v string) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindString, Str: v}}
}

func integer(name string, v int64) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindInt, Int: v}}
}

func float(name string, v float64) results.Param {
	return results.Param{Name: name, Value: results.Value{Kind: results.KindFloat, Float: v}}
}
