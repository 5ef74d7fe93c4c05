package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// TestParseNodes reads clusters of nodes: node blocks with partitions and
// fit, a machines file as nodes or as the pool it was, and node blocks as
// a pool.
func TestParseNodes(t *testing.T) {
	tiny := []nodes.Group{{Name: "small", Count: 4, Cores: 8, Memory: 16 << 30}, {Name: "big", Count: 2, Cores: 16, Memory: 64 << 30}}
	tests := []struct {
		name     string
		cluster  string
		nodes    *nodes.Config
		capacity sim.Resources
	}{{
		name: "node blocks",
		cluster: `cluster "c" {
  fit = "best"
  node "cpu" {
    count    = 10
    cores    = 64
    memory   = "256GiB"
    features = ["ib", "avx512"]
  }
  node "gpu" {
    count = 2
    cores = 32
    gpus  = 4
  }
  partition "batch" {
    groups    = ["cpu"]
    max_time  = 86400
    max_nodes = 4
  }
  partition "gpu" {
    features = ["never"]
    groups   = ["gpu"]
  }
}`,
		nodes: &nodes.Config{Fit: nodes.BestFit,
			Groups: []nodes.Group{{Name: "cpu", Count: 10, Cores: 64, Memory: 256 << 30, Features: []string{"ib", "avx512"}},
				{Name: "gpu", Count: 2, Cores: 32, GPUs: 4}},
			Partitions: []nodes.Partition{{Name: "batch", Groups: []string{"cpu"}, MaxTime: 86400, MaxNodes: 4},
				{Name: "gpu", Groups: []string{"gpu"}, Features: []string{"never"}}}},
		capacity: sim.Resources{sim.Procs: 704, sim.Memory: 2560 << 30, sim.GPUs: 8},
	}, {
		name:     "machines file as nodes",
		cluster:  "cluster \"c\" {\n  machines = \"tiny.machines\"\n  model    = \"nodes\"\n}",
		nodes:    &nodes.Config{Groups: tiny},
		capacity: sim.Resources{sim.Procs: 64, sim.Memory: 192 << 30},
	}, {
		name:     "machines file as the pool",
		cluster:  "cluster \"c\" {\n  machines = \"tiny.machines\"\n}",
		capacity: sim.Resources{sim.Procs: 64, sim.Memory: 192 << 30},
	}, {
		name:     "node blocks as a pool",
		cluster:  "cluster \"c\" {\n  model = \"pool\"\n  node \"n\" {\n    count = 3\n    cores = 4\n  }\n}",
		capacity: sim.Resources{sim.Procs: 12},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, diags := Parse(testFile, []byte(file(expBlock, tc.cluster, lublinBlock, fcfsBlock, sweepBlock)), nil)
			if diags.HasErrors() {
				t.Fatalf("Parse diagnostics:\n%s", render(diags))
			}
			c := e.Sweep.Cluster
			if d := cmp.Diff(tc.nodes, c.Nodes); d != "" {
				t.Errorf("nodes (-want +got):\n%s", d)
			}
			if c.Capacity != tc.capacity {
				t.Errorf("capacity %v; want %v", c.Capacity, tc.capacity)
			}
		})
	}
}

// TestParseShape reads a trace workload's shape and alea_fields.
func TestParseShape(t *testing.T) {
	for _, tc := range []struct {
		args string
		want workloads.SWFOptions
	}{
		{"", workloads.SWFOptions{}},
		{`shape = "whole-nodes"`, workloads.SWFOptions{Shape: workloads.ShapeMode{Kind: workloads.ShapeWholeNodes}}},
		{"shape = \"per-node:16\"\n  alea_fields = true", workloads.SWFOptions{Shape: workloads.ShapeMode{Kind: workloads.ShapePerNode, K: 16}, AleaFields: true}},
	} {
		w := "workload \"w\" {\n  trace = \"tiny.swf\"\n  " + tc.args + "\n}"
		e, diags := Parse(testFile, []byte(file(expBlock, clusterBlock, w, fcfsBlock, sweepBlock)), nil)
		if diags.HasErrors() {
			t.Fatalf("%s: Parse diagnostics:\n%s", tc.args, render(diags))
		}
		if got := e.Workloads[0].SWF; got != tc.want {
			t.Errorf("%s: got %+v; want %+v", tc.args, got, tc.want)
		}
	}
}

// TestNodeAware checks the probe against what the policies are: every
// policy of the pool's model runs on nodes (the List policies ask
// View.Trial, EASY and its kin its look-ahead, conservative and Maui the
// node profile), and the two-tier policies run on their own model.
func TestNodeAware(t *testing.T) {
	for _, e := range policies.Entries() {
		err := NodeAware(e.Name, nil)
		if want := e.Model == policies.PoolModel; (err == nil) != want {
			t.Errorf("NodeAware(%s) = %v; want ok %t", e.Name, err, want)
		}
	}
}
