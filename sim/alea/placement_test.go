package alea_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// TestPlacement: the machine's placements as results reads them, nodes
// numbered cluster by cluster in the order jobs try them (zegox, then
// zewura): a two-node job on zegox's first two nodes is one run of
// nodes, a job of one node of zewura is node 2, the rejected job none.
func TestPlacement(t *testing.T) {
	swf := `1 0 0 100 24 1 1024 24 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 2:ppn=12:cl_zegox
2 1 0 50 16 1 1024 16 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 1:ppn=16
3 2 0 50 64 1 1024 64 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 1:ppn=64
`
	tr, err := alea.Read(strings.NewReader(swf), "p.swf", alea.ReadOptions{DataSet: "wagap-p.swf"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := alea.New([]alea.Group{
		{Name: "zewura", Nodes: 1, CPUs: 20, Memory: 500 << 30},
		{Name: "zegox", Nodes: 2, CPUs: 12, Memory: 90 << 30},
	}, alea.Options{Props: tr.Props})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(m, policies.NewFCFS(), sim.NewSliceSource(tr.Jobs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Placement()
	if p.Nodes() != 3 {
		t.Errorf("Nodes() = %d; want 3", p.Nodes())
	}
	var names []string
	var groups []int
	for n := range p.Nodes() {
		names = append(names, p.NodeName(n))
		groups = append(groups, p.GroupOf(n))
	}
	if diff := cmp.Diff([]string{"zegox1", "zegox2", "zewura1"}, names); diff != "" {
		t.Errorf("node names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0, 0, 1}, groups); diff != "" {
		t.Errorf("GroupOf (-want +got):\n%s", diff)
	}
	wantGroups := []nodes.Group{{Name: "zegox", Count: 2, Cores: 12, Memory: 90 << 30}, {Name: "zewura", Count: 1, Cores: 20, Memory: 500 << 30}}
	if diff := cmp.Diff(wantGroups, p.Groups()); diff != "" {
		t.Errorf("Groups (-want +got):\n%s", diff)
	}
	want := [][]nodes.Use{{{Node: 0, Nodes: 2, Cores: 12}}, {{Node: 2, Nodes: 1, Cores: 16}}, nil}
	for i := range res.Jobs {
		if diff := cmp.Diff(want[i], p.Where(i)); diff != "" {
			t.Errorf("job %d: Where (-want +got):\n%s", res.Jobs[i].ID, diff)
		}
	}
	if res.Jobs[2].State != sim.Rejected {
		t.Errorf("job 3: %v; want rejected", res.Jobs[2].State)
	}
}
