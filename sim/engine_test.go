package sim_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// firstFit starts every waiting job that fits, in arrival order, passing
// blocked ones. It is the simplest valid policy, enough to test the engine.
type firstFit struct{ start []*sim.Job }

func (*firstFit) Name() string { return "first-fit" }

func (p *firstFit) Schedule(_ sim.Time, v sim.View) (sim.Decision, error) {
	free := v.Free()
	p.start = p.start[:0]
	for _, j := range v.Waiting() {
		if j.Need.FitsIn(free) {
			free = free.Sub(j.Need)
			p.start = append(p.start, j)
		}
	}
	return sim.Decision{Start: p.start}, nil
}

// funcPolicy adapts a function to sim.Policy.
type funcPolicy func(now sim.Time, v sim.View) (sim.Decision, error)

func (funcPolicy) Name() string { return "func" }
func (f funcPolicy) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	return f(now, v)
}

type span struct {
	Start, End sim.Time
	State      sim.State
}

func spans(res *sim.Result) map[sim.JobID]span {
	m := make(map[sim.JobID]span)
	for _, o := range res.Jobs {
		m[o.ID] = span{o.Start, o.End, o.State}
	}
	return m
}

func TestRunSemantics(t *testing.T) {
	J := simtest.J
	tests := []struct {
		name string
		cap  sim.Resources
		jobs []sim.Record
		opt  sim.Options
		want map[sim.JobID]span
	}{{
		name: "completion before arrival at the same time",
		cap:  simtest.Cluster(4, 0),
		jobs: []sim.Record{J(1, 0, 10, 10, 4), J(2, 10, 5, 5, 4)},
		want: map[sim.JobID]span{1: {0, 10, sim.Finished}, 2: {10, 15, sim.Finished}},
	}, {
		name: "killed at the estimate by default",
		cap:  simtest.Cluster(4, 0),
		jobs: []sim.Record{J(1, 0, 200, 100, 4), J(2, 0, 100, 100, 4)},
		want: map[sim.JobID]span{1: {0, 100, sim.Killed}, 2: {100, 200, sim.Finished}},
	}, {
		name: "overrun allowed",
		cap:  simtest.Cluster(4, 0),
		jobs: []sim.Record{J(1, 0, 200, 100, 4), J(2, 0, 100, 100, 4)},
		opt:  sim.Options{AllowOverrun: true},
		want: map[sim.JobID]span{1: {0, 200, sim.Finished}, 2: {200, 300, sim.Finished}},
	}, {
		name: "zero run time frees its resources at the same time",
		cap:  simtest.Cluster(2, 0),
		jobs: []sim.Record{J(1, 0, 0, 10, 2), J(2, 0, 5, 5, 2)},
		want: map[sim.JobID]span{1: {0, 0, sim.Finished}, 2: {0, 5, sim.Finished}},
	}, {
		name: "missing estimate becomes the run time",
		cap:  simtest.Cluster(2, 0),
		jobs: []sim.Record{J(1, 0, 30, sim.Missing, 2)},
		want: map[sim.JobID]span{1: {0, 30, sim.Finished}},
	}, {
		name: "memory binds",
		cap:  simtest.Cluster(8, 100),
		jobs: []sim.Record{J(1, 0, 10, 10, 1, simtest.Mem(60)), J(2, 0, 10, 10, 1, simtest.Mem(60))},
		want: map[sim.JobID]span{1: {0, 10, sim.Finished}, 2: {10, 20, sim.Finished}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := simtest.Run(t, tc.cap, &firstFit{}, tc.jobs, tc.opt, simtest.Checks{})
			if diff := cmp.Diff(tc.want, spans(res)); diff != "" {
				t.Errorf("schedule (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRejections(t *testing.T) {
	J := simtest.J
	jobs := []sim.Record{
		J(1, 0, 10, 10, 9),                    // more processors than the machine
		J(2, 0, 10, 10, 0),                    // no processors
		J(3, 0, -1, 10, 1),                    // no run time
		J(4, 0, 10, -5, 1),                    // negative estimate
		J(5, 0, 10, 10, 1, simtest.Mem(2048)), // more memory than the machine
		J(6, 0, 10, sim.Missing, 1),           // filled, not rejected
		J(7, 0, 10, 10, 1),                    // runs
	}
	res, _ := simtest.Run(t, simtest.Cluster(8, 1024), &firstFit{}, jobs, sim.Options{}, simtest.Checks{})
	want := map[sim.JobID]sim.Reason{1: sim.TooLarge, 2: sim.NoProcessors, 3: sim.NoRuntime, 4: sim.NegativeRequest, 5: sim.TooLarge}
	got := map[sim.JobID]sim.Reason{}
	for _, o := range res.Jobs {
		if o.State == sim.Rejected {
			got[o.ID] = o.Reason
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rejections (-want +got):\n%s", diff)
	}
	if res.Rejected != 5 || res.Finished != 2 || res.EstimatesFilled != 1 {
		t.Errorf("got rejected=%d finished=%d filled=%d; want 5, 2, 1", res.Rejected, res.Finished, res.EstimatesFilled)
	}
	if got := res.RejectedBy[sim.TooLarge]; got != 2 {
		t.Errorf("got %d too-large rejections; want 2", got)
	}

	res, err := sim.Run(sim.NewPool(simtest.Cluster(8, 0)), &firstFit{},
		sim.NewSliceSource([]sim.Record{J(1, 0, 10, sim.Missing, 1)}),
		sim.Options{MissingEstimate: sim.RejectMissingEstimate})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Jobs[0]; o.State != sim.Rejected || o.Reason != sim.NoEstimate {
		t.Errorf("missing estimate under RejectMissingEstimate: got %v/%v; want rejected/no-estimate", o.State, o.Reason)
	}
}

func TestBadDecisions(t *testing.T) {
	J := simtest.J
	jobs := []sim.Record{J(1, 0, 10, 10, 3), J(2, 5, 10, 10, 3)}
	stranger := &sim.Job{ID: 99, Seq: 0}
	tests := []struct {
		name string
		p    funcPolicy
		want error
		msg  string
	}{{
		name: "over-commit",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			return sim.Decision{Start: v.Waiting()}, nil
		},
		want: sim.ErrOvercommit,
		msg:  `policy "func" at t=5: job 2: job does not fit the free resources: needs procs=3, free procs=1`,
	}, {
		name: "start twice",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			w := v.Waiting()
			return sim.Decision{Start: []*sim.Job{w[0], w[0]}}, nil
		},
		want: sim.ErrNotWaiting,
		msg:  `policy "func" at t=0: job 1: job is not waiting`,
	}, {
		name: "start a job the engine does not know",
		p: func(sim.Time, sim.View) (sim.Decision, error) {
			return sim.Decision{Start: []*sim.Job{stranger}}, nil
		},
		want: sim.ErrNotWaiting,
		msg:  `policy "func" at t=0: job 99: job is not waiting`,
	}, {
		name: "start a running job as an action",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			if now == 0 {
				return sim.Decision{Start: v.Waiting()}, nil
			}
			return sim.Decision{Actions: []sim.Action{{Move: sim.Start, Job: v.Running()[0].Job}}}, nil
		},
		want: sim.ErrNotWaiting,
		msg:  `policy "func" at t=5: job 1: start: job is not waiting`,
	}, {
		name: "a move the pool does not know",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			return sim.Decision{Actions: []sim.Action{{Move: sim.Migrate, Job: v.Waiting()[0], Procs: []int{0}}}}, nil
		},
		msg: `policy "func" at t=0: job 1: migrate: the pool cannot migrate a job`,
	}, {
		name: "a placement on the pool",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			return sim.Decision{Actions: []sim.Action{{Move: sim.Start, Job: v.Waiting()[0], Procs: []int{0, 1, 2}}}}, nil
		},
		msg: `policy "func" at t=0: job 1: start: the pool takes no placement`,
	}, {
		name: "promise in the past",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			return sim.Decision{Promise: []sim.Reservation{{Job: v.Waiting()[0], Start: now - 1}}}, nil
		},
		want: sim.ErrBadPromise,
		msg:  `policy "func" at t=0: job 1: invalid promise: start -1 is in the past`,
	}, {
		name: "wake in the past",
		p: func(now sim.Time, v sim.View) (sim.Decision, error) {
			return sim.Decision{WakeAt: now}, nil // at t=0 this means no timer
		},
		want: sim.ErrBadWake,
		msg:  `policy "func" at t=5: wake time is not in the future: 5`,
	}, {
		name: "stalled",
		p: func(sim.Time, sim.View) (sim.Decision, error) {
			return sim.Decision{}, nil
		},
		want: sim.ErrStalled,
		msg:  `policy "func" at t=5: 2 jobs left waiting on an idle machine with no timer (first: job 1, submitted at t=0, needs procs=3)`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sim.Run(sim.NewPool(simtest.Cluster(4, 0)), tc.p, sim.NewSliceSource(jobs), sim.Options{})
			var de *sim.DecisionError
			if tc.want == nil && !errors.As(err, &de) {
				t.Fatalf("got error %v; want a *sim.DecisionError", err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got error %v; want %v", err, tc.want)
			}
			if tc.msg != "" && err.Error() != tc.msg {
				t.Errorf("got message\n\t%s\nwant\n\t%s", err, tc.msg)
			}
		})
	}
}

