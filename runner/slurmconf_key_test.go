package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
)

// TestSlurmConfRunKey checks that a run's key holds what a slurm.conf
// resolves to, not its path: the same file under another name keeps the
// key, a changed node changes it.
func TestSlurmConfRunKey(t *testing.T) {
	dir := t.TempDir()
	key := func(name, conf string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		src := `experiment "k" {}
cluster "c" {
  slurm_conf = "` + name + `"
}
workload "w" {
  model = "lublin"
  jobs  = 10
}
policy "fcfs" {}
sweep {
  workloads = [workload.w]
  policies  = [policy.fcfs]
}
`
		e, diags := spec.Parse(filepath.Join(dir, "k.hcl"), []byte(src), nil)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		runs, err := Expand(e)
		if err != nil {
			t.Fatal(err)
		}
		return runs[0].Key
	}
	const conf = "NodeName=n[01-04] CPUs=8\nPartitionName=all Nodes=ALL Default=YES\n"
	a := key("a.conf", conf)
	if b := key("b.conf", conf); b != a {
		t.Errorf("the same slurm.conf under another name: key %s; want %s", b, a)
	}
	if c := key("a.conf", "NodeName=n[01-04] CPUs=16\nPartitionName=all Nodes=ALL Default=YES\n"); c == a {
		t.Errorf("a slurm.conf with other CPUs keeps key %s", a)
	}
	if c := key("a.conf", "NodeName=n[1-4] CPUs=8\nPartitionName=all Nodes=ALL Default=YES\n"); c == a {
		t.Errorf("a slurm.conf whose nodes have other names keeps key %s", a)
	}
}
