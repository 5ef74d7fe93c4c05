package spec

// This file decodes the node level of a cluster block: its node and
// partition blocks, fit and model, and a machines file read as nodes; and
// checks that every policy of a sweep on nodes can run there.

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

var (
	nodeSchema      = schema{what: "a node block", attrs: []string{"count", "cores", "memory", "gpus", "features"}}
	partitionSchema = schema{what: "a partition block", attrs: []string{"groups", "features", "max_time", "max_nodes"}}
)

// The machine models a cluster block's model argument names.
const (
	modelPool  = "pool"
	modelNodes = "nodes"
)

// nodeLevel decodes the node level of cluster block b into c, after its
// procs and machines: with node blocks, or a machines file and model =
// "nodes", c.Nodes holds the node groups, partitions and fit, and its
// capacity is theirs. It reports errors for arguments that do not go
// together.
func (d *decoder) nodeLevel(c *Cluster, b *hclsyntax.Block, attrs map[string]*hclsyntax.Attribute, blocks []*hclsyntax.Block) {
	before := len(d.diags.Errs())
	var groups, parts []*hclsyntax.Block
	for _, nb := range blocks {
		if nb.Type == "node" {
			groups = append(groups, nb)
		} else {
			parts = append(parts, nb)
		}
	}
	model, ok := d.clusterModel(c, attrs, len(groups) > 0, parts)
	if !ok || model == modelPool && len(groups) == 0 {
		return // procs or a machines file: the pool as before
	}
	cfg, ok := d.nodeConfig(c, attrs, groups, parts)
	if !ok {
		return
	}
	capacity, ok := nodeCapacity(cfg.Groups)
	switch {
	case !ok:
		d.errorf(b.DefRange(), "Cluster too large", "The node groups of cluster %q hold more than 2⁶³ processors, bytes or GPUs.", c.Name)
		return
	case len(groups) > 0:
		c.Capacity = capacity
	}
	if model == modelPool || len(d.diags.Errs()) > before {
		return
	}
	if _, err := nodes.NewConfig(*cfg); err != nil {
		d.errorf(b.DefRange(), "Invalid cluster of nodes", "Cluster %q: %s.", c.Name, err)
		return
	}
	c.Nodes = cfg
}

// clusterModel reads a cluster block's model (default: nodes when it has
// node blocks, else the pool) and reports the arguments and partition
// blocks that do not go with it; false when the block cannot be read
// further.
func (d *decoder) clusterModel(c *Cluster, attrs map[string]*hclsyntax.Attribute, hasNodes bool, parts []*hclsyntax.Block) (string, bool) {
	model := modelPool
	if hasNodes {
		model = modelNodes
	}
	if i, st := d.choice(attrs["model"], modelPool, modelNodes); st == set {
		model = []string{modelPool, modelNodes}[i]
	} else if st == invalid {
		return model, false
	}
	switch {
	case hasNodes && (attrs["procs"] != nil || attrs["machines"] != nil):
		a := lastOf(attrs["procs"], attrs["machines"])
		d.errorf(a.NameRange, "Conflicting cluster size",
			"Cluster %q has node blocks, which set its size: leave out %s.", c.Name, a.Name)
	case model == modelNodes && !hasNodes && attrs["machines"] == nil:
		d.errorf(attrs["model"].Expr.Range(), "Cluster without nodes",
			"Cluster %q has model = \"nodes\" but neither node blocks nor a machines file to take its nodes from.", c.Name)
		return model, false
	}
	if hasNodes || model == modelNodes {
		for _, name := range []string{"memory", "gpus"} {
			if a := attrs[name]; a != nil {
				d.errorf(a.NameRange, "Conflicting cluster size",
					"Cluster %q is a cluster of nodes: its %s is per node, in its node blocks or machines file.", c.Name, name)
			}
		}
	}
	if model == modelPool {
		if a := attrs["fit"]; a != nil {
			d.errorf(a.NameRange, "Node option on a pool", "Cluster %q is an aggregate pool: %s applies to a cluster of nodes.", c.Name, a.Name)
		}
		for _, pb := range parts {
			d.errorf(pb.DefRange(), "Partition on a pool", "Cluster %q is an aggregate pool: partitions need nodes (node blocks, or model = \"nodes\" with a machines file).", c.Name)
		}
	}
	return model, true
}

