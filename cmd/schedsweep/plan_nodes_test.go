package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
)

var updatePlan = flag.Bool("update-plan", false, "rewrite testdata/plan/slurm.golden")

// TestPlanNodes checks what plan shows of a cluster of nodes against
// testdata/plan/nodes.golden (worked out by hand: 10 × 64 + 2 × 32 = 704
// cores, 10 × 256 GiB + 2 × 1.5 TiB = 5.5 TiB, 2 × 4 GPUs; batch holds the
// cpu group, all every group), and that plan prints it before the runs.
func TestPlanNodes(t *testing.T) {
	path := filepath.Join("testdata", "plan", "nodes.hcl")
	e, got := planCluster(t, path)
	b := bytes.NewBufferString(got)
	want, err := os.ReadFile(filepath.Join("testdata", "plan", "nodes.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("cluster of nodes: got\n%s\nwant\n%s", b.String(), want)
	}
	code, out, errOut := runCLI("plan", "--out", t.TempDir(), path)
	if code != exitOK || !strings.Contains(out, string(want)) {
		t.Errorf("plan %s: exit %d, stderr %q; output does not hold the cluster:\n%s", path, code, errOut, out)
	}
	b.Reset()
	e.Sweep.Cluster.Nodes = nil
	if err := printNodes(b, e.Sweep.Cluster); err != nil || b.Len() != 0 {
		t.Errorf("a pool: printNodes wrote %q, %v; want nothing", b.String(), err)
	}
}

// TestPlanSlurmConf checks what plan shows of a cluster read from a
// slurm.conf (testdata/plan/slurm.golden: the groups of cluster.conf split
// by partition, the default partition first) and that it prints the
// file's warning once, as a diagnostic.
func TestPlanSlurmConf(t *testing.T) {
	path := filepath.Join("testdata", "plan", "slurm.hcl")
	code, out, errOut := runCLI("plan", "--out", t.TempDir(), path)
	if code != exitOK {
		t.Fatalf("plan %s: exit %d, stderr %q", path, code, errOut)
	}
	golden := filepath.Join("testdata", "plan", "slurm.golden")
	start := strings.Index(out, "cluster \"c\"")
	end := strings.Index(out, "key ")
	if start < 0 || end < start {
		t.Fatalf("plan output holds no cluster:\n%s", out)
	}
	if *updatePlan {
		if err := os.WriteFile(golden, []byte(out[start:end]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out[start:end] != string(want) {
		t.Errorf("cluster of slurm.conf: got\n%s\nwant\n%s", out[start:end], want)
	}
	// The list of options not modelled, and the options no policy of the
	// sweep reads (fcfs does not read PriorityWeightAge and the like).
	if n := strings.Count(errOut, "warning: slurm.conf not modelled as written"); n != 2 ||
		!strings.Contains(errOut, "not modelled, so ignored") || !strings.Contains(errOut, "no policy of the sweep reads") {
		t.Errorf("plan printed %d slurm.conf warnings; want 2, the list of options not modelled and those no policy reads:\n%s", n, errOut)
	}
}

// TestPlanAlea checks what plan shows of a cluster under Alea's rules,
// experiments/toth2014-alea.hcl on wagap-2013's machines file, worked out
// by hand: 20 zewura nodes of 80 CPUs and 529,426,432 KB (504.9 GiB) and
// 48 zegox nodes of 12 CPUs and 94,035,968 KB (89.7 GiB): 2,176 cores,
// 9.9 and 4.2 TiB, 14.1 TiB in all.
func TestPlanAlea(t *testing.T) {
	machines := filepath.Join("..", "..", "..", "shared", "workloads", "wagap-2013.swf.machines")
	if _, err := os.Stat(machines); err != nil {
		t.Skipf("%s is absent: the shared workloads are not beside the checkout", machines)
	}
	_, got := planCluster(t, filepath.Join("..", "..", "experiments", "toth2014-alea.hcl"))
	want := `cluster "wagap-alea": 68 nodes, 2176 cores, 14.1 TiB of memory; Alea's node-level rules (compat = "alea")
alea cluster  nodes  cores  memory   per node
zewura        20     1600   9.9 TiB  80 cores, 504.9 GiB
zegox         48     576    4.2 TiB  12 cores, 89.7 GiB

`
	if got != want {
		t.Errorf("cluster under Alea's rules: got\n%s\nwant\n%s", got, want)
	}
}

// planCluster parses the experiment file at path and returns it with what
// plan shows of its cluster (printNodes).
func planCluster(t *testing.T, path string) (*spec.Experiment, string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e, diags := spec.Parse(path, src, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var b bytes.Buffer
	if err := printNodes(&b, e.Sweep.Cluster); err != nil {
		t.Fatal(err)
	}
	return e, b.String()
}
