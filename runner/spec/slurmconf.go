package spec

// This file reads the slurm.conf a cluster block or a policy "slurm" names
// with slurm_conf (internal/slurmconf): the cluster's nodes and
// partitions, the policy's parameters, and the warnings of both, each
// reported once per file.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/schedsweep/schedsweep/experiments"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/internal/slurmconf"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// EmbeddedPrefix begins the file name of an experiment embedded in the
// binary ("embedded:quickstart.hcl"); the files it names by a relative
// path are read from package experiments' Files.
const EmbeddedPrefix = "embedded:"

// SlurmPolicy is the policy whose parameters a slurm_conf argument sets.
const SlurmPolicy = "slurm"

// slurmFile is a slurm.conf read once per experiment file, and which of
// its warnings have been reported.
type slurmFile struct {
	cfg *slurmconf.Config
	err error
	// warned marks the warnings reported: "file" (Unmodelled), "cluster"
	// and "policy".
	warned map[string]bool
	// policies are the policy blocks whose slurm_conf names the file.
	policies []*Policy
	// at is where a cluster's slurm_conf names the file.
	at hcl.Range
}

// slurmConf reads the slurm_conf argument a of a block: the file's path,
// resolved against the experiment file's folder, and its content; false
// if a has no usable value or the file cannot be read (reported).
func (d *decoder) slurmConf(a *hclsyntax.Attribute) (string, *slurmFile, bool) {
	p, st := d.str(a)
	if st != set {
		return "", nil, false
	}
	path := d.path(p, a.Expr)
	if d.slurm == nil {
		d.slurm = map[string]*slurmFile{}
	}
	f := d.slurm[path]
	if f == nil {
		cfg, err := d.readSlurmConf(path)
		f = &slurmFile{cfg: cfg, err: err, warned: map[string]bool{}}
		d.slurm[path] = f
	}
	if f.err != nil {
		d.errorf(a.Expr.Range(), "Invalid slurm.conf", "%s.", f.err)
		return path, nil, false
	}
	return path, f, true
}

// readSlurmConf reads the slurm.conf at path: from the binary's
// experiments folder when the experiment is one embedded in it and path is
// relative, else from disk.
func (d *decoder) readSlurmConf(path string) (*slurmconf.Config, error) {
	if strings.HasPrefix(d.file, EmbeddedPrefix) && !filepath.IsAbs(path) {
		return slurmconf.ReadFS(experiments.Files, path)
	}
	return slurmconf.Read(path)
}

// slurmWarnings reports, at rng, the warnings of part ("cluster" or
// "policy") of f and the file's own, each once per experiment.
func (d *decoder) slurmWarnings(f *slurmFile, rng hcl.Range, part string, warns []slurmconf.Warning) {
	if !f.warned["file"] {
		f.warned["file"] = true
		warns = append(warns, f.cfg.Unmodelled()...)
	}
	if f.warned[part] {
		return
	}
	f.warned[part] = true
	for _, w := range warns {
		d.warnf(rng, "slurm.conf not modelled as written", "%s.", w)
	}
}

// slurmCluster makes c the cluster of nodes that the slurm.conf of its
// slurm_conf argument describes. The file gives the nodes and partitions
// whole: procs, machines, memory, gpus, model = "pool", compat and node
// or partition blocks beside it are errors; fit may be given.
func (d *decoder) slurmCluster(c *Cluster, attrs map[string]*hclsyntax.Attribute, blocks []*hclsyntax.Block) {
	a := attrs["slurm_conf"]
	for _, name := range []string{"procs", "machines", "memory", "gpus", "compat"} {
		if o := attrs[name]; o != nil {
			d.errorf(o.NameRange, "Conflicting cluster size",
				"Cluster %q takes its nodes and partitions from slurm_conf: leave out %s.", c.Name, name)
		}
	}
	for _, b := range blocks {
		d.errorf(b.DefRange(), "Conflicting cluster size",
			"Cluster %q takes its nodes and partitions from slurm_conf, whole: leave out its %s blocks (edit the file, or describe the cluster in node and partition blocks instead).", c.Name, b.Type)
	}
	if i, st := d.choice(attrs["model"], modelPool, modelNodes); st == set && i == 0 {
		d.errorf(attrs["model"].Expr.Range(), "Conflicting cluster size",
			"Cluster %q takes its nodes from slurm_conf: it is a cluster of nodes, not a pool.", c.Name)
	}
	path, f, ok := d.slurmConf(a)
	if !ok {
		return
	}
	cfg, warns, err := f.cfg.Cluster()
	if err != nil {
		d.errorf(a.Expr.Range(), "Invalid slurm.conf", "%s.", err)
		return
	}
	if i, st := d.choice(attrs["fit"], "first", "best"); st == set {
		cfg.Fit = nodes.Fit(i)
	}
	capacity, ok := nodeCapacity(cfg.Groups)
	if !ok {
		d.errorf(a.Expr.Range(), "Cluster too large", "The nodes of %s hold more than 2⁶³ processors, bytes or GPUs.", path)
		return
	}
	d.slurmWarnings(f, a.Expr.Range(), "cluster", warns)
	c.Nodes, c.Capacity, c.SlurmConf, f.at = cfg, capacity, path, a.Expr.Range()
}

