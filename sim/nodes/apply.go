package nodes

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
)

// takePlaced checks a placement a policy handed to Apply (sim.Action.Place)
// and takes it: it must be a []Use that is o's shape, on nodes the job may
// use (not held whole, idle for an exclusive job, memory and GPUs free)
// with the cores it puts there free. A placement the nodes cannot hold
// now fails with sim.ErrOvercommit and changes nothing.
func (c *Cluster) takePlaced(o *sim.Outcome, place any) ([]Use, error) {
	uses, ok := place.([]Use)
	if !ok {
		return nil, fmt.Errorf("placement of type %T: the node cluster takes a []nodes.Use", place)
	}
	r := reqOf(&o.Job)
	if err := c.checkUses(uses, r); err != nil {
		return nil, err
	}
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if !c.st.usable(n, r) || c.st.cores[n] < int64(u.Cores) {
				return nil, fmt.Errorf("%w: node %s cannot hold %d cores of the job (free: %d cores, memory %d, gpus %d; %d jobs, held whole %v)",
					sim.ErrOvercommit, c.NodeName(n), u.Cores, c.st.cores[n], c.st.mem[n], c.st.gpus[n], c.st.jobs[n], c.st.held[n])
			}
		}
	}
	c.st.take(r, uses, nil)
	return uses, nil
}

// checkUses checks that uses is a placement of r: runs in node order, on
// the cluster's nodes, each node once, as many cores as r asks (and
// PerNode on each of Nodes nodes for a nodes shape).
func (c *Cluster) checkUses(uses []Use, r req) error {
	var sum, nodes int64
	for i, u := range uses {
		if u.Nodes < 1 || u.Cores < 1 || r.nodes > 0 && int64(u.Cores) != r.per || u.Node < 0 ||
			i > 0 && u.Node < uses[i-1].Node+uses[i-1].Nodes || int(u.Node+u.Nodes) > len(c.group) {
			return fmt.Errorf("placement %v: run %d out of order, empty, off the nodes or not the shape", uses, i)
		}
		sum += int64(u.Nodes) * int64(u.Cores)
		nodes += int64(u.Nodes)
	}
	if sum != r.tasks || r.nodes > 0 && nodes != r.nodes {
		return fmt.Errorf("placement %v: %d cores on %d nodes, want %d cores (%d nodes)", uses, sum, nodes, r.tasks, r.nodes)
	}
	return c.checkWhere(r, uses) // rules.go
}
