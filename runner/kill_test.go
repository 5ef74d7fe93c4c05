package runner

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

const killChildEnv = "SCHEDSWEEP_KILL_CHILD"

// slowExperiment is a sweep long enough to be killed in the middle: 20
// runs of 20,000 Lublin jobs under EASY and conservative backfilling.
func slowExperiment(t *testing.T, dir string) (*spec.Experiment, []Run) {
	t.Helper()
	m, _ := workloads.LookupModel("lublin")
	wp := m.Params().(*workloads.LublinParams)
	wp.Nodes = 256
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 256}}
	w := &spec.Workload{Name: "lublin", Model: "lublin", Params: wp, Take: 20000, Estimates: "tsafrir", CPUUsage: "none"}
	var ps []*spec.Policy
	for _, name := range []string{"easy", "conservative"} {
		e, _ := policies.Lookup(name)
		ps = append(ps, &spec.Policy{Name: name, Type: name, Params: e.Params()})
	}
	e := &spec.Experiment{Name: "slow", Seed: 5, Hash: "slow", File: "slow.hcl",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{0.8, 0.9, 1, 1.1, 1.2}, Seeds: []uint64{1, 2}},
		Output: spec.Output{Dir: dir, Jobs: true}}
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	return e, runs
}

// TestKillAndResume kills a sweeping process with SIGKILL in the middle of
// the sweep, resumes it, and compares the results with an uninterrupted
// sweep's, file by file.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process; skipped under -short")
	}
	whole, killed := t.TempDir(), t.TempDir()
	e, runs := slowExperiment(t, whole)
	execute(t, e, runs, Options{Workers: 2})

	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+killed)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(killed, stateDir, journalDir)
	deadline := time.Now().Add(60 * time.Second)
	for {
		entries, _ := filepath.Glob(filepath.Join(journal, "*"+journalExt))
		if len(entries) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child finished no run within a minute")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	entries, _ := filepath.Glob(filepath.Join(journal, "*"+journalExt))
	if len(entries) >= len(runs) {
		t.Fatalf("the child finished all %d runs before it was killed; the sweep is too short to test", len(runs))
	}
	t.Logf("killed after %d of %d runs", len(entries), len(runs))

	e2, runs2 := slowExperiment(t, killed)
	sum := execute(t, e2, runs2, Options{Out: killed, Workers: 2, Resume: true})
	if sum.Skipped < 3 || sum.Skipped+sum.Simulated != len(runs) {
		t.Errorf("resume after the kill: %+v", sum)
	}
	a, b := jobsFiles(t, whole), jobsFiles(t, killed)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("jobs files differ after kill and resume:\n%v\n%v", a, b)
	}
	for _, f := range append(a, "users.parquet") {
		x, _ := os.ReadFile(filepath.Join(whole, f))
		y, _ := os.ReadFile(filepath.Join(killed, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs after kill and resume", f)
		}
	}
}

// TestKillChild is the process TestKillAndResume kills.
func TestKillChild(t *testing.T) {
	dir := os.Getenv(killChildEnv)
	if dir == "" {
		t.Skip("only run as the child of TestKillAndResume")
	}
	e, runs := slowExperiment(t, dir)
	execute(t, e, runs, Options{Out: dir, Workers: 1})
}