func TestSourceErrors(t *testing.T) {
	J := simtest.J
	tests := []struct {
		name string
		src  sim.Source
		msg  string
	}{
		{"backwards", sim.NewSliceSource([]sim.Record{J(1, 10, 1, 1, 1), J(2, 5, 1, 1, 1)}),
			"job 2: submit time 5 is before the previous job's 10"},
		{"negative", sim.NewSliceSource([]sim.Record{J(1, -3, 1, 1, 1)}), "job 1: submit time -3 is negative"},
		{"reader failure", errSource{}, "reading workload: disk on fire"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sim.Run(sim.NewPool(simtest.Cluster(4, 0)), &firstFit{}, tc.src, sim.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("got error %v; want it to contain %q", err, tc.msg)
			}
		})
	}
}

type errSource struct{}

func (errSource) Next() (sim.Record, error) { return sim.Record{}, errors.New("disk on fire") }

// TestWake checks that a timer brings a pass at its time even when nothing
// else happens then.
func TestWake(t *testing.T) {
	var passes []sim.Time
	p := funcPolicy(func(now sim.Time, v sim.View) (sim.Decision, error) {
		passes = append(passes, now)
		if now < 100 {
			return sim.Decision{WakeAt: 100}, nil
		}
		return sim.Decision{Start: v.Waiting()}, nil
	})
	res, err := sim.Run(sim.NewPool(simtest.Cluster(4, 0)), p,
		sim.NewSliceSource([]sim.Record{simtest.J(1, 7, 10, 10, 1)}), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]sim.Time{7, 100}, passes); diff != "" {
		t.Errorf("passes (-want +got):\n%s", diff)
	}
	if got := res.Jobs[0].Start; got != 100 {
		t.Errorf("got start %d; want 100", got)
	}
}

