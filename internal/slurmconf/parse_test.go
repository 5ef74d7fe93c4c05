package slurmconf_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/internal/slurmconf"
)

func TestParseTime(t *testing.T) {
	tests := []struct {
		in        string
		secs      int64
		unlimited bool
	}{
		{"90", 90 * 60, false},                // minutes
		{"5:30", 5*60 + 30, false},            // min:sec
		{"2:05:07", 2*3600 + 5*60 + 7, false}, // h:m:s
		{"3-4", 3*86400 + 4*3600, false},      // d-h
		{"3-4:30", 3*86400 + 4*3600 + 30*60, false},
		{"3-4:30:15", 3*86400 + 4*3600 + 30*60 + 15, false},
		{"2-", 2 * 86400, false}, // sscanf reads the days alone
		{"0", 0, false},
		{"UNLIMITED", 0, true},
		{"infinite", 0, true},
		{"-1", 0, true},
	}
	for _, tc := range tests {
		secs, unl, err := slurmconf.ParseTime(tc.in)
		if err != nil || secs != tc.secs || unl != tc.unlimited {
			t.Errorf("ParseTime(%q) = %d, %t, %v; want %d, %t, nil", tc.in, secs, unl, err, tc.secs, tc.unlimited)
		}
	}
	for _, bad := range []string{"", "1h", "-5", ":5", "5:", "1::2", "1-2-3", "1:2:3:4", "1-:30", "x", "1.5"} {
		if _, _, err := slurmconf.ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q): no error", bad)
		}
	}
}