// nodeConfig decodes fit, the node groups (node blocks, or else c's
// machines file) and the partitions of a cluster block.
func (d *decoder) nodeConfig(c *Cluster, attrs map[string]*hclsyntax.Attribute, groups, parts []*hclsyntax.Block) (*nodes.Config, bool) {
	cfg := &nodes.Config{}
	if i, st := d.choice(attrs["fit"], "first", "best"); st == set {
		cfg.Fit = nodes.Fit(i)
	}
	seen := map[string]hcl.Range{}
	for _, nb := range groups {
		if d.name(nb) && d.unique(nb, seen) {
			if g, ok := d.nodeGroup(nb); ok {
				cfg.Groups = append(cfg.Groups, g)
			}
		}
	}
	if len(groups) == 0 {
		if c.Machines == "" {
			return nil, false // the machines file's error is reported
		}
		g, err := machineGroups(c.Machines)
		if err != nil {
			d.errorf(attrs["machines"].Expr.Range(), "Unreadable machines file", "%s.", err)
			return nil, false
		}
		cfg.Groups = g
	}
	seen = map[string]hcl.Range{}
	for _, pb := range parts {
		if d.name(pb) && d.unique(pb, seen) {
			if p, ok := d.partition(pb, cfg.Groups); ok {
				cfg.Partitions = append(cfg.Partitions, p)
			}
		}
	}
	return cfg, true
}

// nodeGroup decodes a node block.
func (d *decoder) nodeGroup(b *hclsyntax.Block) (nodes.Group, bool) {
	attrs, _ := d.content(b.Body, nodeSchema)
	g := nodes.Group{Name: b.Labels[0]}
	before := len(d.diags.Errs())
	if d.required(b, attrs, "count", ` (how many nodes the group has)`) {
		if n, st := d.intArg(attrs["count"], "Invalid node count", 1, math.MaxInt32); st == set {
			g.Count = int(n)
		}
	}
	if d.required(b, attrs, "cores", ` (processors per node)`) {
		if n, st := d.intArg(attrs["cores"], "Invalid core count", 1, math.MaxInt32); st == set {
			g.Cores = n
		}
	}
	if it, st := d.value(attrs["memory"]); st == set {
		if n, ok := d.size(it, `"memory"`); ok {
			g.Memory = n
		}
	}
	if n, st := d.intArg(attrs["gpus"], "Invalid GPU count", 0, math.MaxInt32); st == set {
		g.GPUs = n
	}
	g.Features = d.names(attrs["features"], "Invalid feature")
	return g, len(d.diags.Errs()) == before
}

// partition decodes a partition block of a cluster of groups.
func (d *decoder) partition(b *hclsyntax.Block, groups []nodes.Group) (nodes.Partition, bool) {
	attrs, _ := d.content(b.Body, partitionSchema)
	p := nodes.Partition{Name: b.Labels[0]}
	before := len(d.diags.Errs())
	if items, st := d.list(attrs["groups"]); st == set {
		for _, it := range items {
			name, ok := d.asString(it, "a node group's name")
			if !ok {
				continue
			}
			known := make([]string, len(groups))
			for i, g := range groups {
				known[i] = g.Name
			}
			if indexOf(known, name) < 0 {
				d.errorf(it.rng, "Unknown node group", "%s",
					withSuggestion(fmt.Sprintf("Partition %q names node group %q, which the cluster does not have; it has %s.", p.Name, name, quoteList(known)), name, known))
				continue
			}
			p.Groups = append(p.Groups, name)
		}
	}
	p.Features = d.names(attrs["features"], "Invalid feature")
	if n, st := d.intArg(attrs["max_time"], "Invalid time limit", 1, math.MaxInt64); st == set {
		p.MaxTime = sim.Time(n)
	}
	if n, st := d.intArg(attrs["max_nodes"], "Invalid node limit", 1, math.MaxInt32); st == set {
		p.MaxNodes = int(n)
	}
	if len(d.diags.Errs()) > before {
		return p, false
	}
	held := false
	for _, g := range groups {
		held = held || len(p.Groups)+len(p.Features) == 0 || indexOf(p.Groups, g.Name) >= 0 || hasFeature(g.Features, p.Features)
	}
	if !held {
		d.errorf(b.DefRange(), "Empty partition", "Partition %q holds no node: no node group is named in groups or has one of its features.", p.Name)
		return p, false
	}
	return p, true
}

func hasFeature(have, want []string) bool {
	for _, w := range want {
		if indexOf(have, w) >= 0 {
			return true
		}
	}
	return false
}

// names reads a list of non-empty strings without white space.
func (d *decoder) names(a *hclsyntax.Attribute, summary string) []string {
	items, st := d.list(a)
	if st != set {
		return nil
	}
	var out []string
	for _, it := range items {
		s, ok := d.asString(it, "a name")
		switch {
		case !ok:
		case s == "" || containsSpace(s):
			d.errorf(it.rng, summary, "%q is not a name: it must be non-empty and without white space.", s)
		default:
			out = append(out, s)
		}
	}
	return out
}

func containsSpace(s string) bool {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return true
		}
	}
	return false
}

// machineGroups reads an Alea .machines file as node groups, memory per
// node from the file, no GPUs or features.
func machineGroups(path string) ([]nodes.Group, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gs, err := workloads.ReadMachines(f, path)
	if err != nil {
		return nil, err
	}
	out := make([]nodes.Group, len(gs))
	for i, g := range gs {
		if g.Nodes > math.MaxInt32 || g.CPUsPerNode > math.MaxInt32 {
			return nil, fmt.Errorf("%s: node group %q: %d nodes of %d processors: at most 2³¹ − 1 of each", path, g.Name, g.Nodes, g.CPUsPerNode)
		}
		out[i] = nodes.Group{Name: g.Name, Count: int(g.Nodes), Cores: g.CPUsPerNode, Memory: g.MemPerNode}
	}
	return out, nil
}

