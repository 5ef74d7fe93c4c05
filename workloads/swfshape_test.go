package workloads

import (
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// TestReaderShapes reads job shapes: the three mappings of processors,
// and Alea's fields 20 and 21 where a line has them.
func TestReaderShapes(t *testing.T) {
	// id submit wait run alloc cpu mem req_procs req_time req_mem status user group app queue partition prec think [19 20 21]
	line := func(procs int, mem int, extra string) string {
		return fmt.Sprintf("1 0 0 10 %d -1 -1 %d 20 %d 1 1 1 1 1 1 -1 -1 %s\n", procs, procs, mem, extra)
	}
	zewura := &sim.Where{Partition: "q_1d", Groups: []string{"zewura"}, Features: []string{"x86_64"}}
	tests := []struct {
		name  string
		opt   SWFOptions
		line  string
		need  sim.Resources
		shape sim.Shape
	}{
		{"tasks", SWFOptions{}, line(12, -1, ""), sim.Resources{sim.Procs: 12}, sim.Shape{}},
		{"tasks ignores fields 19 to 21", SWFOptions{}, line(12, -1, "{1,1} q_1d 1:ppn=12"), sim.Resources{sim.Procs: 12}, sim.Shape{}},
		{"whole nodes", SWFOptions{Shape: ShapeMode{Kind: ShapeWholeNodes}}, line(12, -1, ""), sim.Resources{sim.Procs: 12}, sim.Shape{Exclusive: true}},
		{"per node", SWFOptions{Shape: ShapeMode{Kind: ShapePerNode, K: 8}}, line(12, -1, ""), sim.Resources{sim.Procs: 16}, sim.Shape{Nodes: 2, PerNode: 8}},
		{"per node, memory spread", SWFOptions{Shape: ShapeMode{Kind: ShapePerNode, K: 8}, Memory: RequestedMemory, MemoryUnit: BytesPerJob},
			line(12, 1001, ""), sim.Resources{sim.Procs: 16, sim.Memory: 1001}, sim.Shape{Nodes: 2, PerNode: 8, MemPerNode: 501}},
		{"per node, one node", SWFOptions{Shape: ShapeMode{Kind: ShapePerNode, K: 8}}, line(3, -1, ""), sim.Resources{sim.Procs: 3}, sim.Shape{Nodes: 1, PerNode: 3}},
		{"request", SWFOptions{AleaFields: true, Memory: RequestedMemory, MemoryUnit: BytesPerJob},
			line(24, 3000, "{1} q_1d 2:ppn=12:x86_64:cl_zewura#excl"), sim.Resources{sim.Procs: 24, sim.Memory: 3000},
			sim.Shape{Nodes: 2, PerNode: 12, Exclusive: true, MemPerNode: 1500, Where: zewura}},
		{"request memory per node wins", SWFOptions{AleaFields: true, Memory: RequestedMemory, MemoryUnit: BytesPerJob},
			line(2, 3000, "-1 -1 2:mem=1kb"), sim.Resources{sim.Procs: 2, sim.Memory: 2048}, sim.Shape{Nodes: 2, PerNode: 1, MemPerNode: 1024}},
		{"request replaces processors", SWFOptions{AleaFields: true}, line(5, -1, "-1 -1 1:ppn=4"), sim.Resources{sim.Procs: 4}, sim.Shape{Nodes: 1, PerNode: 4}},
		{"queue only", SWFOptions{AleaFields: true}, line(4, -1, "-1 batch"), sim.Resources{sim.Procs: 4},
			sim.Shape{Where: &sim.Where{Partition: "batch"}}},
		{"no request: the shape option", SWFOptions{AleaFields: true, Shape: ShapeMode{Kind: ShapePerNode, K: 2}}, line(4, -1, "-1 -1 -1"),
			sim.Resources{sim.Procs: 4}, sim.Shape{Nodes: 2, PerNode: 2}},
		{"bad request", SWFOptions{AleaFields: true}, line(3, -1, "-1 q 2:ppn=1.5"), sim.Resources{sim.Procs: 3},
			sim.Shape{Where: &sim.Where{Partition: "q", Invalid: `x.swf:1: field 21 (node request): request "2:ppn=1.5": "ppn=1.5": processors per node "1.5" is not a positive integer`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := readAll(t, "x.swf", []byte(tc.line), tc.opt)
			if err != nil || len(recs) != 1 {
				t.Fatalf("%q: %d records, %v", tc.line, len(recs), err)
			}
			if d := cmp.Diff(tc.need, recs[0].Need); d != "" {
				t.Errorf("%q: need (-want +got):\n%s", tc.line, d)
			}
			if d := cmp.Diff(tc.shape, recs[0].Shape); d != "" {
				t.Errorf("%q: shape (-want +got):\n%s", tc.line, d)
			}
		})
	}
}

func TestReaderShapeErrors(t *testing.T) {
	_, err := readAll(t, "x.swf", []byte("1 0 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1 a b c d\n"), SWFOptions{AleaFields: true})
	if want := "x.swf:1: has 22 fields, want at most 21"; err == nil || err.Error() != want {
		t.Errorf("got %v; want %s", err, want)
	}
	_, err = readAll(t, "x.swf", []byte("1 0 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"), SWFOptions{Shape: ShapeMode{Kind: ShapePerNode}})
	if want := "x.swf: invalid SWFOptions.Shape per-node:0"; err == nil || err.Error() != want {
		t.Errorf("got %v; want %s", err, want)
	}
}

// TestReaderWagapRequests reads wagap-2013's requests through the reader:
// the 20 "ppn=1.5" requests and the 12 of two chunks are kept as invalid,
// with a warning each, and every other job's shape holds its processors.
func TestReaderWagapRequests(t *testing.T) {
	f, err := os.Open(sharedTraces + "/wagap-2013.swf.gz")
	if err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	defer f.Close()
	r := NewSWFReader(f, "wagap-2013.swf", SWFOptions{AleaFields: true, Memory: RequestedMemory, MemoryUnit: BytesPerJob, NegativeAsMissing: true})
	jobs, invalid, restricted := 0, 0, 0
	wheres := map[*sim.Where]bool{}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs++
		switch s := rec.Shape; {
		case s.Where != nil && s.Where.Invalid != "":
			invalid++
		case int64(s.Nodes)*int64(s.PerNode) != rec.Need[sim.Procs]:
			t.Fatalf("job %d: shape %+v does not hold %d processors", rec.ID, s, rec.Need[sim.Procs])
		case len(s.Where.Groups) > 0:
			restricted++
		}
		wheres[rec.Shape.Where] = true
	}
	if jobs != 17900 || invalid != 32 || len(r.Warnings()) != 32 || restricted != 895 {
		t.Errorf("%d jobs, %d invalid, %d warnings, %d naming a node group; want 17900, 32, 32, 895", jobs, invalid, len(r.Warnings()), restricted)
	}
	t.Logf("%d distinct restrictions", len(wheres))
}
