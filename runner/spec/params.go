package spec

// This file sets the parameters of a model or policy from params = { … }
// and from the values of a vary axis, through the parameter struct the
// registry hands out (internal/params), and checks the result by building
// the model or policy once.

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/schedsweep/schedsweep/internal/params"
)

// owner is a model or policy whose parameters are being set.
type owner struct {
	kind string    // "model" or "policy"
	name string    // the registered name
	at   hcl.Range // the block, where an error without a better place goes
	// build constructs the model or policy from a parameter struct, to
	// validate it.
	build func(p any) error
}

// title is the owner in messages: `model "lublin"`.
func (o owner) title() string { return fmt.Sprintf("%s %q", o.kind, o.name) }

// paramField finds a parameter of p by its hcl name, reporting an unknown
// one at rng with a suggestion.
func (d *decoder) paramField(o owner, p any, name string, rng hcl.Range) (params.Field, bool) {
	var fields []params.Field
	if p != nil {
		fields = params.Describe(p)
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		if f.Name == name {
			return f, true
		}
		names[i] = f.Name
	}
	summary := "Unknown " + o.kind + " parameter"
	if len(names) == 0 {
		d.errorf(rng, summary, "The %s takes no parameters.", o.title())
		return params.Field{}, false
	}
	d.errorf(rng, summary, "%s", withSuggestion(fmt.Sprintf("The %s has no parameter %q.", o.title(), name), name, names)+
		" Its parameters are "+strings.Join(names, ", ")+".")
	return params.Field{}, false
}

