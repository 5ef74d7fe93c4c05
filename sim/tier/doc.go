// Package tier is schedsweep's machine model for two-tier processors:
// every processor is split into a high-priority foreground VM and a
// low-priority background VM, so a job in the background soaks up the
// cycles its foreground neighbour leaves idle (Liu et al., "Scheduling
// Parallel Jobs Using Migration and Consolidation in the Cloud",
// Mathematical Problems in Engineering 2012, section 2.1; the KEASY, REASY
// and MEASY policies of package policies run on it).
//
// Machine is a sim.Model: sim.Run's one event loop drives it as it drives
// the pool, so admission, the source, the waiting queue, observers,
// timers, decision checks, promises and stall detection are the loop's.
// What the Machine owns:
//
//   - processor identities: a job's processes sit on named processors, each
//     in one tier (board.go; Plan lets a policy try moves on a copy);
//   - jobs whose speed changes while they run: a Model gives each process's
//     progress rate from its tier and its neighbour in the other VM, a job
//     progresses at its slowest process's rate, and its completion is
//     re-planned whenever a rate changes (machine.go);
//   - moves of running jobs, the sim.Actions of a decision: a start with a
//     placement, a priority swap in place, a kill and restart from
//     scratch, and a migration that pauses the job for a cost in seconds;
//   - Verify, which replays what a Recorder saw and checks the invariants of
//     a two-tier schedule.
//
// A two-tier policy is an ordinary sim.Policy: its Schedule reads the
// machine through tier.ViewOf (sim.View.Model) and answers with
// sim.Decision.Actions; it brings its machine as a sim.ModelMaker whose
// NewModel calls NewMachine. Run fills Result.Tiers from the machine. The
// package imports only sim, the standard library, sim/internal/jobs (the
// job store and event queue it shares with the loop) and
// sim/internal/check (the part of Verify it shares with simtest.Verify).
//
// Start with Machine and View.
package tier
