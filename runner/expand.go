package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// Run is one fully resolved cell of a sweep: everything needed to simulate
// it and to name its results.
type Run struct {
	// Index is the run's position in the expanded grid, from 0.
	Index int
	// Key is a hash of the resolved parameters (16 hex digits): the same
	// parameters give the same key in any experiment, so results can be
	// resumed and merged.
	Key string
	// WorkloadKey hashes what determines the jobs (the workload and its
	// parameters, not the policy or the load factor).
	WorkloadKey string

	Cluster  *spec.Cluster
	Workload *spec.Workload // a copy with the sweep's vary values applied
	Policy   *spec.Policy   // likewise
	// LoadFactor scales the workload's arrivals (workloads.LoadFactor). In
	// a sweep of target offered loads it is 0 until the run's factor is
	// solved (SolveFactors, or when the run is simulated), then the factor
	// that takes the workload of this replicate to TargetLoad.
	LoadFactor float64
	// TargetLoad is the target offered load of a sweep's offered_loads,
	// 0 in a sweep of load factors.
	TargetLoad float64
	Replicate  uint64

	// WorkloadSeed seeds every random stream of the run: the workload
	// model, the estimate model, CPU usages and the two-tier engine's
	// draws. It derives from the experiment seed, the workload key and the
	// replicate, not from the policy or the load factor, so every policy
	// and load factor of one replicate sees the same jobs and draws (common
	// random numbers): their differences are the policies', not chance's.
	// The runs table records it as seed.
	WorkloadSeed uint64

	// varied holds a partition column for every vary axis of the sweep
	// (partitionColumns), whether or not the axis applies to this run; the
	// field set holds the values the axes that apply give the run, as
	// filters compare them. Both are in axis order, and runs of one branch
	// of the grid share both slices: a sweep holds its grid for its whole
	// length, so a run keeps no map of its own.
	varied []results.Param
	set    []axisValue
}

// axisValue is the value a vary axis gives a run, as filters compare it.
type axisValue struct{ target, text string }

// Values returns the run's axis values by axis name ("workload", "policy",
// "load_factor" or, in a sweep of target offered loads, "offered_load",
// "seed" (the replicate) and each vary target), as strings in the form
// filters compare.
func (r *Run) Values() map[string]string {
	m := map[string]string{
		"workload": r.Workload.Name,
		"policy":   r.Policy.Name,
		"seed":     strconv.FormatUint(r.Replicate, 10),
	}
	if r.TargetLoad > 0 {
		m["offered_load"] = formatFloat(r.TargetLoad)
	} else {
		m["load_factor"] = formatFloat(r.LoadFactor)
	}
	for _, a := range r.set {
		m[a.target] = a.text
	}
	return m
}

// Expand returns the runs of e's sweep in grid order: workloads, then
// policies, then vary axes in file order, then load factors (or target
// offered loads), then replicates, the last varying fastest. Excluded combinations are left out.
func Expand(e *spec.Experiment) ([]Run, error) {
	x := &expander{e: e, sw: &e.Sweep}
	for _, w := range x.sw.Workloads {
		for _, p := range x.sw.Policies {
			if err := x.walk(w, p, 0, map[string]string{"workload": w.Name, "policy": p.Name}, nil); err != nil {
				return nil, err
			}
		}
	}
	if len(x.runs) == 0 {
		return nil, fmt.Errorf("experiment %s: the sweep's filters leave no run", e.Name)
	}
	return x.runs, nil
}

// expander is Expand's walk down the grid of an experiment's sweep: the
// runs it has kept so far, in grid order.
type expander struct {
	e    *spec.Experiment
	sw   *spec.Sweep
	runs []Run
}

// walk expands the branch of workload w and policy p from vary axis axis
// on, with the values the filters see so far (values) and the axis values
// set (set): each value of an axis that applies to w and p in turn, then,
// past the last axis, the branch's runs (leaf).
func (x *expander) walk(w *spec.Workload, p *spec.Policy, axis int, values map[string]string, set []axisValue) error {
	if axis == len(x.sw.Vary) {
		x.leaf(w, p, values, set)
		return nil
	}
	a := x.sw.Vary[axis]
	if !a.AppliesTo(w.Name, p.Name) {
		return x.walk(w, p, axis+1, values, set)
	}
	for _, v := range a.Values {
		w2, p2, err := applyAxis(w, p, a, v)
		if err != nil {
			return err
		}
		next := copyMap(values)
		next[a.Target] = v
		err = x.walk(w2, p2, axis+1, next, append(set[:len(set):len(set)], axisValue{a.Target, v}))
		if err != nil {
			return err
		}
	}
	return nil
}

