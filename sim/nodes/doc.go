// Package nodes is the node-level machine model of issue 15: a Cluster of
// node groups (count, cores, memory, GPUs per node) on which every job is
// placed by its sim.Shape. It implements sim.Model and sim.Placer, so
// sim.Run drives it like the pool, and policies that ask View.Trial start
// only jobs it can place.
//
// Semantics (the textbook ones, as internal/nodeoracle states them):
//
//   - A tasks shape (Shape.Nodes 0) asks Need[Procs] cores: first fit
//     walks the nodes in order and takes, on every node that is usable
//     and has a free core, as many cores as the job still needs. Best fit
//     puts the job on the one node that holds it with the fewest free
//     cores left, and walks as first fit when no single node holds it.
//   - A nodes shape asks Shape.Nodes nodes with Shape.PerNode free cores
//     each: first fit takes the first such nodes in node order; best fit
//     the ones with the fewest free cores left after placing (ties in node
//     order), kept in node order.
//   - Memory and GPUs are asked per node used: Shape.MemPerNode and
//     Shape.GPUsPerNode, or, for the zero shape, Need[Memory] and
//     Need[GPUs] (so a cluster of one node schedules as the pool).
//   - An exclusive job uses only idle nodes and holds each whole: nothing
//     else runs there until it ends.
//   - A job may use only the nodes its Shape.Where allows (rules.go):
//     those of its partition (the first partition when it names none;
//     every node when the cluster has no partitions), of the node groups
//     it names and not of those it refuses, with every feature it asks
//     that some node group declares and none it refuses. A required
//     feature no node group declares is ignored: it says nothing about
//     this machine. A partition's time limit bounds the estimate, its node
//     limit the nodes a job uses.
//   - A job that no placement on the empty cluster can hold is rejected
//     at arrival with reason too-large; a job over its partition's
//     limits with over-limit, one naming a partition the cluster does not
//     have with no-partition, one whose node request could not be read
//     (Where.Invalid) with bad-request, and a nodes shape whose Nodes ×
//     PerNode is not Need[Procs] with negative-request.
//
// Backfilling policies that keep reservations (conservative, Maui) keep
// them in the cluster's Profile (ProfileOf): the nodes' free resources
// over time, in which a reservation pins nodes. A job whose reservation
// comes starts on its reserved nodes: the policy hands the placement to
// Apply in sim.Action.Place, and Apply checks it node by node. With
// RecordReservations, Verify also checks that every reservation is taken
// up at its time on exactly its nodes.
//
// Placement is deterministic. A job ends at start + run time, or is
// killed at start + estimate unless overruns are allowed, as on the pool.
// View.Free stays the aggregate: capacity less the Need of every running
// job.
//
// View.Trial returns a sim.Lookahead (ahead.go, shadow.go), through which
// EASY and the policies built on its pass (psp, backfill-balanced,
// improved-backfill-balanced) and pbs-fifo reserve on the nodes. A
// reservation does not pin nodes: it only has to be feasible at its time.
// The head's shadow time is the earliest estimated end at which it can be
// placed on what the jobs still running then leave; a job that runs past
// it may start only if the head can still be placed then with that job on
// the nodes it really gets now. Whether the head fits is kept as a sum
// over nodes (nodes that can take its share, or cores it may use), so a
// start past the shadow time costs O(its nodes), not O(nodes); a head of
// cores anywhere needs no node state at all. A job of one node (without
// exclusivity, GPUs or Where) is answered by lookups (onenode.go): whether
// it fits, from the most free memory of a node with enough free cores,
// and, for a head of one node, whether it keeps the head, from the one
// node that can hold the head at its shadow time; it is placed only when
// it starts or the lookups do not decide. Within a trial the look-ahead
// remembers Fits's and Keeps's answers per distinct request (memo.go), and
// classes jobs by request (sim.Classes) so that EASY's backfill asks once
// per class between two takes; each shadow walk starts from a copy of the
// nodes as they stand, and is kept for the next pass when nothing changed
// since but the starts its own pass took (Take).
package nodes
