// Package workloads turns workloads into the records the simulator consumes:
// traces read from files, synthetic models, and transformations of both; and
// simulated schedules back into workload files.
//
// Files and formats. The Standard Workload Format (SWF) of the Parallel
// Workloads Archive (Chapin et al., JSSPP 1999; Feitelson et al., JPDC 2014):
//
//   - the line layer: [Line], [ParseLine] and [AppendLine], one job line with
//     its 18 fields, parsed without allocating;
//   - the header: [Header], the facts of the "; Key: value" comment lines
//     before the first job, with unknown keys kept in order;
//   - [SWFReader], a [sim.Source] over a plain or gzip-compressed SWF stream,
//     with [SWFOptions] saying which fields become a job's processors and
//     memory, and [SWFWriter], which writes records and simulated outcomes;
//   - Alea's ".machines" cluster descriptions: [ReadMachines] and [Capacity].
//   - Alea's extra job fields 19–21 ([ParseAleaFields]): the nodes a job ran
//     on, its queue, and its PBS node request ([ParseRequest], [Request]);
//   - job shapes for machines of nodes ([Shape]): [ShapeMode] maps SWF
//     processors to one, [RequestShape] maps a node request (shape.go;
//     docs/design/nodes.md says what each SWF field becomes). The reader
//     gives records their sim.Shape by SWFOptions.Shape and, with
//     SWFOptions.AleaFields, from fields 20 and 21 (swfshape.go).
//
// Slurm's accounting dumps (sacct.go, sacctfields.go, sacctres.go): a
// [SacctReader] reads the output of sacct --parsable2 as a [sim.Source],
// jobs with their node shapes, users, accounts, QOS and partitions, and
// counts every line it skips by [SacctSkip] reason; [WriteSacctSWF]
// (sacctswf.go) writes them as SWF with Alea's fields 20 and 21, which the
// SWFReader reads back to the same records. docs/experiments.md says what
// each column becomes.
//
// Every format error is a [*ParseError] naming file, line and, for a job
// field, the field's number and SWF name. Nothing is clamped, guessed or
// skipped silently; the one repair, SWFOptions.NegativeAsMissing, is opt-in
// and lists every value it changes, and what the reader reads past (fields
// after the 18th) it reports once through [SWFReader.Warnings], as it does
// each node request that does not parse (kept as sim.Where.Invalid, for a
// machine of nodes to reject).
//
// Bounds (bounds.go): times are at most [MaxTime] (2^32 − 1 s), processors
// [MaxProcs] (2^30), a workload [MaxJobs] (2^30) jobs and a line
// [MaxLineLen] (1 MiB), checked where they are read or made, so that no
// sum the engine and the metrics form can overflow int64; bounds.go gives
// the argument. [OpenTrace] opens a workload file, refusing pipes and
// devices without blocking; the reader refuses binary data and names an
// empty stream ([SWFReader.Empty]).
//
// Named traces. The registry of published logs, [ArchiveTraces] and
// [LookupTrace]: each log's download address, machine size, and whom to
// thank and cite; and the trace cache: [Fetch] downloads and verifies a
// registered log into a directory the caller chooses, [CachedPath] and
// [ResolveTrace] find it there. Nothing downloads implicitly: resolving a
// registered name that is not cached is an error giving the fetch command.
//
// Synthetic models, one file each, every sub-model drawing from its own
// seeded stream ([NewStream]); [Models] lists them by name with their
// parameter structs:
//
//   - [Lublin] (lublin.go, gamma.go): Lublin & Feitelson 2003, the model of
//     rigid jobs with a daily cycle, as its program defines it, with an
//     optional Zipf-distributed user population (zipfusers.go);
//   - [Feitelson] (feitelson.go) and [Jann] (jann.go, with [HyperErlang] in
//     hypererlang.go): calibrated re-creations of Feitelson 1996 and Jann et
//     al. 1997, fitted to what the MEASY paper reports for them;
//   - [PSP] (psp.go, psp_users.go): the workloads and estimate scenarios of
//     the Penalty Scheduling Policy paper (Rocchetti et al.), and
//     [PSPEstimates], its per-user estimates for any trace;
//   - [JobMix] (jobmix.go): the Large/Medium/Small/Debug/Failed job mix of
//     Bode et al. (ALS 2000) on PBS and Maui, with the paper's bounds
//     [TheoreticalMinimum] and [SequentialMaximum];
//   - [CPUUsage] (cpuusage.go): per-process CPU usage for the two-tier
//     policies of the MEASY paper.
//
// Transformations wrap a source and compose (transform.go, merge.go,
// estimates.go, tsafrir.go): [LoadFactor], [Window], [Filter], [Take],
// [Merge], [NodesToProcs], and the estimate models [ExactEstimates],
// [BadnessEstimates], [TsafrirEstimates] (Tsafrir, Etsion & Feitelson 2005)
// and [PSPEstimates], all named by [ApplyEstimates]. [Describe] summarises a workload;
// [MeasureLoad] measures what it offers a machine ([Load]), and
// [SolveLoadFactor] finds the load factor that takes it to a target
// offered load.
//
// What it leaves to others: validating jobs against a cluster (too large, no
// run time, missing estimate) is the engine's job in package sim, which
// rejects and counts such jobs; metrics over simulated schedules belong to
// package results; choosing files, the cache directory and showing download
// progress belong to the runner and the command line.
//
// Start with [NewSWFReader], or [Models] for a synthetic workload.
package workloads
