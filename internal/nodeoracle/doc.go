// Package nodeoracle is an independent, deliberately simple and slow
// reference for FCFS and EASY on a machine of nodes, against which the
// engine's node-level machine model is to be checked job for job. It
// shares no code and no types with package sim: its own nodes, jobs and
// outcomes, the whole machine state rebuilt from the list of running jobs
// whenever it is needed, and EASY's shadow time found by trying every
// future estimated completion time in turn. It favours being obviously
// right over being fast: each scheduling pass costs O(jobs² × nodes).
//
// Semantics (the textbook ones of issue 15, not Alea's):
//
//   - Events at one instant: completions first, then arrivals, then one
//     scheduling pass. Jobs are ordered by submit time, then by their
//     order in the input.
//   - A job ends at start + min(run, estimate): a job running past its
//     estimate is killed then.
//   - A node shape (Nodes > 0) takes the first Nodes nodes, in node order,
//     each with at least PerNode free cores, MemPerNode free memory and
//     GPUsPerNode free GPUs. A tasks shape (Nodes = 0) walks the nodes in
//     order and takes, on every node that has a free core and the memory
//     and GPUs per node, as many cores as it still needs.
//   - An exclusive job uses only idle nodes and holds each node it uses
//     whole: nothing else runs there until it ends. On a tasks shape it
//     takes up to all the cores of each node.
//   - A job may name the node groups it may use, and those it may not,
//     and the most nodes it may use (its partition's limit): a first fit
//     on more nodes than that is no fit. So a job of tasks that does not
//     fit may fit once another job fills a node first fit would have
//     taken a few cores of.
//   - A job that does not fit on the empty machine is rejected at arrival.
//   - FCFS starts jobs in order while the first waiting one fits.
//   - EASY does the same, then finds the first waiting job's shadow time:
//     the earliest estimated completion time T of a running job such that
//     the job fits on the machine left by the jobs still running at T (by
//     estimate). A later job may start now if it fits now and either its
//     estimated end is at most T, or the first job still fits at T with it
//     running. The reservation does not pin nodes: it only has to remain
//     feasible at its time.
package nodeoracle
