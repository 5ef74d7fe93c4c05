package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestPlanShowsOfferedLoads checks that plan shows, for a sweep of target
// offered loads (the quickstart's), each run's target and the factor
// solved for its replicate, the same for every policy of a replicate.
func TestPlanShowsOfferedLoads(t *testing.T) {
	code, out, errOut := runCLI("plan", "quickstart")
	if code != exitOK {
		t.Fatalf("plan quickstart: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "offered load (factor)") {
		t.Errorf("plan quickstart: no column \"offered load (factor)\" in:\n%s", out)
	}
	row := regexp.MustCompile(`(?m)^[0-9a-f]{16}\s+lublin\s+(\w+)\s+(0\.7|0\.85|0\.95) \(([0-9.]+)\)\s+(\d)\s+3000$`)
	rows := row.FindAllStringSubmatch(out, -1)
	if len(rows) != 18 {
		t.Fatalf("plan quickstart: %d runs show a target and a factor; want 18:\n%s", len(rows), out)
	}
	factor := map[string]string{} // target and replicate → factor
	for _, m := range rows {
		k := m[2] + "/" + m[4]
		if f, ok := factor[k]; ok && f != m[3] {
			t.Errorf("target %s, replicate %s: policy %s has factor %s, another %s", m[2], m[4], m[1], m[3], f)
		}
		factor[k] = m[3]
	}
	if len(factor) != 6 {
		t.Errorf("got %d distinct target-and-replicate factors; want 6", len(factor))
	}
}
