package nodes_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// shaped is a job with a shape; mem is its memory per node.
func shaped(id int64, submit, run sim.Time, nodesN, per int32, excl bool, mem int64) sim.Record {
	r := simtest.J(id, submit, run, run, int64(nodesN)*int64(per))
	r.Shape = sim.Shape{Nodes: nodesN, PerNode: per, Exclusive: excl, MemPerNode: mem}
	return r
}

// tasks is a job of n cores anywhere, exclusive if excl.
func tasks(id int64, submit, run sim.Time, n int64, excl bool) sim.Record {
	r := simtest.J(id, submit, run, run, n)
	r.Shape = sim.Shape{Exclusive: excl}
	return r
}

// runFCFS runs FCFS on a new cluster and returns each job's
// "start-end@nodes", checked by Verify.
func runFCFS(t *testing.T, groups []nodes.Group, fit nodes.Fit, recs []sim.Record) []string {
	t.Helper()
	c, err := nodes.New(groups, fit)
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
		s := fmt.Sprintf("%d-%d@", o.Start, o.End)
		for _, u := range c.Where(i) {
			for n := u.Node; n < u.Node+u.Nodes; n++ {
				s += fmt.Sprintf("%s:%d,", c.NodeName(int(n)), u.Cores)
			}
		}
		got = append(got, s)
	}
	return got
}

func TestGoldens(t *testing.T) {
	two4 := []nodes.Group{{Name: "n", Count: 2, Cores: 4, Memory: 10}}
	tests := []struct {
		name   string
		groups []nodes.Group
		fit    nodes.Fit
		recs   []sim.Record
		want   []string
	}{{
		// 3 + 3 leave a core on each node: 2 free in aggregate, but the
		// one-node request of 2 waits for the first job's end.
		name: "fits in aggregate, on no node", groups: two4,
		recs: []sim.Record{shaped(1, 0, 10, 1, 3, false, 0), shaped(2, 0, 20, 1, 3, false, 0), shaped(3, 1, 5, 1, 2, false, 0)},
		want: []string{"0-10@n1:3,", "0-20@n2:3,", "10-15@n1:2,"},
	}, {
		// The same 2 as tasks spread over the two nodes' last cores.
		name: "tasks spread", groups: two4,
		recs: []sim.Record{shaped(1, 0, 10, 1, 3, false, 0), shaped(2, 0, 20, 1, 3, false, 0), tasks(3, 1, 5, 2, false)},
		want: []string{"0-10@n1:3,", "0-20@n2:3,", "1-6@n1:1,n2:1,"},
	}, {
		// An exclusive job of one core holds node 1 whole; the next
		// one-core job goes to node 2, and the exclusive job 3 waits for
		// an idle node.
		name: "exclusive", groups: two4,
		recs: []sim.Record{shaped(1, 0, 10, 1, 1, true, 0), shaped(2, 0, 20, 1, 1, false, 0), shaped(3, 1, 5, 1, 1, true, 0)},
		want: []string{"0-10@n1:1,", "0-20@n2:1,", "10-15@n1:1,"},
	}, {
		// Memory binds: 6 of 10 bytes on node 1, 6 on node 2; a third
		// job asking 6 per node waits although 6 cores are free.
		name: "memory per node", groups: two4,
		recs: []sim.Record{shaped(1, 0, 10, 1, 1, false, 6), shaped(2, 0, 20, 1, 1, false, 6), shaped(3, 1, 5, 1, 1, false, 6)},
		want: []string{"0-10@n1:1,", "0-20@n2:1,", "10-15@n1:1,"},
	}, {
		name: "first fit", groups: []nodes.Group{{Name: "a", Count: 1, Cores: 8}, {Name: "b", Count: 1, Cores: 4}},
		recs: []sim.Record{shaped(1, 0, 10, 1, 2, false, 0), shaped(2, 0, 10, 1, 2, false, 0)},
		want: []string{"0-10@a1:2,", "0-10@a1:2,"},
	}, {
		// Best fit puts 2 cores on b (2 left) rather than a (6 left),
		// then on b again (0 left).
		name: "best fit", groups: []nodes.Group{{Name: "a", Count: 1, Cores: 8}, {Name: "b", Count: 1, Cores: 4}}, fit: nodes.BestFit,
		recs: []sim.Record{shaped(1, 0, 10, 1, 2, false, 0), shaped(2, 0, 10, 1, 2, false, 0), tasks(3, 0, 10, 3, false)},
		want: []string{"0-10@b1:2,", "0-10@b1:2,", "0-10@a1:3,"},
	}, {
		name: "never fits", groups: two4,
		recs: []sim.Record{shaped(1, 0, 10, 1, 5, false, 0), shaped(2, 0, 10, 3, 1, false, 0), shaped(3, 0, 10, 1, 1, false, 11), tasks(4, 0, 1, 8, true)},
		want: []string{"rejected:too-large", "rejected:too-large", "rejected:too-large", "0-1@n1:4,n2:4,"},
	}, {
		// A nodes shape must hold Need[Procs]: 2 × 2 is not 3.
		name: "shape against need", groups: two4,
		recs: []sim.Record{func() sim.Record { r := shaped(1, 0, 10, 2, 2, false, 0); r.Need[sim.Procs] = 3; return r }()},
		want: []string{"rejected:negative-request"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runFCFS(t, tc.groups, tc.fit, tc.recs)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, gs := range [][]nodes.Group{nil, {{Name: "x", Count: 0, Cores: 4}}, {{Name: "x", Count: 1, Cores: 0}}, {{Name: "x", Count: 1, Cores: 1, Memory: -1}}} {
		if _, err := nodes.New(gs, nodes.FirstFit); err == nil {
			t.Errorf("New(%v) = nil error", gs)
		}
	}
}
