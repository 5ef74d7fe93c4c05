package alea_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// line builds a wagap line: id, submit, run time, field 5, limit, field
// 10 bytes, queue, request; the other fields as wagap-2013 has them.
func line(id, submit, run, procs, limit, mem, queue, req string) string {
	return strings.Join([]string{id, submit, "0", run, procs, "1", "1024", procs, limit, mem,
		"1", "62", "1", "1", "-1", "1", "1", "1", "{1}", queue, req}, " ")
}

type readCase struct {
	name  string
	line  string
	nodes int32
	ppn   int32
	memKB int64
	excl  bool
	run   sim.Time
	est   sim.Time
	props string
}

func TestReadRules(t *testing.T) {
	const gb = "1073741824"
	cases := []readCase{
		{"nodes from field 5 not N:", line("1", "10", "100", "64", "3600", gb, "q_1d", "3:ppn=16"), 4, 16, 1 << 20, false, 100, 3600, "3:ppn=16:^cl_zigur:^cl_zegox"},
		{"integer quotient", line("2", "10", "100", "20", "3600", gb, "q_1d", "2:ppn=8"), 2, 8, 1 << 20, false, 100, 3600, "2:ppn=8"},
		{"fractional ppn cut at the dot", line("3", "10", "100", "3", "3600", gb, "q_1d", "2:ppn=1.5"), 3, 1, 1 << 20, false, 100, 3600, "2:ppn=1.5"},
		{"field 5 below ppn raised", line("4", "10", "100", "4", "3600", gb, "q_1d", "1:ppn=12"), 1, 12, 1 << 20, false, 100, 3600, "1:ppn=12:^cl_zigur"},
		{"two chunks: one node of all", line("5", "10", "100", "7", "3600", gb, "q_1d", "1:ppn=1+3:ppn=2"), 1, 7, 1 << 20, false, 100, 3600, "1:ppn=1+3:ppn=2"},
		{"bare count: one node of all", line("6", "10", "100", "2", "3600", gb, "q_1d", "2"), 1, 2, 1 << 20, false, 100, 3600, "2"},
		{"ppn above 16 refuses all three", line("7", "10", "100", "17", "3600", gb, "q_1d", "1:ppn=17"), 1, 17, 1 << 20, false, 100, 3600, "1:ppn=17:^cl_zigur:^cl_zegox:^cl_zapat"},
		{"excl anywhere", line("8", "10", "100", "8", "3600", gb, "q_1d", "1:ppn=8:cl_zewura#excl"), 1, 8, 1 << 20, true, 100, 3600, "1:ppn=8:cl_zewura#excl"},
		{"memory rounds to KB", line("9", "10", "100", "1", "3600", "1535", "q_1d", "1:ppn=1"), 1, 1, 1, false, 100, 3600, "1:ppn=1"},
		{"memory -1 is 1 KB", line("10", "10", "100", "1", "3600", "-1", "q_1d", "1:ppn=1"), 1, 1, 1, false, 100, 3600, "1:ppn=1"},
		{"run and limit 0 become 1", line("11", "10", "0", "1", "0", gb, "q_1d", "1:ppn=1"), 1, 1, 1 << 20, false, 1, 1, "1:ppn=1"},
		{"negative run becomes 1", line("12", "10", "-5", "1", "60", gb, "q_1d", "1:ppn=1"), 1, 1, 1 << 20, false, 1, 60, "1:ppn=1"},
		{"negative limit is the run time", line("13", "10", "50", "1", "-1", gb, "q_1d", "1:ppn=1"), 1, 1, 1 << 20, false, 50, 50, "1:ppn=1"},
		{"limit cut at the dot", line("14", "10", "50", "1", "70.9", gb, "q_1d", "1:ppn=1"), 1, 1, 1 << 20, false, 50, 70, "1:ppn=1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := alea.Read(strings.NewReader(tc.line+"\n"), "t.swf", alea.ReadOptions{DataSet: "wagap-2013.swf"})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Jobs) != 1 {
				t.Fatalf("got %d jobs; want 1", len(tr.Jobs))
			}
			r := tr.Jobs[0]
			want := sim.Shape{Nodes: tc.nodes, PerNode: tc.ppn, Exclusive: tc.excl, MemPerNode: tc.memKB * 1024}
			if d := cmp.Diff(want, r.Shape); d != "" {
				t.Errorf("shape (-want +got):\n%s", d)
			}
			if r.Need[sim.Procs] != int64(tc.nodes)*int64(tc.ppn) || r.Need[sim.Memory] != int64(tc.nodes)*tc.memKB*1024 {
				t.Errorf("need %v; want %d processors, %d bytes", r.Need, int64(tc.nodes)*int64(tc.ppn), int64(tc.nodes)*tc.memKB*1024)
			}
			if r.Runtime != tc.run || r.Estimate != tc.est || r.Preceding != -1 {
				t.Errorf("run %d, estimate %d, preceding %d; want %d, %d, -1", r.Runtime, r.Estimate, r.Preceding, tc.run, tc.est)
			}
			if got := tr.Props[r.ID]; got != tc.props {
				t.Errorf("props %q; want %q", got, tc.props)
			}
		})
	}
}

