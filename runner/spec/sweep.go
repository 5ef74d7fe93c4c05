package spec

// This file decodes the sweep block: its cluster, the workload and policy
// lists, the load factors and seeds, and the vary axes. Filters have their
// own file.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/workloads"
)

const (
	blockVary    = "vary"
	blockExclude = "exclude"
	blockInclude = "include"
)

var sweepSchema = schema{
	what:   "the sweep block",
	attrs:  []string{"cluster", "workloads", "policies", "load_factors", "offered_loads", "seeds"},
	blocks: map[string]int{blockVary: 1, blockExclude: 0, blockInclude: 0},
}

// sweep decodes the sweep block into s; clusters are the declared
// clusters.
func (d *decoder) sweep(s *Sweep, b *hclsyntax.Block, clusters []*hclsyntax.Block) {
	attrs, blocks := d.content(b.Body, sweepSchema)
	s.Range = b.DefRange()
	before := len(d.diags.Errs())

	switch it, st := d.value(attrs["cluster"]); st {
	case set:
		if name, ok := d.refName(it, kindCluster, `"cluster"`); ok {
			s.Cluster = d.clusters[name]
		}
	case unset:
		switch len(clusters) {
		case 0: // reported with the missing cluster block
		case 1:
			s.Cluster = d.clusters[clusters[0].Labels[0]]
		default:
			d.errorf(b.DefRange(), "Missing cluster in sweep",
				"The file declares %d clusters; choose one with cluster = cluster.NAME.", len(clusters))
		}
	}
	d.swept = make(map[string]map[string]bool)
	workloads, wOK := d.refList(b, attrs["workloads"], kindWorkload)
	for _, name := range workloads {
		if w := d.workloads[name]; w != nil {
			s.Workloads = append(s.Workloads, w)
		}
	}
	policies, pOK := d.refList(b, attrs["policies"], kindPolicy)
	for _, name := range policies {
		if p := d.policies[name]; p != nil {
			s.Policies = append(s.Policies, p)
		}
	}
	d.machineFits(s, attrs["policies"])
	d.nodeAware(s, attrs["policies"]) // nodes.go
	d.slurmUnread(s)                  // slurmconf.go
	d.sweptAxis(keyWorkload, workloads, wOK)
	d.sweptAxis(keyPolicy, policies, pOK)
	lfs, lfOK := d.loadAxis(s, attrs)
	d.sweptAxis(keyLoadFactor, lfs, lfOK)
	s.Seeds = []uint64{1}
	seeds, seedsOK := []string{"1"}, true
	if items, st := d.nonEmptyList(attrs["seeds"]); st == set {
		s.Seeds, seeds = nil, nil
		seen := make(map[string]bool)
		for _, it := range items {
			n, ok := d.asUint(it, "a seed", "Invalid seed")
			if ok && d.once(seen, strconv.FormatUint(n, 10), it.rng, "seed") {
				s.Seeds = append(s.Seeds, n)
				seeds = append(seeds, strconv.FormatUint(n, 10))
			}
			seedsOK = seedsOK && ok
		}
	} else if st == invalid {
		seedsOK = false
	}
	d.sweptAxis(keySeed, seeds, seedsOK)
	d.varied = make(map[string]hcl.Range)
	for _, vb := range blocks {
		if vb.Type != blockVary {
			continue
		}
		if ax, ok := d.vary(vb, s, d.varied); ok {
			s.Vary = append(s.Vary, ax)
		}
	}
	for _, fb := range blocks {
		if fb.Type == blockVary {
			continue
		}
		f, ok := d.filter(fb, s)
		switch {
		case !ok:
		case fb.Type == blockExclude:
			s.Exclude = append(s.Exclude, f)
		case fb.Type == blockInclude:
			s.Include = append(s.Include, f)
		}
	}
	d.compatSweep(s, attrs) // compat.go
	// The grid is known only when the sweep has no error and every block
	// it lists decoded.
	known := len(d.diags.Errs()) == before && len(s.Workloads) == len(workloads) && len(s.Policies) == len(policies)
	if !known {
		return
	}
	if gridSize(s) > MaxRuns {
		d.errorf(b.DefRange(), "Sweep too large",
			"The sweep's axes multiply to more than %d runs before its filters, the most an experiment may have. Split it into several files, or narrow an axis.", MaxRuns)
		return
	}
	if !d.gridLeft(s) {
		d.errorf(b.DefRange(), "Empty sweep after filters",
			"The include and exclude blocks leave no combination of the sweep to run.")
	}
}

