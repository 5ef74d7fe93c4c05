package results

import (
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// GroupRow is one row of node_groups.parquet: a node group of a run on a
// machine of nodes, with the share of its cores the run's jobs used.
type GroupRow struct {
	RunKey string
	Group  string // the group's name
	Nodes  int64  // nodes in the group
	Cores  int64  // cores per node
	Memory int64  // memory per node, bytes
	GPUs   int64  // GPUs per node
	// Partitions names the partitions that hold the group, comma-separated
	// in the order the cluster declares them; "" on a cluster without.
	Partitions string
	// Utilization is the core-seconds the jobs that ran held on the
	// group's nodes (the cores each took on a node × its work,
	// sim.Outcome.Work) over the group's cores × the run's makespan (as
	// runs.parquet's makespan: from the first submit to the last end), in
	// [0, 1]; 0 when the makespan is 0. Weighted by the groups' cores, the
	// groups' utilizations average to the run's utilization.
	Utilization float64
}

// GroupRows returns the rows of node_groups.parquet for a run res on the
// machine of nodes p, one per node group in node order; nil when p is nil
// (a run on the pool has no node groups). Like utilization it covers
// every job: warm-up and cool-down trim nothing here.
func GroupRows(runKey string, res *sim.Result, p Placement) []GroupRow {
	if p == nil {
		return nil
	}
	groups := p.Groups()
	pp, _ := p.(Partitioned)
	used := make([]float64, len(groups)) // core-seconds per group
	first, last, ran := sim.Time(0), sim.Time(0), false
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if i == 0 || o.Submit < first {
			first = o.Submit
		}
		if o.State == sim.Rejected {
			continue
		}
		last, ran = max(last, o.End), true
		run := float64(o.Work())
		for _, u := range p.Where(o.Seq) {
			// A run of nodes may cross from one group into the next.
			for n := u.Node; n < u.Node+u.Nodes; n++ {
				used[p.GroupOf(int(n))] += float64(u.Cores) * run
			}
		}
	}
	span := 0.0
	if ran {
		span = float64(last - first)
	}
	rows := make([]GroupRow, len(groups))
	for g, gr := range groups {
		rows[g] = GroupRow{RunKey: runKey, Group: gr.Name, Nodes: int64(gr.Count), Cores: gr.Cores, Memory: gr.Memory, GPUs: gr.GPUs}
		if pp != nil {
			rows[g].Partitions = strings.Join(pp.GroupPartitions(g), ",")
		}
		if span > 0 {
			rows[g].Utilization = used[g] / (float64(gr.Count) * float64(gr.Cores) * span)
		}
	}
	return rows
}

// groupsColumns are the columns of node_groups.parquet.
var groupsColumns = []column[GroupRow]{
	stringCol("run_key", func(r *GroupRow) string { return r.RunKey }),
	stringCol("node_group", func(r *GroupRow) string { return r.Group }),
	intCol("nodes", func(r *GroupRow) int64 { return r.Nodes }),
	intCol("cores", func(r *GroupRow) int64 { return r.Cores }),
	intCol("memory", func(r *GroupRow) int64 { return r.Memory }),
	intCol("gpus", func(r *GroupRow) int64 { return r.GPUs }),
	stringCol("partitions", func(r *GroupRow) string { return r.Partitions }),
	floatCol("utilization", func(r *GroupRow) float64 { return r.Utilization }, nil),
}

// WriteGroups writes node_groups.parquet to path: rows in order, the
// columns results/README.md lists. To write a sweep's rows without holding
// them all, use a GroupsWriter.
func WriteGroups(path string, rows []GroupRow, meta Metadata) error {
	return writeTable(path, groupsColumns, tableBatchRows, rows, meta)
}

// GroupsWriter streams node_groups.parquet as UsersWriter streams
// users.parquet. It is not safe for concurrent use.
type GroupsWriter struct {
	w *tableWriter[GroupRow]
}

// NewGroupsWriter starts node_groups.parquet at path (as a temporary file
// beside it), creating missing parent directories.
func NewGroupsWriter(path string, meta Metadata) (*GroupsWriter, error) {
	w, err := newTableWriter(path, groupsColumns, tableBatchRows, meta)
	if err != nil {
		return nil, err
	}
	return &GroupsWriter{w}, nil
}

// Append adds rows, in order. After an error the file is gone and every
// later call fails.
func (g *GroupsWriter) Append(rows []GroupRow) error { return g.w.append(rows) }

// Close writes the remaining rows and the footer and moves the file into
// place. Later calls fail.
func (g *GroupsWriter) Close() error { return g.w.close() }

// Abort gives the file up, removing its temporary file; nothing appears at
// the path. It is a no-op after Close or an error, so it can be deferred.
func (g *GroupsWriter) Abort() { g.w.abort() }
