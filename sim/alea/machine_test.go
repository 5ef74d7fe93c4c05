package alea_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

const kb = 1024

// job is a test job: nodes × ppn with memory per node in KB.
func job(id int, submit, run, limit sim.Time, nodes, ppn int32, memKB int64) sim.Record {
	r := sim.Record{Job: sim.Job{ID: sim.JobID(id), User: -1, Group: -1, Queue: -1, Partition: -1, Submit: submit,
		Estimate: limit, Shape: sim.Shape{Nodes: nodes, PerNode: ppn, MemPerNode: memKB * kb}},
		Runtime: run, Preceding: -1, Think: -1}
	r.Need[sim.Procs] = int64(nodes) * int64(ppn)
	r.Need[sim.Memory] = int64(nodes) * memKB * kb
	return r
}

// placed is where and when a job ran.
type placed struct {
	Start, End sim.Time
	Cluster    string
	Nodes      []int
	State      sim.State
}

func run(t *testing.T, groups []alea.Group, recs []sim.Record, props map[sim.JobID]string) (map[sim.JobID]placed, *alea.Machine) {
	t.Helper()
	for i := range recs {
		recs[i].Shape.Exclusive = strings.Contains(props[recs[i].ID], "excl")
	}
	m, err := alea.New(groups, alea.Options{Props: props})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(m, policies.NewFCFS(), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[sim.JobID]placed{}
	for i := range res.Jobs {
		o := &res.Jobs[i]
		cl, nodes, _ := m.Where(i)
		got[o.ID] = placed{o.Start, o.End, cl, nodes, o.State}
	}
	return got, m
}

func TestMachine(t *testing.T) {
	big := alea.Group{Name: "zewura", Nodes: 2, CPUs: 8, Memory: 100 * kb}
	small := alea.Group{Name: "zegox", Nodes: 4, CPUs: 4, Memory: 100 * kb}
	cases := []struct {
		name   string
		groups []alea.Group
		recs   []sim.Record
		props  map[sim.JobID]string
		want   map[sim.JobID]placed
	}{
		{
			name:   "largest cluster first, first fit by node, run + 1 s",
			groups: []alea.Group{small, big}, // 16 processors each: file order on the tie
			recs:   []sim.Record{job(1, 0, 10, 100, 1, 4, 1), job(2, 0, 10, 100, 1, 4, 1)},
			want: map[sim.JobID]placed{
				1: {0, 11, "zegox", []int{0}, sim.Finished},
				2: {0, 11, "zegox", []int{1}, sim.Finished},
			},
		},
		{
			name:   "cl_X only X, ^cl_X not X, other tokens ignored",
			groups: []alea.Group{big, small},
			recs:   []sim.Record{job(1, 0, 10, 100, 1, 2, 1), job(2, 0, 10, 100, 1, 2, 1), job(3, 0, 10, 100, 1, 2, 1)},
			props:  map[sim.JobID]string{1: "1:ppn=2:cl_zegox", 2: "1:ppn=2:^cl_zewura:brno", 3: "1:ppn=2:x86_64:cl_zewura#excl"},
			want: map[sim.JobID]placed{
				1: {0, 11, "zegox", []int{0}, sim.Finished},
				2: {0, 11, "zegox", []int{0}, sim.Finished},
				3: {0, 11, "zewura", []int{0}, sim.Finished},
			},
		},
		{
			name:   "a job never spans clusters",
			groups: []alea.Group{{Name: "a", Nodes: 1, CPUs: 8, Memory: kb}, {Name: "b", Nodes: 1, CPUs: 4, Memory: kb}},
			recs:   []sim.Record{job(1, 0, 10, 100, 1, 6, 1), job(2, 1, 10, 100, 2, 4, 1)},
			want: map[sim.JobID]placed{
				1: {0, 11, "a", []int{0}, sim.Finished},
				2: {-1, -1, "", nil, sim.Rejected}, // 2 nodes of 4: no cluster has two
			},
		},
		{
			name:   "excl admits on an idle node but places on the first with ppn free",
			groups: []alea.Group{big},
			recs:   []sim.Record{job(1, 0, 100, 100, 1, 2, 1), job(2, 5, 10, 100, 1, 4, 1), job(3, 6, 10, 100, 1, 8, 1)},
			props:  map[sim.JobID]string{2: "1:ppn=4#excl"},
			want: map[sim.JobID]placed{
				1: {0, 101, "zewura", []int{0}, sim.Finished},
				2: {5, 16, "zewura", []int{0}, sim.Finished}, // node 1 is idle: admitted; node 0 has 6 free
				3: {6, 17, "zewura", []int{1}, sim.Finished}, // shares nothing with 2 but nothing stopped it
			},
		},
		{
			name:   "memory per node binds",
			groups: []alea.Group{big},
			recs:   []sim.Record{job(1, 0, 10, 100, 1, 1, 60), job(2, 0, 10, 100, 2, 1, 60), job(3, 0, 10, 100, 1, 1, 40)},
			want: map[sim.JobID]placed{
				1: {0, 11, "zewura", []int{0}, sim.Finished},
				2: {11, 22, "zewura", []int{0, 1}, sim.Finished}, // 60 KB on each node: node 0 has 40 left
				3: {11, 22, "zewura", []int{0}, sim.Finished},    // strict FCFS: behind 2
			},
		},
		{
			name:   "cut at the limit",
			groups: []alea.Group{big},
			recs:   []sim.Record{job(1, 0, 50, 20, 1, 1, 1)},
			want:   map[sim.JobID]placed{1: {0, 21, "zewura", []int{0}, sim.Killed}},
		},
		{
			// Job 1 is placed at 0.2424 s (the first submission's delay)
			// and ends at 3.2424 s; job 2 arrives at 3 s, before that end,
			// and takes node 1 as in Alea, where freeing node 0 at 3 s
			// first would give it node 0.
			name:   "an arrival precedes the completions of its second",
			groups: []alea.Group{{Name: "c", Nodes: 2, CPUs: 1, Memory: kb}},
			recs:   []sim.Record{job(1, 0, 2, 100, 1, 1, 1), job(2, 3, 10, 100, 1, 1, 1)},
			want: map[sim.JobID]placed{
				1: {0, 3, "c", []int{0}, sim.Finished},
				2: {3, 14, "c", []int{1}, sim.Finished},
			},
		},
		{
			// Job 2 waits for node 0; job 1 frees it at 3.2424 s and job 2
			// is placed 0.0008 s later, still within second 3.
			name:   "a waiting job starts in the second its nodes free",
			groups: []alea.Group{{Name: "c", Nodes: 1, CPUs: 1, Memory: kb}},
			recs:   []sim.Record{job(1, 0, 2, 100, 1, 1, 1), job(2, 1, 10, 100, 1, 1, 1)},
			want: map[sim.JobID]placed{
				1: {0, 3, "c", []int{0}, sim.Finished},
				2: {3, 14, "c", []int{0}, sim.Finished},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := run(t, tc.groups, tc.recs, tc.props)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestRejections(t *testing.T) {
	groups := []alea.Group{{Name: "zewura", Nodes: 2, CPUs: 80, Memory: 500 * kb}, {Name: "zegox", Nodes: 4, CPUs: 12, Memory: 90 * kb}}
	recs := []sim.Record{job(1, 0, 10, 100, 1, 80, 600), job(2, 0, 10, 100, 1, 16, 1), job(3, 0, 10, 100, 1, 4, 1)}
	props := map[sim.JobID]string{2: "1:ppn=16:cl_zegox", 3: "1:ppn=4:^cl_zewura:^cl_zegox"}
	_, m := run(t, groups, recs, props)
	want := []alea.Rejection{
		{ID: 1, Why: "zewura: 2 nodes of 80 processors and 512000 bytes, asked 1 nodes of 80 processors and 614400 bytes; " +
			"zegox: 4 nodes of 12 processors and 92160 bytes, asked 1 nodes of 80 processors and 614400 bytes"},
		{ID: 2, Why: "zewura: refused by the request; zegox: 4 nodes of 12 processors and 92160 bytes, asked 1 nodes of 16 processors and 1024 bytes"},
		{ID: 3, Why: "zewura: refused by the request; zegox: refused by the request"},
	}
	if d := cmp.Diff(want, m.Rejections()); d != "" {
		t.Errorf("rejections (-want +got):\n%s", d)
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name   string
		groups []alea.Group
		want   string
	}{
		{"none", nil, "0 clusters"},
		{"no nodes", []alea.Group{{Name: "a", CPUs: 1}}, `cluster 0 ("a"): 0 nodes`},
		{"no name", []alea.Group{{Nodes: 1, CPUs: 1}}, `cluster 0 ("")`},
		{"negative memory", []alea.Group{{Name: "a", Nodes: 1, CPUs: 1, Memory: -1}}, "memory ≥ 0"},
		{"repeated", []alea.Group{{Name: "a", Nodes: 1, CPUs: 1}, {Name: "a", Nodes: 1, CPUs: 1}}, `cluster 1: name "a" repeats`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := alea.New(tc.groups, alea.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
		})
	}
}