// loadAxis decodes the sweep's load axis into s: load_factors, or
// offered_loads, the target offered loads whose factors the runner solves
// per workload and replicate; not both. It returns the load factors as
// filters compare them and whether the axis was read whole; the offered
// loads it records in d.swept itself.
func (d *decoder) loadAxis(s *Sweep, attrs map[string]*hclsyntax.Attribute) ([]string, bool) {
	lfAttr, olAttr := attrs["load_factors"], attrs["offered_loads"]
	if lfAttr != nil && olAttr != nil {
		d.errorf(olAttr.NameRange, "Two load axes",
			"The sweep sets load_factors at %s and offered_loads here; a sweep's load axis is one or the other. Keep offered_loads to reach target offered loads, or load_factors to scale the workloads' arrivals by fixed factors.",
			lfAttr.NameRange)
		s.LoadFactors = []float64{1}
		return nil, false
	}
	read := func(a *hclsyntax.Attribute, what, summary, kind string) ([]float64, []string, bool) {
		items, st := d.nonEmptyList(a)
		if st != set {
			return nil, nil, st != invalid
		}
		var xs []float64
		var texts []string
		ok := true
		seen := make(map[string]bool)
		for _, it := range items {
			x, good := d.asPositive(it, what, summary)
			if good && d.once(seen, formatFloat(x), it.rng, kind) {
				xs = append(xs, x)
				texts = append(texts, formatFloat(x))
			}
			ok = ok && good
		}
		return xs, texts, ok
	}
	if olAttr != nil {
		xs, texts, ok := read(olAttr, "a target offered load", "Invalid offered load", "offered load")
		s.OfferedLoads = xs
		d.sweptAxis(keyOfferedLoad, texts, ok)
		return nil, ok
	}
	d.sweptAxis(keyOfferedLoad, nil, true)
	xs, texts, ok := read(lfAttr, "a load factor", "Invalid load factor", "load factor")
	if xs == nil {
		xs, texts = []float64{1}, []string{"1"}
	}
	s.LoadFactors = xs
	return texts, ok
}

// MaxRuns is the most runs a sweep's axes may multiply to, before its
// filters. A grid is expanded whole, at a few hundred bytes a run, before
// anything runs, so a stray range or flatten must not ask for billions;
// a sweep bigger than this is several experiments' work.
const MaxRuns = 1_000_000

// gridSize returns the number of runs s's axes multiply to before its
// filters, or MaxRuns+1 if that is more: the true product can overflow an
// int.
func gridSize(s *Sweep) int {
	total := 0
	for _, w := range s.Workloads {
		for _, p := range s.Policies {
			n := min(s.Loads()*len(s.Seeds), MaxRuns+1)
			for _, ax := range s.Vary {
				if ax.AppliesTo(w.Name, p.Name) {
					// Both factors are list lengths or clamped to
					// MaxRuns+1, so the product fits an int.
					n = min(n*len(ax.Values), MaxRuns+1)
				}
			}
			total = min(total+n, MaxRuns+1)
		}
	}
	return total
}

// refName reads a reference to a block of kind.
func (d *decoder) refName(it item, kind, what string) (string, bool) {
	r, ok := asRef(it.v)
	if !ok {
		d.wrongType(it, what, fmt.Sprintf("a %s reference such as %s.NAME", kind, kind))
		return "", false
	}
	if r.Kind != kind {
		d.errorf(it.rng, "Incorrect attribute value type",
			"Inappropriate value for %s: %s.%s is a %s, and a %s reference such as %s.NAME is required.", what, r.Kind, r.Name, r.Kind, kind, kind)
		return "", false
	}
	return r.Name, true
}

