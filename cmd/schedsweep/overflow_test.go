package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
)

// overflowTrace is issue 20's reproducer: a run time (and requested time)
// of 9223372036854775000 s on line 7, which once made start + run time
// wrap around and every policy report negative ends with exit 0.
const overflowTrace = "../../workloads/testdata/swf/bad/run_time_overflow.swf"

// TestOverflowReproducer checks that simulate refuses the reproducer under
// every registered policy, naming the file and line, and that a sweep of
// it does too.
func TestOverflowReproducer(t *testing.T) {
	for _, e := range policies.Entries() {
		t.Run(e.Name, func(t *testing.T) {
			code, out, errOut := runCLI("simulate", "--policy", e.Name, overflowTrace)
			if code != exitFailure || !strings.Contains(errOut, "run_time_overflow.swf:7: field 4 (run time)") {
				t.Errorf("simulate --policy %s: exit %d, stderr %q, stdout %q; want exit %d naming run_time_overflow.swf:7",
					e.Name, code, errOut, out, exitFailure)
			}
		})
	}
	abs, err := filepath.Abs(overflowTrace)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "overflow.hcl")
	src := `experiment "overflow" { seed = 1 }
cluster "c" { procs = 8 }
workload "big" { trace = "` + filepath.ToSlash(abs) + `" }
policy "easy" {}
sweep {
  cluster   = cluster.c
  workloads = [workload.big]
  policies  = [policy.easy]
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("run", "--quiet", "--out", filepath.Join(dir, "out"), file)
	if code != exitFailure || !strings.Contains(errOut, "run_time_overflow.swf:7: field 4 (run time)") {
		t.Errorf("run: exit %d, stderr %q; want exit %d naming run_time_overflow.swf:7", code, errOut, exitFailure)
	}
}
