package tier_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// watcher is a script that observes the run and sets a timer: wake[t] is
// the WakeAt of its decision at t.
type watcher struct {
	*script
	wake   map[sim.Time]sim.Time
	log    []string
	passes []sim.Time
}

var _ sim.Observer = (*watcher)(nil)

func (w *watcher) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	w.passes = append(w.passes, now)
	d, err := w.script.Schedule(now, v)
	d.WakeAt = w.wake[now]
	return d, err
}

func (w *watcher) Submitted(now sim.Time, j *sim.Job) {
	w.log = append(w.log, fmt.Sprintf("t=%d submitted %d", now, j.ID))
}

func (w *watcher) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	w.log = append(w.log, fmt.Sprintf("t=%d finished %d after %d", now, j.ID, actual))
}

// TestObserverAndTimer: a two-tier policy is told of arrivals and ends
// before the pass of their time, with each job's work as its actual run
// time (a killed job's estimate; a background job's work, not its
// wall-clock time), and gets a pass at its timer, which each decision
// replaces.
func TestObserverAndTimer(t *testing.T) {
	J, U := simtest.J, simtest.Usage
	// Three processors, every rate 1 but job 4's in the background behind
	// job 1 (a half). Job 1 runs 0-10 in the foreground of processor 0.
	// Job 3 arrives at 1 and is killed at its estimate, 5 s later, at 6.
	// Job 2 waits for the timer at 7, which the passes at 1 and 6 set
	// again, and runs 7-11. Job 4 runs in the background of processor 0
	// from 0: 4 s of work at a half take 8 s, to 8.
	w := &watcher{
		script: &script{steps: []step{
			{0, tier.Start, 1, tier.Foreground, []int{0}, false},
			{0, tier.Start, 4, tier.Background, []int{0}, false},
			{1, tier.Start, 3, tier.Foreground, []int{2}, false},
			{7, tier.Start, 2, tier.Foreground, []int{1}, false},
		}},
		wake: map[sim.Time]sim.Time{0: 7, 1: 7, 6: 7},
	}
	cfg := tier.DefaultConfig()
	cfg.Model = func(uint64) tier.Model {
		return simtest.RateTable{Background: map[[2]sim.JobID]float64{{4, 1}: 0.5}}
	}
	w.script.cfg = cfg
	ts := w
	recs := []sim.Record{J(1, 0, 10, 20, 1, U(0.5)), J(2, 0, 4, 4, 1), J(4, 0, 4, 9, 1), J(3, 1, 9, 5, 1)}
	res, err := sim.Run(sim.NewPool(simtest.Cluster(3, 0)), ts, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantLog := []string{
		"t=0 submitted 1", "t=0 submitted 2", "t=0 submitted 4", "t=1 submitted 3",
		"t=6 finished 3 after 5", "t=8 finished 4 after 4", "t=10 finished 1 after 10", "t=11 finished 2 after 4",
	}
	if diff := cmp.Diff(wantLog, w.log); diff != "" {
		t.Errorf("observer calls (-want +got):\n%s", diff)
	}
	// Passes: arrivals at 0 and 1, job 3's end at 6, the timer at 7; none
	// at 8 or later, with nothing waiting or in the background.
	if diff := cmp.Diff([]sim.Time{0, 1, 6, 7}, w.passes); diff != "" {
		t.Errorf("pass times (-want +got):\n%s", diff)
	}
	want := map[sim.JobID]outcome{1: {0, 10, sim.Finished}, 2: {7, 11, sim.Finished}, 3: {1, 6, sim.Killed}, 4: {0, 8, sim.Finished}}
	if diff := cmp.Diff(want, outcomes(res)); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestBadTimer: a timer not after the pass fails the run.
func TestBadTimer(t *testing.T) {
	w := &watcher{script: &script{}, wake: map[sim.Time]sim.Time{3: 3}}
	w.script = newSim(t, w.script, simtest.RateTable{}, 0)
	ts := w
	_, err := sim.Run(sim.NewPool(simtest.Cluster(1, 0)), ts, sim.NewSliceSource([]sim.Record{simtest.J(1, 3, 1, 1, 1)}), sim.Options{})
	var de *sim.DecisionError
	if !errors.Is(err, sim.ErrBadWake) || !errors.As(err, &de) || de.Time != 3 || de.Job != sim.Missing {
		t.Errorf("WakeAt = now: got %v; want a *sim.DecisionError at t=3 wrapping %v", err, sim.ErrBadWake)
	}
}
