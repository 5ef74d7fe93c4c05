package nodes_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// where gives r the restriction w.
func where(r sim.Record, w *sim.Where) sim.Record {
	r.Shape.Where = w
	return r
}

// runConfig is runFCFS on a cluster of cfg.
func runConfig(t *testing.T, cfg nodes.Config, recs []sim.Record) []string {
	t.Helper()
	c, err := nodes.NewConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(c, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, o := range res.Jobs {
		if o.State == sim.Rejected {
			got = append(got, "rejected:"+o.Reason.String())
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d-%d@", o.Start, o.End)
		for _, u := range c.Where(i) {
			for n := u.Node; n < u.Node+u.Nodes; n++ {
				fmt.Fprintf(&b, "%s:%d,", c.NodeName(int(n)), u.Cores)
			}
		}
		got = append(got, b.String())
	}
	return got
}

// TestRules works partitions, node groups and features out by hand, with
// the jobs' restrictions as field 21 and field 20 give them.
func TestRules(t *testing.T) {
	ab := []nodes.Group{
		{Name: "a", Count: 2, Cores: 4, Features: []string{"ib"}},
		{Name: "b", Count: 2, Cores: 4, Features: []string{"gpu", "ib"}},
	}
	parts := []nodes.Partition{
		{Name: "batch", Groups: []string{"a"}},
		{Name: "gpu", Features: []string{"gpu"}, MaxTime: 100, MaxNodes: 1},
		{Name: "all"},
	}
	onlyB := &sim.Where{Groups: []string{"b"}}
	notA := &sim.Where{NotGroups: []string{"a"}}
	wantGPU := &sim.Where{Features: []string{"gpu", "x86_64"}} // x86_64: no group declares it, ignored
	noGPU := &sim.Where{NotFeatures: []string{"gpu"}}
	tests := []struct {
		name string
		cfg  nodes.Config
		recs []sim.Record
		want []string
	}{{
		// Job 1 takes a1; job 2, restricted to b, goes to b1 although a2
		// is idle; job 3, refusing a, to b1's last cores.
		name: "node groups", cfg: nodes.Config{Groups: ab},
		recs: []sim.Record{shaped(1, 0, 10, 1, 4, false, 0), where(shaped(2, 0, 10, 1, 2, false, 0), onlyB),
			where(shaped(3, 0, 10, 1, 2, false, 0), notA)},
		want: []string{"0-10@a1:4,", "0-10@b1:2,", "0-10@b1:2,"},
	}, {
		// A known feature is required, an unknown one ignored; a refused
		// feature keeps the job off b.
		name: "features", cfg: nodes.Config{Groups: ab},
		recs: []sim.Record{where(shaped(1, 0, 10, 1, 1, false, 0), wantGPU), where(tasks(2, 0, 10, 12, false), noGPU)},
		want: []string{"0-10@b1:1,", "rejected:too-large"},
	}, {
		// A job that fits on a2 in aggregate waits when its group is b
		// and both b nodes are busy.
		name: "waits for its group", cfg: nodes.Config{Groups: ab},
		recs: []sim.Record{where(shaped(1, 0, 10, 2, 4, false, 0), onlyB), where(shaped(2, 1, 5, 1, 1, false, 0), onlyB),
			shaped(3, 2, 5, 1, 1, false, 0)},
		want: []string{"0-10@b1:4,b2:4,", "10-15@b1:1,", "10-15@a1:1,"},
	}, {
		// No partition named: the first, batch (group a). Job 2 in gpu
		// uses b; job 3 asks 2 nodes of gpu, whose limit is 1; job 4 an
		// estimate over gpu's 100 s; job 5 a partition that does not
		// exist; job 6 in all may use every node; job 7 asks 8 tasks in
		// gpu, two nodes' worth.
		name: "partitions", cfg: nodes.Config{Groups: ab, Partitions: parts},
		recs: []sim.Record{tasks(1, 0, 10, 8, false), where(shaped(2, 0, 10, 1, 4, false, 0), &sim.Where{Partition: "gpu"}),
			where(shaped(3, 0, 10, 2, 1, false, 0), &sim.Where{Partition: "gpu"}),
			where(shaped(4, 0, 101, 1, 1, false, 0), &sim.Where{Partition: "gpu"}),
			where(shaped(5, 0, 10, 1, 1, false, 0), &sim.Where{Partition: "debug"}),
			where(shaped(6, 0, 10, 1, 4, false, 0), &sim.Where{Partition: "all"}),
			where(tasks(7, 0, 10, 8, false), &sim.Where{Partition: "gpu"})},
		want: []string{"0-10@a1:4,a2:4,", "0-10@b1:4,", "rejected:over-limit", "rejected:over-limit",
			"rejected:no-partition", "0-10@b2:4,", "rejected:over-limit"},
	}, {
		// A tasks job limited to one node waits for a node that holds it
		// whole, although 4 cores are free on two nodes.
		name: "max nodes for tasks", cfg: nodes.Config{Groups: ab, Partitions: []nodes.Partition{{Name: "p", MaxNodes: 1}}},
		recs: []sim.Record{tasks(1, 0, 10, 2, false), tasks(2, 0, 20, 14, false), tasks(3, 1, 5, 4, false)},
		want: []string{"0-10@a1:2,", "rejected:over-limit", "10-15@a1:4,"},
	}, {
		name: "invalid request", cfg: nodes.Config{Groups: ab},
		recs: []sim.Record{where(shaped(1, 0, 10, 1, 1, false, 0), &sim.Where{Invalid: `x.swf:3: field 21 (node request): "1:ppn=1.5"`})},
		want: []string{"rejected:bad-request"},
	}, {
		// A queue on a cluster without partitions says nothing.
		name: "partition without partitions", cfg: nodes.Config{Groups: ab},
		recs: []sim.Record{where(shaped(1, 0, 10, 1, 1, false, 0), &sim.Where{Partition: "q_1d"})},
		want: []string{"0-10@a1:1,"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, runConfig(t, tc.cfg, tc.recs)); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewConfigErrors(t *testing.T) {
	g := []nodes.Group{{Name: "a", Count: 1, Cores: 4, Features: []string{"ib"}}}
	tests := []struct {
		cfg  nodes.Config
		want string
	}{
		{nodes.Config{Groups: append(g, g[0])}, `node group 1: name "a" repeats node group 0's`},
		{nodes.Config{Groups: g, Partitions: []nodes.Partition{{}}}, "partition 0 has no name"},
		{nodes.Config{Groups: g, Partitions: []nodes.Partition{{Name: "p"}, {Name: "p"}}}, `partition "p" is declared twice`},
		{nodes.Config{Groups: g, Partitions: []nodes.Partition{{Name: "p", Groups: []string{"z"}}}}, `partition "p": node group "z" is not one of the cluster's`},
		{nodes.Config{Groups: g, Partitions: []nodes.Partition{{Name: "p", Features: []string{"gpu"}}}}, `partition "p" holds no node`},
		{nodes.Config{Groups: g, Partitions: []nodes.Partition{{Name: "p", MaxNodes: -1}}}, `partition "p": max_time 0 and max_nodes -1 must not be negative`},
	}
	for _, tc := range tests {
		_, err := nodes.NewConfig(tc.cfg)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewConfig(%+v) = %v; want %s", tc.cfg, err, tc.want)
		}
	}
}
