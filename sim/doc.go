// Package sim is schedsweep's discrete-event simulator of a batch-scheduled
// cluster. It owns simulated time (Time, whole seconds), resources (Resources,
// one amount per Kind: processors, memory in bytes, GPUs), jobs (Job, what a
// scheduler may see; Record, what only the engine may see), the event loop
// (Run), placement (Machine, with the aggregate Pool), the contracts a
// scheduling policy and a workload fulfil (Policy, View, Decision, Observer;
// Source), an availability Profile for backfilling policies, and the outcome
// of a run (Result, Outcome). A policy that needs another machine model
// implements Simulator and brings its own engine; Run hands it the run
// (package sim/tier, the two-tier processors of KEASY, REASY and MEASY).
//
// It imports only the standard library and sim/internal/jobs, the job store
// and event queue it shares with sim/tier. Policies live in package policies,
// workload readers and models in package workloads, metrics in package
// results; sim/simtest holds the builders and invariant checks their tests
// share. README.md in this folder follows one event from arrival to record
// and documents every run-time option beside what other simulators do.
//
// Start with Run.
package sim
