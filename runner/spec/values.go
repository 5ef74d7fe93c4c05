package spec

// This file turns evaluated arguments into Go values, strictly: a number
// argument takes a number, not a string that looks like one.

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// state is what reading an argument found.
type state uint8

const (
	unset   state = iota // absent or null: the default applies
	invalid              // an error, already reported
	set                  // a value of the right type
)

// item is a value with the range of the expression it came from.
type item struct {
	v   cty.Value
	rng hcl.Range
}

// value evaluates a (which may be nil).
func (d *decoder) value(a *hclsyntax.Attribute) (item, state) {
	if a == nil {
		return item{}, unset
	}
	v, ok := d.eval(a.Expr)
	switch {
	case !ok:
		return item{}, invalid
	case v.IsNull():
		return item{}, unset
	}
	return item{v, a.Expr.Range()}, set
}

// wrongType reports a value of the wrong type; want reads "a number".
func (d *decoder) wrongType(it item, what, want string) {
	got := "null"
	if !it.v.IsNull() {
		got = it.v.Type().FriendlyName()
	}
	d.errorf(it.rng, "Incorrect attribute value type", "Inappropriate value for %s: %s is required, not %s.", what, want, got)
}

// quoted is an argument's name as messages show it.
func quoted(a *hclsyntax.Attribute) string { return strconv.Quote(a.Name) }

// str reads a string argument.
func (d *decoder) str(a *hclsyntax.Attribute) (string, state) {
	it, st := d.value(a)
	if st != set {
		return "", st
	}
	s, ok := d.asString(it, quoted(a))
	if !ok {
		return "", invalid
	}
	return s, set
}

// boolean reads a bool argument.
func (d *decoder) boolean(a *hclsyntax.Attribute) (bool, state) {
	it, st := d.value(a)
	if st != set {
		return false, st
	}
	if it.v.Type() != cty.Bool {
		d.wrongType(it, quoted(a), "a bool")
		return false, invalid
	}
	return it.v.True(), set
}

// intArg reads a whole-number argument in lo..hi.
func (d *decoder) intArg(a *hclsyntax.Attribute, summary string, lo, hi int64) (int64, state) {
	it, st := d.value(a)
	if st != set {
		return 0, st
	}
	n, ok := d.asInt(it, quoted(a), summary, lo, hi)
	if !ok {
		return 0, invalid
	}
	return n, set
}

// list reads a list, set or tuple argument, each element with its own
// range when the argument is written as [ … ].
func (d *decoder) list(a *hclsyntax.Attribute) ([]item, state) {
	it, st := d.value(a)
	if st != set {
		return nil, st
	}
	return d.elements(a, it)
}

// elements splits it, the value of a, into the elements of a list, set or
// tuple, as list does.
func (d *decoder) elements(a *hclsyntax.Attribute, it item) ([]item, state) {
	ty := it.v.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		d.wrongType(it, quoted(a), "a list")
		return nil, invalid
	}
	vals := it.v.AsValueSlice()
	var exprs []hclsyntax.Expression
	if t, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok && len(t.Exprs) == len(vals) {
		exprs = t.Exprs
	}
	items := make([]item, len(vals))
	for i, v := range vals {
		items[i] = item{v, it.rng}
		if exprs != nil {
			items[i].rng = exprs[i].Range()
		}
	}
	return items, set
}

func (d *decoder) asString(it item, what string) (string, bool) {
	if it.v.IsNull() || it.v.Type() != cty.String {
		d.wrongType(it, what, "a string")
		return "", false
	}
	return it.v.AsString(), true
}

func (d *decoder) asNumber(it item, what string) (*big.Float, bool) {
	if it.v.IsNull() || it.v.Type() != cty.Number {
		d.wrongType(it, what, "a number")
		return nil, false
	}
	return it.v.AsBigFloat(), true
}

// asInt reads a whole number in lo..hi; summary heads the message for one
// that is not whole or out of range.
func (d *decoder) asInt(it item, what, summary string, lo, hi int64) (int64, bool) {
	f, ok := d.asNumber(it, what)
	if !ok {
		return 0, false
	}
	if !f.IsInt() {
		d.errorf(it.rng, summary, "%s must be a whole number, not %s.", upperFirst(what), numText(f))
		return 0, false
	}
	n, acc := f.Int64()
	if acc != big.Exact || n < lo || n > hi {
		d.errorf(it.rng, summary, "%s must be %s, not %s.", upperFirst(what), rangeText(lo, hi), numText(f))
		return 0, false
	}
	return n, true
}