// observer records the Observer calls it gets.
type observer struct {
	firstFit
	log []string
}

func (o *observer) Submitted(now sim.Time, j *sim.Job) {
	o.log = append(o.log, fmt.Sprintf("submit %d @%d", j.ID, now))
}

func (o *observer) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	o.log = append(o.log, fmt.Sprintf("finish %d @%d ran %d", j.ID, now, actual))
}

func TestObserver(t *testing.T) {
	o := &observer{}
	J := simtest.J
	_, err := sim.Run(sim.NewPool(simtest.Cluster(1, 0)), o,
		sim.NewSliceSource([]sim.Record{J(1, 0, 50, 40, 1), J(2, 10, 5, 5, 1), J(3, 10, 5, 5, 2)}), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"submit 1 @0", "submit 2 @10", "finish 1 @40 ran 40", "finish 2 @45 ran 5"}
	if diff := cmp.Diff(want, o.log); diff != "" {
		t.Errorf("observer calls (-want +got):\n%s", diff)
	}
}

// plainSource hides SliceSource's Remaining, so the engine gets no size.
type plainSource struct{ s *sim.SliceSource }

func (p plainSource) Next() (sim.Record, error) { return p.s.Next() }

// TestJobStoreSizes runs one workload of 2,500 jobs with the job store sized
// every way — by the source, not at all, too small, too large — and checks
// the results are identical.
func TestJobStoreSizes(t *testing.T) {
	var recs []sim.Record
	for i := range 2500 {
		recs = append(recs, simtest.J(int64(i+1), sim.Time(i*3), sim.Time(1+i%50), 60, int64(1+i%4)))
	}
	c := simtest.Cluster(8, 0)
	want, err := sim.Run(sim.NewPool(c), &firstFit{}, sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
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
			got, err := sim.Run(sim.NewPool(c), &firstFit{}, tc.src, sim.Options{SizeHint: tc.hint})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(simtest.Bytes(want), simtest.Bytes(got)); diff != "" {
				t.Errorf("results differ from the sized run (-want +got):\n%s", diff)
			}
			if len(got.Jobs) != 2500 {
				t.Errorf("got %d jobs; want 2500", len(got.Jobs))
			}
		})
	}
}
