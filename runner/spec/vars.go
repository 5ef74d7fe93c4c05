package spec

// This file evaluates variables (defaults, then command-line overrides)
// and local values (in dependency order).

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

var variableSchema = schema{what: "a variable block", attrs: []string{"description", "type", "default"}}

// variables returns the value of var: each variable's override, else its
// default, converted to its type if it declares one. A variable that
// failed is unknown, so that its uses report nothing more.
func (d *decoder) variables(blocks []*hclsyntax.Block, overrides map[string]string) cty.Value {
	constCtx := &hcl.EvalContext{Functions: d.ctx.Functions}
	vals := make(map[string]cty.Value)
	types := make(map[string]cty.Type) // of the variables whose type is valid
	for _, b := range blocks {
		name := b.Labels[0]
		attrs, _ := d.content(b.Body, variableSchema)
		d.str(attrs["description"])
		vals[name] = cty.DynamicVal
		ty, ok := d.varType(attrs["type"])
		if !ok {
			continue
		}
		types[name] = ty
		if _, given := overrides[name]; given {
			continue
		}
		a := attrs["default"]
		if a == nil {
			d.errorf(b.DefRange(), "No value for required variable",
				"Variable %q has no default; give it one, or a value on the command line with --var %s=VALUE.", name, name)
			continue
		}
		v, ok := d.evalIn(constCtx, a.Expr)
		if !ok {
			continue
		}
		if v, err := convert.Convert(v, ty); err == nil {
			vals[name] = v
		} else {
			d.errorf(a.Expr.Range(), "Invalid default value for variable",
				"The default of variable %q does not suit its type, %s: %s.", name, typeexpr.TypeString(ty), convertError(err))
		}
	}
	for _, name := range sortedKeys(overrides) {
		src := overrides[name]
		if _, ok := d.declared[rootVar][name]; !ok {
			d.unknownOverride(name, src)
			continue
		}
		ty, ok := types[name]
		if !ok {
			continue // its type is reported
		}
		v, ok := d.override(constCtx, name, src)
		if !ok {
			continue
		}
		if v, err := convert.Convert(v, ty); err == nil {
			vals[name] = v
			if v.Type() == cty.String && !v.IsNull() {
				d.cmdStrings[name] = v.AsString()
			}
		} else {
			d.commandf(name, src, "Invalid value for variable in --var",
				"variable %q has type %s, and this value does not suit it: %s.", name, typeexpr.TypeString(ty), convertError(err))
		}
	}
	return cty.ObjectVal(vals)
}

// varType reads a variable's type constraint, Terraform's: string,
// number, bool, list(…), set(…), map(…), object({…}), tuple([…]) or any.
// A variable without one takes any value.
func (d *decoder) varType(a *hclsyntax.Attribute) (cty.Type, bool) {
	if a == nil {
		return cty.DynamicPseudoType, true
	}
	ty, diags := typeexpr.TypeConstraint(a.Expr)
	d.diags = append(d.diags, diags...)
	return ty, !diags.HasErrors()
}

// convertError is a conversion error with the place in the value where it
// arose: "element 1: a number is required".
func convertError(err error) string {
	var pe cty.PathError
	if !errors.As(err, &pe) || len(pe.Path) == 0 {
		return err.Error()
	}
	var at []string
	for _, step := range pe.Path {
		switch step := step.(type) {
		case cty.IndexStep:
			if step.Key.Type() == cty.Number {
				at = append(at, "element "+step.Key.AsBigFloat().Text('f', -1))
			} else if step.Key.Type() == cty.String {
				at = append(at, fmt.Sprintf("key %q", step.Key.AsString()))
			}
		case cty.GetAttrStep:
			at = append(at, fmt.Sprintf("attribute %q", step.Name))
		}
	}
	return strings.Join(append(at, err.Error()), ": ")
}

