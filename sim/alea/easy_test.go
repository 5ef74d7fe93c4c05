package alea_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

func runEASY(t *testing.T, groups []alea.Group, recs []sim.Record, props map[sim.JobID]string) (map[sim.JobID]placed, *alea.EASY) {
	t.Helper()
	m, err := alea.New(groups, alea.Options{Props: props})
	if err != nil {
		t.Fatal(err)
	}
	e := alea.NewEASY()
	res, err := sim.Run(m, e, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := verify(groups, res, m); err != nil {
		t.Fatal(err)
	}
	got := map[sim.JobID]placed{}
	for i := range res.Jobs {
		o := &res.Jobs[i]
		cl, nodes, _ := m.Where(i)
		got[o.ID] = placed{o.Start, o.End, cl, nodes, o.State}
	}
	return got, e
}

func TestEASY(t *testing.T) {
	one := []alea.Group{{Name: "c", Nodes: 2, CPUs: 4, Memory: 100 * kb}}
	cases := []struct {
		name   string
		groups []alea.Group
		recs   []sim.Record
		props  map[sim.JobID]string
		want   map[sim.JobID]placed
		bf     int
	}{
		{
			// Job 1 holds 4 of 8 processors until 10.24 s; head 2 asks
			// 8 and is reserved at 10.24 s. Job 3 (4 processors, 5 s)
			// ends before that and backfills; job 4 (4 processors, 50
			// s) would not, and nothing frees exactly then: it waits.
			name:   "a backfill ends before the reservation; a longer one waits",
			groups: one,
			recs: []sim.Record{job(1, 0, 9, 100, 1, 4, 1), job(2, 1, 10, 100, 2, 4, 1),
				job(3, 2, 5, 100, 1, 4, 1), job(4, 2, 50, 100, 1, 4, 1)},
			want: map[sim.JobID]placed{
				1: {0, 10, "c", []int{0}, sim.Finished},
				2: {10, 21, "c", []int{0, 1}, sim.Finished},
				3: {2, 8, "c", []int{1}, sim.Finished},
				4: {21, 72, "c", []int{0}, sim.Finished},
			},
			bf: 1,
		},
		{
			// The head asks 2 nodes of cl_b, but the reservation weighs
			// processor counts only: cluster a, as large and idle, frees 8
			// processors now and is reserved rather than b. So job 3
			// backfills on b for 100 s and the head waits for it.
			name: "the reservation ignores the request's clusters",
			groups: []alea.Group{{Name: "a", Nodes: 2, CPUs: 4, Memory: kb},
				{Name: "b", Nodes: 2, CPUs: 4, Memory: kb}},
			recs:  []sim.Record{job(1, 0, 9, 100, 1, 4, 1), job(2, 1, 10, 100, 2, 4, 1), job(3, 2, 100, 200, 1, 4, 1)},
			props: map[sim.JobID]string{1: "1:ppn=4:cl_b", 2: "2:ppn=4:cl_b", 3: "1:ppn=4:cl_b"},
			want: map[sim.JobID]placed{
				1: {0, 10, "b", []int{0}, sim.Finished},
				2: {103, 114, "b", []int{0, 1}, sim.Finished},
				3: {2, 103, "b", []int{1}, sim.Finished},
			},
			bf: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.recs {
				tc.recs[i].Shape.Exclusive = strings.Contains(tc.props[tc.recs[i].ID], "excl")
			}
			got, e := runEASY(t, tc.groups, tc.recs, tc.props)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if e.Backfilled != tc.bf {
				t.Errorf("%d backfilled; want %d", e.Backfilled, tc.bf)
			}
		})
	}
}
