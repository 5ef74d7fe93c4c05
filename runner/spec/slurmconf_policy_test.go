package spec

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/policies"
)

// TestSlurmConfPolicy reads the policy slurm's parameters from a
// slurm.conf, params = { … } over them; the file's warnings once though a
// cluster and the policy both name it.
func TestSlurmConfPolicy(t *testing.T) {
	src := file(expBlock, "cluster \"c\" {\n  slurm_conf = \"slurm/cluster.conf\"\n}", lublinBlock,
		"policy \"slurm\" {\n  slurm_conf = \"slurm/cluster.conf\"\n  params = { bf_window = 7200, priority_weight_qos = 1 }\n}",
		"sweep {\n  workloads = [workload.w]\n  policies  = [policy.slurm]\n}")
	e, diags := Parse(testFile, []byte(src), nil)
	if diags.HasErrors() {
		t.Fatalf("Parse diagnostics:\n%s", render(diags))
	}
	want := policies.DefaultSlurmParams()
	want.BfWindow, want.BfResolution, want.BfInterval, want.BfMaxJobTest, want.BfMaxJobUser = 7200, 300, 60, 1000, 50
	want.DefaultQueueDepth, want.SchedInterval = 200, 120
	want.WeightAge, want.WeightFairshare, want.WeightJobSize, want.WeightPartition, want.WeightQOS = 1000, 10000, 500, 2000, 1
	want.MaxAge, want.DecayHalfLife, want.CalcPeriod, want.FavorSmall = 14*86400, 7*86400, 300, true
	want.Fairshare, want.PartitionFactor = "classic", "debug:10,batch:1,bigmem:5,gpu:3"
	if d := cmp.Diff(want, e.Policies[0].Params); d != "" {
		t.Errorf("parameters (-want +got):\n%s", d)
	}
	var warns []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			warns = append(warns, d.Detail)
		}
	}
	// The file's list once (at the cluster, read first), then the
	// policy's two: PriorityFlags and PriorityTier; no "no policy reads".
	if len(warns) != 3 || !strings.Contains(warns[0], "not modelled, so ignored") ||
		!strings.Contains(warns[1], "SMALL_RELATIVE_TO_TIME") || !strings.Contains(warns[2], "PriorityTier") {
		t.Errorf("warnings:\n%s\nwant the list, then PriorityFlags and PriorityTier", strings.Join(warns, "\n"))
	}
}
