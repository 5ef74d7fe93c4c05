// Package tier is schedsweep's engine for two-tier processors: every
// processor is split into a high-priority foreground VM and a low-priority
// background VM, so a job in the background soaks up the cycles its
// foreground neighbour leaves idle (Liu et al., "Scheduling Parallel Jobs
// Using Migration and Consolidation in the Cloud", Mathematical Problems in
// Engineering 2012, section 2.1; the KEASY, REASY and MEASY policies of
// package policies run on it).
//
// What it owns, beyond the classic engine of package sim:
//
//   - processor identities: a job's processes sit on named processors, each
//     in one tier (board.go; Plan lets a policy try moves on a copy);
//   - jobs whose speed changes while they run: a Model gives each process's
//     progress rate from its tier and its neighbour in the other VM, a job
//     progresses at its slowest process's rate, and its completion is
//     re-planned whenever a rate changes (engine.go);
//   - moves of running jobs: a priority swap in place, a kill and restart
//     from scratch, and a migration that pauses the job for a cost in
//     seconds (Action);
//   - Verify, which replays what a Recorder saw and checks the invariants of
//     a two-tier schedule.
//
// What it shares with sim.Run's engine: admission (sim.Admit), the reading
// of the source, promises and withdrawals for the Tracer, the policy's
// timer (Decision.WakeAt) and, for a policy that is a sim.Observer, its
// Submitted and Finished calls.
//
// It consumes the same sim.Source and returns the same *sim.Result as sim.Run
// (with Result.Tiers filled in), so results, the runner and the command line
// work unchanged: a Simulator wraps a tier Policy into a sim.Simulator, and
// sim.Run hands the run over to it. It imports only sim, the standard
// library, sim/internal/jobs, the job store and event queue it shares with
// sim.Run's engine, and sim/internal/check, the part of Verify it shares
// with simtest.Verify.
//
// Start with Simulator and Policy.
package tier