func TestReadDropsAndCounts(t *testing.T) {
	in := strings.Join([]string{
		"; header",
		line("1", "-1", "100", "1", "60", "1024", "q", "1:ppn=1"), // field 2 -1: dropped
		line("2", "10", "-1", "1", "60", "1024", "q", "1:ppn=1"),  // field 4 -1: dropped
		line("3", "10", "5", "-1", "60", "1024", "q", "1:ppn=1"),  // field 5 -1: dropped
		"4 10 5", // fewer than 5 fields: dropped
		line("5", "10", "5", "x", "60", "1024", "q", "1:ppn=1"),    // field 5 not a number: 1 processor
		line("6", "10", "5", "3000", "60", "1024", "q", "1:ppn=1"), // above MaxPE: cut
		line("7", "10", "5", "0", "60", "1024", "q", "1:ppn=2"),    // below ppn: raised
	}, "\n")
	tr, err := alea.Read(strings.NewReader(in), "t.swf", alea.ReadOptions{DataSet: "wagap-2013.swf", MaxPE: 1600})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{2, 3, 4, 5}, tr.Dropped); d != "" {
		t.Errorf("dropped lines (-want +got):\n%s", d)
	}
	var procs []int64
	for _, r := range tr.Jobs {
		procs = append(procs, r.Need[sim.Procs])
	}
	if d := cmp.Diff([]int64{1, 1600, 2}, procs); d != "" || tr.BadProcs != 1 || tr.Capped != 1 || tr.Raised != 1 {
		t.Errorf("processors %v, bad %d, capped %d, raised %d; want [1 1600 2], 1, 1, 1", procs, tr.BadProcs, tr.Capped, tr.Raised)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct{ name, in, ds, want string }{
		{"data set", line("1", "10", "5", "1", "60", "1024", "q", "1:ppn=1"), "hpc2n.swf", `data set "hpc2n.swf"`},
		{"ppn", line("1", "10", "5", "1", "60", "1024", "q", "1:ppn=x"), "wagap.swf", `t.swf:1: field 21 (node request): "1:ppn=x": ppn "x" is not an integer`},
		{"zero ppn", line("1", "10", "5", "1", "60", "1024", "q", "1:ppn=0"), "wagap.swf", `ppn 0 is not positive`},
		{"short line", "1 10 0 5 1 1", "wagap.swf", "t.swf:1: has 6 fields, want 21"},
		{"submit", line("1", "x", "5", "1", "60", "1024", "q", "1:ppn=1"), "wagap.swf", `t.swf:1: field 2: "x" is not an integer`},
		{"memory", line("1", "10", "5", "1", "60", "1k", "q", "1:ppn=1"), "wagap.swf", `field 10: "1k" is not an integer`},
		{"repeated id", line("1", "10", "5", "1", "60", "1", "q", "1:ppn=1") + "\n" + line("1", "11", "5", "1", "60", "1", "q", "1:ppn=1"), "wagap.swf", `t.swf:2: field 1 (job id): "1" repeats`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := alea.Read(strings.NewReader(tc.in), "t.swf", alea.ReadOptions{DataSet: tc.ds})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
		})
	}
}
