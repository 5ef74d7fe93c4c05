package spec

// This file decodes the experiment, cluster, policy and output blocks.
// Workloads have their own file.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

var experimentSchema = schema{what: "the experiment block", attrs: []string{"description", "seed"}}

// experiment decodes the experiment block into exp.
func (d *decoder) experiment(exp *Experiment, b *hclsyntax.Block) {
	name := b.Labels[0]
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.TrimSpace(name) != name ||
		strings.ContainsFunc(name, unicode.IsControl) {
		d.errorf(b.LabelRanges[0], "Invalid experiment name",
			"%q cannot name an experiment: the name is the default results folder, so it must be a plain file name.", name)
	}
	exp.Name = name
	attrs, _ := d.content(b.Body, experimentSchema)
	if s, st := d.str(attrs["description"]); st == set {
		exp.Description = s
	}
	exp.Seed = 1
	if it, st := d.value(attrs["seed"]); st == set {
		if n, ok := d.asUint(it, `"seed"`, "Invalid experiment seed"); ok {
			exp.Seed = n
		}
	}
}

var clusterSchema = schema{what: "a cluster block", attrs: []string{"procs", "machines", "memory", "gpus", "model", "fit", "compat", "slurm_conf"},
	blocks: map[string]int{"node": 1, "partition": 1}}

// cluster decodes a cluster block; nil if it has errors.
func (d *decoder) cluster(b *hclsyntax.Block) *Cluster {
	attrs, blocks := d.content(b.Body, clusterSchema)
	c := &Cluster{Name: b.Labels[0], Range: b.DefRange()}
	before := len(d.diags.Errs())
	procs, pst := d.intArg(attrs["procs"], "Invalid processor count", 1, math.MaxInt64)
	path, mst := d.str(attrs["machines"])
	switch {
	case pst == invalid || mst == invalid:
	case pst == set && mst == set:
		d.errorf(lastOf(attrs["procs"], attrs["machines"]).NameRange, "Conflicting cluster size",
			"Give either procs or machines, not both: a machines file sets the processors and the memory.")
	case pst == set:
		c.Capacity[sim.Procs] = procs
	case mst == set:
		d.machines(c, path, attrs["machines"])
	case hasNodeBlock(blocks): // nodes.go sets the size
	case attrs["slurm_conf"] != nil: // slurmconf.go sets it
	default:
		d.errorf(b.DefRange(), "Missing cluster size",
			"Cluster %q needs procs = N (processors), machines = \"FILE\" (an Alea .machines file), slurm_conf = \"FILE\" (a slurm.conf) or node \"NAME\" { … } blocks.", c.Name)
	}
	if attrs["slurm_conf"] != nil {
		d.slurmCluster(c, attrs, blocks) // slurmconf.go
		if len(d.diags.Errs()) > before {
			return nil
		}
		return c
	}
	if it, st := d.value(attrs["memory"]); st == set {
		if n, ok := d.size(it, `"memory"`); ok {
			c.Capacity[sim.Memory] = n
		}
	}
	if n, st := d.intArg(attrs["gpus"], "Invalid GPU count", 0, math.MaxInt64); st == set {
		c.Capacity[sim.GPUs] = n
	}
	if attrs["compat"] != nil {
		d.compat(c, attrs, blocks) // compat.go
	} else {
		d.nodeLevel(c, b, attrs, blocks) // nodes.go
	}
	if len(d.diags.Errs()) > before {
		return nil
	}
	return c
}

// machines sets c's capacity from an Alea machines file.
func (d *decoder) machines(c *Cluster, path string, a *hclsyntax.Attribute) {
	resolved := d.path(path, a.Expr)
	capacity, err := ReadMachines(resolved)
	switch {
	case errors.Is(err, ErrNoNodes):
		d.errorf(a.Expr.Range(), "Empty machines file", "%s lists no node groups, so the cluster would have no processors.", resolved)
		return
	case err != nil:
		d.errorf(a.Expr.Range(), "Unreadable machines file", "%s.", err)
		return
	}
	c.Capacity, c.Machines = capacity, resolved
}

// ErrNoNodes is wrapped by the error of ReadMachines for a machines file
// that lists no node group.
var ErrNoNodes = errors.New("lists no node groups")

// ReadMachines reads the Alea .machines file at path into the capacity of
// a cluster (workloads.Capacity): a cluster block's machines and
// simulate's --machines alike. A file without a node group is an error
// wrapping ErrNoNodes.
func ReadMachines(path string) (sim.Resources, error) {
	f, err := os.Open(path)
	if err != nil {
		return sim.Resources{}, err
	}
	defer f.Close()
	groups, err := workloads.ReadMachines(f, path)
	if err != nil {
		return sim.Resources{}, err
	}
	capacity := workloads.Capacity(groups)
	if capacity[sim.Procs] == 0 {
		return sim.Resources{}, fmt.Errorf("%s %w", path, ErrNoNodes)
	}
	return capacity, nil
}

