package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedsweep/schedsweep/runner/spec"
)

// TestSlurmConfPolicyKey checks that a run's key holds the parameters a
// slurm.conf gives the policy slurm: a changed weight changes it, a
// params value equal to the file's keeps it.
func TestSlurmConfPolicyKey(t *testing.T) {
	dir := t.TempDir()
	key := func(conf, params string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "s.conf"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		src := `experiment "k" {}
cluster "c" {
  procs = 64
}
workload "w" {
  model = "lublin"
  jobs  = 10
}
policy "slurm" {
  slurm_conf = "s.conf"
  params     = {` + params + `}
}
sweep {
  workloads = [workload.w]
  policies  = [policy.slurm]
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
	const conf = "PriorityType=priority/multifactor\nPriorityWeightAge=1000\n"
	a := key(conf, "")
	if b := key("PriorityType=priority/multifactor\nPriorityWeightAge=2000\n", ""); b == a {
		t.Errorf("another PriorityWeightAge keeps key %s", a)
	}
	if b := key(conf, "priority_weight_age = 1000"); b != a {
		t.Errorf("params equal to the file's: key %s; want %s", b, a)
	}
	if b := key(conf, "priority_weight_age = 3000"); b == a {
		t.Errorf("params over the file's keep key %s", a)
	}
}
