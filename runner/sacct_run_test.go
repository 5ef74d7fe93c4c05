package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/runner/spec"
)

// sacctDump is nodesTrace as sacct would have dumped it, in Prague's
// summer time (UTC+2), with a step and a job still running, which the
// reader skips.
const sacctDump = `JobIDRaw|JobID|User|Account|Partition|QOS|Submit|Start|End|TimelimitRaw|State|AllocTRES
1|1|ann|phys|q|normal|2024-06-01T02:00:00|2024-06-01T02:00:00|2024-06-01T02:01:40|2|COMPLETED|billing=3,cpu=3,mem=3G,node=1
1.batch|1.batch||phys|||2024-06-01T02:00:00|2024-06-01T02:00:00|2024-06-01T02:01:40||COMPLETED|cpu=3,mem=3G,node=1
2|2|bob|phys|q|normal|2024-06-01T02:00:00|2024-06-01T02:00:00|2024-06-01T02:03:20|4|COMPLETED|billing=3,cpu=3,mem=3G,node=1
3|3|ann|phys|q|normal|2024-06-01T02:00:01|2024-06-01T02:00:01|2024-06-01T02:00:11|1|FAILED|billing=2,cpu=2,mem=2G,node=1
4|4|ann|phys|q|normal|2024-06-01T02:00:02|2024-06-01T02:00:02|Unknown|1|RUNNING|billing=2,cpu=2,mem=2G,node=1
`

// TestRunSacct runs a sweep on a sacct dump read directly (format =
// "sacct"): in partition q of one node, the jobs run one after another, as
// TestRunOnNodes's SWF jobs do, and the skipped lines are noticed.
func TestRunSacct(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dump.txt"), []byte(sacctDump), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `experiment "sacct" {}
cluster "c" {
  node "a" {
    count  = 1
    cores  = 4
    memory = "8GiB"
  }
  node "b" {
    count  = 1
    cores  = 4
    memory = "8GiB"
  }
  partition "other" { groups = ["a"] }
  partition "q" { groups = ["b"] }
}
workload "t" {
  trace        = "dump.txt"
  format       = "sacct"
  timezone     = "Europe/Prague"
  memory_field = "requested"
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
	path := filepath.Join(dir, "sacct.hcl")
	e, diags := spec.Parse(path, []byte(src), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var notices []string
	execute(t, e, runs, Options{Out: out, Workers: 1, ToolVersion: "test", Notice: func(s string) { notices = append(notices, s) }})
	files := jobsFiles(t, out)
	if len(files) != 1 {
		t.Fatalf("jobs files %v; want one", files)
	}
	tbl := readTable(t, filepath.Join(out, files[0]))
	defer tbl.Release()
	if d := cmp.Diff([]int64{0, 100, 299}, columnValues[int64](t, tbl, "wait")); d != "" {
		t.Errorf("waits (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"q", "q", "q"}, columnValues[string](t, tbl, "partition")); d != "" {
		t.Errorf("partitions (-want +got):\n%s", d)
	}
	want := "workload t: dump.txt: 3 jobs; lines skipped: job step: 1; still running at the dump: 1"
	if !strings.Contains(strings.Join(notices, "\n"), want) {
		t.Errorf("notices %q; want %q", notices, want)
	}
}
