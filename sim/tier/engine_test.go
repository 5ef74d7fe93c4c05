package tier_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// step is one action of a script, at a pass time (and, if again is set,
// in the second pass at that time).
type step struct {
	at    sim.Time
	move  tier.Move
	id    sim.JobID
	tier  tier.Tier
	procs []int
	again bool
}

// script is a tier policy that does what it is told, when it is told; it
// promises what it is told too.
type script struct {
	cfg      tier.Config // the machine it runs on
	steps    []step
	promises map[sim.Time][]sim.Reservation
	last     sim.Time
	passes   int // passes at last
}

func (*script) Name() string { return "script" }

// Config returns the machine model the script runs on.
func (s *script) Config() tier.Config { return s.cfg }

// NewModel runs the script on the two-tier machine of its config.
func (s *script) NewModel(c sim.Resources, seed uint64) (sim.Model, error) {
	return tier.NewMachine(c, s.cfg, seed)
}

func (s *script) Schedule(now sim.Time, sv sim.View) (sim.Decision, error) {
	v, ok := tier.ViewOf(sv)
	if !ok {
		return sim.Decision{}, errors.New("not on the two-tier machine")
	}
	if now != s.last {
		s.last, s.passes = now, 0
	}
	s.passes++
	var d sim.Decision
	for _, st := range s.steps {
		if st.at != now || st.again != (s.passes == 2) {
			continue
		}
		a := tier.Action{Move: st.move, Job: find(v, st.id), Tier: st.tier, Procs: st.procs}
		d.Actions = append(d.Actions, a)
	}
	for _, r := range s.promises[now] {
		d.Promise = append(d.Promise, sim.Reservation{Job: find(v, r.Job.ID), Start: r.Start})
	}
	return d, nil
}

// find returns the job called id among the waiting, background and
// foreground jobs of v.
func find(v tier.View, id sim.JobID) *sim.Job {
	for _, j := range append(slices.Clone(v.Waiting()), v.Background()...) {
		if j.ID == id {
			return j
		}
	}
	for _, r := range v.Foreground() {
		if r.Job.ID == id {
			return r.Job
		}
	}
	return &sim.Job{ID: id, Seq: -1} // not the engine's: refused
}

type outcome struct {
	Start, End sim.Time
	State      sim.State
}

func outcomes(res *sim.Result) map[sim.JobID]outcome {
	m := map[sim.JobID]outcome{}
	for _, o := range res.Jobs {
		m[o.ID] = outcome{o.Start, o.End, o.State}
	}
	return m
}

// newSim puts a script on a machine with a rate table and migration cost.
func newSim(t *testing.T, s *script, rates simtest.RateTable, cost sim.Time) *script {
	t.Helper()
	cfg := tier.DefaultConfig()
	cfg.MigrationCost = cost
	cfg.Model = func(uint64) tier.Model { return rates }
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if s == nil {
		s = &script{}
	}
	s.cfg = cfg
	return s
}