// slurmUnread warns when the sweep's cluster comes from a slurm.conf that
// sets Priority* or SchedulerParameters options and none of the sweep's
// policies reads that file with slurm_conf: those options would change
// nothing, silently.
func (d *decoder) slurmUnread(s *Sweep) {
	if s.Cluster == nil || s.Cluster.SlurmConf == "" {
		return
	}
	f := d.slurm[s.Cluster.SlurmConf]
	if f == nil || f.cfg == nil {
		return
	}
	keys := f.cfg.SchedulingOptions()
	if len(keys) == 0 {
		return
	}
	for _, p := range s.Policies {
		if slices.Contains(f.policies, p) {
			return
		}
	}
	d.warnf(f.at, "slurm.conf not modelled as written",
		"%s: no policy of the sweep reads %s; a policy %q block with slurm_conf = the same file does.",
		s.Cluster.SlurmConf, strings.Join(keys, ", "), SlurmPolicy)
}

// slurmParams sets the parameters of policy block pb (of policy o) from
// the slurm.conf its slurm_conf argument a names, before the block's
// params, which win; false if anything was wrong (reported).
func (d *decoder) slurmParams(o owner, pb *Policy, a *hclsyntax.Attribute) bool {
	p := pb.Params
	if o.name != SlurmPolicy {
		d.errorf(a.NameRange, "Unsupported argument",
			"slurm_conf sets the parameters of policy %q; policy %q does not take it.", SlurmPolicy, o.name)
		return false
	}
	_, f, ok := d.slurmConf(a)
	if !ok {
		return false
	}
	as, warns, err := f.cfg.Params()
	if err != nil {
		d.errorf(a.Expr.Range(), "Invalid slurm.conf", "%s.", err)
		return false
	}
	if err := ApplySlurmParams(p, as); err != nil {
		d.errorf(a.Expr.Range(), "Invalid slurm.conf", "%s.", err)
		return false
	}
	d.slurmWarnings(f, a.Expr.Range(), "policy", warns)
	f.policies = append(f.policies, pb)
	return true
}

// ApplySlurmParams sets the parameters as of a slurm.conf on p, the
// parameter struct of the policy "slurm"; the error names the line of the
// value that does not fit.
func ApplySlurmParams(p any, as []slurmconf.Assignment) error {
	for _, a := range as {
		if err := params.Set(p, a.Name, a.Value); err != nil {
			return fmt.Errorf("%s: parameter %s = %s: %w", a.Pos, a.Name, a.Value, err)
		}
	}
	return nil
}

// SlurmConf is what simulate's --slurm-conf takes from a slurm.conf.
type SlurmConf struct {
	// Nodes and Capacity are the cluster of nodes.
	Nodes    *nodes.Config
	Capacity sim.Resources
	// Params are the parameters of the policy "slurm"; nil when the run's
	// policy is another.
	Params []slurmconf.Assignment
	// Warnings are the file's, the cluster's and, for the policy "slurm",
	// the parameters', in that order.
	Warnings []slurmconf.Warning
}

// ReadSlurmConf reads the slurm.conf at path for simulate's --slurm-conf:
// the cluster of nodes placed by fit and, when policy is "slurm", the
// policy's parameters. For another policy, a file that sets Priority* or
// SchedulerParameters options gets a warning that the policy does not
// read them.
func ReadSlurmConf(path string, fit nodes.Fit, policy string) (*SlurmConf, error) {
	f, err := slurmconf.Read(path)
	if err != nil {
		return nil, err
	}
	cfg, warns, err := f.Cluster()
	if err != nil {
		return nil, err
	}
	cfg.Fit = fit
	capacity, ok := nodeCapacity(cfg.Groups)
	if !ok {
		return nil, fmt.Errorf("%s: the nodes hold more than 2⁶³ processors, bytes or GPUs", path)
	}
	out := &SlurmConf{Nodes: cfg, Capacity: capacity, Warnings: append(f.Unmodelled(), warns...)}
	if policy != SlurmPolicy {
		if keys := f.SchedulingOptions(); len(keys) > 0 {
			out.Warnings = append(out.Warnings, slurmconf.Warning{Pos: slurmconf.Pos{File: path},
				Text: fmt.Sprintf("policy %s does not read %s; policy %s does", policy, strings.Join(keys, ", "), SlurmPolicy)})
		}
		return out, nil
	}
	as, pw, err := f.Params()
	if err != nil {
		return nil, err
	}
	out.Params, out.Warnings = as, append(out.Warnings, pw...)
	return out, nil
}

// readSlurmFile reads a slurm.conf (a seam for tests).
func readSlurmFile(path string) (*slurmconf.Config, error) { return slurmconf.Read(path) }