// asUint reads a whole number ≥ 0 that fits in a uint64.
func (d *decoder) asUint(it item, what, summary string) (uint64, bool) {
	f, ok := d.asNumber(it, what)
	if !ok {
		return 0, false
	}
	if !f.IsInt() {
		d.errorf(it.rng, summary, "%s must be a whole number, not %s.", upperFirst(what), numText(f))
		return 0, false
	}
	n, acc := f.Uint64()
	if acc != big.Exact {
		d.errorf(it.rng, summary, "%s must be a whole number from 0 to 2^64 − 1, not %s.", upperFirst(what), numText(f))
		return 0, false
	}
	return n, true
}

// asPositive reads a finite number > 0.
func (d *decoder) asPositive(it item, what, summary string) (float64, bool) {
	f, ok := d.asNumber(it, what)
	if !ok {
		return 0, false
	}
	x, _ := f.Float64()
	if !(x > 0) || math.IsInf(x, 0) {
		d.errorf(it.rng, summary, "%s must be a number greater than 0, not %s.", upperFirst(what), numText(f))
		return 0, false
	}
	return x, true
}

// rangeText says which whole numbers lo..hi allows.
func rangeText(lo, hi int64) string {
	switch {
	case hi == math.MaxInt64 && lo == 0:
		return "a whole number ≥ 0"
	case hi == math.MaxInt64:
		return "a whole number ≥ " + strconv.FormatInt(lo, 10)
	}
	return "a whole number from " + strconv.FormatInt(lo, 10) + " to " + strconv.FormatInt(hi, 10)
}

// upperFirst capitalizes s's first letter, to start a sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// numText renders a number for messages. It goes through float64: big.Float's
// own decimal conversion takes seconds for an exponent such as 1e9999999.
// Numbers beyond float64 show their order of magnitude.
func numText(f *big.Float) string {
	x, _ := f.Float64()
	if !math.IsInf(x, 0) && (x != 0 || f.Sign() == 0) {
		return formatFloat(x)
	}
	sign := ""
	if f.Sign() < 0 {
		sign = "-"
	}
	exp := f.MantExp(nil)
	return fmt.Sprintf("%sabout 1e%d", sign, int(math.Round(float64(exp)*math.Log10(2))))
}

// formatFloat is the canonical text of a float: load factors and float
// parameters compare and print in this form.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// outOfRange reports every number written in node, and every string
// written there that reads as a number, whose magnitude is beyond float64:
// no quantity of an experiment needs one, and cty takes seconds to turn
// a number such as 1e9999999 into text, which indexing, interpolation and
// tostring all do.
func outOfRange(node hclsyntax.Node) hcl.Diagnostics {
	return hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		var diags hcl.Diagnostics
		check := func(v cty.Value, rng hcl.Range) {
			if text, bad := hugeValue(v); bad {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError, Summary: "Number out of range",
					Detail:  fmt.Sprintf("%s is beyond the range of a 64-bit float (about ±1.8e308, and no nearer to 0 than 4.9e-324).", text),
					Subject: rng.Ptr(),
				})
			}
		}
		var steps hcl.Traversal
		switch n := n.(type) {
		case *hclsyntax.LiteralValueExpr:
			check(n.Val, n.SrcRange)
		case *hclsyntax.ScopeTraversalExpr:
			steps = n.Traversal
		case *hclsyntax.RelativeTraversalExpr:
			steps = n.Traversal
		}
		for _, step := range steps {
			if ix, ok := step.(hcl.TraverseIndex); ok {
				check(ix.Key, ix.SrcRange)
			}
		}
		return diags
	})
}

// hugeValue reports whether v is a number, or a string that reads as one,
// beyond float64, and renders it.
func hugeValue(v cty.Value) (string, bool) {
	if v.IsNull() || !v.IsKnown() {
		return "", false
	}
	var f *big.Float
	text := ""
	switch v.Type() {
	case cty.Number:
		f = v.AsBigFloat()
	case cty.String:
		s := strings.TrimSpace(v.AsString())
		if len(s) > 1000 {
			return "", false
		}
		var err error
		if f, _, err = big.ParseFloat(s, 10, 64, big.ToNearestEven); err != nil {
			return "", false
		}
		text = strconv.Quote(s)
	default:
		return "", false
	}
	if f.IsInf() { // prints fast; "inf" may well be meant as text
		return "", false
	}
	if x, _ := f.Float64(); !math.IsInf(x, 0) && (x != 0 || f.Sign() == 0) {
		return "", false
	}
	if text == "" {
		text = numText(f)
	}
	return text, true
}