// TestMoves runs hand-worked two-processor cases, one per kind of move and
// rate change; each derivation is in its comment.
func TestMoves(t *testing.T) {
	J, U := simtest.J, simtest.Usage
	tests := []struct {
		name   string
		jobs   []sim.Record
		steps  []step
		rates  simtest.RateTable
		cost   sim.Time
		want   map[sim.JobID]outcome
		counts sim.TierCounts
	}{{
		// A (usage 0.5) in the foreground of P0, B behind it at 1 − 0.5 =
		// 0.5: B plans its end at 0 + 6/0.5 = 12. A ends at 10 with B at 5
		// of 6; C (usage 1) takes P0's foreground at 10 and leaves B no
		// cycles until it ends at 12; B then runs alone at 1: 1 s more,
		// 13. Two re-plans: 12 → none → 13.
		name: "neighbours change a background job's rate",
		jobs: []sim.Record{J(1, 0, 10, 10, 1, U(0.5)), J(2, 0, 6, 6, 1, U(0.5)), J(3, 10, 2, 2, 1, U(1))},
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 2, tier.Background, []int{0}, false},
			{10, tier.Start, 3, tier.Foreground, []int{0}, false},
		},
		want: map[sim.JobID]outcome{1: {0, 10, sim.Finished}, 2: {0, 13, sim.Finished}, 3: {10, 12, sim.Finished}},
	}, {
		// B runs behind A at 0.5 for 2 s (1 s of work), then is killed and
		// restarted in P1's foreground at 2: 4 s more, 6; 1 processor-second
		// lost. D goes behind B at 2, at 0.5 until 6 (2 of 3), then alone:
		// 7.
		name: "kill and restart",
		jobs: []sim.Record{J(1, 0, 10, 10, 1, U(0.5)), J(2, 0, 4, 4, 1, U(0.5)), J(4, 2, 3, 3, 1, U(0.5))},
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 2, tier.Background, []int{0}, false},
			{2, tier.Restart, 2, 0, []int{1}, false}, {2, tier.Start, 4, tier.Background, []int{1}, false},
		},
		want:   map[sim.JobID]outcome{1: {0, 10, sim.Finished}, 2: {0, 6, sim.Finished}, 4: {2, 7, sim.Finished}},
		counts: sim.TierCounts{Restarts: 1, LostWork: 1},
	}, {
		// The same, but B migrates with a cost of 3 s: it keeps its 1 s of
		// work, makes none from 2 to 5, then 3 s more at 1: 8. D runs behind
		// B (which holds P1's foreground while it migrates) at 0.5 from 2
		// to 8 (3 of 4), then alone: 9.
		name: "migration",
		jobs: []sim.Record{J(1, 0, 10, 10, 1, U(0.5)), J(2, 0, 4, 4, 1, U(0.5)), J(4, 2, 4, 4, 1, U(0.5))},
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 2, tier.Background, []int{0}, false},
			{2, tier.Migrate, 2, 0, []int{1}, false}, {2, tier.Start, 4, tier.Background, []int{1}, false},
		},
		cost:   3,
		want:   map[sim.JobID]outcome{1: {0, 10, sim.Finished}, 2: {0, 8, sim.Finished}, 4: {2, 9, sim.Finished}},
		counts: sim.TierCounts{Migrations: 1},
	}, {
		// A ends at 4 with B, behind it at 0.5, at 2 of 10. B swaps into
		// P0's foreground, where the table gives it 0.9: 8 / 0.9 = 8.9, so
		// it ends at the whole second 4 + 9 = 13. E goes behind B at 4, at
		// 1 − 0.5: 2 s of work by 8.
		name: "priority swap on the same processor",
		jobs: []sim.Record{J(1, 0, 4, 4, 1, U(0.5)), J(2, 0, 10, 10, 1, U(0.5)), J(5, 4, 2, 2, 1, U(0.5))},
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 2, tier.Background, []int{0}, false},
			{4, tier.Swap, 2, 0, nil, false}, {4, tier.Start, 5, tier.Background, []int{0}, false},
		},
		rates:  simtest.RateTable{Foreground: map[sim.JobID]float64{2: 0.9}},
		want:   map[sim.JobID]outcome{1: {0, 4, sim.Finished}, 2: {0, 13, sim.Finished}, 5: {4, 8, sim.Finished}},
		counts: sim.TierCounts{Swaps: 1},
	}, {
		// A two-process job progresses at its slowest process's rate: F
		// behind A (usage 0.5) on P0 and behind nothing on P1 runs at 0.5,
		// so its 3 s take 6.
		name: "slowest process",
		jobs: []sim.Record{J(1, 0, 10, 10, 1, U(0.5)), J(6, 0, 3, 3, 2, U(0.5))},
		steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false}, {0, tier.Start, 6, tier.Background, []int{0, 1}, false},
		},
		want: map[sim.JobID]outcome{1: {0, 10, sim.Finished}, 6: {0, 6, sim.Finished}},
	}, {
		// A job of run time 10 and estimate 6 running at 0.5 has 6 s of
		// work: killed when its progress reaches it, at 12, not at 6.
		name:  "killed when progress reaches the estimate",
		jobs:  []sim.Record{J(1, 0, 10, 6, 1)},
		steps: []step{{0, tier.Start, 1, tier.Foreground, []int{0}, false}},
		rates: simtest.RateTable{Foreground: map[sim.JobID]float64{1: 0.5}},
		want:  map[sim.JobID]outcome{1: {0, 12, sim.Killed}},
	}, {
		// A job of no work ends where it starts; the second pass at 3
		// starts the job that needs its processor.
		name:  "zero work",
		jobs:  []sim.Record{J(1, 3, 0, 5, 2), J(2, 3, 4, 5, 2)},
		steps: []step{{3, tier.Start, 1, tier.Foreground, []int{0, 1}, false}, {3, tier.Start, 2, tier.Foreground, []int{1, 0}, true}},
		want:  map[sim.JobID]outcome{1: {3, 3, sim.Finished}, 2: {3, 7, sim.Finished}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, &script{steps: tc.steps}, tc.rates, tc.cost)
			res, _ := simtest.Run(t, simtest.Cluster(2, 0), s, tc.jobs, sim.Options{}, simtest.Checks{})
			if diff := cmp.Diff(tc.want, outcomes(res)); diff != "" {
				t.Errorf("schedule (-want +got):\n%s", diff)
			}
			if res.Tiers != tc.counts {
				t.Errorf("counts: got %+v; want %+v", res.Tiers, tc.counts)
			}
		})
	}
}

