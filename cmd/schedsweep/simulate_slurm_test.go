package main

import (
	"strings"
	"testing"
)

// TestSimulateSlurmConf runs simulate on a slurm.conf's cluster: the
// machine line names the file, the jobs run on its nodes by their names,
// each warning of the file is printed once, and flags that size the
// machine beside it are usage errors.
func TestSimulateSlurmConf(t *testing.T) {
	code, out, errOut := runCLI("simulate", "--slurm-conf", smallSlurmConf, "--policy", "fcfs", "--jobs", "10", optionsTrace)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"machine                procs=14 memory=30064771072 (from " + smallSlurmConf + ")",
		"node groups            n[1-3] 84.14%, m1 5.23% of cores",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// small.conf's one warning: the options the policy fcfs does not read
	// are none, and every option it has is modelled; so no warning at all.
	if strings.Contains(out, "warning:") {
		t.Errorf("warnings for small.conf:\n%s", out)
	}
	code, out, _ = runCLI("simulate", "--slurm-conf", "../../runner/spec/testdata/slurm/cluster.conf", "--policy", "fcfs", "--jobs", "10", optionsTrace)
	if code != exitOK {
		t.Fatalf("cluster.conf: exit %d", code)
	}
	for _, want := range []string{
		"warning: ../../runner/spec/testdata/slurm/cluster.conf: not modelled, so ignored: AuthType, ClusterName,",
		"warning: ../../runner/spec/testdata/slurm/cluster.conf: policy fcfs does not read PriorityCalcPeriod, PriorityDecayHalfLife,",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("output holds %q %d times; want once:\n%s", want, strings.Count(out, want), out)
		}
	}
	for _, args := range [][]string{
		{"--procs", "16"},
		{"--machines", tinyMachines},
		{"--model", "pool"},
	} {
		args = append(append([]string{"simulate", "--slurm-conf", smallSlurmConf}, args...), optionsTrace)
		if code, _, errOut := runCLI(args...); code != exitUsage || !strings.Contains(errOut, "--slurm-conf") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming --slurm-conf", args, code, errOut)
		}
	}
	code, _, errOut = runCLI("simulate", "--slurm-conf", "../../runner/spec/testdata/slurm/bad.conf", optionsTrace)
	if want := `bad.conf:2: MaxTime="2-x": not a Slurm time`; code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("bad.conf: exit %d, stderr %q; want a usage error with %q", code, errOut, want)
	}
}

// TestSimulateSlurmConfPolicy runs the policy slurm with a slurm.conf's
// parameters: its warnings are printed once each, and --policy-param
// overrides the file (a bad override names the parameter).
func TestSimulateSlurmConfPolicy(t *testing.T) {
	const conf = "../../runner/spec/testdata/slurm/cluster.conf"
	code, out, errOut := runCLI("simulate", "--slurm-conf", conf, "--policy", "slurm", "--jobs", "20", optionsTrace)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"warning: " + conf + ": not modelled, so ignored: AuthType,",
		"warning: " + conf + ":27: PriorityFlags SMALL_RELATIVE_TO_TIME: not modelled",
		"warning: " + conf + ":38: partitions have different PriorityTier",
		"policy                 slurm",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("output holds %q %d times; want once:\n%s", want, strings.Count(out, want), out)
		}
	}
	if strings.Contains(out, "does not read") {
		t.Errorf("policy slurm reads the scheduling options, yet:\n%s", out)
	}
	code, _, errOut = runCLI("simulate", "--slurm-conf", conf, "--policy", "slurm", "--policy-param", "bf_resolution=0", optionsTrace)
	if code != exitUsage || !strings.Contains(errOut, "bf_resolution") {
		t.Errorf("--policy-param bf_resolution=0 over the file: exit %d, stderr %q; want a usage error naming bf_resolution", code, errOut)
	}
}
