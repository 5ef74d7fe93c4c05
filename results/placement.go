package results

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/schedsweep/schedsweep/internal/hostlist"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// Placement is where a run on a machine of nodes placed its jobs, as the
// machine model keeps it after the run: *nodes.Cluster implements it. The
// writers read it only after sim.Run has returned.
type Placement interface {
	// Nodes returns the number of nodes.
	Nodes() int
	// NodeName returns node n's name (zewura3).
	NodeName(n int) string
	// Where returns the placement of the job of sequence number seq, its
	// runs of consecutive nodes; nil if it never started.
	Where(seq int) []nodes.Use
	// Groups returns the node groups, in node order.
	Groups() []nodes.Group
	// GroupOf returns the index in Groups of node n's group.
	GroupOf(n int) int
}

var (
	_ Placement = (*nodes.Cluster)(nil)
	_ Placement = (*alea.Placement)(nil)
)

// PlacementOf returns the Placement of machine model m, the model a run
// was simulated on: m itself when it places jobs on nodes, its Placement
// for compat alea's machine (*alea.Machine), nil for a model without
// nodes (the pool, the two-tier machine).
func PlacementOf(m sim.Model) Placement {
	if a, ok := m.(*alea.Machine); ok {
		return a.Placement()
	}
	p, _ := m.(Placement)
	return p
}

// JobNodes returns the nodes the job of sequence number seq ran on, in
// Slurm's hostlist notation ("zewura[3-4,7]"), or "" if it ran on none
// (it was rejected). Names are p's NodeName; names is scratch space,
// returned for reuse. A node name the notation cannot carry (one holding
// a comma, a bracket or white space) is an error.
func JobNodes(p Placement, seq int, names []string) (string, []string, error) {
	names = names[:0]
	for _, u := range p.Where(seq) {
		for n := u.Node; n < u.Node+u.Nodes; n++ {
			names = append(names, p.NodeName(int(n)))
		}
	}
	if len(names) == 0 {
		return "", names, nil
	}
	s, err := hostlist.Format(names)
	if err != nil {
		return "", names, err
	}
	return s, names, nil
}

// nodesField is the jobs file's nodes column, after tardiness, in the
// files of a sweep that has runs on nodes.
var nodesField = arrow.Field{Name: "nodes", Type: arrow.BinaryTypes.String, Nullable: true}

// partitionField is the jobs file's partition column, after nodes and
// written with it.
var partitionField = arrow.Field{Name: "partition", Type: arrow.BinaryTypes.String, Nullable: true}

// Partitioned is a Placement on a cluster that may declare partitions
// (*nodes.Cluster): each job's partition, and the partitions that hold
// each node group.
type Partitioned interface {
	// PartitionOf returns the partition job j runs in; "" on a cluster
	// without partitions.
	PartitionOf(j *sim.Job) string
	// GroupPartitions returns the partitions that hold node group g.
	GroupPartitions(g int) []string
}

var _ Partitioned = (*nodes.Cluster)(nil)

// buildPartitions returns the partition column of jobs: each job's
// partition, rejected jobs included (the one it asked for); NULL on a
// machine without partitions and for every job of a run on the pool.
func (c *nodesColumn) buildPartitions(jobs []sim.Outcome) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(len(jobs))
	pp, _ := c.p.(Partitioned)
	for i := range jobs {
		if pp == nil {
			b.AppendNull()
			continue
		}
		if name := pp.PartitionOf(&jobs[i].Job); name != "" {
			b.Append(name)
		} else {
			b.AppendNull()
		}
	}
	return b.NewArray()
}

// WriteJobsOnNodes writes one run's jobs as WriteJobs does, with one more
// column after tardiness: nodes, the job's nodes in hostlist notation
// (JobNodes), NULL for a job that ran on no node, and for every job when p
// is nil (a run on the pool in a sweep whose other runs have nodes, so
// that all its jobs files have the same columns). The nodes column has no
// statistics: its values are long and a reader skips nothing by them.
func WriteJobsOnNodes(path string, runKey string, res *sim.Result, e *EET, p Placement, meta Metadata) error {
	return writeJobs(path, runKey, res, e, &nodesColumn{p: p}, meta)
}

// nodesColumn builds the nodes column of a jobs file, a batch at a time.
// It keeps every node's name, asked of p once, and the hostlist of each
// placement it formatted, up to maxCached of them: a trace's jobs come
// back to the same nodes (most jobs of a node-level trace take one node),
// and formatting is most of the column's cost.
type nodesColumn struct {
	p      Placement
	names  []string // scratch: one job's node names
	node   []string // each node's name, "" until asked
	cached map[string]string
	key    []byte // scratch: a placement as a cache key
}

// maxCached bounds nodesColumn's cache of formatted placements; it starts
// again empty once full.
const maxCached = 1 << 16

// format returns the hostlist of uses, "" for none.
func (c *nodesColumn) format(uses []nodes.Use) (string, error) {
	if len(uses) == 0 {
		return "", nil
	}
	c.key = c.key[:0]
	for _, u := range uses {
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(u.Node))
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(u.Nodes))
	}
	if s, ok := c.cached[string(c.key)]; ok {
		return s, nil
	}
	if c.node == nil {
		c.node = make([]string, c.p.Nodes())
	}
	c.names = c.names[:0]
	for _, u := range uses {
		for n := u.Node; n < u.Node+u.Nodes; n++ {
			if c.node[n] == "" {
				c.node[n] = c.p.NodeName(int(n))
			}
			c.names = append(c.names, c.node[n])
		}
	}
	s, err := hostlist.Format(c.names)
	if err != nil {
		return "", err
	}
	if c.cached == nil || len(c.cached) == maxCached {
		c.cached = make(map[string]string)
	}
	c.cached[string(c.key)] = s
	return s, nil
}

// build returns the nodes column of jobs, whose sequence numbers are
// their Seq. Errors name the job.
func (c *nodesColumn) build(jobs []sim.Outcome) (arrow.Array, error) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(len(jobs))
	for i := range jobs {
		o := &jobs[i]
		if c.p == nil || o.State == sim.Rejected {
			b.AppendNull()
			continue
		}
		s, err := c.format(c.p.Where(o.Seq))
		switch {
		case err != nil:
			return nil, fmt.Errorf("job %d: its nodes: %w", o.ID, err)
		case s == "":
			b.AppendNull()
		default:
			b.Append(s)
		}
	}
	return b.NewArray(), nil
}