// sweptAxis records the values of one of the sweep's axes in d.swept, if
// the axis was read whole (ok).
func (d *decoder) sweptAxis(key string, values []string, ok bool) {
	if !ok {
		return
	}
	d.swept[key] = make(map[string]bool, len(values))
	for _, v := range values {
		d.swept[key][v] = true
	}
}

// notSwept reports whether the sweep's axis key surely lacks value: the
// axis was read whole and value is not among its values.
func (d *decoder) notSwept(key, value string) bool {
	values, known := d.swept[key]
	return known && !values[value]
}

// refList reads the required, non-empty list of references to blocks of
// kind in the sweep's argument a (workloads or policies); each block once.
// whole says whether every element was read, so that names holds every
// block the list names.
func (d *decoder) refList(b *hclsyntax.Block, a *hclsyntax.Attribute, kind string) (names []string, whole bool) {
	plural := plural(kind)
	if !d.required(b, map[string]*hclsyntax.Attribute{plural: a}, plural, fmt.Sprintf(", as in %s = [%s.NAME]", plural, kind)) {
		return nil, false
	}
	items, st := d.list(a)
	switch {
	case st == unset:
		d.errorf(a.Expr.Range(), "Empty sweep", "The sweep needs at least one %s.", kind)
	case st == set && len(items) == 0:
		d.errorf(a.Expr.Range(), "Empty sweep", "The sweep lists no %s, so it has nothing to run.", plural)
	}
	whole = st == set
	seen := make(map[string]bool)
	for _, it := range items {
		name, ok := d.refName(it, kind, "an element of "+quoted(a))
		if ok && d.once(seen, name, it.rng, kind) {
			names = append(names, name)
		}
		whole = whole && ok
	}
	return names, whole
}

// nonEmptyList reads a list argument that, when given, must not be empty.
func (d *decoder) nonEmptyList(a *hclsyntax.Attribute) ([]item, state) {
	items, st := d.list(a)
	if st == set && len(items) == 0 {
		d.errorf(a.Expr.Range(), "Empty sweep axis", "%s is empty, so the sweep would have no runs; leave it out for the default.", quoted(a))
		return nil, invalid
	}
	return items, st
}

// once reports a value seen before in the same list.
func (d *decoder) once(seen map[string]bool, key string, rng hcl.Range, what string) bool {
	if seen[key] {
		d.errorf(rng, "Duplicate value in sweep", "The %s %s appears twice; every run would be done twice.", what, key)
		return false
	}
	seen[key] = true
	return true
}

var varySchema = schema{what: "a vary block", attrs: []string{"values"}}

