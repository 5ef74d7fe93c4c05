// Package runner turns an experiment into results: it expands the sweep
// into fully resolved runs with stable keys and derived seeds (expand.go),
// builds each run's workload (source.go), and executes runs in parallel with
// one writer, resumably and in shards (execute.go), into a results folder
// (folder.go, locked by lock.go) that journals finished runs with their
// files' hashes (journal.go), names its experiment (manifest.go), holds
// the tables of the sweep or of its shards (tables.go), gets each run's
// files and the tables written (write.go) and records each run's
// parameters as columns (columns.go). Status says what a folder holds.
// SimulateOne (single.go) runs one run through the same code without
// writing anything, for schedsweep simulate.
//
// It imports everything below it: runner/spec for the Experiment, sim to
// simulate, policies and workloads to build a run, results to write it.
// Only cmd imports runner.
//
// Start with Expand, then Execute.
package runner
