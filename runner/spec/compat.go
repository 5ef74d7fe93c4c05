package spec

// This file decodes a cluster block's compat argument, the compatibility
// profile compat = "alea" (sim/alea), and checks that a sweep on such a
// cluster asks only what Alea's runs can be compared with.

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/workloads"
)

// CompatAlea is the compat value of a cluster under Alea's node-level
// rules (sim/alea).
const CompatAlea = "alea"

// AleaPolicies are the policy types a cluster of compat "alea" runs, each
// as Alea's own algorithm of that name: fcfs as Alea's FCFS
// (policies.NewFCFS on the machine), easy as Alea's EASY (alea.NewEASY).
var AleaPolicies = []string{"fcfs", "easy"}

// compat decodes cluster block b's compat argument into c, after its
// size: compat = "alea" needs a machines file and nothing that shapes the
// cluster otherwise (procs, memory, gpus, model, fit, node or partition
// blocks), and reads the file's node groups as Alea's clusters.
func (d *decoder) compat(c *Cluster, attrs map[string]*hclsyntax.Attribute, blocks []*hclsyntax.Block) {
	a := attrs["compat"]
	if _, st := d.choice(a, CompatAlea); st != set {
		return
	}
	for _, name := range []string{"procs", "memory", "gpus", "model", "fit"} {
		if x := attrs[name]; x != nil {
			d.errorf(x.NameRange, "Conflicting cluster option",
				"Cluster %q has compat = \"alea\": Alea's clusters are those of its machines file, so leave out %s.", c.Name, name)
		}
	}
	for _, b := range blocks {
		d.errorf(b.DefRange(), "Conflicting cluster option",
			"Cluster %q has compat = \"alea\": Alea's clusters are those of its machines file, so leave out its %s blocks.", c.Name, b.Type)
	}
	if attrs["machines"] == nil {
		d.errorf(a.Expr.Range(), "Missing machines file",
			"Cluster %q has compat = \"alea\", which needs machines = \"FILE\": the data set's Alea .machines file.", c.Name)
		return
	}
	if c.Machines == "" {
		return // the machines file's error is reported
	}
	groups, err := AleaGroups(c.Machines)
	if err != nil {
		d.errorf(attrs["machines"].Expr.Range(), "Invalid machines file for compat \"alea\"", "%s.", err)
		return
	}
	c.Compat, c.Alea = CompatAlea, groups
}

