// Package params reads and sets the fields of a parameter struct by the
// names in its `hcl` tags, so that a model's or policy's parameters are named
// the same on the command line (--param k=v) and in experiment files.
// workloads and policies only declare such structs (their tests set them
// through it); runner/spec, runner and the command line read and set them.
//
// A parameter struct is a struct whose exported fields carry
// `hcl:"name,optional"` and a one-line `doc:"..."`; supported field types are
// bool, the signed integer kinds (sim.Time included), float64 and string.
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

// Describe lists the parameters of the struct p points to, in field order.
// It panics if p is not a pointer to a struct (a programmer error).
func Describe(p any) []Field {
	v := structValue(p)
	var out []Field
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, ok := hclName(f)
		if !ok {
			continue
		}
		out = append(out, Field{Name: name, Type: kindName(f.Type.Kind()), Default: format(v.Field(i)), Value: typed(v.Field(i)), Doc: f.Tag.Get("doc")})
	}
	return out
}

// Set parses value into the parameter called name of the struct p points
// to. An unknown name lists the known ones; a bad value names the parameter.
func Set(p any, name, value string) error {
	v := structValue(p)
	var names []string
	for i := range v.NumField() {
		f := v.Type().Field(i)
		n, ok := hclName(f)
		if !ok {
			continue
		}
		if n != name {
			names = append(names, n)
			continue
		}
		if err := parse(v.Field(i), value); err != nil {
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

// String renders the parameters as "name=value" pairs in field order, the
// form SetAll reads back.
func String(p any) string {
	var parts []string
	for _, f := range Describe(p) {
		parts = append(parts, f.Name+"="+f.Default)
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
