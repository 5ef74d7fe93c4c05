package nodes

import (
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// Partition is a named set of node groups with limits on the jobs
// submitted to it, as a Slurm partition or a PBS queue bound to nodes. A
// job may use only its partition's nodes.
type Partition struct {
	Name string
	// Groups names the node groups the partition holds; Features adds
	// every node group that has one of them. Both empty: every group.
	Groups   []string
	Features []string
	// MaxTime is the longest estimate (time limit) a job may ask; 0: no
	// limit.
	MaxTime sim.Time
	// MaxNodes is the most nodes one job may use; 0: no limit.
	MaxNodes int
}

// Config is a cluster: its node groups in node order, its partitions
// (none: every job may use every node) and its placement rule. The first
// partition is the default one, for jobs that name none.
type Config struct {
	Groups     []Group
	Partitions []Partition
	Fit        Fit
}

// NewConfig returns an empty cluster as cfg describes it. Besides what New
// checks, a partition must have a name of its own, name only node groups
// of the cluster, hold at least one node and have no negative limit.
func NewConfig(cfg Config) (*Cluster, error) {
	c, err := New(cfg.Groups, cfg.Fit)
	if err != nil {
		return nil, err
	}
	names := map[string]int{}
	for i, g := range cfg.Groups {
		if _, dup := names[g.Name]; dup {
			return nil, fmt.Errorf("node group %d: name %q repeats node group %d's", i, g.Name, names[g.Name])
		}
		names[g.Name] = i
	}
	rs, err := newRules(c.groups, cfg.Partitions)
	if err != nil {
		return nil, err
	}
	c.st.rs = rs
	return c, nil
}

// rules resolves a job's sim.Where into the node groups it may use and
// the limits of its partition, once per distinct Where.
type rules struct {
	groups []Group
	parts  []Partition
	held   [][]bool // each partition's node groups
	known  map[string]bool
	cache  map[*sim.Where]*rule
	last   *sim.Where // the Where of lastR
	lastR  *rule
}

// rule is what a Where comes to on this cluster.
type rule struct {
	ok       []bool // by node group: may the job use it
	maxNodes int64  // 0: no limit
	maxTime  sim.Time
	bad      sim.Reason // the job can never run: its reason
}

// baseRules returns the rules of a cluster of groups without partitions.
func baseRules(groups []Group) *rules {
	rs := &rules{groups: groups, known: map[string]bool{}, cache: map[*sim.Where]*rule{}}
	for _, g := range groups {
		for _, f := range g.Features {
			rs.known[f] = true
		}
	}
	return rs
}

// newRules returns the rules of a cluster of groups with partitions parts.
func newRules(groups []Group, parts []Partition) (*rules, error) {
	rs := baseRules(groups)
	rs.parts = parts
	seen := map[string]bool{}
	for i, p := range parts {
		switch {
		case p.Name == "":
			return nil, fmt.Errorf("partition %d has no name", i)
		case seen[p.Name]:
			return nil, fmt.Errorf("partition %q is declared twice", p.Name)
		case p.MaxTime < 0 || p.MaxNodes < 0:
			return nil, fmt.Errorf("partition %q: max_time %d and max_nodes %d must not be negative", p.Name, p.MaxTime, p.MaxNodes)
		}
		seen[p.Name] = true
		held := make([]bool, len(groups))
		some := false
		for gi, g := range groups {
			all := len(p.Groups) == 0 && len(p.Features) == 0
			held[gi] = all || slices.Contains(p.Groups, g.Name) || hasAny(g.Features, p.Features)
			some = some || held[gi]
		}
		for _, name := range p.Groups {
			if !slices.ContainsFunc(groups, func(g Group) bool { return g.Name == name }) {
				return nil, fmt.Errorf("partition %q: node group %q is not one of the cluster's", p.Name, name)
			}
		}
		if !some {
			return nil, fmt.Errorf("partition %q holds no node", p.Name)
		}
		rs.held = append(rs.held, held)
	}
	return rs, nil
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// plain reports whether a job of Where w may use every node, with no
// limit: no Where on a cluster without partitions.
func (rs *rules) plain(w *sim.Where) bool { return w == nil && len(rs.parts) == 0 }

// of returns w's rule, resolving it on first use.
func (rs *rules) of(w *sim.Where) *rule {
	if w == rs.last && rs.lastR != nil {
		return rs.lastR
	}
	r, ok := rs.cache[w]
	if !ok {
		r = rs.resolve(w)
		rs.cache[w] = r
	}
	rs.last, rs.lastR = w, r
	return r
}

// resolve works out w's rule. A job may use a node group when its
// partition holds it, the job's Groups (if any) name it and its NotGroups
// do not, the group has every required feature that some group of the
// cluster declares, and none of the refused ones. A required feature no
// group declares is ignored: it says nothing about this machine (Alea's
// data sets ask for "x86_64", "brno" and host names, and the .machines
// file declares no feature). A partition name on a cluster without
// partitions is ignored too (a trace's queues); one that is not among the
// cluster's partitions makes the job impossible (NoPartition).
func (rs *rules) resolve(w *sim.Where) *rule {
	r := &rule{ok: make([]bool, len(rs.groups))}
	if w == nil {
		w = &sim.Where{}
	}
	if w.Invalid != "" {
		r.bad = sim.BadRequest
		return r
	}
	part := -1
	if len(rs.parts) > 0 {
		part = 0
		if w.Partition != "" {
			part = slices.IndexFunc(rs.parts, func(p Partition) bool { return p.Name == w.Partition })
		}
		if part < 0 {
			r.bad = sim.NoPartition
			return r
		}
		r.maxNodes, r.maxTime = int64(rs.parts[part].MaxNodes), rs.parts[part].MaxTime
	}
	for gi, g := range rs.groups {
		ok := part < 0 || rs.held[part][gi]
		ok = ok && (len(w.Groups) == 0 || slices.Contains(w.Groups, g.Name)) && !slices.Contains(w.NotGroups, g.Name)
		for _, f := range w.Features {
			ok = ok && (!rs.known[f] || slices.Contains(g.Features, f))
		}
		ok = ok && !hasAny(g.Features, w.NotFeatures)
		r.ok[gi] = ok
	}
	return r
}

// may reports whether r may use node n, its free resources aside.
func (s *state) may(n int, r req) bool {
	return s.rs.plain(r.where) || s.rs.of(r.where).ok[s.grp[n]]
}

// maxNodes returns the most nodes r may use; 0: no limit.
func (s *state) maxNodes(r req) int64 {
	if s.rs.plain(r.where) {
		return 0
	}
	return s.rs.of(r.where).maxNodes
}

// refuse returns why the job of request r and estimate est can never run
// on the empty cluster, or NoReason: a bad request, an unknown partition,
// an estimate over the partition's time limit, too few nodes it may use,
// or more nodes than the partition allows.
func (c *Cluster) refuse(r req, est sim.Time) sim.Reason {
	var nodes, cores int64
	var ru *rule
	if !c.st.rs.plain(r.where) {
		ru = c.st.rs.of(r.where)
		if ru.bad != sim.NoReason {
			return ru.bad
		}
		if ru.maxTime > 0 && est > ru.maxTime || ru.maxNodes > 0 && r.nodes > ru.maxNodes {
			return sim.OverLimit
		}
	}
	need, used := r.tasks, int64(0) // a tasks job's first fit on the empty nodes
	for gi := range c.groups {
		g := &c.groups[gi] // not a copy: a Group is a dozen words
		if g.Memory < r.mem || g.GPUs < r.gpus || ru != nil && !ru.ok[gi] {
			continue
		}
		cores += int64(g.Count) * g.Cores
		if g.Cores >= r.per {
			nodes += int64(g.Count)
		}
		if need > 0 {
			k := min(int64(g.Count), (need+g.Cores-1)/g.Cores)
			need -= k * g.Cores
			used += k
		}
	}
	if c.fit == BestFit && r.nodes == 0 && c.holdsOnOne(r, ru) {
		used = 1
	}
	switch {
	case r.nodes > 0 && nodes < r.nodes || r.nodes == 0 && cores < r.tasks:
		return sim.TooLarge
	case r.nodes == 0 && ru != nil && ru.maxNodes > 0 && used > ru.maxNodes:
		return sim.OverLimit
	}
	return sim.NoReason
}

// holdsOnOne reports whether one node that r may use holds all its tasks.
func (c *Cluster) holdsOnOne(r req, ru *rule) bool {
	for gi := range c.groups {
		if g := &c.groups[gi]; g.Cores >= r.tasks && g.Memory >= r.mem && g.GPUs >= r.gpus && (ru == nil || ru.ok[gi]) {
			return true
		}
	}
	return false
}

// checkWhere checks that every node of placement uses is one the job of
// request r may use.
func (c *Cluster) checkWhere(r req, uses []Use) error {
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if !c.st.may(n, r) {
				return fmt.Errorf("node %s is not one the job may use (partition, node groups or features)", c.NodeName(n))
			}
		}
	}
	if lim := c.st.maxNodes(r); lim > 0 && r.nodes == 0 {
		var k int64
		for _, u := range uses {
			k += int64(u.Nodes)
		}
		if k > lim {
			return fmt.Errorf("placement %v uses %d nodes; its partition allows %d", uses, k, lim)
		}
	}
	return nil
}
