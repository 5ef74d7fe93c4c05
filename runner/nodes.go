package runner

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// nodesCanon is the canonical text of a cluster of nodes, for run keys:
// every node group, partition and the placement rule, in order.
func nodesCanon(c *nodes.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fit=%d\n", c.Fit)
	for _, g := range c.Groups {
		fmt.Fprintf(&b, "node=%q %d %d %d %d %q\n", g.Name, g.Count, g.Cores, g.Memory, g.GPUs, g.Features)
		if g.Hosts != nil { // only then: the keys of groups named by number stay
			fmt.Fprintf(&b, "hosts=%q\n", g.Hosts)
		}
	}
	for _, p := range c.Partitions {
		fmt.Fprintf(&b, "partition=%q %q %q %d %d\n", p.Name, p.Groups, p.Features, p.MaxTime, p.MaxNodes)
	}
	return b.String()
}

// compatCanon is the canonical text of a cluster under a compatibility
// profile, for run keys: the profile and, for compat = "alea", every one
// of Alea's clusters in the machines file's order.
func compatCanon(c *spec.Cluster) string {
	var b strings.Builder
	fmt.Fprintf(&b, "compat=%s\n", c.Compat)
	for _, g := range c.Alea {
		fmt.Fprintf(&b, "alea_cluster=%q %d %d %d\n", g.Name, g.Nodes, g.CPUs, g.Memory)
	}
	return b.String()
}
