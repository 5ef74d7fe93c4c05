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