// leaf adds the runs of one branch of the grid, workload w and policy p
// with every vary value applied: one per load factor (or target offered
// load) and replicate that the sweep's filters keep.
func (x *expander) leaf(w *spec.Workload, p *spec.Policy, values map[string]string, set []axisValue) {
	sw := x.sw
	// vals is the filters' view of each run of this branch in turn.
	vals := copyMap(values)
	varied := partitionColumns(sw.Vary, w, p)
	wkey := hash(workloadCanon(w))
	type load struct{ factor, target float64 }
	var loads []load
	for _, lf := range sw.LoadFactors {
		loads = append(loads, load{factor: lf})
	}
	for _, t := range sw.OfferedLoads {
		loads = append(loads, load{target: t})
	}
	for _, ld := range loads {
		for _, rep := range sw.Seeds {
			if ld.target > 0 {
				vals["offered_load"] = formatFloat(ld.target)
			} else {
				vals["load_factor"] = formatFloat(ld.factor)
			}
			vals["seed"] = strconv.FormatUint(rep, 10)
			if !sw.Keeps(vals) {
				continue
			}
			r := Run{
				Index: len(x.runs), Cluster: sw.Cluster, Workload: w, Policy: p,
				LoadFactor: ld.factor, TargetLoad: ld.target, Replicate: rep, WorkloadKey: wkey, varied: varied, set: set,
			}
			r.Key = hash(runCanon(&r))
			r.WorkloadSeed = deriveSeed(x.e.Seed, r.WorkloadKey, rep)
			x.runs = append(x.runs, r)
		}
	}
}

// applyAxis returns copies of w and p with the axis parameter set to v.
func applyAxis(w *spec.Workload, p *spec.Policy, a spec.Axis, v string) (*spec.Workload, *spec.Policy, error) {
	switch a.Kind {
	case "workload":
		w2 := *w
		w2.Params = cloneParams(w.Params)
		if err := params.Set(w2.Params, a.Param, v); err != nil {
			return nil, nil, fmt.Errorf("vary %s: %w", a.Target, err)
		}
		return &w2, p, nil
	case "policy":
		p2 := *p
		p2.Params = cloneParams(p.Params)
		if err := params.Set(p2.Params, a.Param, v); err != nil {
			return nil, nil, fmt.Errorf("vary %s: %w", a.Target, err)
		}
		return w, &p2, nil
	}
	return nil, nil, fmt.Errorf("vary %s: unknown kind %q", a.Target, a.Kind)
}

// hiveNull is the value Hive, and after it DuckDB, pyarrow and Polars,
// read as NULL in a partition directory's name.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// partitionColumns returns the partition columns of the runs of workload w
// under policy p (with the vary values of their branch applied): one per
// vary axis of the sweep, named as the runs table names the parameter
// (workload_PARAM, policy_PARAM), the first axis of each name only. Every
// run gets every column, so that every jobs file lies at the same depth
// under the same names, as Hive readers require ("Hive partition
// mismatch"): the value is the run's own parameter, varied by the axis or
// not, as runs.parquet shows it, or NULL (hiveNull) for a run whose
// workload or policy has no such parameter.
func partitionColumns(vary []spec.Axis, w *spec.Workload, p *spec.Policy) []results.Param {
	var out []results.Param
	seen := map[string]bool{}
	for _, a := range vary {
		block, prefix := w.Params, "workload_"
		if a.Kind == "policy" {
			block, prefix = p.Params, "policy_"
		}
		name := prefix + a.Param
		if seen[name] {
			continue
		}
		seen[name] = true
		col := str(name, hiveNull)
		if block != nil {
			for _, f := range params.Describe(block) {
				if f.Name == a.Param {
					col = typed(name, f.Value)
					break
				}
			}
		}
		out = append(out, col)
	}
	return out
}

