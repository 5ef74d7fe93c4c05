package runner

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

const sharedWorkloads = "../../shared/workloads"

// aleaJobs is how many of wagap-2013's jobs TestRunAlea runs.
const aleaJobs = 2000

// TestRunAlea runs a sweep under compat = "alea" end to end: the first
// 2,000 jobs of wagap-2013 on its .machines clusters, under fcfs and easy.
// Each run's jobs table gives every job the wait and the nodes of a
// direct run of sim/alea (alea.Read, alea.New, policies.NewFCFS or
// alea.NewEASY) on the same jobs; the run keys say compat.
func TestRunAlea(t *testing.T) {
	if testing.Short() {
		t.Skip("reads wagap-2013")
	}
	trace, _ := filepath.Abs(filepath.Join(sharedWorkloads, "wagap-2013.swf.gz"))
	machines, _ := filepath.Abs(filepath.Join(sharedWorkloads, "wagap-2013.swf.machines"))
	for _, p := range []string{trace, machines} {
		if _, err := os.Stat(p); err != nil {
			t.Skip(err)
		}
	}
	dir := t.TempDir()
	src := fmt.Sprintf(`experiment "alea" {}
cluster "wagap" {
  machines = %q
  compat   = "alea"
}
workload "w" {
  trace = %q
  jobs  = %d
}
policy "fcfs" {}
policy "easy" {}
sweep {
  workloads = [workload.w]
  policies  = [policy.fcfs, policy.easy]
}
output {
  jobs = true
}
`, machines, trace, aleaJobs)
	e, diags := spec.Parse(filepath.Join(dir, "alea.hcl"), []byte(src), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if !strings.Contains(runCanon(&r), "compat=alea\n") {
			t.Errorf("run %s: its key's text has no compat=alea line", r.Key)
		}
	}
	out := filepath.Join(dir, "out")
	execute(t, e, runs, Options{Out: out, Workers: 1, ToolVersion: "test"})
	files := jobsFiles(t, out)
	if len(files) != 2 {
		t.Fatalf("jobs files %v; want two", files)
	}
	for _, f := range files {
		policy := "fcfs"
		if strings.Contains(f, "policy=easy") {
			policy = "easy"
		}
		t.Run(policy, func(t *testing.T) {
			wait, nodes := directAlea(t, trace, machines, policy)
			tbl := readTable(t, filepath.Join(out, f))
			defer tbl.Release()
			if d := cmp.Diff(wait, columnValues[int64](t, tbl, "wait")); d != "" {
				t.Errorf("waits (-direct +sweep):\n%s", d)
			}
			if d := cmp.Diff(nodes, columnValues[string](t, tbl, "nodes")); d != "" {
				t.Errorf("nodes (-direct +sweep):\n%s", d)
			}
		})
	}
}

// directAlea runs policy ("fcfs" or "easy") on the first aleaJobs jobs of
// the trace under sim/alea directly and returns each job's wait and nodes.
func directAlea(t *testing.T, trace, machines, policy string) ([]int64, []string) {
	t.Helper()
	groups, err := spec.AleaGroups(machines)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := alea.Read(zr, "wagap-2013.swf", alea.ReadOptions{DataSet: "wagap-2013.swf", MaxPE: spec.AleaMaxPE(groups)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := alea.New(groups, alea.Options{Props: tr.Props})
	if err != nil {
		t.Fatal(err)
	}
	var p sim.Policy = policies.NewFCFS()
	if policy == "easy" {
		p = alea.NewEASY()
	}
	res, err := sim.Run(m, p, sim.NewSliceSource(tr.Jobs[:aleaJobs]), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wait []int64
	var nodes []string
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State == sim.Rejected {
			t.Fatalf("job %d rejected; the first %d jobs of wagap-2013 all run", o.ID, aleaJobs)
		}
		s, _, err := results.JobNodes(m.Placement(), o.Seq, nil)
		if err != nil {
			t.Fatal(err)
		}
		wait = append(wait, int64(o.Start-o.Submit))
		nodes = append(nodes, s)
	}
	return wait, nodes
}
