package tier_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// recorded runs the kill-and-restart case of TestMoves with a recorder and
// returns what Verify needs.
func recorded(t *testing.T) (*sim.Result, *tier.Recorder, tier.Checks) {
	t.Helper()
	J, U := simtest.J, simtest.Usage
	jobs := []sim.Record{J(1, 0, 10, 10, 1, U(0.5)), J(2, 0, 4, 4, 1, U(0.5)), J(4, 2, 3, 3, 1, U(0.5))}
	s := newSim(t, &script{
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 2, tier.Background, []int{0}, false},
			{2, tier.Restart, 2, 0, []int{1}, false}, {2, tier.Start, 4, tier.Background, []int{1}, false},
		},
		promises: map[sim.Time][]sim.Reservation{0: {{Job: &sim.Job{ID: 2}, Start: 2}}},
	}, simtest.RateTable{}, 0)
	rec := &tier.Recorder{}
	res, err := sim.Run(sim.NewPool(simtest.Cluster(2, 0)), s, sim.NewSliceSource(jobs), sim.Options{Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	chk := tier.Checks{Jobs: len(jobs), Config: s.Config(), Model: simtest.RateTable{}, MaxOpen: 1}
	if err := tier.Verify(res, rec, chk); err != nil {
		t.Fatalf("the untouched run fails: %v", err)
	}
	return res, rec, chk
}

// TestVerifyCatches breaks a good run in one place at a time and checks
// that Verify says what broke.
func TestVerifyCatches(t *testing.T) {
	index := func(evs []tier.Event, kind tier.EventKind, seq int, at sim.Time) int {
		for i, e := range evs {
			if e.Kind == kind && e.Seq == seq && e.Time == at {
				return i
			}
		}
		t.Fatalf("no event %d for job seq %d at %d", kind, seq, at)
		return -1
	}
	tests := []struct {
		name  string
		spoil func(res *sim.Result, evs []tier.Event, chk *tier.Checks) []tier.Event
		want  string
	}{
		{"ends a second early", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Ended, 1, 6) // job 2 ends at 6
			evs[i].Time, res.Jobs[1].End = 5, 5
			return evs
		}, "job 2: ended at t=5 with 3000000 of 4000000 µs of work done"},
		{"runs a second too long", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Ended, 1, 6)
			e := evs[i]
			e.Time, res.Jobs[1].End = 7, 7
			return append(slices.Delete(evs, i, i+1), e)
		}, "job 2: ended at t=7 but had done its 4000000 µs of work a second earlier"},
		{"a rate change left out", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Rated, 2, 6) // job 4 alone from 6
			return slices.Delete(evs, i, i+1)
		}, "job 4: runs at rate 500000 after t=6; its processes give 1000000"},
		{"two jobs in one foreground VM", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Placed, 1, 2) // job 2's restart
			evs[i].Procs = []int{0}
			return evs
		}, "job 2 joins job 1 in the foreground VM of processor 0"},
		{"the threshold ignored", func(res *sim.Result, evs []tier.Event, chk *tier.Checks) []tier.Event {
			chk.Config.Threshold = 0.5
			return evs
		}, "job 2 placed in the background of processor 0 behind job 1 of usage 0.5 (threshold 0.5)"},
		{"lost work not counted", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			res.Tiers.LostWork = 0
			return evs
		}, "the result counts {Restarts:1 Migrations:0 Swaps:0 LostWork:0}; the moves say {Restarts:1 Migrations:0 Swaps:0 LostWork:1}"},
		{"a rate above full speed", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Rated, 0, 0)
			evs[i].Rate = tier.FullRate + 1
			return evs
		}, "job 1: rate 1000001 at t=0 is outside [0, 1000000]"},
		{"a promise missed", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Promised, 1, 0)
			evs[i].At = 1
			return evs
		}, "job 2: reached the foreground at 2, later than its promise 1"},
		{"a promise moved later", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			i := index(evs, tier.Promised, 1, 0)
			p := evs[i]
			p.At = 3
			return slices.Insert(evs, i+1, p)
		}, "job 2: promise moved later, from 2 to 3, at t=0"},
		{"a job left out", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			return slices.DeleteFunc(evs, func(e tier.Event) bool { return e.Kind == tier.Ended && e.Seq == 0 })
		}, "job 1: never ended"},
		{"a start before the submission", func(res *sim.Result, evs []tier.Event, _ *tier.Checks) []tier.Event {
			res.Jobs[2].Submit = 3
			return evs
		}, "job 4: starts at 2 before its submission at 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, rec, chk := recorded(t)
			evs := tc.spoil(res, slices.Clone(rec.Events), &chk)
			err := tier.Verify(res, &tier.Recorder{Events: evs}, chk)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v; want an error containing %q", err, tc.want)
			}
		})
	}
}
