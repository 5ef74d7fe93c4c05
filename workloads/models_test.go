package workloads

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
)

// TestModelParams checks that every model parameter is named and
// documented, and that the defaults survive a round trip through the
// "name=value" form the command line uses.
func TestModelParams(t *testing.T) {
	f, j := DefaultFeitelsonParams(), DefaultJannParams()
	tests := []struct {
		name     string
		defaults any
		fresh    any
	}{
		{"feitelson", &f, &FeitelsonParams{}},
		{"jann", &j, &JannParams{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, fd := range params.Describe(tc.defaults) {
				if fd.Doc == "" {
					t.Errorf("parameter %q: got no doc; want one", fd.Name)
				}
			}
			if err := params.SetAll(tc.fresh, strings.Fields(params.String(tc.defaults))); err != nil {
				t.Fatalf("SetAll(String(defaults)) = %v", err)
			}
			if diff := cmp.Diff(tc.defaults, tc.fresh); diff != "" {
				t.Errorf("defaults after a round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func BenchmarkModel(b *testing.B) {
	models := []struct {
		name string
		new  func() (sim.Source, error)
	}{
		{"feitelson", func() (sim.Source, error) { return NewFeitelson(DefaultFeitelsonParams(), 1) }},
		{"jann", func() (sim.Source, error) { return NewJann(DefaultJannParams(), 1) }},
	}
	for _, m := range models {
		b.Run(m.name, func(b *testing.B) {
			src, err := m.new()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := src.Next(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