// AleaGroups reads the Alea .machines file at path as Alea's clusters:
// a cluster block's machines under compat = "alea", and simulate's
// --machines under --compat alea. A group whose speed is not 1 is an
// error: the profile reproduces Alea's runs at speed 1 only.
func AleaGroups(path string) ([]alea.Group, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gs, err := workloads.ReadMachines(f, path)
	if err != nil {
		return nil, err
	}
	out := make([]alea.Group, len(gs))
	for i, g := range gs {
		if g.Speed != 1 {
			return nil, fmt.Errorf("%s: node group %q: speed %g: compat alea runs clusters of speed 1 only", path, g.Name, g.Speed)
		}
		out[i] = alea.Group{Name: g.Name, Nodes: int(g.Nodes), CPUs: g.CPUsPerNode, Memory: g.MemPerNode}
	}
	if _, err := alea.New(out, alea.Options{}); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// AleaMaxPE returns the processors of the largest of groups, which Alea
// cuts a job's processor count to (alea.ReadOptions.MaxPE).
func AleaMaxPE(groups []alea.Group) int64 {
	var n int64
	for _, g := range groups {
		n = max(n, int64(g.Nodes)*g.CPUs)
	}
	return n
}

// CheckAleaWorkload returns an error if workload w cannot run under
// compat = "alea": it must be a trace, read by Alea's own reader
// (alea.Read), so none of the SWF options apply; its estimates are the
// data set's limits, and Alea always cuts a job at its limit. Cuts
// (window, users, jobs) apply to the jobs as Alea reads them.
func CheckAleaWorkload(w *Workload) error {
	switch {
	case w.Trace == "":
		return fmt.Errorf("workload %q is not a trace: compat alea reads a data set as Alea does", w.Name)
	case w.Format != "":
		return fmt.Errorf("workload %q is a %s dump: compat alea reads an SWF data set as Alea does", w.Name, w.Format)
	case w.SWF != (workloads.SWFOptions{}):
		return fmt.Errorf("workload %q sets how SWF fields are read (procs_field, memory_field, memory_unit, negative_as_missing, shape or alea_fields): compat alea reads every field as Alea does", w.Name)
	case w.Estimates != "" && w.Estimates != "keep":
		return fmt.Errorf("workload %q: estimates %q: compat alea keeps the data set's limits, as Alea's exact mode does", w.Name, w.Estimates)
	case w.CPUUsage != "" && w.CPUUsage != "none":
		return fmt.Errorf("workload %q: cpu_usage %q is for the two-tier machine, not compat alea", w.Name, w.CPUUsage)
	case w.AllowOverrun:
		return fmt.Errorf("workload %q: allow_overrun: Alea always cuts a job at its limit", w.Name)
	case w.MissingEstimate != sim.EstimateFromRuntime:
		return fmt.Errorf("workload %q: missing_estimate: Alea gives a job without a limit its run time", w.Name)
	}
	return nil
}

// CheckAleaPolicy returns an error if a policy of type typ and parameters
// p cannot run under compat = "alea": only fcfs and easy do
// (AleaPolicies), with their default parameters, since Alea's algorithms
// take none.
func CheckAleaPolicy(typ string, p any) error {
	if indexOf(AleaPolicies, typ) < 0 {
		return fmt.Errorf("policy %q is not one of Alea's: compat alea runs %s", typ, quoteList(AleaPolicies))
	}
	if p == nil {
		return nil
	}
	e, err := policies.Lookup(typ)
	if err != nil {
		return err
	}
	if e.Params != nil && params.String(p) != params.String(e.Params()) {
		return fmt.Errorf("policy %q sets parameters (%s): compat alea runs Alea's %s, which takes none", typ, params.String(p), typ)
	}
	return nil
}

// compatSweep reports, under compat = "alea", every workload, policy,
// load and vary axis of sweep s that Alea's runs cannot be compared with.
// A load factor other than 1 and target offered loads are refused: they
// rescale the data set's arrivals, and the profile exists to set a run
// beside Alea's own on the data set as it is (Alea has no such scaling).
func (d *decoder) compatSweep(s *Sweep, attrs map[string]*hclsyntax.Attribute) {
	if s.Cluster == nil || s.Cluster.Compat != CompatAlea {
		return
	}
	cl := s.Cluster.Name
	if a := attrs["workloads"]; a != nil {
		for _, w := range s.Workloads {
			if err := CheckAleaWorkload(w); err != nil {
				d.errorf(w.Range, "Workload cannot run under compat \"alea\"", "%s (cluster %q).", upperFirst(err.Error()), cl)
			}
		}
	}
	if a := attrs["policies"]; a != nil {
		for _, p := range s.Policies {
			if err := CheckAleaPolicy(p.Type, p.Params); err != nil {
				d.errorf(a.Expr.Range(), "Policy cannot run under compat \"alea\"", "%s (policy block %q, cluster %q).", upperFirst(err.Error()), p.Name, cl)
			}
		}
	}
	if a := attrs["offered_loads"]; a != nil {
		d.errorf(a.NameRange, "Load axis under compat \"alea\"",
			"Cluster %q has compat = \"alea\", which runs the data set's arrivals as they are, as Alea does: leave out offered_loads.", cl)
	}
	for _, f := range s.LoadFactors {
		if f != 1 {
			d.errorf(attrs["load_factors"].Expr.Range(), "Load axis under compat \"alea\"",
				"Cluster %q has compat = \"alea\", which runs the data set's arrivals as they are, as Alea does: load factor %s would rescale them; keep 1.", cl, formatFloat(f))
			break
		}
	}
	for _, ax := range s.Vary {
		d.errorf(ax.Range, "Vary axis under compat \"alea\"",
			"Cluster %q has compat = \"alea\": %s would vary what Alea's runs fix (the data set as Alea reads it, its algorithms' parameters).", cl, ax.Target)
	}
}
