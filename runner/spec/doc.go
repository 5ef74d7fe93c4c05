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
// Start with Parse.
package spec