// vary decodes a vary block: its label names a parameter of a workload or
// policy of the sweep, its values what to set it to. seen holds the targets
// of earlier vary blocks.
func (d *decoder) vary(b *hclsyntax.Block, s *Sweep, seen map[string]hcl.Range) (Axis, bool) {
	attrs, _ := d.content(b.Body, varySchema)
	target, rng := b.Labels[0], b.LabelRanges[0]
	ax := Axis{Target: target, Range: b.DefRange()}
	if first, dup := seen[target]; dup {
		d.errorf(rng, "Duplicate axis", "%s is already varied at %s.", target, first)
		return ax, false
	}
	seen[target] = b.DefRange()
	parts := strings.Split(target, ".")
	if len(parts) != 3 || (parts[0] != kindWorkload && parts[0] != kindPolicy) {
		detail := fmt.Sprintf("%q is not a parameter to vary: write workload.NAME.PARAM or policy.NAME.PARAM.", target)
		if len(parts) == 3 {
			detail = withSuggestion(detail, parts[0], []string{kindWorkload, kindPolicy})
		}
		d.errorf(rng, "Invalid axis target", "%s", detail)
		return ax, false
	}
	ax.Kind, ax.Block, ax.Param = parts[0], parts[1], parts[2]
	if _, ok := d.declared[ax.Kind][ax.Block]; !ok {
		detail := withSuggestion(fmt.Sprintf("There is no %s block named %q.", ax.Kind, ax.Block), ax.Block, sortedKeys(d.declared[ax.Kind]))
		d.errorf(rng, "Reference to unknown "+ax.Kind, "%s", detail)
		return ax, false
	}
	o, base, inSweep, ok := d.axisOwner(ax, b.DefRange(), rng)
	if !ok {
		return ax, false
	}
	if !inSweep {
		d.errorf(rng, "Axis block not in the sweep",
			"%s %q is not in the sweep's %s, so varying its parameter would change nothing.", ax.Kind, ax.Block, plural(ax.Kind))
		return ax, false
	}
	if _, ok := d.paramField(o, base, ax.Param, rng); !ok {
		return ax, false
	}
	if !d.required(b, attrs, "values", ", as in values = [1, 2]") {
		return ax, false
	}
	items, st := d.nonEmptyList(attrs["values"])
	if st != set {
		if st == unset {
			d.errorf(attrs["values"].Expr.Range(), "Empty sweep axis", "values must list the parameter's values.")
		}
		return ax, false
	}
	ok = true
	dups := make(map[string]bool)
	for _, it := range items {
		p := params.Clone(base)
		text, good := d.setParam(o, p, ax.Param, it.v, it.rng, it.rng)
		if good {
			if err := o.build(p); err != nil {
				d.errorf(it.rng, "Invalid axis value", "The %s does not accept %s = %s: %s.", o.title(), ax.Param, text, err)
				good = false
			}
		}
		if good && d.once(dups, text, it.rng, "value") {
			ax.Values = append(ax.Values, text)
		} else {
			ok = false
		}
	}
	return ax, ok
}

// axisOwner finds the model or policy an axis varies, its parameters as the
// block sets them, and whether the block is in the sweep (unless the
// sweep's list could not be read whole). It reports a target without
// parameters.
func (d *decoder) axisOwner(ax Axis, at, rng hcl.Range) (o owner, base any, inSweep, ok bool) {
	if ax.Kind == kindWorkload {
		w := d.workloads[ax.Block]
		if w == nil {
			return owner{}, nil, false, false // reported with the block
		}
		if w.Model == "" {
			d.errorf(rng, "Unknown model parameter", "Workload %q reads a trace; only a workload drawn from a model has parameters to vary.", w.Name)
			return owner{}, nil, false, false
		}
		m, err := workloads.LookupModel(w.Model)
		if err != nil {
			panic("spec: decoded workload with unknown model " + w.Model)
		}
		return d.modelOwner(m, at), w.Params, !d.notSwept(keyWorkload, w.Name), true
	}
	p := d.policies[ax.Block]
	if p == nil {
		return owner{}, nil, false, false
	}
	e, err := policies.Lookup(p.Type)
	if err != nil {
		panic("spec: decoded policy with unknown type " + p.Type)
	}
	inSweep = !d.notSwept(keyPolicy, p.Name)
	o = owner{kind: "policy", name: e.Name, at: at, build: func(p any) error {
		_, err := e.New(p)
		return err
	}}
	return o, p.Params, inSweep, true
}

// plural is the sweep argument that lists blocks of kind.
func plural(kind string) string {
	if kind == kindPolicy {
		return "policies"
	}
	return kind + "s"
}

// machineFits reports, at the sweep's policies list, every policy whose
// machine model cannot take the sweep's cluster (policies.Supports): the
// two-tier policies on a cluster with memory, say, which run would
// otherwise refuse only when it reached them.
func (d *decoder) machineFits(s *Sweep, list *hclsyntax.Attribute) {
	if s.Cluster == nil || list == nil {
		return
	}
	for _, p := range s.Policies {
		if err := policies.Supports(p.Type, s.Cluster.Capacity); err != nil {
			d.errorf(list.Expr.Range(), "Policy cannot run on this cluster",
				"%s (policy block %q, cluster %q).", err, p.Name, s.Cluster.Name)
		}
	}
}
