// Package params reads and sets the fields of a parameter struct by the
// names in its `hcl` tags, so that a model's or policy's parameters are named
// the same on the command line (--param k=v) and in experiment files.
// workloads and policies only declare such structs (their tests set them
// through it); runner/spec, runner and the command line read and set them.
//
// A parameter struct is a struct whose exported fields carry
// `hcl:"name,optional"` and a one-line `doc:"..."`; supported field types are
// bool, the signed integer kinds (sim.Time included), float64 and string.
//
// An embedded struct without an `hcl` tag is flattened: its parameters are
// the outer struct's, in its place, so knobs several policies share are
// declared once. Two parameters of one struct, flattened or not, must not
// share a name.
// A field added to a struct that run keys already hash can carry
// `params:"omitzero"`: String leaves it out while it is zero, so the
// canonical text, and the keys and seeds derived from it, of every setting
// made before the field existed stay the same.
package params

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
)

// Field describes one parameter.
type Field struct {
	Name    string // the hcl name
	Type    string // bool, int, float or string
	Default string // the value in the struct given to Describe, as text
	Value   any    // the same value typed: bool, int64, float64 or string
	Doc     string
}

// Describe lists the parameters of the struct p points to, in field order,
// those of embedded structs in their place. It panics if p is not a
// pointer to a struct, or two parameters share a name (programmer errors).
func Describe(p any) []Field {
	v := structValue(p)
	var out []Field
	for _, f := range fieldsOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		out = append(out, Field{Name: f.name, Type: kindName(fv.Kind()), Default: format(fv), Value: typed(fv), Doc: f.doc})
	}
	return out
}

// Set parses value into the parameter called name of the struct p points
// to. An unknown name lists the known ones; a bad value names the parameter.
func Set(p any, name, value string) error {
	v := structValue(p)
	var names []string
	for _, f := range fieldsOf(v.Type()) {
		if f.name != name {
			names = append(names, f.name)
			continue
		}
		if err := parse(v.FieldByIndex(f.index), value); err != nil {
			return fmt.Errorf("parameter %q: %w", name, err)
		}
		return nil
	}
	sort.Strings(names)
	msg := fmt.Sprintf("unknown parameter %q; known: %s", name, strings.Join(names, ", "))
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}

// SetAll applies "name=value" assignments in order.
func SetAll(p any, assignments []string) error {
	for _, a := range assignments {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("parameter %q: want name=value", a)
		}
		if err := Set(p, strings.TrimSpace(name), strings.TrimSpace(value)); err != nil {
			return err
		}
	}
	return nil
}

// Clone returns a pointer to a copy of the struct p points to. Parameter
// structs hold values (scalars and structs of scalars), so the copy shares
// nothing with p.
func Clone(p any) any {
	v := structValue(p)
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	return c.Interface()
}

// String renders the parameters as "name=value" pairs in field order, with
// the fields of embedded structs in their place, the form SetAll reads
// back. It leaves out the fields tagged `params:"omitzero"` whose value is
// zero (SetAll then leaves them at zero too).
func String(p any) string { return Key(p, nil) }

// Key renders the parameters as String does, for a key that names a run:
// a field of an embedded struct (the knobs several policies share) is left
// out while it equals its value in base, the defaults, so that the keys of
// runs made before those knobs counted in keys stay what they were; once
// set to another value it is written like any field. base must point to
// the same struct type as p; nil base writes every field.
func Key(p, base any) string {
	v := structValue(p)
	var b reflect.Value
	if base != nil {
		if b = structValue(base); b.Type() != v.Type() {
			panic(fmt.Sprintf("params: Key of %v against %v", v.Type(), b.Type()))
		}
	}
	var parts []string
	for _, f := range fieldsOf(v.Type()) {
		fv := v.FieldByIndex(f.index)
		switch {
		case f.omitzero && fv.IsZero():
			continue
		case len(f.index) > 1 && base != nil && fv.Equal(b.FieldByIndex(f.index)):
			continue
		}
		parts = append(parts, f.name+"="+format(fv))
	}
	return strings.Join(parts, " ")
}

func structValue(p any) reflect.Value {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("params: want a pointer to a struct, got %T", p))
	}
	return v.Elem()
}

// field is one parameter of a struct type: where it is and what it is called.
type field struct {
	index []int // for reflect.Value.FieldByIndex
	name  string
	doc   string
	// omitzero: String leaves the field out while it is zero (the tag
	// `params:"omitzero"`).
	omitzero bool
}

// fieldsOf lists the parameters of struct type t, flattening embedded
// structs without an hcl tag. It panics on a name given twice.
func fieldsOf(t reflect.Type) []field {
	var out []field
	seen := map[string]bool{}
	var walk func(t reflect.Type, at []int)
	walk = func(t reflect.Type, at []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			index := append(append([]int(nil), at...), i)
			if _, tagged := f.Tag.Lookup("hcl"); f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct {
				walk(f.Type, index)
				continue
			}
			name, ok := hclName(f)
			if !ok {
				continue
			}
			if seen[name] {
				panic(fmt.Sprintf("params: %v declares parameter %q twice", t, name))
			}
			seen[name] = true
			out = append(out, field{index: index, name: name, doc: f.Tag.Get("doc"), omitzero: f.Tag.Get("params") == "omitzero"})
		}
	}
	walk(t, nil)
	return out
}

func hclName(f reflect.StructField) (string, bool) {
	tag, ok := f.Tag.Lookup("hcl")
	if !ok || !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	return name, name != ""
}

func kindName(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Float32, reflect.Float64:
		return "float"
	case reflect.String:
		return "string"
	}
	panic(fmt.Sprintf("params: unsupported parameter kind %v", k))
}

func format(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.String:
		return v.String()
	}
	panic(fmt.Sprintf("params: unsupported parameter kind %v", v.Kind()))
}

func typed(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Float32, reflect.Float64:
		return v.Float()
	case reflect.String:
		return v.String()
	}
	panic(fmt.Sprintf("params: unsupported parameter kind %v", v.Kind()))
}

func parse(v reflect.Value, s string) error {
	switch v.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		v.SetInt(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		v.SetFloat(f)
	case reflect.String:
		v.SetString(s)
	default:
		panic(fmt.Sprintf("params: unsupported parameter kind %v", v.Kind()))
	}
	return nil
}
