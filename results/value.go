package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the type of a parameter Value. The zero Kind is invalid, so a zero
// Value is caught rather than written as an empty string.
type Kind uint8

// Parameter kinds; each maps to one column type in runs.parquet.
const (
	KindString Kind = iota + 1 // Parquet string (UTF-8), dictionary-encoded
	KindInt                    // Parquet int64
	KindFloat                  // Parquet double
	KindBool                   // Parquet boolean
)

var kindNames = [...]string{KindString: "string", KindInt: "int", KindFloat: "float", KindBool: "bool"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Value is one typed parameter value. Only the field Kind selects is
// meaningful; the others stay zero.
//
// Its JSON form is an object with one member named by the kind, e.g.
// {"float":0.8} or {"string":"easy"}, so that a float that happens to be
// whole, 1.0, comes back as a float. Every Value round-trips exactly except
// a NaN or infinite float, which JSON cannot carry (marshalling fails).
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Float float64
	Bool  bool
}

// StringValue returns a KindString Value.
func StringValue(s string) Value { return Value{Kind: KindString, Str: s} }

// IntValue returns a KindInt Value.
func IntValue(i int64) Value { return Value{Kind: KindInt, Int: i} }

// FloatValue returns a KindFloat Value.
func FloatValue(f float64) Value { return Value{Kind: KindFloat, Float: f} }

// BoolValue returns a KindBool Value.
func BoolValue(b bool) Value { return Value{Kind: KindBool, Bool: b} }

// String formats v canonically: strings as they are, integers in decimal,
// floats with strconv.FormatFloat(f, 'g', -1, 64) (the shortest form that
// reads back to the same float: 0.8, 1, 1e+21), booleans as true or false.
func (v Value) String() string {
	switch v.Kind {
	case KindString:
		return v.Str
	case KindInt:
		return strconv.FormatInt(v.Int, 10)
	case KindFloat:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	case KindBool:
		return strconv.FormatBool(v.Bool)
	}
	return fmt.Sprintf("%%!(%v)", v.Kind)
}

// valueJSON is Value's JSON form; exactly one field is set.
type valueJSON struct {
	String *string  `json:"string,omitempty"`
	Int    *int64   `json:"int,omitempty"`
	Float  *float64 `json:"float,omitempty"`
	Bool   *bool    `json:"bool,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (v Value) MarshalJSON() ([]byte, error) {
	var j valueJSON
	switch v.Kind {
	case KindString:
		j.String = &v.Str
	case KindInt:
		j.Int = &v.Int
	case KindFloat:
		j.Float = &v.Float
	case KindBool:
		j.Bool = &v.Bool
	default:
		return nil, fmt.Errorf("value of invalid %v", v.Kind)
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements json.Unmarshaler. It fails unless exactly one
// kind is given.
func (v *Value) UnmarshalJSON(b []byte) error {
	var j valueJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var out Value
	n := 0
	if j.String != nil {
		out, n = StringValue(*j.String), n+1
	}
	if j.Int != nil {
		out, n = IntValue(*j.Int), n+1
	}
	if j.Float != nil {
		out, n = FloatValue(*j.Float), n+1
	}
	if j.Bool != nil {
		out, n = BoolValue(*j.Bool), n+1
	}
	if n != 1 {
		return fmt.Errorf("value %s: want exactly one of string, int, float, bool", b)
	}
	*v = out
	return nil
}

// Param is one resolved run parameter. Name is snake_case, e.g. "workload",
// "policy", "load_factor", "replicate", "workload_nodes", "policy_order"; it
// becomes a column name in runs.parquet and a directory key under jobs/.
type Param struct {
	Name  string
	Value Value
}

// errEmptyName is wrapped by the writers when a parameter has no name.
var errEmptyName = errors.New("parameter with an empty name")

// PartitionDir returns the Hive partition path fragment for a run with the
// given sweep axes, in their order, joined by '/':
// "workload=lublin/policy=easy/load_factor=0.8/replicate=1". Values are
// formatted by Value.String.
//
// Names and values are percent-encoded as DuckDB's PARTITION_BY writes them
// and as DuckDB, pyarrow (segment_encoding "uri", its default), Polars, R
// arrow and Hive decode them: every byte except ASCII letters, digits and
// "-._~" becomes %XX with upper-case hex, so '/', '=', '%', ' ', '+' and ':'
// can never split or confuse a segment and "load_factor=0.8" stays readable.
// An empty value gives "name=" (DuckDB reads it back as the empty string);
// nothing is mapped to __HIVE_DEFAULT_PARTITION__ (NULL).
func PartitionDir(axes []Param) string {
	var b strings.Builder
	for i, a := range axes {
		if i > 0 {
			b.WriteByte('/')
		}
		escapeSegment(&b, a.Name)
		b.WriteByte('=')
		escapeSegment(&b, a.Value.String())
	}
	return b.String()
}

func escapeSegment(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}
