package spec

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// pendingMerge is a merge workload whose parts are not resolved yet: its
// merge argument a, whose value is v, may name workloads declared further
// down the file.
type pendingMerge struct {
	w *Workload
	a *hclsyntax.Attribute
	v item
}

// resolveMerges sets each merge workload's parts from its merge argument,
// a list of at least two workload references. A part may not be the merge
// itself or another merge; a part that failed to decode was reported with
// its block.
func (d *decoder) resolveMerges() {
	for _, m := range d.merges {
		items, st := d.elements(m.a, m.v)
		if st != set {
			continue
		}
		if len(items) < 2 {
			d.errorf(m.a.Expr.Range(), "Invalid merge",
				"A merge interleaves two or more workloads; this list has %d. Use the workload itself instead.", len(items))
			continue
		}
		seen := make(map[string]bool)
		for _, it := range items {
			name, ok := d.refName(it, kindWorkload, "an element of "+quoted(m.a))
			if !ok {
				continue
			}
			part := d.workloads[name]
			switch {
			case seen[name]:
				d.errorf(it.rng, "Invalid merge", "Workload %q is already a part of this merge; listed twice, its every job would be submitted twice.", name)
			case name == m.w.Name:
				d.errorf(it.rng, "Invalid merge", "Workload %q cannot merge itself.", name)
			case part == nil: // reported with its block
			case d.isMerge(part):
				d.errorf(it.rng, "Invalid merge", "Workload %q is itself a merge; list its parts here instead.", name)
			case d.runOptions[part] && !sameRunOptions(part, m.w):
				d.errorf(it.rng, "Conflicting run options",
					"Workload %q sets allow_overrun = %t and missing_estimate = %q; this merge has %t and %q. "+
						"The engine treats every job of a run alike, as the merge's block says: set them there, and on a part only to the same values.",
					name, part.AllowOverrun, Names("missing_estimate")[part.MissingEstimate],
					m.w.AllowOverrun, Names("missing_estimate")[m.w.MissingEstimate])
			default:
				m.w.Merge = append(m.w.Merge, part)
			}
			seen[name] = true
		}
	}
}

// isMerge reports whether w is a merge workload, resolved or not.
func (d *decoder) isMerge(w *Workload) bool {
	for _, m := range d.merges {
		if m.w == w {
			return true
		}
	}
	return false
}

// sameRunOptions reports whether workloads a and b treat their jobs alike
// in the engine: allow_overrun and missing_estimate.
func sameRunOptions(a, b *Workload) bool {
	return a.AllowOverrun == b.AllowOverrun && a.MissingEstimate == b.MissingEstimate
}
