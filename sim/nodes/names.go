package nodes

// Accessors for what a run's writers read of the cluster after the run:
// the node groups, and which group each node belongs to.

// Groups returns the cluster's node groups, in node order (a copy).
func (c *Cluster) Groups() []Group { return append([]Group(nil), c.groups...) }

// GroupOf returns the index in Groups of node n's group.
func (c *Cluster) GroupOf(n int) int { return int(c.group[n]) }