// flagText is a command-line override as the user typed it, the way
// diagnostics about it begin: --var name=value.
func flagText(name, src string) string { return "--var " + name + "=" + src }

// commandf records an error about a command-line override. It has no
// Subject, as the command line is no file a snippet could show; its detail
// begins with the flag.
func (d *decoder) commandf(name, src, summary, format string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError, Summary: summary,
		Detail: flagText(name, src) + ": " + fmt.Sprintf(format, args...),
	})
}

// unknownOverride reports an override of a variable the file does not
// declare, suggesting the closest declared one or else listing them.
func (d *decoder) unknownOverride(name, src string) {
	declared := sortedKeys(d.declared[rootVar])
	detail := fmt.Sprintf("the file declares no variable %q.", name)
	switch s := withSuggestion(detail, name, declared); {
	case s != detail:
		detail = s
	case len(declared) == 0:
		detail += " It declares no variables at all."
	default:
		detail += " Its variables are " + strings.Join(declared, ", ") + "."
	}
	d.commandf(name, src, "Unknown variable in --var", "%s", detail)
}

// override evaluates a command-line value: an HCL expression, or the
// literal string when it does not parse as one and does not look like one
// either, or when it refers to something and is not a list, object,
// function call or quoted string (a bare word such as fcfs, a path such as
// results/x). Its problems are reported with commandf.
func (d *decoder) override(ctx *hcl.EvalContext, name, src string) (cty.Value, bool) {
	toks, _ := hclsyntax.LexExpression([]byte(src), flagText(name, src), hcl.InitialPos)
	if diags := checkDepth(toks); diags.HasErrors() {
		d.commandDiags(name, src, diags)
		return cty.NilVal, false
	}
	expr, diags := hclsyntax.ParseExpression([]byte(src), flagText(name, src), hcl.InitialPos)
	if diags.HasErrors() {
		if !looksLikeExpression(src) {
			return cty.StringVal(src), true
		}
		d.commandf(name, src, "Invalid expression in --var",
			"the value starts like an HCL expression but does not parse (%s, at column %d of the value). To pass it as a string, quote it: --var '%s=%q'.",
			strings.ToLower(diags[0].Summary), diags[0].Subject.Start.Column, name, src)
		return cty.NilVal, false
	}
	if diags := outOfRange(expr); diags.HasErrors() {
		d.commandDiags(name, src, diags)
		return cty.NilVal, false
	}
	if len(expr.Variables()) > 0 {
		switch expr.(type) {
		case *hclsyntax.TupleConsExpr, *hclsyntax.ObjectConsExpr, *hclsyntax.FunctionCallExpr, *hclsyntax.TemplateExpr:
		default:
			return cty.StringVal(src), true
		}
	}
	v, diags := expr.Value(ctx)
	d.commandDiags(name, src, diags)
	switch {
	case diags.HasErrors():
		return cty.NilVal, false
	case v.IsNull():
		return cty.NullVal(cty.DynamicPseudoType), true
	}
	return v, v.IsWhollyKnown()
}

// commandDiags records diagnostics about the expression of a command-line
// override as commandf does: without a Subject, the detail naming the flag.
func (d *decoder) commandDiags(name, src string, diags hcl.Diagnostics) {
	for _, dg := range diags {
		d.diags = append(d.diags, &hcl.Diagnostic{
			Severity: dg.Severity, Summary: dg.Summary + " in --var",
			Detail: flagText(name, src) + ": " + dg.Detail,
		})
	}
}

// looksLikeExpression reports whether src, which does not parse, was
// surely meant as an HCL expression rather than a bare string: it opens a
// list, object, parenthesis, quoted string or heredoc, or calls a function.
func looksLikeExpression(src string) bool {
	src = strings.TrimSpace(src)
	if src == "" {
		return false
	}
	if strings.ContainsRune("[{(\"", rune(src[0])) || strings.HasPrefix(src, "<<") {
		return true
	}
	i := strings.IndexFunc(src, func(r rune) bool { return !(r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) })
	return i > 0 && src[i] == '(' && hclsyntax.ValidIdentifier(src[:i])
}

