package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/runner/spec"
)

// nodesTrace has two jobs of 3 cores that fill 3 of the 4 cores of two
// nodes, then a job of 2 cores on one node: 2 cores are free in aggregate
// from time 1, but on no one node until job 1 ends at 100.
const nodesTrace = `1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 1 1 1 -1 -1 -1 q 1:ppn=3
2 0 -1 200 3 -1 -1 3 200 -1 1 1 1 1 1 1 -1 -1 -1 q 1:ppn=3
3 1 -1 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1 -1 q 1:ppn=2
`

// nodesExperiment is an experiment file of FCFS on cluster on the trace
// nodesTrace, results in its folder's out.
func nodesExperiment(cluster string) string {
	return `experiment "nodes" {}
` + cluster + `
workload "t" {
  trace       = "t.swf"
  alea_fields = true
}
policy "fcfs" {}
sweep {
  workloads = [workload.t]
  policies  = [policy.fcfs]
}
output {
  jobs = true
}
`
}

// TestRunOnNodes runs a sweep on a cluster of nodes end to end: its jobs
// table shows job 3, which fits in aggregate at time 1, waiting for a node
// until 100; on the pool of the same 8 cores it starts at once; in a
// partition of one node the jobs run one after another.
func TestRunOnNodes(t *testing.T) {
	for _, tc := range []struct {
		name, cluster string
		wait          []int64
		parts         []string // the partition column; nil: none (a sweep on the pool)
	}{
		{"nodes", "cluster \"c\" {\n  node \"n\" {\n    count = 2\n    cores = 4\n  }\n}\n", []int64{0, 0, 99}, []string{"", "", ""}},
		{"pool", "cluster \"c\" {\n  procs = 8\n}\n", []int64{0, 0, 0}, nil},
		// Field 20's queue q is the partition of node b only: job 2 waits
		// for job 1, job 3 for job 2's end at 300.
		{"partition", `cluster "c" {
  node "a" {
    count = 1
    cores = 4
  }
  node "b" {
    count = 1
    cores = 4
  }
  partition "other" { groups = ["a"] }
  partition "q" { groups = ["b"] }
}
`, []int64{0, 100, 299}, []string{"q", "q", "q"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.swf"), []byte(nodesTrace), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "nodes.hcl")
			e, diags := spec.Parse(path, []byte(nodesExperiment(tc.cluster)), nil)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			runs, err := Expand(e)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			execute(t, e, runs, Options{Out: out, Workers: 1, ToolVersion: "test"})
			files := jobsFiles(t, out)
			if len(files) != 1 {
				t.Fatalf("jobs files %v; want one", files)
			}
			tbl := readTable(t, filepath.Join(out, files[0]))
			defer tbl.Release()
			if d := cmp.Diff(tc.wait, columnValues[int64](t, tbl, "wait")); d != "" {
				t.Errorf("waits (-want +got):\n%s", d)
			}
			if tc.parts != nil {
				if d := cmp.Diff(tc.parts, columnValues[string](t, tbl, "partition")); d != "" {
					t.Errorf("partitions (-want +got):\n%s", d)
				}
			} else if len(tbl.Schema().FieldIndices("partition")) != 0 {
				t.Errorf("a sweep on the pool has a partition column")
			}
			if !strings.Contains(files[0], "policy=fcfs") {
				t.Errorf("jobs file %s", files[0])
			}
		})
	}
}
