package spec

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// TestParseCompatAlea: a cluster of compat = "alea" holds the machines
// file's node groups as Alea's clusters, in file order, and their total
// as its capacity; it has no nodes of sim/nodes; fcfs and easy at their
// defaults, a trace and its cuts pass.
func TestParseCompatAlea(t *testing.T) {
	src := `experiment "a" {}
cluster "c" {
  machines = "tiny.machines"
  compat   = "alea"
}
workload "t" {
  trace = "tiny.swf"
  jobs  = 2
}
policy "fcfs" {}
policy "easy" {}
sweep {
  workloads = [workload.t]
  policies  = [policy.fcfs, policy.easy]
}
`
	e, diags := Parse(filepath.Join("testdata", "compat.hcl"), []byte(src), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := e.Sweep.Cluster
	want := []alea.Group{{Name: "small", Nodes: 4, CPUs: 8, Memory: 16 << 30}, {Name: "big", Nodes: 2, CPUs: 16, Memory: 64 << 30}}
	if diff := cmp.Diff(want, c.Alea); diff != "" {
		t.Errorf("Alea (-want +got):\n%s", diff)
	}
	if c.Compat != CompatAlea || c.Nodes != nil || c.Capacity[sim.Procs] != 64 || c.Capacity[sim.Memory] != 192<<30 {
		t.Errorf("compat %q, nodes %v, capacity %v; want alea, none, 64 processors and 192 GiB", c.Compat, c.Nodes, c.Capacity)
	}
	if got := AleaMaxPE(c.Alea); got != 32 {
		t.Errorf("AleaMaxPE = %d; want 32", got)
	}
}
