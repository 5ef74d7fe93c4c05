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
