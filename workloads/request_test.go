package workloads

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRequest(t *testing.T) {
	c := func(nodes, ppn int64, props ...string) Chunk {
		return Chunk{Nodes: nodes, PPN: ppn, Properties: props}
	}
	tests := []struct {
		in   string
		want Request
	}{
		{"1:ppn=64:x86_64:cl_zewura#excl", Request{Chunks: []Chunk{c(1, 64, "x86_64")}, Clusters: []string{"zewura"}, Exclusive: true}},
		{"8:ppn=8:x86_64:cl_zegox", Request{Chunks: []Chunk{c(8, 8, "x86_64")}, Clusters: []string{"zegox"}}},
		{"1:ppn=12", Request{Chunks: []Chunk{c(1, 12)}}},
		{"1", Request{Chunks: []Chunk{c(1, 1)}}},
		{"2:infiniband", Request{Chunks: []Chunk{c(2, 1, "infiniband")}}},
		{"1:ppn=1:x86_64:brno:nfs4", Request{Chunks: []Chunk{c(1, 1, "x86_64", "brno", "nfs4")}}},
		{"1:ppn=40:cl_zewura:cl_zewura:cl_zewura", Request{Chunks: []Chunk{c(1, 40)}, Clusters: []string{"zewura"}}},
		{"1:ppn=1:^cl_zewura", Request{Chunks: []Chunk{c(1, 1)}, NotClusters: []string{"zewura"}}},
		{"1:ppn=12:^zewura12.cerit-sc.cz", Request{Chunks: []Chunk{c(1, 12, "^zewura12.cerit-sc.cz")}}},
		{"1:ppn=5:host=zewura10", Request{Chunks: []Chunk{c(1, 5, "host=zewura10")}}},
		{"1:ppn=32:nodecpus80", Request{Chunks: []Chunk{c(1, 32, "nodecpus80")}}},
		{"1:ppn=14:mem=3gb", Request{Chunks: []Chunk{{Nodes: 1, PPN: 14, Mem: 3 << 30}}}},
		{"2:ppn=8:mem=32000mb:gpus=2", Request{Chunks: []Chunk{{Nodes: 2, PPN: 8, Mem: 32000 << 20, GPUs: 2}}}},
		{"1:ppn=1:gpus=0", Request{Chunks: []Chunk{c(1, 1)}}},
		{"1:ppn=1+3:ppn=2", Request{Chunks: []Chunk{c(1, 1), c(3, 2)}}},
		{"zewura19.cerit-sc.cz:ppn=12:brno", Request{Chunks: []Chunk{{Nodes: 1, PPN: 12, Host: "zewura19.cerit-sc.cz", Properties: []string{"brno"}}}}},
		{"1:zegox17.cerit-sc.cz", Request{Chunks: []Chunk{c(1, 1, "zegox17.cerit-sc.cz")}}},
		{"1:^zewura17.cerit-sc.cz:^zewura12.cerit-sc.cz:ppn=24", Request{Chunks: []Chunk{c(1, 24, "^zewura17.cerit-sc.cz", "^zewura12.cerit-sc.cz")}}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRequest(tc.in)
			if err != nil {
				t.Fatalf("ParseRequest(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseRequest(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseRequestErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `request "" is empty`},
		{"#excl", `request "#excl" is empty`},
		{"1:ppn=1.5:brno", `"ppn=1.5": processors per node "1.5" is not a positive integer`},
		{"1:ppn=0", `processors per node "0" is not a positive integer`},
		{"1:ppn=", `processors per node "" is not a positive integer`},
		{"0:ppn=4", `node count "0" is not positive`},
		{"-2:ppn=4", `node count "-2" is not positive`},
		{":ppn=4", `neither a node count nor a host name`},
		{"1::x", `empty token`},
		{"1:gpus=two", `"gpus=two": GPUs per node "two" is not an integer from 0 to 1073741824`},
		{"1:gpus=-1", `GPUs per node "-1" is not an integer`},
		{"1:ppn=2+", `chunk "" starts with ""`},
		{"1:ppn=2#shared", `"#shared" is not "#excl"`},
		{"1:mem=lots", `"mem=lots"`},
		{"1073741824:ppn=2", `asks for more than 1073741824 processors`},
		{"1:ppn=9223372036854775807", `asks for more than`},
		{"1:ppn=1073741824+1", `asks for more than`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRequest(tc.in)
			if err == nil {
				t.Fatalf("ParseRequest(%q) = %+v; want an error containing %q", tc.in, got, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "request ") {
				t.Errorf("ParseRequest(%q): got %q; want it to name the request and contain %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestParseAleaFields(t *testing.T) {
	got, err := ParseAleaFields([]string{"{1241,1241,1255}", "q_1d", "2:ppn=8#excl"}, "w.swf", 7)
	if err != nil {
		t.Fatal(err)
	}
	want := AleaFields{Ran: []int64{1241, 1241, 1255}, Queue: "q_1d", HasRequest: true,
		Request: Request{Chunks: []Chunk{{Nodes: 2, PPN: 8}}, Exclusive: true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseAleaFields (-want +got):\n%s", diff)
	}
	if got, err := ParseAleaFields(nil, "w.swf", 7); err != nil || got.HasRequest || got.Ran != nil {
		t.Errorf("ParseAleaFields(nil) = %+v, %v; want the zero value", got, err)
	}
	if got, err := ParseAleaFields([]string{"-1", "q", "-1"}, "w.swf", 7); err != nil || got.HasRequest || got.Ran != nil || got.Queue != "q" {
		t.Errorf("ParseAleaFields(-1 q -1) = %+v, %v; want only the queue", got, err)
	}
	bad := []struct {
		extra []string
		want  string
	}{
		{[]string{"{}", "q", "1"}, `w.swf:7: field 19 (nodes ran on): "{}" is not a list`},
		{[]string{"{1,x}", "q", "1"}, `w.swf:7: field 19 (nodes ran on): "{1,x}": node id "x"`},
		{[]string{"1241", "q", "1"}, `field 19 (nodes ran on): "1241" is not a list`},
		{[]string{"{1}", "q", "1:ppn=1.5"}, `w.swf:7: field 21 (node request): request "1:ppn=1.5": "ppn=1.5"`},
		{[]string{"{1}", "q", "1", "x"}, `w.swf:7: has 22 fields, want at most 21`},
	}
	for _, tc := range bad {
		_, err := ParseAleaFields(tc.extra, "w.swf", 7)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseAleaFields(%q): got %v; want an error containing %q", tc.extra, err, tc.want)
		}
	}
}
