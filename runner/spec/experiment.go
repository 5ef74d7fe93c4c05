package spec

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// Experiment is a decoded, validated experiment file: plain values, every
// default applied, every name resolved. The runner expands its sweep into
// runs; nothing in it refers back to HCL except the source ranges kept for
// messages.
type Experiment struct {
	Name        string
	Description string
	// Seed is the experiment seed every run's random streams derive from.
	Seed uint64
	// File is the experiment file's path as given; Dir is its directory,
	// against which relative paths in the file were resolved. Hash is the
	// hex SHA-256 of the file's content: its tokens, without comments and
	// layout, so that formatting or commenting the file keeps it.
	File, Dir, Hash string

	// Declared blocks, in file order.
	Clusters  []*Cluster
	Workloads []*Workload
	Policies  []*Policy

	Sweep  Sweep
	Output Output
}

// Cluster is a machine to simulate.
type Cluster struct {
	Name string
	// Capacity per resource kind: processors, memory in bytes (0: memory is
	// not simulated), GPUs. A machines file sets processors and memory; the
	// file's memory argument, if given, replaces the latter.
	Capacity sim.Resources
	// Machines is the Alea .machines file the capacity came from, if any
	// (already read; kept for the record), resolved against
	// Experiment.Dir.
	Machines string
	// SlurmConf is the slurm.conf the nodes and partitions came from, if
	// any (already read; kept for the record, not part of a run's key,
	// which holds the nodes themselves), resolved against Experiment.Dir.
	SlurmConf string
	// Nodes is the cluster's node groups, partitions and placement when
	// it is a cluster of nodes (node blocks, or a machines file with
	// model = "nodes"); nil for the aggregate pool of Capacity. Capacity
	// is then the nodes' total.
	Nodes *nodes.Config
	// Compat is CompatAlea ("alea") for a cluster under Alea's
	// node-level rules (sim/alea), its clusters in Alea (in the machines
	// file's order; Capacity is their total); "" and nil otherwise.
	Compat string
	Alea   []alea.Group
	Range  hcl.Range
}

// Workload is a source of jobs: a synthetic model or a trace, with the
// transformations that apply before the load factor of the sweep.
type Workload struct {
	Name string
	// Exactly one of Model, Trace and Merge is set.
	Model string
	// Params is the model's parameter struct (a pointer, as
	// workloads.Model.Params returns it) with the file's values set.
	Params any
	// Trace is a registered trace name, spelled as the registry spells it
	// (it need not be downloaded yet), or the path of a file that existed
	// when the experiment was parsed, resolved against Experiment.Dir. A
	// path that exists wins over a name, as in workloads.ResolveTrace.
	Trace string
	// Merge, when set instead of Model and Trace, holds the workloads whose
	// jobs are interleaved onto the cluster (workloads.Merge), in the
	// file's order; none of them is itself a merge.
	Merge []*Workload
	// SWF says how to read a trace's fields.
	SWF workloads.SWFOptions
	// Format is how the trace file is read: "" for SWF, or "sacct" for a
	// dump of Slurm's sacct (workloads.SacctReader), which reads memory
	// when SWF.Memory is RequestedMemory and takes no other SWF option.
	Format string
	// TimeZone is, for a sacct dump, the IANA name of the zone its times
	// were printed in; "" is UTC. The decoder checks that it loads.
	TimeZone string
	// Cuts, applied in this order: Window (if To > 0), Users (if any), then
	// Take (if > 0).
	From, To sim.Time
	Users    []int32
	Take     int
	// Estimates is an estimate model as workloads.ApplyEstimates names it;
	// "keep" by default.
	Estimates string
	// CPUUsage is "none", "default" or "full".
	CPUUsage string
	// AllowOverrun and MissingEstimate are how the engine treats the jobs
	// of a run of this workload (sim.Options): a job past its estimate is
	// killed there unless AllowOverrun; a job without an estimate gets
	// its run time (sim.EstimateFromRuntime, the default) or is rejected.
	// A merge's own values apply to its runs; its parts must agree with
	// them.
	AllowOverrun    bool
	MissingEstimate sim.MissingEstimate
	Range           hcl.Range
}

// Policy is a scheduling policy with its parameters.
type Policy struct {
	// Name is the block label, Type the registered policy (the label when
	// the block does not say).
	Name, Type string
	// Params is the policy's parameter struct with the file's values set,
	// nil for a policy without parameters.
	Params any
	Range  hcl.Range
}

// Sweep is the grid: the cartesian product of its axes, less the excluded
// combinations.
type Sweep struct {
	Cluster   *Cluster
	Workloads []*Workload
	Policies  []*Policy
	// LoadFactors scale the workloads' arrivals (workloads.LoadFactor);
	// [1] when the file gives neither them nor OfferedLoads, nil when it
	// gives OfferedLoads.
	LoadFactors []float64
	// OfferedLoads are target offered loads, nil unless the file gives
	// them: the runner solves each run's load factor so that its
	// workload offers that load (runner.Run.TargetLoad).
	OfferedLoads []float64
	Seeds        []uint64 // replicate numbers; [1] when the file gives none
	// Vary are further axes over one parameter of one workload or policy.
	Vary []Axis
	// Exclude drops a combination that matches every key of any one
	// filter; Include, if not empty, keeps only combinations that match
	// every key of at least one.
	Exclude, Include []Filter
	Range            hcl.Range
}

// Loads returns the number of values of the sweep's load axis: its load
// factors or its target offered loads.
func (s *Sweep) Loads() int { return len(s.LoadFactors) + len(s.OfferedLoads) }

// Axis sweeps one parameter of one block over values.
type Axis struct {
	// Target is "workload.NAME.PARAM" or "policy.NAME.PARAM".
	Target string
	Kind   string // "workload" or "policy"
	Block  string // the block's name
	Param  string // the parameter's hcl name
	// Values are the parameter's values in the form internal/params.Set
	// reads (already checked against the parameter's type).
	Values []string
	Range  hcl.Range
}

// AppliesTo reports whether the axis varies a parameter of the workload
// or the policy named: the runs of that pair are the ones it multiplies.
func (a *Axis) AppliesTo(workload, policy string) bool {
	return a.Kind == kindWorkload && a.Block == workload || a.Kind == kindPolicy && a.Block == policy
}

// Filter matches a run when every key matches: keys are "workload",
// "policy", "load_factor", "offered_load" (the target), "seed", or an
// axis target; values compare as
// their canonical strings (load factors and floats as strconv 'g'). An axis
// key matches only runs whose workload or policy is the axis's block: the
// others have no value for it. In the file, axis keys are written
// vary = { "workload.NAME.PARAM" = VALUE }, since an argument's name
// cannot hold dots.
type Filter struct {
	Match map[string]string
	Range hcl.Range
}

// Output says where results go.
type Output struct {
	// Dir is the results folder (relative paths are relative to the current
	// directory of the command, not to the file).
	Dir string
	// Jobs says whether to write the per-job table (jobs/).
	Jobs bool
	// Heatmaps says whether to write, per run, the violated-EET heatmap
	// (heatmap/) and the utilization series (utilization/).
	Heatmaps bool
	// EETCapacity is how users' expected capacities are set for the EET
	// metric: "equal" (the machine split equally among the users whose jobs
	// ran) or "proportional" (in proportion to each user's work).
	EETCapacity string
	// Warmup and Cooldown are the shares of a run's first and last jobs,
	// in submit order, that its metrics leave out (results.Trim): each in
	// [0, 1), their sum below 1; 0 by default. The schedule never depends
	// on them.
	Warmup, Cooldown float64
}
