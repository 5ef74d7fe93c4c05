package workloads

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

func TestReadMachinesWagap(t *testing.T) {
	data := sharedTrace(t, "wagap-2013.swf.machines")
	groups, err := ReadMachines(bytes.NewReader(data), "wagap-2013.swf.machines")
	if err != nil {
		t.Fatal(err)
	}
	want := []NodeGroup{
		{ID: 0, Name: "zewura", Nodes: 20, CPUsPerNode: 80, Speed: 1, MemPerNode: 529426432 * 1024},
		{ID: 1, Name: "zegox", Nodes: 48, CPUsPerNode: 12, Speed: 1, MemPerNode: 94035968 * 1024},
	}
	if diff := cmp.Diff(want, groups); diff != "" {
		t.Errorf("wagap-2013.swf.machines (-want +got):\n%s", diff)
	}
	wantCap := sim.Resources{sim.Procs: 2176, sim.Memory: 20*529426432*1024 + 48*94035968*1024}
	if got := Capacity(groups); got != wantCap {
		t.Errorf("Capacity of wagap-2013.swf.machines: got %v; want %v", got, wantCap)
	}
}

func TestReadMachines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []NodeGroup
	}{
		{"empty", "", nil},
		{"spaces, comments, blank lines, crlf", "# id name nodes cpus speed ram\r\n\r\n; alea\n 3  big  2 4 1.5 1024 \r\n",
			[]NodeGroup{{ID: 3, Name: "big", Nodes: 2, CPUsPerNode: 4, Speed: 1.5, MemPerNode: 1 << 20}}},
		{"no memory", "0\ta\t1\t1\t1\t0", []NodeGroup{{Name: "a", Nodes: 1, CPUsPerNode: 1, Speed: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadMachines(strings.NewReader(tc.in), "m")
			if err != nil {
				t.Fatalf("ReadMachines(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ReadMachines(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestReadMachinesErrors(t *testing.T) {
	ok := "0\tzewura\t20\t80\t1\t529426432\n"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"five fields", ok + "1 zegox 48 12 1\n", "m:2: has 5 fields, want 6 (id name nodes cpus_per_node speed ram_per_node_KB)"},
		{"seven fields", "1 zegox 48 12 1 2 3\n", "m:1: has 7 fields, want 6"},
		{"bad id", "x zegox 48 12 1 2\n", `m:1: field 1 (id): "x" is not an integer`},
		{"huge id", "4294967296 zegox 48 12 1 2\n", `m:1: field 1 (id): "4294967296" is out of range`},
		{"zero nodes", "1 zegox 0 12 1 2\n", `m:1: field 3 (nodes): "0" is not positive`},
		{"negative cpus", "1 zegox 4 -12 1 2\n", `m:1: field 4 (cpus per node): "-12" is negative`},
		{"decimal cpus", "1 zegox 4 1.5 1 2\n", `m:1: field 4 (cpus per node): "1.5" is not an integer`},
		{"zero speed", "1 zegox 4 12 0 2\n", `m:1: field 5 (speed): "0" is not a positive number`},
		{"nan speed", "1 zegox 4 12 NaN 2\n", `m:1: field 5 (speed): "NaN" is not a positive number`},
		{"negative memory", "1 zegox 4 12 1 -2\n", `m:1: field 6 (memory per node): "-2" is negative`},
		{"memory overflow", "1 zegox 4 12 1 9007199254740993\n", `m:1: field 6 (memory per node): "9007199254740993" KB overflows int64 bytes`},
		{"total overflow", "1 a 4611686018427387904 2 1 0\n", "m:1: total processors or memory overflow int64"},
		{"repeated id", ok + "\n0 zegox 48 12 1 94035968\n", `m:3: node group 0 "zegox" repeats node group 0 "zewura"`},
		{"repeated name", ok + "1 zewura 48 12 1 94035968\n", `m:2: node group 1 "zewura" repeats node group 0 "zewura"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMachines(strings.NewReader(tc.in), "m")
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("ReadMachines(%q): got error %v; want a *ParseError starting %q", tc.in, err, tc.want)
			}
		})
	}
}
