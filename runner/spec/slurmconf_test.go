package spec

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// TestSlurmConfCluster reads a cluster from a slurm.conf: its node groups
// split by partition, named as the file names its nodes; its partitions,
// the default first; fit from the block; the warnings once per file even
// when two clusters name it.
func TestSlurmConfCluster(t *testing.T) {
	clusters := "cluster \"c\" {\n  slurm_conf = \"slurm/cluster.conf\"\n  fit = \"best\"\n}\n\n" +
		"cluster \"again\" {\n  slurm_conf = \"slurm/cluster.conf\"\n}"
	e, diags := Parse(testFile, []byte(file(expBlock, clusters, lublinBlock, fcfsBlock,
		"sweep {\n  cluster = cluster.c\n  workloads = [workload.w]\n  policies  = [policy.fcfs]\n}")), nil)
	if diags.HasErrors() {
		t.Fatalf("Parse diagnostics:\n%s", render(diags))
	}
	c := e.Sweep.Cluster
	var groups []string
	for _, g := range c.Nodes.Groups {
		groups = append(groups, g.Name)
	}
	if want := []string{"node[001-008]", "node[009-128]", "big[01-04]", "gpu[01-08]"}; !cmp.Equal(groups, want) {
		t.Errorf("node groups %q; want %q", groups, want)
	}
	if got := c.Nodes.Groups[0].Hosts; len(got) != 8 || got[0] != "node001" || got[7] != "node008" {
		t.Errorf("hosts of the first group %q; want node001 … node008", got)
	}
	want := []nodes.Partition{
		{Name: "batch", Groups: []string{"node[009-128]", "big[01-04]"}, MaxTime: 2 * 86400, MaxNodes: 64},
		{Name: "debug", Groups: []string{"node[001-008]"}, MaxTime: 1800, MaxNodes: 2},
		{Name: "bigmem", Groups: []string{"big[01-04]"}, MaxTime: 7 * 86400},
		{Name: "gpu", Groups: []string{"gpu[01-08]"}, MaxTime: 86400 + 12*3600},
	}
	if d := cmp.Diff(want, c.Nodes.Partitions); d != "" {
		t.Errorf("partitions (-want +got):\n%s", d)
	}
	wantCap := sim.Resources{sim.Procs: 132*32 + 8*48, sim.Memory: (136*192000 + 4*1536000) << 20, sim.GPUs: 32}
	if c.Nodes.Fit != nodes.BestFit || c.Capacity != wantCap || !strings.HasSuffix(c.SlurmConf, "testdata/slurm/cluster.conf") {
		t.Errorf("fit %v, capacity %v, slurm_conf %q; want best fit, %v, testdata/slurm/cluster.conf", c.Nodes.Fit, c.Capacity, c.SlurmConf, wantCap)
	}
	var warns []string
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			warns = append(warns, d.Detail)
		}
	}
	// The file's list of options not modelled, once, though two clusters
	// name the file; the translation of its nodes warns of nothing (the
	// PriorityTier warning belongs to the policy's parameters); and the
	// options no policy of the sweep reads, fcfs being no slurm policy.
	if len(warns) != 2 || !strings.Contains(warns[0], "not modelled, so ignored: AuthType, ClusterName, NodeName:TmpDisk") ||
		!strings.Contains(warns[1], "no policy of the sweep reads PriorityCalcPeriod, PriorityDecayHalfLife,") {
		t.Errorf("warnings:\n%s\nwant two, the list of options not modelled and those no policy reads", strings.Join(warns, "\n"))
	}
}

// TestApplySlurmParams sets a slurm.conf's parameters on the policy's
// defaults.
func TestApplySlurmParams(t *testing.T) {
	p := policies.DefaultSlurmParams()
	f, err := readSlurmFile("testdata/slurm/cluster.conf")
	if err != nil {
		t.Fatal(err)
	}
	as, _, err := f.Params()
	if err != nil {
		t.Fatal(err)
	}
	if err := ApplySlurmParams(p, as); err != nil {
		t.Fatal(err)
	}
	want := policies.DefaultSlurmParams()
	want.BfWindow, want.BfResolution, want.BfInterval, want.BfMaxJobTest, want.BfMaxJobUser = 2880*60, 300, 60, 1000, 50
	want.DefaultQueueDepth, want.SchedInterval = 200, 120
	want.WeightAge, want.WeightFairshare, want.WeightJobSize, want.WeightPartition, want.WeightQOS = 1000, 10000, 500, 2000, 3000
	want.MaxAge, want.DecayHalfLife, want.CalcPeriod, want.FavorSmall = 14*86400, 7*86400, 300, true
	want.Fairshare, want.PartitionFactor = "classic", "debug:10,batch:1,bigmem:5,gpu:3"
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("parameters (-want +got):\n%s", d)
	}
}
