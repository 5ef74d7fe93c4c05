package alea_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// verify replays a run on its nodes tick by tick, from the placements
// alone: no node holds more processors or memory than it has at any
// instant, no job starts before it arrives, every job that ran holds its
// ppn on each of its node count of nodes of one cluster, and a rejected
// job never ran. It shares no code with the machine.
func verify(groups []alea.Group, res *sim.Result, m *alea.Machine) error {
	cap := map[string]alea.Group{}
	for _, g := range groups {
		cap[g.Name] = g
	}
	type ev struct {
		at          int64
		cl          string
		node        int
		cpus, bytes int64
	}
	var evs []ev
	for i := range res.Jobs {
		o := &res.Jobs[i]
		cl, nodes, ok := m.Where(i)
		if o.State == sim.Rejected {
			if ok {
				return fmt.Errorf("job %d: rejected but placed", o.ID)
			}
			continue
		}
		if !ok {
			return fmt.Errorf("job %d: ran but has no placement", o.ID)
		}
		g := cap[cl]
		start := m.StartTick(i)
		if start < int64(o.Submit)*alea.Ticks || start/alea.Ticks != int64(o.Start) {
			return fmt.Errorf("job %d: placed at tick %d, submitted %d, started %d", o.ID, start, o.Submit, o.Start)
		}
		if int32(len(nodes)) != o.Shape.Nodes {
			return fmt.Errorf("job %d: %d nodes; asked %d", o.ID, len(nodes), o.Shape.Nodes)
		}
		end := start + int64(min(o.Runtime, o.Estimate)+1)*alea.Ticks
		for _, n := range nodes {
			if n < 0 || n >= g.Nodes {
				return fmt.Errorf("job %d: node %d of %s, which has %d", o.ID, n, cl, g.Nodes)
			}
			ppn, mem := int64(o.Shape.PerNode), o.Shape.MemPerNode
			evs = append(evs, ev{start, cl, n, ppn, mem}, ev{end, cl, n, -ppn, -mem})
		}
	}
	// Releases before takes at the same tick: Alea frees first.
	sort.SliceStable(evs, func(a, b int) bool {
		return evs[a].at < evs[b].at || evs[a].at == evs[b].at && evs[a].cpus < evs[b].cpus
	})
	type key struct {
		cl   string
		node int
	}
	cpus, mem := map[key]int64{}, map[key]int64{}
	for _, e := range evs {
		k := key{e.cl, e.node}
		cpus[k] += e.cpus
		mem[k] += e.bytes
		if g := cap[e.cl]; cpus[k] > g.CPUs || mem[k] > g.Memory {
			return fmt.Errorf("tick %d: %s node %d holds %d processors and %d bytes; it has %d and %d",
				e.at, e.cl, e.node, cpus[k], mem[k], g.CPUs, g.Memory)
		}
	}
	return nil
}

func TestVerifyWagap(t *testing.T) {
	for _, p := range []sim.Policy{nil, alea.NewEASY()} {
		var res *sim.Result
		var m *alea.Machine
		if p == nil {
			res, m, _ = runWagapFCFS(t)
		} else {
			res, m, _ = runWagap(t, p)
		}
		_, groups := wagap(t)
		if err := verify(groups, res, m); err != nil {
			t.Errorf("%s: %v", res.Policy, err)
		}
	}
}
