// Package policies holds the scheduling policies: one file per discipline,
// each a sim.Policy that sees only what sim.View exposes (estimates, never true
// run times).
//
//   - list.go: strict list scheduling: FCFS, SJF, fairshare FIFO;
//   - easy.go: EASY backfilling (one reservation, for the queue head);
//   - conservative.go: conservative backfilling (a reservation for every
//     job); conservative_nodes.go: the same on a cluster of nodes (package
//     sim/nodes), its reservations pinning nodes in the cluster's node
//     profile;
//   - order.go: the queue orders the disciplines take (arrival, shortest
//     first) and ObservingOrder, for orders that learn from the run;
//   - fairshare.go: fairshare priorities, an ObservingOrder: decayed
//     per-user usage against target shares;
//   - accuracy.go: the Penalty Scheduling Policy's priorities, an
//     ObservingOrder: users ranked by the accuracy of their recent
//     estimates (the "psp" entry is EASY over it);
//   - balanced.go: Backfill Balanced and Improved Backfill Balanced, EASY
//     choosing its backfilled jobs by how they balance processors, memory
//     and any other kind the cluster has;
//   - pbs.go: PBS's FIFO scheduler: first fit with a starving-job guard;
//   - maui.go, mauiprio.go: the Maui scheduler: weighted priorities
//     (queue time, expansion factor, size, fairshare, QoS), reservations
//     for the top jobs, optional backfill; maui_nodes.go: its walk on a
//     cluster of nodes, reservations pinning nodes as conservative's;
//   - slurm.go, slurm_backfill.go: Slurm 22.05's scheduling: the main
//     scheduler in priority order with its partition rule, and the
//     backfill scheduler planning every tested job from scratch at
//     bf_interval, over the multifactor priority of package slurmprio
//     (slurm_params.go holds the parameters); slurm_nodes.go: its plan
//     on a cluster of nodes, in the cluster's node profile;
//   - twotier.go: KEASY, REASY and MEASY (and fairshare-measy, MEASY in
//     fairshare order), EASY extended to processors with a foreground and
//     a background VM; they are ordinary sim.Policy values that read the
//     two-tier state through tier.ViewOf and, as sim.ModelMaker, run on
//     the two-tier machine of package sim/tier (tier.Machine);
//   - registry.go: the registered policies by name (Register refuses a
//     duplicate): each Entry gives the parameters, the constructor, the
//     machine model the policy runs on (Supports checks a cluster against
//     it, for runner/spec) and the invariants Verify checks of its
//     schedules; coverage_test.go fails for an entry without goldens, a
//     property-test row or a differential oracle;
//   - params.go: the parameter structs, for the command line and
//     experiment files (runner/spec); shared knobs (FairshareParams,
//     AccuracyConfig, tier.Config) are declared once and embedded, and
//     internal/params flattens them.
//
// Policies decide and the engine in package sim acts: a policy returns a
// sim.Decision and the engine validates it. Reservations are reported as
// promises so simtest.Verify can check that none is ever delayed. Besides
// hand-worked goldens (testdata), the oracle*_test.go files hold
// independent, slow re-implementations of every registered policy (the
// two-tier ones with their engine) that must produce the engine's schedule
// job for job.
// Start with EASY.
package policies
