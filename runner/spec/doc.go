// Package spec reads experiment files: HCL in, a validated Experiment out,
// with every problem reported as an hcl.Diagnostic that names file, line and
// column. It owns the experiment language (the blocks experiment, variable,
// locals, cluster, workload, policy, sweep and output), its functions (cty's
// standard library and try), and the canonical formatting of files.
//
// Policies and workload models validate their own parameters: spec reads a
// block's params into the parameter struct the registry gives
// (policies.Lookup, workloads.LookupModel), so a new policy or model needs
// no change here. Expanding the sweep into runs is package runner's job.
//
// Start with Parse; experiments/reference.hcl shows every block and
// argument. The files follow the order Parse works in:
//
//	parse.go     Parse and Format; the top-level blocks and names
//	schema.go    what a block may hold: unknown arguments and blocks, labels, duplicates
//	refs.go      references (var, local, cluster, workload, policy) and evaluation
//	functions.go the functions a file may call
//	bounds.go    the limits on file size and nesting depth, checked before parsing
//	vars.go      variables and their types, command-line overrides, locals in dependency order
//	values.go    strict conversion of values to Go types
//	blocks.go    experiment, cluster, policy and output blocks
//	nodes.go     a cluster's node and partition blocks, fit, model; which policies run on nodes
//	workload.go  workload blocks: model or trace, cuts, estimates, how the engine treats the jobs
//	options.go   the arguments whose values are names, parsed here for files and simulate's flags alike
//	merge.go     merge workloads: their parts, once every workload is read
//	params.go    model and policy parameters through internal/params
//	sweep.go     the sweep and its vary axes
//	filter.go    exclude and include, and the check that something is left
//	size.go      memory sizes such as "64GiB"
//
// The sweep's load axis is load_factors (factors applied to the workloads'
// arrivals) or offered_loads (target offered loads, whose factors the
// runner solves per workload and replicate), never both; filters match
// the latter by offered_load.
//
// Two choices differ from Terraform. Values are strict: a number argument
// takes a number, not a string of digits; only a variable's declared type
// converts, as Terraform's does (type = string makes --var name=2024 the
// string "2024"). Filters match vary axes through
// vary = { "workload.NAME.PARAM" = VALUE }, because an argument's name
// cannot hold the dots of an axis's name.
package spec