// paramText converts v to the text params.Set reads for a parameter of
// type f.Type, reporting a value of the wrong type at rng.
func (d *decoder) paramText(o owner, f params.Field, v cty.Value, rng hcl.Range) (string, bool) {
	summary := "Invalid " + o.kind + " parameter"
	bad := func(want string) (string, bool) {
		got := "null"
		if !v.IsNull() {
			got = v.Type().FriendlyName()
		}
		d.errorf(rng, summary, "Parameter %q of the %s must be %s, not %s.", f.Name, o.title(), want, got)
		return "", false
	}
	if v.IsNull() {
		return bad("given")
	}
	switch f.Type {
	case "bool":
		if v.Type() != cty.Bool {
			return bad("a bool")
		}
		if v.True() {
			return "true", true
		}
		return "false", true
	case "string":
		if v.Type() != cty.String {
			return bad("a string")
		}
		return v.AsString(), true
	case "int", "float":
		if v.Type() != cty.Number {
			return bad("a number")
		}
		bf := v.AsBigFloat()
		if f.Type == "float" {
			x, _ := bf.Float64()
			if math.IsInf(x, 0) {
				d.errorf(rng, summary, "Parameter %q of the %s must be a finite number, not %s.", f.Name, o.title(), numText(bf))
				return "", false
			}
			return formatFloat(x), true
		}
		if !bf.IsInt() {
			d.errorf(rng, summary, "Parameter %q of the %s must be a whole number, not %s.", f.Name, o.title(), numText(bf))
			return "", false
		}
		n, acc := bf.Int64()
		if acc != big.Exact {
			d.errorf(rng, summary, "Parameter %q of the %s must be a whole number that fits in 64 bits, not %s.", f.Name, o.title(), numText(bf))
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	}
	panic("spec: parameter kind " + f.Type) // params.Describe knows no other
}

// setParam sets one parameter of p from v; rng locates v, keyRng the name.
func (d *decoder) setParam(o owner, p any, name string, v cty.Value, keyRng, rng hcl.Range) (string, bool) {
	f, ok := d.paramField(o, p, name, keyRng)
	if !ok {
		return "", false
	}
	text, ok := d.paramText(o, f, v, rng)
	if !ok {
		return "", false
	}
	if err := params.Set(p, name, text); err != nil {
		d.errorf(rng, "Invalid "+o.kind+" parameter", "The %s: %s.", o.title(), err)
		return "", false
	}
	return text, true
}

// setOrDefault is setParam for an entry of a params argument, where a null
// value leaves the parameter at its default, as null leaves any argument
// unset (in Terraform too); the name must still be one p has.
func (d *decoder) setOrDefault(o owner, p any, name string, v cty.Value, keyRng, rng hcl.Range) bool {
	if v.IsNull() {
		_, ok := d.paramField(o, p, name, keyRng)
		return ok
	}
	_, ok := d.setParam(o, p, name, v, keyRng, rng)
	return ok
}

// setParams applies a params = { … } argument to p and builds the owner
// once. It returns false if anything was wrong.
func (d *decoder) setParams(o owner, p any, a *hclsyntax.Attribute) bool {
	if a == nil {
		return d.validate(o, p, nil, o.at)
	}
	valueRanges := make(map[string]hcl.Range)
	var ok bool
	if pairs, diags := hcl.ExprMap(a.Expr); !diags.HasErrors() {
		ok = d.setParamPairs(o, p, pairs, valueRanges)
	} else {
		ok = d.setParamObject(o, p, a)
	}
	if !ok {
		return false
	}
	return d.validate(o, p, valueRanges, a.Expr.Range())
}

// setParamPairs applies the pairs of a params = { … } literal to p, in
// file order, recording where each value is in valueRanges. It returns
// false if anything was wrong, after trying every pair.
func (d *decoder) setParamPairs(o owner, p any, pairs []hcl.KeyValuePair, valueRanges map[string]hcl.Range) bool {
	ok := true
	for _, kv := range pairs {
		key := hcl.ExprAsKeyword(kv.Key)
		if key == "" {
			k, good := d.eval(kv.Key)
			if !good {
				ok = false
				continue
			}
			s, good := d.asString(item{k, kv.Key.Range()}, "a parameter name")
			if !good {
				ok = false
				continue
			}
			key = s
		}
		if first, dup := valueRanges[key]; dup {
			d.errorf(kv.Key.Range(), "Duplicate parameter",
				"Parameter %q is already set at %s; HCL would keep only the last value.", key, first)
			ok = false
			continue
		}
		valueRanges[key] = kv.Value.Range()
		v, good := d.eval(kv.Value)
		if !good {
			ok = false
			continue
		}
		if !d.setOrDefault(o, p, key, v, kv.Key.Range(), kv.Value.Range()) {
			ok = false
		}
	}
	return ok
}

// setParamObject applies a params value that is not a literal (a
// variable, a function's result) to p: an object or map, its keys in
// sorted order. It returns false if anything was wrong.
func (d *decoder) setParamObject(o owner, p any, a *hclsyntax.Attribute) bool {
	it, st := d.value(a)
	if st == invalid {
		return false
	}
	if st != set {
		return true
	}
	ty := it.v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		d.wrongType(it, quoted(a), "an object of parameters, as in { name = value }")
		return false
	}
	ok := true
	vals := it.v.AsValueMap()
	for _, k := range sortedKeys(vals) { // errors share a range: order them by name
		if !d.setOrDefault(o, p, k, vals[k], it.rng, it.rng) {
			ok = false
		}
	}
	return ok
}

// paramInError finds the parameter a constructor's error names.
var paramInError = regexp.MustCompile(`parameter "([^"]+)"`)

// validate builds the owner from p; an error is reported at the value of
// the parameter it names if that was given, else at fallback.
func (d *decoder) validate(o owner, p any, ranges map[string]hcl.Range, fallback hcl.Range) bool {
	err := o.build(p)
	if err == nil {
		return true
	}
	rng := fallback
	if m := paramInError.FindStringSubmatch(err.Error()); m != nil {
		if r, ok := ranges[m[1]]; ok {
			rng = r
		}
	}
	d.errorf(rng, "Invalid "+o.kind+" parameter", "The %s does not accept these parameters: %s.", o.title(), err)
	return false
}
