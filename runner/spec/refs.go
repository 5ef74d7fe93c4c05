package spec

// This file holds what expressions may refer to: the roots var, local,
// cluster, workload and policy, block references as cty values, the check
// that every reference names something declared, and the evaluation of an
// expression with that check in front.

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/schedsweep/schedsweep/internal/suggest"
)

// The block kinds an expression can refer to, and the other roots.
const (
	kindCluster  = "cluster"
	kindWorkload = "workload"
	kindPolicy   = "policy"
	rootVar      = "var"
	rootLocal    = "local"
)

// roots are the names a reference may start with, in the order messages
// list them.
var roots = []string{rootVar, rootLocal, kindCluster, kindWorkload, kindPolicy}

// blockRef is what cluster.NAME, workload.NAME and policy.NAME evaluate to:
// a capsule holding the block's kind and name. One pointer exists per
// declared block, so cty's default pointer equality compares references.
type blockRef struct {
	Kind, Name string
}

var refType = cty.CapsuleWithOps("block reference", reflect.TypeOf(blockRef{}), &cty.CapsuleOps{
	GoString: func(v any) string {
		r := v.(*blockRef)
		return r.Kind + "." + r.Name
	},
	TypeGoString: func(reflect.Type) string { return "spec.refType" },
})

// asRef returns the block v refers to, if v is a block reference.
func asRef(v cty.Value) (*blockRef, bool) {
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(refType) {
		return nil, false
	}
	return v.EncapsulatedValue().(*blockRef), true
}

// kindTitle is a kind as a message's subject: "workload", "local value".
func kindTitle(root string) string {
	switch root {
	case rootVar:
		return "variable"
	case rootLocal:
		return "local value"
	}
	return root
}

// checkRefs reports every reference in expr whose root is not one of roots
// or whose name is not declared, with a suggestion. It returns false if it
// reported anything.
func (d *decoder) checkRefs(expr hcl.Expression) bool {
	ok := true
	for _, t := range expr.Variables() {
		if !d.checkRef(t) {
			ok = false
		}
	}
	return ok
}

func (d *decoder) checkRef(t hcl.Traversal) bool {
	root := t.RootName()
	rootRange := t[0].SourceRange()
	names, known := d.declared[root]
	if !known {
		detail := fmt.Sprintf("There is no %q here. References start with %s, as in var.NAME or workload.NAME.", root, strings.Join(roots, ", "))
		d.errorf(rootRange, "Unknown reference", "%s", withSuggestion(detail, root, roots))
		return false
	}
	if len(t) < 2 {
		d.errorf(t.SourceRange(), "Invalid reference", "A reference to %s must name one, as in %s.NAME.", kindTitle(root), root)
		return false
	}
	name := refStep(t)
	if name == "" {
		d.errorf(t[1].SourceRange(), "Invalid reference", "A reference to %s must name one, as in %s.NAME.", kindTitle(root), root)
		return false
	}
	if _, ok := names[name]; ok {
		return true
	}
	list := sortedKeys(names)
	detail := fmt.Sprintf("There is no %s block named %q.", root, name)
	if root == rootVar || root == rootLocal {
		detail = fmt.Sprintf("There is no %s named %q in this file.", kindTitle(root), name)
	}
	d.errorf(hcl.RangeBetween(rootRange, t[1].SourceRange()), "Reference to unknown "+kindTitle(root), "%s", withSuggestion(detail, name, list))
	return false
}

// refStep returns the name a reference's second step gives, written
// root.NAME or root["NAME"]; "" if it gives none.
func refStep(t hcl.Traversal) string {
	if len(t) < 2 {
		return ""
	}
	switch step := t[1].(type) {
	case hcl.TraverseAttr:
		return step.Name
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			return step.Key.AsString()
		}
	}
	return ""
}

// eval checks expr's references and evaluates it. It returns false when the
// value cannot be used: an error (reported here) or an unknown value, which
// only comes from a variable or local whose own error is already reported.
func (d *decoder) eval(expr hcl.Expression) (cty.Value, bool) {
	if !d.checkRefs(expr) {
		return cty.NilVal, false
	}
	return d.evalIn(d.ctx, expr)
}

// evalIn evaluates expr in ctx, giving every diagnostic a range.
func (d *decoder) evalIn(ctx *hcl.EvalContext, expr hcl.Expression) (cty.Value, bool) {
	v, diags := expr.Value(ctx)
	for _, dg := range diags {
		if dg.Subject == nil {
			r := expr.Range()
			dg.Subject = &r
		}
	}
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// refObject is the value of a root cluster, workload or policy: an object
// whose attributes are the declared blocks' references.
func refObject(kind string, names map[string]hcl.Range) cty.Value {
	attrs := make(map[string]cty.Value, len(names))
	for n := range names {
		attrs[n] = cty.CapsuleVal(refType, &blockRef{Kind: kind, Name: n})
	}
	return cty.ObjectVal(attrs)
}

// withSuggestion appends "Did you mean …?" to detail when a candidate is
// close to name.
func withSuggestion(detail, name string, candidates []string) string {
	if s := suggest.Closest(name, candidates); s != "" && s != name {
		return fmt.Sprintf("%s Did you mean %q?", detail, s)
	}
	return detail
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortedAttrs returns a body's attributes in source order (the parser keeps
// them in a map).
func sortedAttrs(b *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}
