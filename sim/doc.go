// Package sim is schedsweep's discrete-event simulator of a batch-scheduled
// cluster. It owns simulated time (Time, whole seconds), resources
// (Resources, one amount per Kind: processors, memory in bytes, GPUs), jobs
// (Job, what a scheduler may see; Record, what only the engine may see),
// the one event loop (Run), the machine-model contract (Model) with the
// aggregate Pool, the contracts a scheduling policy and a workload fulfil
// (Policy, View, Decision with its Actions, Observer; Source), an
// availability Profile for backfilling policies, and the outcome of a run
// (Result, Outcome).
//
// Run's loop reads and admits the source, keeps the waiting queue, calls
// the policy and its observer and timer, checks every decision and
// promise, and detects a stall; a Model owns capacity, placement,
// completions and progress rates. The pool is one model; package sim/tier's
// two-tier processors (KEASY, REASY, MEASY) are another, which a policy
// brings as a ModelMaker.
//
// It imports only the standard library and sim/internal/jobs, the job store
// and event queue it shares with sim/tier. Policies live in package policies,
// workload readers and models in package workloads, metrics in package
// results; sim/simtest holds the builders and invariant checks their tests
// share. README.md in this folder describes the loop and the model
// interface, follows one event from arrival to record, and documents every
// run-time option beside what other simulators do.
//
// Start with Run and Model.
package sim
