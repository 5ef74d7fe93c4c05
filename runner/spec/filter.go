package spec

// This file decodes the sweep's exclude and include blocks and checks that
// they leave something to run.

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/schedsweep/schedsweep/internal/params"
)

// The keys a filter may match on. Vary axes are matched through the map
// argument vary, whose keys are axis targets (dots cannot appear in an
// argument's name).
const (
	keyWorkload    = "workload"
	keyPolicy      = "policy"
	keyLoadFactor  = "load_factor"
	keyOfferedLoad = "offered_load"
	keySeed        = "seed"
	keyVary        = "vary"
)

var filterKeys = []string{keyWorkload, keyPolicy, keyLoadFactor, keyOfferedLoad, keySeed, keyVary}

// filter decodes an exclude or include block of sweep s.
func (d *decoder) filter(b *hclsyntax.Block, s *Sweep) (Filter, bool) {
	f := Filter{Match: make(map[string]string), Range: b.DefRange()}
	for _, nb := range b.Body.Blocks {
		d.errorf(nb.TypeRange, "Unsupported block type", "Blocks are not expected in %s block.", b.Type)
	}
	ok := true
	for _, a := range sortedAttrs(b.Body) {
		if !d.filterKey(f.Match, a, s) {
			ok = false
		}
	}
	if ok && len(f.Match) == 0 {
		what := "drop every run"
		if b.Type == blockInclude {
			what = "keep every run, like no include block at all"
		}
		d.errorf(b.DefRange(), "Empty filter", "An %s block with no keys (or only null ones) would %s.", b.Type, what)
		return f, false
	}
	return f, ok
}

// filterKey adds the key a sets to match.
func (d *decoder) filterKey(match map[string]string, a *hclsyntax.Attribute, s *Sweep) bool {
	switch a.Name {
	case keyWorkload, keyPolicy:
		it, st := d.value(a)
		if st != set {
			return st != invalid
		}
		name, ok := d.filterName(it, a.Name)
		if !ok {
			return false
		}
		if d.notSwept(a.Name, name) {
			d.warnf(it.rng, "Filter matches nothing", "%s %q is not in the sweep's %s.", a.Name, name, plural(a.Name))
		}
		match[a.Name] = name
	case keyLoadFactor, keyOfferedLoad:
		what, summary, name, all := "a load factor", "Invalid load factor", "Load factor", "load factors"
		if a.Name == keyOfferedLoad {
			what, summary, name, all = "a target offered load", "Invalid offered load", "Offered load", "offered loads"
		}
		it, st := d.value(a)
		if st != set {
			return st != invalid
		}
		x, ok := d.asPositive(it, what, summary)
		if !ok {
			return false
		}
		if d.notSwept(a.Name, formatFloat(x)) {
			d.warnf(it.rng, "Filter matches nothing", "%s %s is not one of the sweep's %s.", name, formatFloat(x), all)
		}
		match[a.Name] = formatFloat(x)
	case keySeed:
		it, st := d.value(a)
		if st != set {
			return st != invalid
		}
		n, ok := d.asUint(it, "a seed", "Invalid seed")
		if !ok {
			return false
		}
		if d.notSwept(keySeed, strconv.FormatUint(n, 10)) {
			d.warnf(it.rng, "Filter matches nothing", "Seed %d is not one of the sweep's seeds.", n)
		}
		match[a.Name] = strconv.FormatUint(n, 10)
	case keyVary:
		return d.filterAxes(match, a, s)
	default:
		detail := withSuggestion(fmt.Sprintf("%q is not a sweep axis. A filter matches on %s.", a.Name, quoteList(filterKeys)), a.Name, filterKeys)
		for _, ax := range s.Vary {
			if ax.Param == a.Name {
				detail += fmt.Sprintf(" To match the axis %s, write vary = { %q = VALUE }.", ax.Target, ax.Target)
				break
			}
		}
		d.errorf(a.NameRange, "Not a sweep axis", "%s", detail)
		return false
	}
	return true
}

// filterName reads the block a workload or policy key names: a reference
// or its name as a string.
func (d *decoder) filterName(it item, kind string) (string, bool) {
	if _, isRef := asRef(it.v); isRef {
		return d.refName(it, kind, strconv.Quote(kind))
	}
	name, ok := d.asString(it, strconv.Quote(kind))
	if !ok {
		return "", false
	}
	if _, declared := d.declared[kind][name]; !declared {
		detail := withSuggestion(fmt.Sprintf("There is no %s block named %q.", kind, name), name, sortedKeys(d.declared[kind]))
		d.errorf(it.rng, "Reference to unknown "+kind, "%s", detail)
		return "", false
	}
	return name, true
}

