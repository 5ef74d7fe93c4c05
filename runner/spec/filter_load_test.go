package spec

import (
	"strings"
	"testing"
)

// TestLoadFilterMatchesNothing checks the warning for a filter on a load
// the sweep does not have, on either load axis.
func TestLoadFilterMatchesNothing(t *testing.T) {
	for _, tc := range []struct{ axis, filter, want string }{
		{"load_factors = [1, 2]", "load_factor = 3", "Load factor 3 is not one of the sweep's load factors."},
		{"offered_loads = [0.5]", "offered_load = 0.9", "Offered load 0.9 is not one of the sweep's offered loads."},
	} {
		src := `experiment "f" { seed = 1 }
cluster "c" { procs = 64 }
workload "w" {
  model  = "lublin"
  params = { nodes = 64 }
  jobs   = 10
}
policy "fcfs" {}
policy "easy" {}
sweep {
  cluster   = cluster.c
  workloads = [workload.w]
  policies  = [policy.fcfs, policy.easy]
  ` + tc.axis + `
  exclude {
    ` + tc.filter + `
  }
}
`
		_, diags := Parse("f.hcl", []byte(src), nil)
		if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "Filter matches nothing" || !strings.Contains(diags[0].Detail, tc.want) {
			t.Errorf("%s, filter %s: got %v; want one warning %q", tc.axis, tc.filter, diags, tc.want)
		}
	}
}
