package main

// This file reads simulate's --slurm-conf: a slurm.conf that gives the
// machine (its nodes and partitions) and, for --policy slurm, the policy's
// parameters, which --policy-param values override.

import (
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// readSlurmConf reads --slurm-conf; nil without the flag. The file gives
// the machine whole, so the flags that size it are errors beside it; the
// machine is a cluster of nodes placed by --fit.
func (c *simulateConfig) readSlurmConf() (*spec.SlurmConf, error) {
	if c.slurmConf == "" {
		return nil, nil
	}
	switch {
	case c.procs != 0 || c.machines != "" || c.memory != "" || c.gpus != 0 || c.compat != "":
		return nil, usagef("--slurm-conf gives the machine: leave out --procs, --machines, --memory, --gpus and --compat")
	case c.model != "nodes" && c.explicit["model"]:
		return nil, usagef("--slurm-conf gives a cluster of nodes, not --model %s", c.model)
	case c.fit != "first" && c.fit != "best":
		return nil, usagef("--fit: %q is not first or best", c.fit)
	}
	fit := nodes.FirstFit
	if c.fit == "best" {
		fit = nodes.BestFit
	}
	name := c.policy
	if e, err := policies.Lookup(c.policy); err == nil {
		name = e.Name
	}
	sc, err := spec.ReadSlurmConf(c.slurmConf, fit, name)
	if err != nil {
		return nil, usageError{err}
	}
	return sc, nil
}