// filterAxes adds the keys of vary = { "workload.NAME.PARAM" = VALUE, … }.
func (d *decoder) filterAxes(match map[string]string, a *hclsyntax.Attribute, s *Sweep) bool {
	targets := make([]string, len(s.Vary))
	for i, ax := range s.Vary {
		targets[i] = ax.Target
	}
	type pair struct {
		key, val item
	}
	var pairs []pair
	if kvs, diags := hcl.ExprMap(a.Expr); !diags.HasErrors() {
		for _, kv := range kvs {
			k, ok1 := d.eval(kv.Key)
			v, ok2 := d.eval(kv.Value)
			if !ok1 || !ok2 {
				return false
			}
			pairs = append(pairs, pair{item{k, kv.Key.Range()}, item{v, kv.Value.Range()}})
		}
	} else {
		it, st := d.value(a)
		if st != set {
			return st != invalid
		}
		if ty := it.v.Type(); !ty.IsObjectType() && !ty.IsMapType() {
			d.wrongType(it, quoted(a), `an object of axis values, as in { "workload.NAME.PARAM" = VALUE }`)
			return false
		}
		for _, k := range sortedKeys(it.v.AsValueMap()) {
			pairs = append(pairs, pair{item{cty.StringVal(k), it.rng}, item{it.v.AsValueMap()[k], it.rng}})
		}
	}
	ok := true
	seen := make(map[string]hcl.Range)
	for _, p := range pairs {
		target, good := d.asString(p.key, "an axis")
		if !good {
			ok = false
			continue
		}
		if first, dup := seen[target]; dup {
			d.errorf(p.key.rng, "Duplicate key in filter",
				"The axis %s is already matched at %s; a run has one value for it.", target, first)
			ok = false
			continue
		}
		seen[target] = p.key.rng
		i := slices.Index(targets, target)
		if _, failed := d.varied[target]; i < 0 && failed {
			ok = false // the vary block's error is reported
			continue
		}
		if i < 0 {
			detail := withSuggestion(fmt.Sprintf("%q is not one of the sweep's vary axes (%s).", target, quoteList(targets)), target, targets)
			d.errorf(p.key.rng, "Not a sweep axis", "%s", detail)
			ok = false
			continue
		}
		ax := s.Vary[i]
		o, base, _, good := d.axisOwner(ax, a.SrcRange, p.key.rng)
		if !good {
			ok = false
			continue
		}
		text, good := d.setParam(o, params.Clone(base), ax.Param, p.val.v, p.key.rng, p.val.rng)
		if !good {
			ok = false
			continue
		}
		if !slices.Contains(ax.Values, text) {
			d.warnf(p.val.rng, "Filter matches nothing", "%s is not one of the values of the axis %s.", text, target)
		}
		match[target] = text
	}
	return ok
}

// gridLeft reports whether a run of s survives its filters. A filter key
// that names an axis matches only runs whose workload or policy is that
// axis's block. It answers true without looking when the combinations
// the filters touch are too many to enumerate.
func (d *decoder) gridLeft(s *Sweep) bool {
	if len(s.Exclude) == 0 && len(s.Include) == 0 {
		return true
	}
	used := make(map[string]bool)
	for _, f := range append(slices.Clone(s.Exclude), s.Include...) {
		for k := range f.Match {
			used[k] = true
		}
	}
	steps := 0
	for _, w := range s.Workloads {
		for _, p := range s.Policies {
			keys, values := filteredAxes(s, used, w.Name, p.Name)
			run := map[string]string{keyWorkload: w.Name, keyPolicy: p.Name}
			if s.keepsAny(run, keys, values, &steps) {
				return true
			}
		}
	}
	return false
}

// gridBudget is how many runs gridLeft tries before it gives up and
// answers true.
const gridBudget = 1 << 20

// filteredAxes returns the axes of the runs of workload w and policy p that
// a filter names (used), keys and the values of each, as Filter.Match
// writes them: load factor, offered load, seed, then the vary blocks that
// apply to w and p. A key of an axis the sweep lacks (load_factor in a
// sweep of offered loads) has no value: runs lack it.
func filteredAxes(s *Sweep, used map[string]bool, w, p string) (keys []string, values [][]string) {
	add := func(key string, vals []string) {
		if used[key] && len(vals) > 0 {
			keys, values = append(keys, key), append(values, vals)
		}
	}
	var lfs, ols, seeds []string
	for _, x := range s.LoadFactors {
		lfs = append(lfs, formatFloat(x))
	}
	for _, x := range s.OfferedLoads {
		ols = append(ols, formatFloat(x))
	}
	for _, n := range s.Seeds {
		seeds = append(seeds, strconv.FormatUint(n, 10))
	}
	add(keyLoadFactor, lfs)
	add(keyOfferedLoad, ols)
	add(keySeed, seeds)
	for _, ax := range s.Vary {
		if ax.AppliesTo(w, p) {
			add(ax.Target, ax.Values)
		}
	}
	return keys, values
}

// keepsAny reports whether the filters keep any run that sets each of keys
// to one of its values in run (which holds the other keys), trying every
// combination in turn. It answers true without looking further once
// *steps, the runs tried by this and earlier calls, passes gridBudget.
func (s *Sweep) keepsAny(run map[string]string, keys []string, values [][]string, steps *int) bool {
	idx := make([]int, len(keys))
	for {
		if *steps++; *steps > gridBudget {
			return true
		}
		for i, k := range keys {
			run[k] = values[i][idx[i]]
		}
		if s.Keeps(run) {
			return true
		}
		if !nextCombination(idx, values) {
			return false
		}
	}
}

// nextCombination advances idx, an index into each of values, to the next
// combination, the last index fastest; it reports false, with idx back at
// the first, after the last combination.
func nextCombination(idx []int, values [][]string) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i]++; idx[i] < len(values[i]) {
			return true
		}
		idx[i] = 0
	}
	return false
}

// Keeps applies the sweep's Exclude and Include filters to one run, given
// by its axis values keyed as Filter.Match keys them.
func (s *Sweep) Keeps(run map[string]string) bool {
	for _, f := range s.Exclude {
		if f.matches(run) {
			return false
		}
	}
	if len(s.Include) == 0 {
		return true
	}
	for _, f := range s.Include {
		if f.matches(run) {
			return true
		}
	}
	return false
}

// matches reports whether every key of f has its value in run.
func (f Filter) matches(run map[string]string) bool {
	for k, v := range f.Match {
		if got, ok := run[k]; !ok || got != v {
			return false
		}
	}
	return true
}