// TestOverrunAllowed: with overruns the same job does its whole run time.
func TestOverrunAllowed(t *testing.T) {
	s := newSim(t, &script{steps: []step{{0, tier.Start, 1, tier.Foreground, []int{0}, false}}},
		simtest.RateTable{Foreground: map[sim.JobID]float64{1: 0.5}}, 0)
	res, _ := simtest.Run(t, simtest.Cluster(1, 0), s, []sim.Record{simtest.J(1, 0, 10, 6, 1)}, sim.Options{AllowOverrun: true}, simtest.Checks{})
	if got, want := outcomes(res)[1], (outcome{0, 20, sim.Finished}); got != want {
		t.Errorf("got %+v; want %+v", got, want)
	}
}

// TestRefused checks that the engine refuses bad decisions with an error
// naming the policy, the time and the job, wrapping the reason.
func TestRefused(t *testing.T) {
	J, U := simtest.J, simtest.Usage
	jobs := []sim.Record{J(1, 0, 10, 10, 1, U(1)), J(2, 0, 10, 10, 2, U(0.5)), J(3, 5, 10, 10, 1)}
	base := []step{{0, tier.Start, 1, tier.Foreground, []int{0}, false}}
	tests := []struct {
		name     string
		extra    step
		promise  *sim.Reservation
		want     error
		at       sim.Time
		job      sim.JobID
		fragment string
	}{
		{"foreground VM busy", step{0, tier.Start, 2, tier.Foreground, []int{1, 0}, false}, nil, tier.ErrBusy, 0, 2, "processor 0 runs job 1"},
		{"background VM closed behind a busy foreground", step{0, tier.Start, 2, tier.Background, []int{0, 1}, false}, nil, tier.ErrClosed, 0, 2, "processor 0"},
		{"too few processors", step{0, tier.Start, 2, tier.Foreground, []int{1}, false}, nil, tier.ErrBadProcs, 0, 2, "1 processors for 2 processes"},
		{"processor twice", step{0, tier.Start, 2, tier.Foreground, []int{1, 1}, false}, nil, tier.ErrBadProcs, 0, 2, "given twice"},
		{"no such processor", step{0, tier.Start, 2, tier.Foreground, []int{1, 7}, false}, nil, tier.ErrBadProcs, 0, 2, "processor 7"},
		{"swap a waiting job", step{0, tier.Swap, 2, 0, nil, false}, nil, tier.ErrNotBackground, 0, 2, "swap"},
		{"start a running job", step{5, tier.Start, 1, tier.Foreground, []int{1}, false}, nil, tier.ErrNotWaiting, 5, 1, "start"},
		{"unknown tier", step{0, tier.Start, 2, 9, []int{1, 2}, false}, nil, tier.ErrBadMove, 0, 2, "tier(9)"},
		{"promise for a foreground job", step{}, &sim.Reservation{Job: &sim.Job{ID: 1}, Start: 9}, sim.ErrBadPromise, 5, 1, "neither waiting nor in the background"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{steps: base}
			if tc.extra.move != 0 {
				s.steps = append(slices.Clone(base), tc.extra)
			}
			if tc.promise != nil {
				s.promises = map[sim.Time][]sim.Reservation{tc.at: {*tc.promise}}
			}
			_, err := sim.Run(sim.NewPool(simtest.Cluster(3, 0)), newSim(t, s, simtest.RateTable{}, 0), sim.NewSliceSource(jobs), sim.Options{})
			var de *sim.DecisionError
			if !errors.As(err, &de) || !errors.Is(err, tc.want) {
				t.Fatalf("got %v; want a decision error wrapping %v", err, tc.want)
			}
			if de.Policy != "script" || de.Time != tc.at || de.Job != tc.job || !strings.Contains(err.Error(), tc.fragment) {
				t.Errorf("got %q (policy %q, t=%d, job %d); want t=%d, job %d, mentioning %q", err, de.Policy, de.Time, de.Job, tc.at, tc.job, tc.fragment)
			}
		})
	}
}

