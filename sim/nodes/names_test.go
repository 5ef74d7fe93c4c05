package nodes_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim/nodes"
)

func TestGroupsAndGroupOf(t *testing.T) {
	groups := []nodes.Group{{Name: "a", Count: 2, Cores: 8}, {Name: "b", Count: 1, Cores: 4, GPUs: 2}}
	c, err := nodes.New(groups, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(groups, c.Groups()); d != "" {
		t.Errorf("Groups (-want +got):\n%s", d)
	}
	c.Groups()[0].Name = "changed"
	if got := c.Groups()[0].Name; got != "a" {
		t.Errorf("Groups()[0].Name after changing a copy = %q; want a", got)
	}
	var got []int
	for n := range c.Nodes() {
		got = append(got, c.GroupOf(n))
	}
	if want := []int{0, 0, 1}; !cmp.Equal(got, want) {
		t.Errorf("GroupOf over the nodes = %v; want %v", got, want)
	}
}

func TestNodeNameHosts(t *testing.T) {
	groups := []nodes.Group{
		{Name: "node[001-002]", Count: 2, Cores: 8, Hosts: []string{"node001", "node002"}},
		{Name: "b", Count: 2, Cores: 4},
	}
	c, err := nodes.New(groups, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for n := range c.Nodes() {
		got = append(got, c.NodeName(n))
	}
	if want := []string{"node001", "node002", "b1", "b2"}; !cmp.Equal(got, want) {
		t.Errorf("NodeName over the nodes = %q; want %q", got, want)
	}
	groups[1].Hosts = []string{"only-one"}
	if _, err := nodes.New(groups, nodes.FirstFit); err == nil {
		t.Errorf("New with 1 host name for 2 nodes: no error")
	}
}
