package nodes_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// runPolicy runs p on a new cluster, its reservations recorded, and
// returns each job's "start-end@nodes", checked by Verify and
// simtest.Verify.
func runPolicy(t *testing.T, groups []nodes.Group, fit nodes.Fit, p sim.Policy, recs []sim.Record, chk simtest.Checks) []string {
	t.Helper()
	c, err := nodes.New(groups, fit)
	if err != nil {
		t.Fatal(err)
	}
	c.RecordReservations()
	rec := &simtest.Recorder{}
	res, err := sim.Run(c, p, sim.NewSliceSource(recs), sim.Options{Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	if len(c.Reservations()) == 0 {
		t.Fatal("no reservation was logged")
	}
	chk.Jobs = len(recs)
	if err := simtest.Verify(res, rec, chk); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, o := range res.Jobs {
		s := fmt.Sprintf("%d-%d@", o.Start, o.End)
		for _, u := range c.Where(i) {
			for n := u.Node; n < u.Node+u.Nodes; n++ {
				s += fmt.Sprintf("%s:%d,", c.NodeName(int(n)), u.Cores)
			}
		}
		got = append(got, s)
	}
	return got
}

// job is a one-node job of per cores with estimate est and run time run.
func job(id int64, submit, run, est sim.Time, per int32, mem int64) sim.Record {
	r := simtest.J(id, submit, run, est, int64(per))
	r.Shape = sim.Shape{Nodes: 1, PerNode: per, MemPerNode: mem}
	return r
}

// TestConservativeGoldens are hand-worked conservative schedules on nodes.
func TestConservativeGoldens(t *testing.T) {
	bigSmall := []nodes.Group{{Name: "a", Count: 1, Cores: 4, Memory: 16}, {Name: "b", Count: 1, Cores: 4, Memory: 4}}
	two4 := []nodes.Group{{Name: "n", Count: 2, Cores: 4}}
	eightFour := []nodes.Group{{Name: "a", Count: 1, Cores: 8}, {Name: "b", Count: 1, Cores: 4}}
	tests := []struct {
		name   string
		groups []nodes.Group
		fit    nodes.Fit
		recs   []sim.Record
		want   []string
	}{{
		// Job 3 is reserved at 10 on a1, the first node free (b1 is
		// busy to 20). Job 4 asks 10 bytes of memory, which only a1
		// has. From 20 the aggregate has room for it (4 cores and 16
		// bytes free beside job 3), and job 3 could then run on b1; but
		// job 3's reservation pins a1, so job 4 waits for it: 110.
		name: "a reservation pins its node", groups: bigSmall,
		recs: []sim.Record{job(1, 0, 10, 10, 4, 0), job(2, 0, 20, 20, 4, 0), job(3, 1, 100, 100, 4, 0), job(4, 2, 30, 30, 4, 10)},
		want: []string{"0-10@a1:4,", "0-20@b1:4,", "10-110@a1:4,", "110-140@a1:4,"},
	}, {
		// Job 3 is reserved at 40 on n2, where job 2 is estimated to
		// end first. Job 1 ends at 5, not 50: compression lifts job 3's
		// reservation and places it again, now, on n1.
		name: "compression moves a pinned reservation earlier", groups: two4,
		recs: []sim.Record{job(1, 0, 5, 50, 4, 0), job(2, 0, 40, 40, 4, 0), job(3, 1, 10, 10, 4, 0)},
		want: []string{"0-5@n1:4,", "0-40@n2:4,", "5-15@n1:4,"},
	}, {
		// Both nodes free at 10. First fit reserves job 3's 2 cores on
		// a1, the first node; job 4, which needs all 8 cores of a1,
		// then waits for job 3: 20.
		name: "first fit reservation", groups: eightFour,
		recs: []sim.Record{job(1, 0, 10, 10, 8, 0), job(2, 0, 10, 10, 4, 0), job(3, 1, 10, 10, 2, 0), job(4, 2, 10, 10, 8, 0)},
		want: []string{"0-10@a1:8,", "0-10@b1:4,", "10-20@a1:2,", "20-30@a1:8,"},
	}, {
		// Best fit reserves job 3 on b1 (2 cores left, against 6 on
		// a1), so job 4 gets a1 at 10.
		name: "best fit reservation", groups: eightFour, fit: nodes.BestFit,
		recs: []sim.Record{job(1, 0, 10, 10, 8, 0), job(2, 0, 10, 10, 4, 0), job(3, 1, 10, 10, 2, 0), job(4, 2, 10, 10, 8, 0)},
		want: []string{"0-10@a1:8,", "0-10@b1:4,", "10-20@b1:2,", "10-20@a1:8,"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runPolicy(t, tc.groups, tc.fit, policies.NewConservative(policies.Arrival{}), tc.recs, simtest.Checks{PromiseOnWait: true})
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
		})
	}
}

// TestMauiGoldens are hand-worked Maui schedules on nodes.
func TestMauiGoldens(t *testing.T) {
	bigSmall := []nodes.Group{{Name: "a", Count: 1, Cores: 4, Memory: 16}, {Name: "b", Count: 1, Cores: 4, Memory: 4}}
	maui := func(t *testing.T, depth int) sim.Policy {
		c := policies.DefaultMauiConfig()
		c.ReservationDepth = depth
		m, err := policies.NewMaui(c)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name  string
		depth int
		recs  []sim.Record
		want  []string
	}{{
		// Job 3, the highest waiting, is reserved at 10 on a1. Job 4
		// needs a1's memory and cannot start before a1 is free; with
		// one reservation it gets none. Job 5 fits now on b1, which no
		// reservation pins: it backfills. At 10 job 3 starts on a1 and
		// job 4, now the highest, is reserved on a1 at 60.
		name: "backfill beside a pinned head", depth: 1,
		recs: []sim.Record{job(1, 0, 10, 10, 4, 0), job(2, 0, 100, 100, 2, 0), job(3, 1, 50, 50, 4, 0),
			job(4, 2, 5, 5, 2, 10), job(5, 3, 50, 50, 2, 0)},
		want: []string{"0-10@a1:4,", "0-100@b1:2,", "10-60@a1:4,", "60-65@a1:2,", "3-53@b1:2,"},
	}, {
		// Conservative's pinned node with two reservations: job 4's is
		// laid behind job 3's on a1 (110), not at 20 where the aggregate
		// has room.
		name: "a reservation pins its node", depth: 2,
		recs: []sim.Record{job(1, 0, 10, 10, 4, 0), job(2, 0, 20, 20, 4, 0), job(3, 1, 100, 100, 4, 0), job(4, 2, 30, 30, 4, 10)},
		want: []string{"0-10@a1:4,", "0-20@b1:4,", "10-110@a1:4,", "110-140@a1:4,"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runPolicy(t, bigSmall, nodes.FirstFit, maui(t, tc.depth), tc.recs, simtest.Checks{MaxOpen: tc.depth})
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
		})
	}
}