// TestRunErrors covers runs the engine refuses or cannot finish.
func TestRunErrors(t *testing.T) {
	J := simtest.J
	idle := newSim(t, &script{}, simtest.RateTable{}, 0)
	if _, err := sim.Run(sim.NewPool(simtest.Cluster(2, 0)), idle, sim.NewSliceSource([]sim.Record{J(1, 0, 5, 5, 1)}), sim.Options{}); !errors.Is(err, sim.ErrStalled) {
		t.Errorf("a policy that starts nothing: got %v; want %v", err, sim.ErrStalled)
	}
	stuck := newSim(t, &script{steps: []step{{0, tier.Start, 1, tier.Foreground, []int{0}, false}}},
		simtest.RateTable{Foreground: map[sim.JobID]float64{1: 0}}, 0)
	if _, err := sim.Run(sim.NewPool(simtest.Cluster(2, 0)), stuck, sim.NewSliceSource([]sim.Record{J(1, 0, 5, 5, 1)}), sim.Options{}); !errors.Is(err, tier.ErrNoProgress) {
		t.Errorf("a foreground rate of 0: got %v; want %v", err, tier.ErrNoProgress)
	}
	if _, err := sim.Run(sim.NewPool(simtest.Cluster(2, 1<<20)), idle, sim.NewSliceSource(nil), sim.Options{}); err == nil || !strings.Contains(err.Error(), "processors only") {
		t.Errorf("a machine with memory: got %v; want a refusal", err)
	}
	cfg := tier.DefaultConfig()
	cfg.Threshold = 1.5
	if _, err := tier.NewMachine(simtest.Cluster(2, 0), cfg, 0); err == nil || !strings.Contains(err.Error(), `"threshold"`) {
		t.Errorf("threshold 1.5: got %v; want an error naming the parameter", err)
	}
}

// plainSource hides SliceSource's Remaining, so the engine gets no size.
type plainSource struct{ s *sim.SliceSource }

func (p plainSource) Next() (sim.Record, error) { return p.s.Next() }

// TestJobStoreSizes runs MEASY over one workload of 2,500 jobs with the job
// store sized every way — by the source, not at all, too small, too large
// — and checks the results are identical.
func TestJobStoreSizes(t *testing.T) {
	var recs []sim.Record
	for i := range 2500 {
		recs = append(recs, simtest.J(int64(i+1), sim.Time(i*3), sim.Time(1+i%50), 60, int64(1+i%4), simtest.Usage(0.3+float64(i%7)/10)))
	}
	run := func(src sim.Source, hint int) *sim.Result {
		t.Helper()
		p, err := policies.NewDefault("measy")
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(sim.NewPool(simtest.Cluster(8, 0)), p, src, sim.Options{Seed: 1, SizeHint: hint})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := run(sim.NewSliceSource(recs), 0)
	if want.Tiers.Migrations == 0 {
		t.Fatal("the workload migrates no job; it tests nothing of the two-tier engine")
	}
	for _, tc := range []struct {
		name string
		src  sim.Source
		hint int
	}{
		{"no size", plainSource{sim.NewSliceSource(recs)}, 0},
		{"hint too small", plainSource{sim.NewSliceSource(recs)}, 100},
		{"hint too large", plainSource{sim.NewSliceSource(recs)}, 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(tc.src, tc.hint)
			if diff := cmp.Diff(simtest.Bytes(want), simtest.Bytes(got)); diff != "" {
				t.Errorf("results differ from the sized run (-want +got):\n%s", diff)
			}
			if len(got.Jobs) != 2500 {
				t.Errorf("got %d jobs; want 2500", len(got.Jobs))
			}
		})
	}
}

// TestRefusesNodePlacement checks that the two-tier machine refuses a node
// placement (sim.Action.Place), which only a cluster of nodes takes.
func TestRefusesNodePlacement(t *testing.T) {
	m, err := tier.NewMachine(simtest.Cluster(2, 0), tier.DefaultConfig(), 0)
	if err != nil {
		t.Fatal(err)
	}
	err = m.Apply(0, nil, sim.Action{Move: sim.Start, Procs: []int{0}, Tier: sim.Foreground, Place: []int{0}})
	if err == nil || !strings.Contains(err.Error(), "no node placement") {
		t.Errorf("a start with a node placement: got %v; want a refusal", err)
	}
}
