package params

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type example struct {
	Nodes  int64   `hcl:"nodes,optional" doc:"machine size"`
	Load   float64 `hcl:"load,optional" doc:"target load"`
	Exact  bool    `hcl:"exact,optional"`
	Name   string  `hcl:"name,optional"`
	hidden int     // unexported: never a parameter
	Plain  int
}

func TestSetAndDescribe(t *testing.T) {
	p := &example{Nodes: 128, Load: 0.7, hidden: 3} // hidden must not be listed
	if err := SetAll(p, []string{"nodes=320", "load = 0.9", "exact=true", "name=x"}); err != nil {
		t.Fatal(err)
	}
	if *p != (example{Nodes: 320, Load: 0.9, Exact: true, Name: "x", hidden: 3}) {
		t.Errorf("got %+v", *p)
	}
	want := []Field{
		{"nodes", "int", "320", int64(320), "machine size"},
		{"load", "float", "0.9", 0.9, "target load"},
		{"exact", "bool", "true", true, ""},
		{"name", "string", "x", "x", ""},
	}
	if diff := cmp.Diff(want, Describe(p)); diff != "" {
		t.Errorf("Describe (-want +got):\n%s", diff)
	}
	if got := String(p); got != "nodes=320 load=0.9 exact=true name=x" {
		t.Errorf("String = %q", got)
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"nodse=3", `unknown parameter "nodse"; known: exact, load, name, nodes`},
		{"nodse=3", `nodes (did you mean "nodes"?)`},
		{"nodes=3.5", `parameter "nodes": "3.5" is not a whole number`},
		{"load=high", `parameter "load": "high" is not a number`},
		{"exact=maybe", `parameter "exact": "maybe" is not true or false`},
		{"nodes", `parameter "nodes": want name=value`},
	}
	for _, tc := range tests {
		err := SetAll(&example{}, []string{tc.in})
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("SetAll(%q): got %v; want %q", tc.in, err, tc.msg)
		}
	}
}

func TestClone(t *testing.T) {
	p := &example{Nodes: 5, Name: "a"}
	c := Clone(p).(*example)
	c.Nodes = 7
	if p.Nodes != 5 || c.Name != "a" {
		t.Errorf("Clone shares or loses fields: original %+v, copy %+v", *p, *c)
	}
}

// shared is a group of knobs several parameter structs embed.
type shared struct {
	HalfLife int64  `hcl:"half_life,optional" doc:"decay"`
	Usage    string `hcl:"usage,optional" doc:"charge"`
}

type inner struct {
	Deep bool `hcl:"deep,optional" doc:"two levels down"`
}

type withShared struct {
	Order string `hcl:"order,optional" doc:"queue order"`
	shared
	Depth int64 `hcl:"depth,optional" doc:"reservations"`
	Nested
}

// Nested is exported and embeds a struct of its own.
type Nested struct {
	inner
}

// TestEmbedded: an embedded struct's parameters are the outer struct's, in
// its place, at any depth; Set reaches them; unknown names list them.
func TestEmbedded(t *testing.T) {
	p := &withShared{Order: "arrival", shared: shared{HalfLife: 86400, Usage: "procs"}, Depth: 1}
	if err := SetAll(p, []string{"half_life=60", "deep=true", "usage=dominant"}); err != nil {
		t.Fatal(err)
	}
	if p.HalfLife != 60 || p.Usage != "dominant" || !p.Deep {
		t.Errorf("SetAll did not reach the embedded fields: %+v", *p)
	}
	var names []string
	for _, f := range Describe(p) {
		names = append(names, f.Name+"="+f.Default+" ("+f.Doc+")")
	}
	want := []string{"order=arrival (queue order)", "half_life=60 (decay)", "usage=dominant (charge)", "depth=1 (reservations)", "deep=true (two levels down)"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("Describe (-want +got):\n%s", diff)
	}
	err := Set(p, "halflife", "1")
	if err == nil || !strings.Contains(err.Error(), "known: deep, depth, half_life, order, usage") {
		t.Errorf("Set of an unknown name: got %v; want the flattened names listed", err)
	}
	// String is what run keys hash: a run that varies an embedded
	// parameter must get a key of its own.
	if got, want := String(p), "order=arrival half_life=60 usage=dominant depth=1 deep=true"; got != want {
		t.Errorf("String = %q; want %q", got, want)
	}
	if c := Clone(p).(*withShared); c.HalfLife != 60 || c.shared != p.shared {
		t.Errorf("Clone lost the embedded fields: %+v", *c)
	}
}

// TestDuplicateName: a name given twice, once through an embedded struct,
// is a programmer error that Describe reports by panicking.
func TestDuplicateName(t *testing.T) {
	type twice struct {
		shared
		Usage string `hcl:"usage,optional"`
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `parameter "usage" twice`) {
			t.Errorf("got panic %v; want one naming the parameter given twice", r)
		}
	}()
	Describe(&twice{})
}

// TestStringOmitZero checks that a field tagged params:"omitzero" is left
// out of String while zero and written like any other once set.
func TestStringOmitZero(t *testing.T) {
	type later struct {
		Nodes int64   `hcl:"nodes,optional"`
		Users int64   `hcl:"users,optional" params:"omitzero"`
		Skew  float64 `hcl:"skew,optional" params:"omitzero"`
	}
	for _, tc := range []struct {
		name string
		p    later
		want string
	}{
		{"both zero", later{Nodes: 4}, "nodes=4"},
		{"one set", later{Nodes: 4, Users: 9}, "nodes=4 users=9"},
		{"both set", later{Users: 9, Skew: 1.5}, "nodes=0 users=9 skew=1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(&tc.p); got != tc.want {
				t.Errorf("String = %q; want %q", got, tc.want)
			}
			var back later
			if err := SetAll(&back, strings.Fields(tc.want)); err != nil {
				t.Fatal(err)
			}
			if back != tc.p {
				t.Errorf("SetAll(String) = %+v; want %+v", back, tc.p)
			}
		})
	}
}

// TestKey: against the defaults, an embedded struct's field is left out
// while it keeps its default and written once it differs; the struct's own
// fields are written as String writes them; a nil base writes every field.
func TestKey(t *testing.T) {
	base := &withShared{Order: "arrival", shared: shared{HalfLife: 86400, Usage: "procs"}, Depth: 1}
	p := Clone(base).(*withShared)
	if got, want := Key(p, base), "order=arrival depth=1"; got != want {
		t.Errorf("Key at the defaults = %q; want %q", got, want)
	}
	p.HalfLife, p.Order = 60, "sjf"
	if got, want := Key(p, base), "order=sjf half_life=60 depth=1"; got != want {
		t.Errorf("Key with half_life set = %q; want %q", got, want)
	}
	if got, want := Key(p, nil), String(p); got != want {
		t.Errorf("Key against nil = %q; want String's %q", got, want)
	}
}
