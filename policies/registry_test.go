package policies_test

import (
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
)

func TestRegistry(t *testing.T) {
	for _, e := range policies.Entries() {
		t.Run(e.Name, func(t *testing.T) {
			p, err := policies.NewDefault(e.Name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name() != e.Name {
				t.Errorf("the default %s names itself %q", e.Name, p.Name())
			}
			if e.Params == nil {
				return
			}
			for _, f := range params.Describe(e.Params()) {
				if f.Doc == "" {
					t.Errorf("parameter %q has no doc", f.Name)
				}
			}
		})
	}
	e, _ := policies.Lookup("easy")
	pp := e.Params()
	if err := params.Set(pp, "order", "sjf"); err != nil {
		t.Fatal(err)
	}
	if p, err := e.New(pp); err != nil || p.Name() != "easy/shortest-first" {
		t.Errorf("easy with order=sjf: got %v, %v; want easy/shortest-first", p, err)
	}
	params.Set(pp, "order", "lifo")
	if _, err := e.New(pp); err == nil || !strings.Contains(err.Error(), `"lifo" is not arrival or sjf`) {
		t.Errorf("easy with order=lifo: got %v; want an error naming the value", err)
	}
}
