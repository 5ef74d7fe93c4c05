// Package alea is the compatibility profile compat = "alea": the
// node-level behaviour of the Alea simulator (aleasimulator/alea, commit
// a3315f0, with use_RAM = true) as its source defines it, so that results
// can be set beside Alea-based papers (Tóth & Klusáček 2014 among them).
// docs/design/nodes.md §4 gives each rule with its file and line.
//
// Read turns a wagap-style data set into jobs as Alea's SWFLoader does;
// New builds the Machine, a sim.Model and sim.Placer, from the data set's
// ".machines" clusters and the jobs' request strings. Strict FCFS
// (policies.NewFCFS) on a Machine is Alea's multi_queue FCFS; EASY
// (NewEASY) is Alea's EASY_Backfilling. Both start every job of
// wagap-2013 when and where Alea's own runs do (.ci/alea).
//
// The machine's rules:
//
//   - Clusters are tried largest first (total processors; file order on
//     ties); a job runs within one cluster, on the first one, in that
//     order, that its request allows and that can start it now.
//   - A cluster can start a job when it has a free processor and the
//     job's node count of nodes with ≥ ppn free processors and ≥ its
//     memory free; a job whose request contains "excl" counts only fully
//     idle nodes. Placement then takes, in node order, every node with ≥
//     ppn free processors and ≥ the memory free until the count is met:
//     "excl" plays no part there, and nothing keeps other jobs off an
//     "excl" job's nodes.
//   - A job holds its nodes for min(run time, limit) + 1 s; one that
//     needed longer than its limit is cut there (Killed).
//   - A job no cluster can ever hold is rejected at arrival with
//     sim.TooLarge; Machine.Rejections says why in words.
//   - Time runs on the machine's own clock of Ticks per second, as
//     Alea's float clock does: the scheduler submits one job at a time,
//     and the cluster places it SubmitDelay ticks later (GridSim's message
//     delay), after the completions due by then; only then is the next
//     job picked. A job started by a completion is placed after it, an
//     arrival precedes the completions of its second, and chains of
//     starts drift by fractions of a second. The loop sees whole seconds:
//     a job starts in the second the machine placed it (StartTick has the
//     tick) and ends in the second of its last tick. This order is exact
//     for strict list scheduling (FCFS) and EASY; other policies run on
//     the machine but are not Alea's.
//
// Alea's resource-side rule (AdvancedSpaceSharedWithRAM.gridletSubmit:
// a job of more than one processor starts only when the cluster's free
// processors suffice and its local queue is empty) is not modelled: the
// scheduler only sends a job its cluster can start now by the node test
// above, whose nodes × ppn free processors imply the aggregate test, and
// it sends the next job only once the cluster has acknowledged the last,
// so the local queue stays empty. Alea's own runs of FCFS and EASY on
// wagap-2013 queue no job there.
//
// sim/alea/README.md lists every difference from the default node
// semantics (sim/nodes) and how to wire the profile.
package alea
