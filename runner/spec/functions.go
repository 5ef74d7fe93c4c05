package spec

import (
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// maxRange is the most elements range may return: cty's range (as
// Terraform's) stops at 1024 itself, so this is its limit, said up front
// with the length asked for.
const maxRange = 1024

// functions returns the functions experiment files may call: those of
// Terraform's that cty's standard library provides, less the ones with
// no use here (dates, CSV, byte strings) and setproduct (a grid of its own
// whose size a typo can blow up), plus sum, try and can. range is limited
// to maxRange elements. Every call gets a new map; the functions are
// deterministic.
func functions() map[string]function.Function {
	return map[string]function.Function{
		// Numbers.
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"log": stdlib.LogFunc, "max": stdlib.MaxFunc, "min": stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc, "signum": stdlib.SignumFunc,
		"sum": sumFunc,
		// Strings.
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "replace": stdlib.ReplaceFunc,
		"split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimspace": stdlib.TrimSpaceFunc, "trimsuffix": stdlib.TrimSuffixFunc, "upper": stdlib.UpperFunc,
		// Collections.
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc,
		"coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "keys": stdlib.KeysFunc,
		"length": stdlib.LengthFunc, "lookup": stdlib.LookupFunc, "merge": stdlib.MergeFunc,
		"range": rangeFunc, "reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc, "slice": stdlib.SliceFunc,
		"sort": stdlib.SortFunc, "values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		// Encoding.
		"jsondecode": stdlib.JSONDecodeFunc, "jsonencode": stdlib.JSONEncodeFunc,
		// Type conversion.
		"tobool": stdlib.MakeToFunc(cty.Bool), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)), "tonumber": stdlib.MakeToFunc(cty.Number),
		"toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)), "tostring": stdlib.MakeToFunc(cty.String),
		// Errors.
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
	}
}

// rangeFunc is stdlib's range, refusing to build more than maxRange
// elements.
var rangeFunc = function.New(&function.Spec{
	Description: stdlib.RangeFunc.Description(),
	VarParam:    stdlib.RangeFunc.VarParam(),
	Type:        function.StaticReturnType(cty.List(cty.Number)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if n, ok := rangeLen(args); ok && n > maxRange {
			return cty.NilVal, fmt.Errorf("range would have %.0f elements; at most %d are allowed", n, maxRange)
		}
		return stdlib.RangeFunc.Call(args)
	},
})

// rangeLen estimates how many elements range(args...) has; ok is false when
// the arguments are not numbers range accepts (range itself then says why).
func rangeLen(args []cty.Value) (float64, bool) {
	var f [3]float64
	for i, a := range args {
		if i >= len(f) || a.IsNull() || !a.IsKnown() || a.Type() != cty.Number {
			return 0, false
		}
		f[i], _ = a.AsBigFloat().Float64()
	}
	start, end, step := 0.0, 0.0, 1.0
	switch len(args) {
	case 1:
		end = f[0]
	case 2:
		start, end = f[0], f[1]
		if end < start {
			step = -1
		}
	case 3:
		start, end, step = f[0], f[1], f[2]
	default:
		return 0, false
	}
	if step == 0 || math.IsNaN(step) {
		return 0, false
	}
	n := math.Ceil((end - start) / step)
	if math.IsNaN(n) {
		return 0, false
	}
	return n, true
}

// sumFunc adds up a list, set or tuple of numbers, as Terraform's sum does.
var sumFunc = function.New(&function.Spec{
	Description: "Returns the total of a collection of numbers.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		l := args[0]
		ty := l.Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "sum needs a list, set or tuple of numbers, not %s", ty.FriendlyName())
		}
		if !l.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if l.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "sum of an empty collection")
		}
		total := new(big.Float)
		for it := l.ElementIterator(); it.Next(); {
			_, v := it.Element()
			if v.IsNull() || v.Type() != cty.Number {
				return cty.NilVal, function.NewArgErrorf(0, "sum needs numbers, found %s", v.Type().FriendlyName())
			}
			total.Add(total, v.AsBigFloat())
		}
		return cty.NumberVal(total), nil
	},
})
