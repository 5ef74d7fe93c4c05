package nodes

import "github.com/schedsweep/schedsweep/sim"

// The cluster keeps its running jobs as keys without pointers (runList),
// which is all EASY's pass on the nodes reads: its shadow walk takes the
// keys in order (ends), and it never asks View.Running. The policies that
// do (conservative, maui, slurm, pbs) ask once a pass or more, so from
// their first call on the running list keeps the allocations as well,
// moved after the keys. Building the list anew at each call after a change
// instead cost Slurm on METACENTRUM's nodes 593 M instructions more
// (1,364 M → 1,957 M, callgrind inside sim.(*engine).run).

// startRun puts o's job, which starts at now, in the running list; the
// list's table of jobs has room for it (Apply grows it with c.where).
func (c *Cluster) startRun(o *sim.Outcome, now sim.Time) {
	c.runs.insert(now+o.Estimate, int32(o.Seq), o)
}

// endRun takes o's job out of the running list and reports whether it was
// there.
func (c *Cluster) endRun(o *sim.Outcome) bool {
	return c.runs.remove(o.Start+o.Estimate, int32(o.Seq))
}

// Running returns the running jobs by estimated end, then arrival.
func (c *Cluster) Running() []sim.Allocation { return c.runs.list() }

// running yields the running jobs and their places as Running lists them,
// without the list.
func (c *Cluster) running(yield func(int, sim.Allocation) bool) {
	for i, k := range c.runs.keys() {
		j := &c.runs.out[k.seq].Job
		if !yield(i, sim.Allocation{Job: j, Start: k.end - j.Estimate}) {
			return
		}
	}
}