// workloadCanon is the canonical text of what determines a workload's jobs.
func workloadCanon(w *spec.Workload) string {
	var b strings.Builder
	fmt.Fprintf(&b, "workload=%s\n", w.Name)
	switch {
	case w.Model != "":
		fmt.Fprintf(&b, "model=%s\nparams=%s\n", w.Model, params.String(w.Params))
	case len(w.Merge) > 0:
		fmt.Fprintf(&b, "merge=%d\n", len(w.Merge))
		for _, p := range w.Merge {
			b.WriteString(workloadCanon(p))
		}
	default:
		fmt.Fprintf(&b, "trace=%s\nswf=%d,%d,%d,%t\n", w.Trace, w.SWF.Procs, w.SWF.Memory, w.SWF.MemoryUnit, w.SWF.NegativeAsMissing)
		if w.SWF.Shape != (workloads.ShapeMode{}) || w.SWF.AleaFields { // only then: earlier keys stay
			fmt.Fprintf(&b, "shape=%s\nalea_fields=%t\n", w.SWF.Shape, w.SWF.AleaFields)
		}
		if w.Format != "" { // only then, as above
			fmt.Fprintf(&b, "format=%s\ntimezone=%s\n", w.Format, w.TimeZone)
		}
	}
	fmt.Fprintf(&b, "window=%d,%d\nusers=%v\ntake=%d\nestimates=%s\ncpu_usage=%s\n",
		w.From, w.To, w.Users, w.Take, w.Estimates, w.CPUUsage)
	// Only when not the defaults, so that the keys of the runs that keep
	// them (every run before these options existed) do not change.
	if w.AllowOverrun || w.MissingEstimate != sim.EstimateFromRuntime {
		fmt.Fprintf(&b, "allow_overrun=%t\nmissing_estimate=%s\n", w.AllowOverrun, spec.Names("missing_estimate")[w.MissingEstimate])
	}
	return b.String()
}

// runCanon is the canonical text of a run's resolved parameters.
func runCanon(r *Run) string {
	var b strings.Builder
	b.WriteString(workloadCanon(r.Workload))
	fmt.Fprintf(&b, "cluster=%s %v\n", r.Cluster.Name, r.Cluster.Capacity)
	if r.Cluster.Nodes != nil { // only then: the pool's keys stay
		b.WriteString(nodesCanon(r.Cluster.Nodes))
	}
	if r.Cluster.Compat != "" { // only then: the other keys stay
		b.WriteString(compatCanon(r.Cluster))
	}
	fmt.Fprintf(&b, "policy=%s\ntype=%s\n", r.Policy.Name, r.Policy.Type)
	if r.Policy.Params != nil {
		fmt.Fprintf(&b, "policy_params=%s\n", params.Key(r.Policy.Params, policyDefaults(r.Policy.Type)))
	}
	// A run of a target offered load is keyed by the target: its factor is
	// solved from its jobs, which the key's other lines determine.
	if r.TargetLoad > 0 {
		fmt.Fprintf(&b, "offered_load=%s\nreplicate=%d\n", formatFloat(r.TargetLoad), r.Replicate)
	} else {
		fmt.Fprintf(&b, "load_factor=%s\nreplicate=%d\n", formatFloat(r.LoadFactor), r.Replicate)
	}
	return b.String()
}

// policyDefaults returns the default parameters of the registered policy
// named typ, nil if there is none (Key then writes every field).
func policyDefaults(typ string) any {
	e, err := policies.Lookup(typ)
	if err != nil || e.Params == nil {
		return nil
	}
	return e.Params()
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// deriveSeed mixes the experiment seed with a key and a replicate.
func deriveSeed(seed uint64, key string, rep uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], seed)
	binary.LittleEndian.PutUint64(buf[8:], rep)
	sum := sha256.Sum256(append(buf[:], key...))
	return binary.LittleEndian.Uint64(sum[:8])
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// cloneParams copies a parameter struct, or returns nil for none.
func cloneParams(p any) any {
	if p == nil {
		return nil
	}
	return params.Clone(p)
}
