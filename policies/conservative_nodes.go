package policies

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
)

// scheduleNodes is Schedule on a cluster of nodes (package sim/nodes):
// the same passes over the cluster's node profile, whose reservations pin
// nodes. A job gets the earliest time at which the cluster's fit rule
// places it on the nodes free for its whole estimate (running jobs to
// their estimated ends, every other reservation in place); compression
// re-places it with the others in place, and since its old slot (the same
// nodes, the same interval) is still free, it never moves later and keeps
// its nodes unless it moves earlier. A job whose reservation comes starts
// on its reserved nodes (sim.Action.Place), which the cluster checks.
func (c *Conservative) scheduleNodes(now sim.Time, v sim.View) (sim.Decision, error) {
	q := c.rank.jobs(now, v)
	c.start, c.promise, c.withdraw, c.actions = c.start[:0], c.promise[:0], c.withdraw[:0], c.actions[:0]

	running := v.Running()
	overrun := len(running) > 0 && running[0].EstimatedEnd() <= now
	if !c.built || overrun {
		c.rebuildNodes(now, q)
		c.built = !overrun
	} else {
		c.np.Advance(now)
	}
	var wake sim.Time
	for _, j := range q {
		old := c.at[j.Seq]
		if old < 0 || c.compress {
			var t sim.Time
			if old < 0 {
				t = c.np.Place(now, j)
			} else {
				t = c.np.Move(now, j)
			}
			if t < 0 {
				return sim.Decision{}, &sim.JobError{Job: j.ID, Err: fmt.Errorf("(needs %v) fits on no nodes in the profile", j.Need)}
			}
			c.at[j.Seq] = t
			if t != old {
				c.promise = append(c.promise, sim.Reservation{Job: j, Start: t})
			}
		}
		switch t := c.at[j.Seq]; {
		case t == now:
			c.start = append(c.start, j)
			c.actions = append(c.actions, sim.Action{Move: sim.Start, Job: j, Place: c.np.Start(j)})
		case wake == 0 || t < wake:
			wake = t
		}
	}
	if c.compress {
		c.np.Compact()
		c.compress = false
	}
	if overrun {
		wake = 0 // as in Schedule
	}
	c.rank.took(now, v, c.start)
	return sim.Decision{Actions: c.actions, Promise: c.promise, Withdraw: c.withdraw, WakeAt: wake}, nil
}

// rebuildNodes lays the node profile anew from the running jobs and the
// reservations, and asks for a compression. If the reservations no longer
// fit or have passed (possible only with overruns), all are withdrawn and
// the jobs placed from scratch.
func (c *Conservative) rebuildNodes(now sim.Time, q []*sim.Job) {
	if !c.np.Reset(now, q) {
		for _, j := range q {
			if c.at[j.Seq] >= 0 {
				c.at[j.Seq] = -1
				c.withdraw = append(c.withdraw, j)
			}
		}
		c.np.Clear(now, q)
	}
	c.compress = true
}
