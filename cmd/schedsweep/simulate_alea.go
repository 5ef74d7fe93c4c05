package main

// This file is simulate's --compat alea: the one-run experiment on a
// cluster of compat = "alea" (sim/alea), and what the summary adds.

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedsweep/schedsweep/runner"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// compatCluster makes cl a cluster of compat = "alea" when --compat says
// so: Alea's clusters from --machines, which alone gives the machine.
func (c *simulateConfig) compatCluster(cl *spec.Cluster) error {
	switch {
	case c.compat == "":
		return nil
	case c.compat != spec.CompatAlea:
		return usagef("--compat: %q is not alea", c.compat)
	case c.machines == "":
		return usagef("--compat alea needs --machines, the data set's Alea .machines file")
	case c.procs > 0 || c.memory != "" || c.gpus > 0:
		return usagef("--compat alea takes the machine from --machines: leave out --procs, --memory and --gpus")
	case c.model != "pool" || c.fit != "first":
		return usagef("--compat alea runs Alea's own machine: leave out --model and --fit")
	}
	groups, err := spec.AleaGroups(c.machines)
	if err != nil {
		return err
	}
	cl.Compat, cl.Alea = spec.CompatAlea, groups
	return nil
}

// checkCompat refuses, under --compat alea, the flags that ask what
// Alea's runs fix: how SWF fields are read (alea.Read reads every field as
// Alea does), estimates, CPU usage, overruns and the load. The cuts
// (--window, --users, --jobs) apply to the jobs as Alea reads them.
func (c *simulateConfig) checkCompat() error {
	if c.compat != spec.CompatAlea {
		return nil
	}
	set := []struct {
		flag string
		on   bool
	}{
		{"--procs-field", c.procsField != "requested"},
		{"--memory-field", c.memoryField != "none"},
		{"--memory-unit", c.memoryUnit != "kb-per-proc"},
		{"--shape", c.shape != "tasks"},
		{"--alea-fields", c.aleaFields},
		{"--negative-as-missing", c.negativeMissing},
		{"--estimates", c.estimates != "keep"},
		{"--cpu-usage", c.cpuUsage != "none"},
		{"--allow-overrun", c.allowOverrun},
		{"--missing-estimate", c.missingEstimate != "runtime"},
		{"--load-factor", c.loadFactor != 1},
		{"--offered-load", c.offeredLoad != 0},
	}
	var bad []string
	for _, s := range set {
		if s.on {
			bad = append(bad, s.flag)
		}
	}
	if len(bad) > 0 {
		return usagef("--compat alea reads the data set, its limits and its arrivals as Alea does: leave out %s", strings.Join(bad, ", "))
	}
	if err := spec.CheckAleaPolicy(c.policy, nil); err != nil {
		return usagef("--policy: %v", err)
	}
	if len(c.policyParams) > 0 {
		return usagef("--policy-param: compat alea runs Alea's %s, which takes no parameters", c.policy)
	}
	return nil
}

// printAlea adds to simulate's summary, under --compat alea, what Alea's
// reader did to the data set (tr) and the jobs the machine m refused, with
// why.
func printAlea(w io.Writer, tr *alea.Trace, m *alea.Machine) {
	const show = 5
	if tr != nil {
		fmt.Fprintf(w, "alea: the data set as Alea reads it: %d lines dropped", len(tr.Dropped))
		if len(tr.Dropped) > 0 {
			lines := make([]string, 0, show)
			for i, n := range tr.Dropped {
				if i == show {
					lines = append(lines, "…")
					break
				}
				lines = append(lines, fmt.Sprint(n))
			}
			fmt.Fprintf(w, " (lines %s)", strings.Join(lines, ", "))
		}
		fmt.Fprintln(w)
		for _, n := range []struct {
			count int
			what  string
		}{
			{tr.Raised, "processor counts raised to their ppn"},
			{tr.Capped, "processor counts cut to the largest cluster"},
			{tr.BadProcs, "processor counts not a number, read as 1"},
			{tr.ShortTimes, "run times or limits below 1 s, raised to 1 s"},
			{tr.NoMemory, "memory requests of -1, read as 1 KB"},
		} {
			if n.count > 0 {
				fmt.Fprintf(w, "  %d %s\n", n.count, n.what)
			}
		}
	}
	if m == nil {
		return
	}
	rej := m.Rejections()
	jobs := "jobs"
	if len(rej) == 1 {
		jobs = "job"
	}
	fmt.Fprintf(w, "alea: %d %s rejected at arrival\n", len(rej), jobs)
	for i, r := range rej {
		if i == show {
			fmt.Fprintf(w, "  ... and %d more\n", len(rej)-show)
			break
		}
		fmt.Fprintf(w, "  job %d: %s\n", r.ID, r.Why)
	}
}

// aleaOf returns the trace and machine of a run under compat alea, nils
// for any other run.
func aleaOf(out *runner.Single) (*alea.Trace, *alea.Machine) {
	m, _ := out.Model.(*alea.Machine)
	return out.Alea, m
}
