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
//   - A job that no placement on the empty cluster can hold is rejected
//     at arrival with reason too-large; a nodes shape whose Nodes ×
//     PerNode is not Need[Procs] with reason negative-request.
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
package nodes