// noteOverrides adds to each error about the file whose range holds a
// reference to a variable set on the command line, directly or through
// local values, where that value came from: it is wrong only at its use,
// but the fix is on the command line, not at the line shown.
func (d *decoder) noteOverrides(body *hclsyntax.Body, overrides map[string]string) {
	if len(overrides) == 0 {
		return
	}
	locals := make(map[string]hcl.Expression)
	var refs []hcl.Traversal
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.Block:
			if n.Type != blockLocals {
				break
			}
			for _, a := range n.Body.Attributes {
				if d.declared[rootLocal][a.Name] == a.NameRange {
					locals[a.Name] = a.Expr
				}
			}
		case *hclsyntax.ScopeTraversalExpr:
			refs = append(refs, n.Traversal)
		}
		return nil
	})
	// from adds to into the overridden variables t depends on, visiting
	// each local once (seen) so that shared and cyclic dependencies cost
	// no more than the locals themselves; it uses a stack of its own, as
	// a chain of locals can be as long as the file.
	from := func(t hcl.Traversal, into, seen map[string]bool) {
		todo := []hcl.Traversal{t}
		for len(todo) > 0 {
			t := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			name := refStep(t)
			switch t.RootName() {
			case rootVar:
				if _, given := overrides[name]; given {
					into[name] = true
				}
			case rootLocal:
				if e, ok := locals[name]; ok && !seen[name] {
					seen[name] = true
					todo = append(todo, e.Variables()...)
				}
			}
		}
	}
	for _, dg := range d.diags {
		if dg.Severity != hcl.DiagError || dg.Subject == nil || dg.Subject.Filename != d.file {
			continue
		}
		names, seen := make(map[string]bool), make(map[string]bool)
		for _, t := range refs {
			if t.SourceRange().Overlaps(*dg.Subject) {
				from(t, names, seen)
			}
		}
		for _, name := range sortedKeys(names) {
			dg.Detail += fmt.Sprintf(" The value of var.%s comes from the command line: %s.", name, flagText(name, overrides[name]))
		}
	}
}

// locals evaluates the local values in dependency order, each once, with
// an explicit stack rather than recursion so that a long chain of locals
// costs heap, not goroutine stack; the members of a dependency cycle are
// reported and left unknown. Each local is evaluated in a context holding
// only the locals it refers to, so the work is linear in the size of the
// file (building the whole local object for each would be quadratic).
func (d *decoder) locals(blocks []*hclsyntax.Block) {
	exprs := make(map[string]*hclsyntax.Attribute)
	var order []string // file order
	for _, b := range blocks {
		for _, nb := range b.Body.Blocks {
			d.errorf(nb.TypeRange, "Unsupported block type", "Blocks are not expected in a locals block, only NAME = VALUE definitions.")
		}
		for _, a := range sortedAttrs(b.Body) {
			if d.declared[rootLocal][a.Name] == a.NameRange {
				exprs[a.Name] = a
				d.localExprs[a.Name] = a.Expr
				order = append(order, a.Name)
			}
		}
	}
	vals := make(map[string]cty.Value, len(exprs))
	deps := make(map[string][]string, len(exprs))
	const (
		unvisited = iota
		visiting
		done
	)
	mark := make(map[string]int, len(exprs))
	// path holds the locals being visited, outermost first; next[i] is
	// the index of the next dependency of path[i] to visit.
	var path []string
	var next []int
	push := func(name string) {
		mark[name] = visiting
		deps[name] = localDeps(exprs[name].Expr, exprs)
		path = append(path, name)
		next = append(next, 0)
	}
	for _, root := range order {
		if mark[root] != unvisited {
			continue
		}
		push(root)
		for len(path) > 0 {
			top := len(path) - 1
			name := path[top]
			if ds := deps[name]; next[top] < len(ds) {
				dep := ds[next[top]]
				next[top]++
				switch mark[dep] {
				case unvisited:
					push(dep)
				case visiting:
					d.cycle(path, dep, exprs, vals)
				}
				continue
			}
			path, next = path[:top], next[:top]
			mark[name] = done
			d.local(name, exprs[name].Expr, deps[name], vals)
		}
	}
	d.ctx.Variables[rootLocal] = cty.ObjectVal(vals)
}

