package workloads

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShapeMode(t *testing.T) {
	tests := []struct {
		mode  string
		procs int64
		want  Shape
	}{
		{"tasks", 64, Shape{Tasks: 64}},
		{"tasks", 1, Shape{Tasks: 1}},
		{"whole-nodes", 100, Shape{Tasks: 100, Exclusive: true}},
		{"per-node:8", 64, Shape{Nodes: 8, PerNode: 8}},
		{"per-node:8", 3, Shape{Nodes: 1, PerNode: 3}},
		{"per-node:8", 8, Shape{Nodes: 1, PerNode: 8}},
		{"per-node:8", 9, Shape{Nodes: 2, PerNode: 8}},
		{"per-node:1", 5, Shape{Nodes: 5, PerNode: 1}},
	}
	for _, tc := range tests {
		m, err := ParseShapeMode(tc.mode)
		if err != nil {
			t.Fatalf("ParseShapeMode(%q): %v", tc.mode, err)
		}
		if m.String() != tc.mode {
			t.Errorf("ParseShapeMode(%q).String() = %q", tc.mode, m)
		}
		got, err := m.Shape(tc.procs)
		if err != nil {
			t.Fatalf("%s.Shape(%d): %v", tc.mode, tc.procs, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s.Shape(%d) (-want +got):\n%s", tc.mode, tc.procs, diff)
		}
		if got.Procs() < tc.procs {
			t.Errorf("%s.Shape(%d).Procs() = %d; want at least %d", tc.mode, tc.procs, got.Procs(), tc.procs)
		}
	}
}

func TestShapeModeErrors(t *testing.T) {
	for _, s := range []string{"", "Tasks", "nodes", "per-node:", "per-node:0", "per-node:-4", "per-node:x", "per-node:1073741825"} {
		if m, err := ParseShapeMode(s); err == nil {
			t.Errorf("ParseShapeMode(%q) = %v; want an error", s, m)
		} else if !strings.Contains(err.Error(), `"`+s+`"`) {
			t.Errorf("ParseShapeMode(%q): error %q does not quote the input", s, err)
		}
	}
	for _, p := range []int64{0, -1} {
		if _, err := (ShapeMode{}).Shape(p); err == nil {
			t.Errorf("tasks.Shape(%d): want an error", p)
		}
	}
	if _, err := (ShapeMode{Kind: ShapePerNode}).Shape(4); err == nil {
		t.Errorf("per-node:0 built by hand: want an error")
	}
}

func TestRequestShape(t *testing.T) {
	tests := []struct {
		req  string
		want Shape
	}{
		{"1:ppn=64:x86_64:cl_zewura#excl", Shape{Nodes: 1, PerNode: 64, Exclusive: true, Groups: []string{"zewura"}, Features: []string{"x86_64"}}},
		{"8:ppn=8:x86_64:cl_zegox", Shape{Nodes: 8, PerNode: 8, Groups: []string{"zegox"}, Features: []string{"x86_64"}}},
		{"1:ppn=1:^cl_zewura", Shape{Nodes: 1, PerNode: 1, NotGroups: []string{"zewura"}}},
		{"1:ppn=12:^zewura12.cerit-sc.cz", Shape{Nodes: 1, PerNode: 12, NotFeatures: []string{"zewura12.cerit-sc.cz"}}},
		{"1:ppn=14:mem=2gb", Shape{Nodes: 1, PerNode: 14, MemPerNode: 2 << 30}},
		{"zewura19.cerit-sc.cz:ppn=12:brno", Shape{Nodes: 1, PerNode: 12, Features: []string{"brno", "zewura19.cerit-sc.cz"}}},
		{"1", Shape{Nodes: 1, PerNode: 1}},
	}
	for _, tc := range tests {
		r, err := ParseRequest(tc.req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := RequestShape(r)
		if err != nil {
			t.Fatalf("RequestShape(%q): %v", tc.req, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("RequestShape(%q) (-want +got):\n%s", tc.req, diff)
		}
	}
	r, _ := ParseRequest("1:ppn=1+3:ppn=2")
	if _, err := RequestShape(r); err == nil || !strings.Contains(err.Error(), "2 chunks") {
		t.Errorf("RequestShape(1:ppn=1+3:ppn=2): got %v; want an error naming 2 chunks", err)
	}
}

func TestMemPerNode(t *testing.T) {
	tests := []struct{ total, nodes, want int64 }{
		{64 << 30, 1, 64 << 30}, {10, 3, 4}, {9, 3, 3}, {0, 4, 0}, {-1, 4, 0}, {5, 0, 0},
	}
	for _, tc := range tests {
		if got := MemPerNode(tc.total, tc.nodes); got != tc.want {
			t.Errorf("MemPerNode(%d, %d) = %d; want %d", tc.total, tc.nodes, got, tc.want)
		}
	}
}
