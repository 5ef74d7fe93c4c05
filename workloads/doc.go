// Package workloads turns workload files into the records the simulator
// consumes, and simulated schedules back into workload files.
//
// It owns, for now, the Standard Workload Format (SWF) of the Parallel
// Workloads Archive (Chapin et al., JSSPP 1999; Feitelson et al., JPDC 2014):
//
//   - the line layer: [Line], [ParseLine] and [AppendLine], one job line with
//     its 18 fields, parsed without allocating;
//   - the header: [Header], the facts of the "; Key: value" comment lines
//     before the first job, with unknown keys kept in order;
//   - [SWFReader], a [sim.Source] over a plain or gzip-compressed SWF stream,
//     with [SWFOptions] saying which fields become a job's processors and
//     memory, and [SWFWriter], which writes [sim.Outcome] values as SWF;
//   - Alea's ".machines" cluster descriptions: [ReadMachines] and [Capacity].
//
// Every format error is a [*ParseError] naming file, line and, for a job
// field, the field's number and SWF name. Nothing is clamped, guessed or
// skipped silently: a value the reader cannot represent is an error. The one
// repair, SWFOptions.NegativeAsMissing, is opt-in and lists every value it
// changes.
//
// What it leaves to others: validating jobs against a cluster (too large, no
// run time, missing estimate) is the engine's job in package sim, which
// rejects and counts such jobs; metrics over simulated schedules belong to
// package results; choosing files, opening them and naming them in messages
// belongs to the runner and the command line.
//
// It also owns synthetic workloads, one model per file:
//
//   - [Lublin], the Lublin–Feitelson 2003 model of rigid jobs (sizes, run
//     times, arrivals with a daily cycle), an endless [sim.Source];
//   - [AssignTsafrir] and [TsafrirEstimates], the Tsafrir–Etsion–Feitelson
//     2005 model of user runtime estimates, for synthetic jobs or logs
//     without estimates;
//   - [NewStream] and [Take]: every sub-model draws from its own stream of
//     the run's seed, and Take cuts an endless model to N jobs.
//
// Load-factor rescaling will live here too.
//
// Start with [NewSWFReader], or [NewLublin] for a synthetic workload.
package workloads