// local evaluates one local value whose dependencies are evaluated, and
// records it in vals; a member of a cycle, already in vals, is left so.
func (d *decoder) local(name string, expr hcl.Expression, deps []string, vals map[string]cty.Value) {
	if _, failed := vals[name]; failed {
		return // in a cycle
	}
	vals[name] = cty.DynamicVal
	if !d.checkRefs(expr) {
		return
	}
	own := make(map[string]cty.Value, len(deps))
	for _, dep := range deps {
		own[dep] = vals[dep]
	}
	ctx := d.ctx.NewChild()
	ctx.Variables = map[string]cty.Value{rootLocal: cty.ObjectVal(own)}
	if v, ok := d.evalIn(ctx, expr); ok {
		vals[name] = v
	}
}

// cycle reports the cycle that runs from dep along path and back to it,
// at dep's definition, and makes its members unknown.
func (d *decoder) cycle(path []string, dep string, exprs map[string]*hclsyntax.Attribute, vals map[string]cty.Value) {
	i := len(path) - 1
	for path[i] != dep {
		i--
	}
	loop := make([]string, 0, len(path)-i+1)
	for _, n := range path[i:] {
		loop = append(loop, "local."+n)
		vals[n] = cty.DynamicVal
	}
	loop = append(loop, "local."+dep)
	d.errorf(exprs[dep].NameRange, "Cycle in local values",
		"Local values refer to each other in a loop: %s.", strings.Join(loop, " → "))
}

// localDeps lists the locals expr refers to, each once, in the order of
// first reference.
func localDeps(expr hcl.Expression, exprs map[string]*hclsyntax.Attribute) []string {
	var deps []string
	seen := make(map[string]bool)
	for _, t := range expr.Variables() {
		if t.RootName() != rootLocal {
			continue
		}
		name := refStep(t)
		if _, declared := exprs[name]; declared && !seen[name] {
			seen[name] = true
			deps = append(deps, name)
		}
	}
	return deps
}

// fromCommandLine reports whether the path p, the value of expr, begins
// with whole elements given by the string value of a variable set on the
// command line that expr
// refers to, directly or through local values: then the command line gave
// the path, or its leading folders, and it is relative to the current
// directory as every other path on a command line is, not to the file's.
func (d *decoder) fromCommandLine(expr hcl.Expression, p string) bool {
	if len(d.cmdStrings) == 0 {
		return false
	}
	seen := make(map[string]bool)
	todo := expr.Variables()
	for len(todo) > 0 {
		t := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		name := refStep(t)
		switch t.RootName() {
		case rootVar:
			if v, ok := d.cmdStrings[name]; ok && leadingElements(p, v) {
				return true
			}
		case rootLocal:
			if e, ok := d.localExprs[name]; ok && !seen[name] {
				seen[name] = true
				todo = append(todo, e.Variables()...)
			}
		}
	}
	return false
}

// leadingElements reports whether v, not empty, gives the whole of path p
// or whole leading elements of it: "data" or "data/" in "data/x.swf", not
// "x" in "x.swf".
func leadingElements(p, v string) bool {
	if v == "" || !strings.HasPrefix(p, v) {
		return false
	}
	rest := p[len(v):]
	return rest == "" || os.IsPathSeparator(rest[0]) || os.IsPathSeparator(v[len(v)-1])
}
