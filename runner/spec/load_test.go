package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestParseOfferedLoads checks the sweep's offered_loads: the targets
// replace the load factors (nil then), count as the load axis in the grid
// and filters match them by offered_load.
func TestParseOfferedLoads(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sweep string
		want  *Experiment
		warn  string // the summary of the one warning, if any
	}{
		{"targets",
			"sweep {\n  workloads     = [workload.w]\n  policies      = [policy.fcfs]\n  offered_loads = [0.7, 0.85, 0.95]\n}",
			expect(func(e *Experiment) { e.Sweep.LoadFactors, e.Sweep.OfferedLoads = nil, []float64{0.7, 0.85, 0.95} }), ""},
		{"a filter on a target",
			"sweep {\n  workloads     = [workload.w]\n  policies      = [policy.fcfs]\n  offered_loads = [0.7, 0.9]\n  exclude { offered_load = 0.9 }\n}",
			expect(func(e *Experiment) {
				e.Sweep.LoadFactors, e.Sweep.OfferedLoads = nil, []float64{0.7, 0.9}
				e.Sweep.Exclude = []Filter{{Match: map[string]string{"offered_load": "0.9"}}}
			}), ""},
		{"a filter on a target not swept",
			"sweep {\n  workloads     = [workload.w]\n  policies      = [policy.fcfs]\n  offered_loads = [0.7, 0.9]\n  exclude { offered_load = 0.8 }\n}",
			expect(func(e *Experiment) {
				e.Sweep.LoadFactors, e.Sweep.OfferedLoads = nil, []float64{0.7, 0.9}
				e.Sweep.Exclude = []Filter{{Match: map[string]string{"offered_load": "0.8"}}}
			}), "Filter matches nothing"},
		{"a filter on a load factor of a sweep of targets",
			"sweep {\n  workloads     = [workload.w]\n  policies      = [policy.fcfs]\n  offered_loads = [0.7, 0.9]\n  exclude { load_factor = 1 }\n}",
			expect(func(e *Experiment) {
				e.Sweep.LoadFactors, e.Sweep.OfferedLoads = nil, []float64{0.7, 0.9}
				e.Sweep.Exclude = []Filter{{Match: map[string]string{"load_factor": "1"}}}
			}), "Filter matches nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := file(expBlock, clusterBlock, lublinBlock, fcfsBlock, tc.sweep)
			got, diags := Parse(testFile, []byte(src), nil)
			if diags.HasErrors() {
				t.Fatalf("Parse diagnostics:\n%s", render(diags))
			}
			switch {
			case tc.warn == "" && len(diags) > 0:
				t.Errorf("got diagnostics %s; want none", render(diags))
			case tc.warn != "" && (len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Summary != tc.warn):
				t.Errorf("got diagnostics %s; want one warning %q", render(diags), tc.warn)
			}
			if diff := cmp.Diff(tc.want, got, cmpOpts...); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
			if n := got.Sweep.Loads(); n != len(got.Sweep.OfferedLoads) {
				t.Errorf("Loads() = %d; want %d", n, len(got.Sweep.OfferedLoads))
			}
		})
	}
}