// partitionTimes reads the MaxTime of partitions whose lines give it.
func TestPartitionTimesInMinutes(t *testing.T) {
	conf := "NodeName=n[1-2] CPUs=4\n" +
		"PartitionName=a Nodes=ALL MaxTime=90\n" +
		"PartitionName=b Nodes=ALL MaxTime=1:30\n" + // 90 s, rounded up to 2 minutes
		"PartitionName=c Nodes=ALL MaxTime=1-2:03:04 Default=YES\n" +
		"PartitionName=d Nodes=ALL MaxTime=UNLIMITED DefaultTime=10\n"
	c, err := slurmconf.Parse("t.conf", []byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, p := range c.Partitions {
		got = append(got, p.MaxTime)
	}
	want := []int64{5400, 120, 86400 + 2*3600 + 4*60, 0}
	if !cmp.Equal(got, want) {
		t.Errorf("MaxTime of a, b, c, d = %v; want %v", got, want)
	}
	if c.Partitions[3].DefaultTime != 600 {
		t.Errorf("DefaultTime of d = %d; want 600", c.Partitions[3].DefaultTime)
	}
	cfg, _, err := c.Cluster()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Partitions[0].Name != "c" {
		t.Errorf("first partition %q; want c, the Default=YES one", cfg.Partitions[0].Name)
	}
}

func TestDefaults(t *testing.T) {
	conf := `# keys in any case, DEFAULT lines merged key by key
nodename=DEFAULT cpus=8 RealMemory=1000 Features=a
NodeName=x[1-2]
NodeName=DEFAULT RealMemory=2000
NodeName=y1 Feature=b
NodeName=z1 CPUs=16 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2
NodeName=w1 Boards=2 SocketsPerBoard=2 CoresPerSocket=3
NodeName=v1 CPUs=7 Sockets=2 CoresPerSocket=2
PartitionName=DEFAULT MaxNodes=4 PriorityJobFactor=3
PartitionName=p Nodes=x[1-2] Default=yes
PartitionName=DEFAULT MaxNodes=UNLIMITED
PartitionName=q Nodes=ALL Priority=7
`
	c, err := slurmconf.Parse("d.conf", []byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	type node struct {
		cpus, mem int64
		feat      []string
	}
	var got []node
	for _, n := range c.Nodes {
		got = append(got, node{n.CPUs, n.RealMemory, n.Features})
	}
	want := []node{
		{8, 1000, []string{"a"}},
		{8, 2000, []string{"b"}}, // its own Feature wins over the default's Features
		{16, 2000, []string{"a"}},
		{12, 2000, []string{"a"}}, // 2 boards × 2 sockets × 3 cores; CPUs=8 of the default matches nothing
		{4, 2000, []string{"a"}},  // CPUs=7 matches no product: Slurm uses 2×2×1
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(node{})); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	p, q := c.Partitions[0], c.Partitions[1]
	if p.MaxNodes != 4 || p.PriorityJobFactor != 3 || !p.Default || q.MaxNodes != 0 || q.PriorityJobFactor != 7 || q.PriorityTier != 7 {
		t.Errorf("partitions p %+v q %+v; want p MaxNodes 4, factor 3, default; q MaxNodes 0, factor and tier 7", p, q)
	}
}

func TestLineSyntax(t *testing.T) {
	conf := "ClusterName=\"my cluster\"   # a quoted value\n" +
		"NodeName=n[1-4] \\\n   CPUs=4 Features=x\\#y # continued\n" +
		"PartitionName=all Nodes=ALL Default=YES\r\n" +
		"\n   \t\n"
	c, err := slurmconf.Parse("s.conf", []byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Options["ClusterName"].Value; got != "my cluster" {
		t.Errorf("ClusterName = %q; want %q", got, "my cluster")
	}
	n := c.Nodes[0]
	if n.CPUs != 4 || !cmp.Equal(n.Features, []string{"x#y"}) || n.Pos.Line != 2 || len(n.Names) != 4 {
		t.Errorf("node line %+v; want 4 CPUs, feature x#y, line 2, 4 names", n)
	}
	if p := c.Partitions[0]; p.Pos.Line != 4 {
		t.Errorf("partition at line %d; want 4 (the continued line counts twice)", p.Pos.Line)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, conf, want string
	}{
		{"unknown option", "ClusterName=a\nPriorityWeigthAge=5\n", `e.conf:2: PriorityWeigthAge="5": unknown option PriorityWeigthAge (did you mean PriorityWeightAge?)`},
		{"two options on a line", "PriorityWeightAge=5 PriorityWeightQOS=1\n", `e.conf:1: PriorityWeightAge="5": "PriorityWeightQOS=1" follows the value`},
		{"unknown node key", "NodeName=n1 CPU=4\n", `e.conf:1: CPU="4": NodeName lines have no key CPU (did you mean CPUs?)`},
		{"bad time", "NodeName=n1\nPartitionName=p Nodes=n1 MaxTime=1-x\n", `e.conf:2: MaxTime="1-x": not a Slurm time`},
		{"bad number", "NodeName=n1 RealMemory=12GB\n", `e.conf:1: RealMemory="12GB": not a whole number`},
		{"bad hostlist", "NodeName=n[1-\n", `e.conf:1: NodeName="n[1-": hostlist`},
		{"duplicate node", "NodeName=n[1-3]\nNodeName=n3\n", `e.conf:2: NodeName="n3": node n3 is declared already at e.conf:1`},
		{"duplicate partition", "NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=p Nodes=n1\n", `e.conf:3: PartitionName="p": partition p is declared already at e.conf:2`},
		{"bad boolean", "NodeName=n1\nPartitionName=p Nodes=n1 Default=maybe\n", `e.conf:2: Default="maybe": not a boolean`},
		{"bad state", "NodeName=n1\nPartitionName=p Nodes=n1 State=OPEN\n", `e.conf:2: State="OPEN": not a partition state`},
		{"operator", "NodeName=n1 CPUs+=4\n", `e.conf:1: NodeName="n1": CPUs+=: the operators`},
		{"empty value", "ClusterName=\n", `e.conf:1: ClusterName= has no value`},
		{"unclosed quote", "ClusterName=\"abc\n", `e.conf:1: ClusterName: the quote of "\"abc" is not closed`},
		{"no pair", "just words\n", `e.conf:1: "just words" is not a key=value pair`},
		{"include", "Include other.conf\n", `e.conf:1: Include="other.conf": Include needs the file on disk`},
		{"node ALL", "NodeName=ALL\n", `e.conf:1: NodeName="ALL": ALL is a reserved word`},
		{"gres", "NodeName=n1 Gres=gpu:a:b:c\n", `e.conf:1: Gres="gpu:a:b:c": gres "gpu:a:b:c" is not gpu`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := slurmconf.Parse("e.conf", []byte(tc.conf))
			var e *slurmconf.Error
			if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Parse(%q) = %v; want an *Error beginning %q", tc.conf, err, tc.want)
			}
		})
	}
}

func TestTranslationErrors(t *testing.T) {
	tests := []struct {
		name, conf, want string
	}{
		{"no nodes", "ClusterName=a\n", "e.conf: no NodeName line"},
		{"unknown node in partition", "NodeName=n[1-2]\nPartitionName=p Nodes=n[2-3]\n", `e.conf:2: Nodes="n[2-3]": partition p names node n3, which no NodeName line declares`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := slurmconf.Parse("e.conf", []byte(tc.conf))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = c.Cluster()
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Cluster() = %v; want an error beginning %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ conf, want string }{
		{"PriorityCalcPeriod=0\n", `e.conf:1: PriorityCalcPeriod="0": must be at least one minute`},
		{"PriorityMaxAge=UNLIMITED\n", `e.conf:1: PriorityMaxAge="UNLIMITED": UNLIMITED is not modelled`},
		{"PriorityType=priority/fancy\n", `e.conf:1: PriorityType="priority/fancy": not priority/basic`},
		{"SchedulerParameters=bf_window=0\n", `e.conf:1: SchedulerParameters="bf_window=0": bf_window: "0" is not a whole number from 1`},
		{"PriorityWeightAge=-3\n", `e.conf:1: PriorityWeightAge="-3": not a whole number`},
	} {
		c, err := slurmconf.Parse("e.conf", []byte(tc.conf))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Params(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Params() of %q = %v; want an error beginning %q", tc.conf, err, tc.want)
		}
	}
}

func TestInclude(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("slurm.conf", "ClusterName=Dune\ninclude nodes/%c.conf\nPartitionName=p Nodes=ALL\n")
	write("nodes/dune.conf", "NodeName=n[1-2] CPUs=4\nInclude more.conf\n")
	write("nodes/more.conf", "NodeName=m1 CPUs=2 Oops\n")
	_, err := slurmconf.Read(filepath.Join(dir, "slurm.conf"))
	if want := filepath.Join(dir, "nodes/more.conf") + `:1: NodeName="m1": "Oops" is not a key=value pair`; err == nil || err.Error() != want {
		t.Errorf("Read with a bad included file: %v; want %s", err, want)
	}
	write("nodes/more.conf", "NodeName=m1 CPUs=2\n")
	c, err := slurmconf.Read(filepath.Join(dir, "slurm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Nodes) != 2 || c.Nodes[1].Pos.File != filepath.Join(dir, "nodes/more.conf") {
		t.Errorf("nodes %+v; want n[1-2] then m1 from nodes/more.conf", c.Nodes)
	}
	write("loop.conf", "Include loop.conf\n")
	if _, err := slurmconf.Read(filepath.Join(dir, "loop.conf")); err == nil || !strings.Contains(err.Error(), "a cycle?") {
		t.Errorf("Read of a file that includes itself: %v; want the nesting error", err)
	}
}