// path resolves p, the value of expr, against the file's directory, or,
// when it begins with a value from the command line, leaves it relative to
// the current directory.
func (d *decoder) path(p string, expr hcl.Expression) string {
	if filepath.IsAbs(p) {
		return p
	}
	if d.fromCommandLine(expr, p) {
		return filepath.Clean(p)
	}
	return filepath.Join(d.dir, p)
}

var policySchema = schema{what: "a policy block", attrs: []string{"type", "params", "slurm_conf"}}

// policy decodes a policy block; nil if it has errors.
func (d *decoder) policy(b *hclsyntax.Block) *Policy {
	attrs, _ := d.content(b.Body, policySchema)
	name := b.Labels[0]
	typ, rng := name, b.LabelRanges[0]
	switch s, st := d.str(attrs["type"]); st {
	case invalid:
		return nil
	case set:
		typ, rng = s, attrs["type"].Expr.Range()
	}
	e, err := policies.Lookup(typ)
	if err != nil {
		known := make([]string, 0, len(policies.Entries()))
		for _, e := range policies.Entries() {
			known = append(known, e.Name)
		}
		detail := fmt.Sprintf("There is no policy type %q.", typ)
		if attrs["type"] == nil {
			detail = fmt.Sprintf("There is no policy type %q (a policy block's type defaults to its name).", typ)
		}
		d.errorf(rng, "Unknown policy type", "%s Known policies: %s.", withSuggestion(detail, typ, known), strings.Join(known, ", "))
		return nil
	}
	p := &Policy{Name: name, Type: e.Name, Range: b.DefRange()}
	if e.Params != nil {
		p.Params = e.Params()
	}
	o := owner{kind: "policy", name: e.Name, at: b.DefRange(), build: func(p any) error {
		_, err := e.New(p)
		return err
	}}
	if a := attrs["slurm_conf"]; a != nil && !d.slurmParams(o, p, a) { // slurmconf.go: before params, which win
		return nil
	}
	if !d.setParams(o, p.Params, attrs["params"]) {
		return nil
	}
	return p
}

var outputSchema = schema{what: "the output block", attrs: []string{"dir", "jobs", "heatmaps", "eet_capacity", "warmup", "cooldown"}}

// output decodes the output block into out, which holds the defaults.
func (d *decoder) output(out *Output, b *hclsyntax.Block) {
	attrs, _ := d.content(b.Body, outputSchema)
	if s, st := d.str(attrs["dir"]); st == set {
		switch {
		case strings.TrimSpace(s) == "":
			d.errorf(attrs["dir"].Expr.Range(), "Invalid output directory", "The results folder must not be empty.")
		case strings.ContainsFunc(s, unicode.IsControl):
			d.errorf(attrs["dir"].Expr.Range(), "Invalid output directory", "%q holds a control character, which no results folder's name should.", s)
		}
		out.Dir = s
	}
	if v, st := d.boolean(attrs["jobs"]); st == set {
		out.Jobs = v
	}
	if v, st := d.boolean(attrs["heatmaps"]); st == set {
		out.Heatmaps = v
	}
	capacities := []string{"equal", "proportional"}
	if i, st := d.choice(attrs["eet_capacity"], capacities...); st == set {
		out.EETCapacity = capacities[i]
	}
	warm, wok := d.fraction(attrs["warmup"], `"warmup"`)
	cool, cok := d.fraction(attrs["cooldown"], `"cooldown"`)
	if wok && cok && warm+cool >= 1 {
		d.errorf(lastOf(attrs["warmup"], attrs["cooldown"]).Expr.Range(), "Trimming leaves no job",
			"warmup = %s and cooldown = %s leave out every job; their sum must be under 1, so that at least one job is measured.",
			formatFloat(warm), formatFloat(cool))
	}
	out.Warmup, out.Cooldown = warm, cool
}

// fraction reads a's value, a share of a run's jobs in [0, 1); 0 and true
// when a is absent.
func (d *decoder) fraction(a *hclsyntax.Attribute, what string) (float64, bool) {
	it, st := d.value(a)
	switch st {
	case invalid:
		return 0, false
	case unset:
		return 0, true
	}
	if !it.v.IsNull() && it.v.Type() == cty.String {
		d.errorf(it.rng, "Invalid trim fraction",
			"%s is a share of the run's jobs in submit order, such as 0.1, not %q: a time window is not supported.",
			upperFirst(what), it.v.AsString())
		return 0, false
	}
	f, ok := d.asNumber(it, what)
	if !ok {
		return 0, false
	}
	x, _ := f.Float64()
	if !(x >= 0 && x < 1) {
		d.errorf(it.rng, "Invalid trim fraction",
			"%s must be a share of the run's jobs from 0 up to but not including 1 (such as 0.1 for the first or last tenth), not %q.",
			upperFirst(what), numText(f))
		return 0, false
	}
	return x, true
}