// nodeCapacity returns the total resources of groups, and false on
// overflow.
func nodeCapacity(groups []nodes.Group) (sim.Resources, bool) {
	var c sim.Resources
	for _, g := range groups {
		for k, v := range [...]int64{sim.Procs: g.Cores, sim.Memory: g.Memory, sim.GPUs: g.GPUs} {
			hi, lo := bits.Mul64(uint64(g.Count), uint64(v))
			if hi != 0 || lo > math.MaxInt64 || int64(lo) > math.MaxInt64-c[k] {
				return c, false
			}
			c[k] += int64(lo)
		}
	}
	return c, true
}

// nodeAware reports, at the sweep's policies list, every policy that
// cannot run on the sweep's cluster of nodes (NodeAware).
func (d *decoder) nodeAware(s *Sweep, list *hclsyntax.Attribute) {
	if s.Cluster == nil || s.Cluster.Nodes == nil || list == nil {
		return
	}
	for _, p := range s.Policies {
		if err := NodeAware(p.Type, p.Params); err != nil {
			d.errorf(list.Expr.Range(), "Policy cannot run on this cluster",
				"%s (policy block %q, cluster %q of nodes).", err, p.Name, s.Cluster.Name)
		}
	}
}

// ErrNotNodeAware is wrapped by NodeAware's error for a policy that
// decides on the aggregate free resources only.
var ErrNotNodeAware = errors.New("cannot run on a cluster of nodes yet: it starts jobs that fit in aggregate but on no node")

var probed sync.Map // policy type → error of its probe under default parameters

// NodeAware returns nil if the policy of type typ and parameters params
// (nil: its defaults) can run on a cluster of nodes. Every policy of the
// pool's model does today (TestNodeAware); the check stays for a policy
// added later that decides on aggregate free resources alone, so NodeAware
// asks the policy itself: it
// runs it on a probe, two nodes of two cores where an exclusive job of one
// core holds the first node whole, so that a job of three tasks fits the
// aggregate's three free cores but no placement; a policy that asks
// View.Trial waits, one that counts in aggregate starts it and the run
// fails. A policy of a model other than the pool (two-tier) is refused
// outright. The answer for the default parameters is kept.
func NodeAware(typ string, params any) error {
	e, err := policies.Lookup(typ)
	if err != nil {
		return err
	}
	if e.Model != policies.PoolModel {
		return fmt.Errorf("policy %q runs on the %v machine model, not on nodes", typ, e.Model)
	}
	if params == nil {
		if v, ok := probed.Load(typ); ok {
			err, _ := v.(error)
			return err
		}
	}
	err = probe(e, params)
	if params == nil {
		probed.Store(typ, err)
	}
	return err
}

func probe(e policies.Entry, params any) error {
	p, err := e.New(params)
	if err != nil {
		return fmt.Errorf("policy %q: %w", e.Name, err)
	}
	c, err := nodes.New([]nodes.Group{{Name: "probe", Count: 2, Cores: 2}}, nodes.FirstFit)
	if err != nil {
		return err
	}
	job := func(id int64, procs int64, excl bool) sim.Record {
		r := sim.Record{Job: sim.Job{ID: sim.JobID(id), User: 1, Group: 1, Queue: -1, Partition: -1, Estimate: 10},
			Runtime: 10, Preceding: -1, Think: -1}
		r.Need[sim.Procs] = procs
		r.Shape.Exclusive = excl
		return r
	}
	recs := []sim.Record{job(1, 1, true), job(2, 3, false)}
	if _, err := sim.Run(c, p, sim.NewSliceSource(recs), sim.Options{}); err != nil {
		return fmt.Errorf("policy %q %w", e.Name, ErrNotNodeAware)
	}
	return nil
}

func hasNodeBlock(blocks []*hclsyntax.Block) bool {
	for _, b := range blocks {
		if b.Type == "node" {
			return true
		}
	}
	return false
}

// NodesFromMachines reads the Alea .machines file at path as a cluster of
// nodes placed by fit, for simulate's --model nodes: the configuration and
// its capacity.
func NodesFromMachines(path string, fit nodes.Fit) (*nodes.Config, sim.Resources, error) {
	groups, err := machineGroups(path)
	if err != nil {
		return nil, sim.Resources{}, err
	}
	capacity, ok := nodeCapacity(groups)
	if !ok {
		return nil, sim.Resources{}, fmt.Errorf("%s: the node groups hold more than 2⁶³ processors or bytes", path)
	}
	cfg := &nodes.Config{Groups: groups, Fit: fit}
	if _, err := nodes.NewConfig(*cfg); err != nil {
		return nil, sim.Resources{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, capacity, nil
}
