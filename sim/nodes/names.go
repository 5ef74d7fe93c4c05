package nodes

// Accessors for what a run's writers read of the cluster after the run:
// the node groups, which group each node belongs to, and partitions.

import "github.com/schedsweep/schedsweep/sim"

// Groups returns the cluster's node groups, in node order (a copy).
func (c *Cluster) Groups() []Group { return append([]Group(nil), c.groups...) }

// GroupOf returns the index in Groups of node n's group.
func (c *Cluster) GroupOf(n int) int { return int(c.group[n]) }

// PartitionOf returns the partition job j runs in: the one its Where
// names, else the cluster's first (the default); "" on a cluster without
// partitions.
func (c *Cluster) PartitionOf(j *sim.Job) string {
	if len(c.st.rs.parts) == 0 {
		return ""
	}
	if w := j.Shape.Where; w != nil && w.Partition != "" {
		return w.Partition
	}
	return c.st.rs.parts[0].Name
}

// GroupPartitions returns the names of the partitions that hold node
// group g, in the order they were declared; nil on a cluster without
// partitions.
func (c *Cluster) GroupPartitions(g int) []string {
	var names []string
	for i, p := range c.st.rs.parts {
		if c.st.rs.held[i][g] {
			names = append(names, p.Name)
		}
	}
	return names
}
