package main

import (
	"fmt"
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

// TestRunWarnsOfExtraFields checks that a sweep over a trace whose lines
// have more than SWF's 18 fields (Alea's data sets have 21) says so once,
// naming the workload and the line, and runs.
func TestRunWarnsOfExtraFields(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "alea.swf")
	lines := "; MaxProcs: 4\n"
	for i := 1; i <= 3; i++ {
		lines += fmt.Sprintf("%d %d -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 1:ppn=1 q1 x\n", i, 5*i)
	}
	file := filepath.Join(dir, "alea.hcl")
	src := `experiment "alea" { seed = 1 }
cluster "c" { procs = 4 }
workload "a" { trace = "` + filepath.ToSlash(trace) + `" }
policy "fcfs" {}
policy "easy" {}
sweep {
  cluster   = cluster.c
  workloads = [workload.a]
  policies  = [policy.fcfs, policy.easy]
}
`
	for path, data := range map[string]string{trace: lines, file: src} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errOut := runCLI("run", "--quiet", "--out", filepath.Join(dir, "out"), file)
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	if n := strings.Count(errOut, "warning"); n != 1 || !strings.Contains(errOut, "workload a: warning: alea.swf:2: has 21 fields") {
		t.Errorf("stderr %q; want one warning naming workload a and alea.swf:2", errOut)
	}
}
