package nodes

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// Verify replays res on the placements the cluster recorded and checks,
// at every instant and on every node, that the jobs there fit its cores,
// memory and GPUs, that an exclusive job shares no node, and that each
// placement is the job's shape. It rebuilds the node state from res alone,
// not from the cluster's own. A job that ends where it starts holds its
// nodes for no instant: its placement is checked for its shape only (the
// engine passes again at that time, and the next pass may reuse them).
//
// When the cluster recorded its reservations (RecordReservations), Verify
// also checks them against the schedule: a reservation is laid only for a
// job that holds none and not in the past; compression moves one only
// earlier; a job whose reservation comes starts then, on exactly the
// nodes it was last promised; and no reservation is left untaken.
func (c *Cluster) Verify(res *sim.Result) error {
	type ev struct {
		t    sim.Time
		kind int // 0 an end, 1 a start
		seq  int
	}
	var evs []ev
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State == sim.Rejected || o.Start < 0 {
			continue
		}
		if err := c.checkShape(o); err != nil {
			return fmt.Errorf("job %d: %w", o.ID, err)
		}
		if o.End > o.Start {
			evs = append(evs, ev{o.Start, 1, i}, ev{o.End, 0, i})
		}
	}
	slices.SortStableFunc(evs, func(a, b ev) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.kind, b.kind)) })
	n := len(c.group)
	cores, mem, gpus := make([]int64, n), make([]int64, n), make([]int64, n)
	count, excl := make([]int, n), make([]int, n)
	for _, e := range evs {
		o := &res.Jobs[e.seq]
		r, sign := reqOf(&o.Job), int64(1)
		if e.kind != 1 {
			sign = -1
		}
		for _, u := range c.where[e.seq] {
			for k := int(u.Node); k < int(u.Node+u.Nodes); k++ {
				cores[k] += sign * int64(u.Cores)
				mem[k] += sign * r.mem
				gpus[k] += sign * r.gpus
				count[k] += int(sign)
				if r.excl {
					excl[k] += int(sign)
				}
				g := c.groups[c.group[k]]
				if cores[k] > g.Cores || mem[k] > g.Memory || gpus[k] > g.GPUs || excl[k] > 0 && count[k] > 1 {
					return fmt.Errorf("t=%d: node %s overcommitted by job %d: cores %d of %d, memory %d of %d, gpus %d of %d, %d jobs, %d exclusive",
						e.t, c.NodeName(k), o.ID, cores[k], g.Cores, mem[k], g.Memory, gpus[k], g.GPUs, count[k], excl[k])
				}
			}
		}
	}
	if c.record {
		return c.verifyReservations(res)
	}
	return nil
}

// checkShape checks that o's recorded placement is its shape.
func (c *Cluster) checkShape(o *sim.Outcome) error {
	return c.checkUses(c.Where(o.Seq), reqOf(&o.Job))
}
