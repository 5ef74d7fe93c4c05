package spec

import (
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/workloads"
)

// TestParseSacct reads a sacct workload: its format, time zone and
// memory.
func TestParseSacct(t *testing.T) {
	w := "workload \"w\" {\n  trace = \"../../../workloads/testdata/sacct/states.txt\"\n  format = \"sacct\"\n  timezone = \"Europe/Prague\"\n  memory_field = \"requested\"\n}"
	e, diags := Parse(testFile, []byte(file(expBlock, clusterBlock, w, fcfsBlock, sweepBlock)), nil)
	if diags.HasErrors() {
		t.Fatalf("Parse diagnostics:\n%s", render(diags))
	}
	got := e.Workloads[0]
	if got.Format != "sacct" || got.TimeZone != "Europe/Prague" || got.SWF != (workloads.SWFOptions{Memory: workloads.RequestedMemory}) {
		t.Errorf("got format %q, zone %q, SWF %+v", got.Format, got.TimeZone, got.SWF)
	}
	if err := CheckAleaWorkload(got); err == nil || !strings.Contains(err.Error(), "is a sacct dump") {
		t.Errorf("CheckAleaWorkload: %v; want a sacct dump refused", err)
	}
	w = "workload \"w\" {\n  trace = \"tiny.swf\"\n  format = \"swf\"\n}"
	if e, diags = Parse(testFile, []byte(file(expBlock, clusterBlock, w, fcfsBlock, sweepBlock)), nil); diags.HasErrors() || e.Workloads[0].Format != "" {
		t.Errorf("format = \"swf\": %v, %q", diags, e.Workloads[0].Format)
	}
}
