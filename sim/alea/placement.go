package alea

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim/nodes"
)

// Placement is where a run on a Machine placed its jobs, in the terms the
// writers of results use for a cluster of nodes (results.Placement): the
// machine's nodes numbered cluster by cluster in the order jobs try them
// (Clusters), each named by its cluster and its number there from 1
// ("zewura3"). Read it only after sim.Run has returned.
type Placement struct{ m *Machine }

// Placement returns the machine's placements as results reads them.
func (m *Machine) Placement() *Placement { return &Placement{m: m} }

// Nodes returns the number of nodes, all clusters together.
func (p *Placement) Nodes() int { return len(p.m.cpu) }

// NodeName returns node n's name: its cluster's and its number there,
// from 1.
func (p *Placement) NodeName(n int) string {
	c := &p.m.cl[p.GroupOf(n)]
	return fmt.Sprintf("%s%d", c.Name, n-c.first+1)
}

// Where returns the nodes the job of sequence number seq ran on, as runs
// of consecutive nodes with the job's processors per node on each; nil if
// it never started.
func (p *Placement) Where(seq int) []nodes.Use {
	m := p.m
	if seq < 0 || seq >= len(m.where) || len(m.where[seq].nodes) == 0 {
		return nil
	}
	ns := m.where[seq].nodes
	ppn := int32(m.procs[seq] / int64(len(ns)))
	var uses []nodes.Use
	for _, n := range ns {
		if k := len(uses) - 1; k >= 0 && uses[k].Node+uses[k].Nodes == n {
			uses[k].Nodes++
			continue
		}
		uses = append(uses, nodes.Use{Node: n, Nodes: 1, Cores: ppn})
	}
	return uses
}

// Groups returns the clusters as node groups, in the order jobs try them:
// name, nodes, processors and memory per node.
func (p *Placement) Groups() []nodes.Group {
	gs := make([]nodes.Group, len(p.m.cl))
	for i, c := range p.m.cl {
		gs[i] = nodes.Group{Name: c.Name, Count: c.Nodes, Cores: c.CPUs, Memory: c.Memory}
	}
	return gs
}

// GroupOf returns the index in Groups of node n's cluster.
func (p *Placement) GroupOf(n int) int {
	for i := len(p.m.cl) - 1; i > 0; i-- {
		if n >= p.m.cl[i].first {
			return i
		}
	}
	return 0
}
