package sim

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// Options are the run-time semantics that simulators disagree on. The zero
// value is the default; sim/README.md compares each with other simulators.
type Options struct {
	// AllowOverrun lets a job run past its estimate to its full run time. By
	// default a job still running at its estimate is killed there, as batch
	// systems enforce wall-time limits; it is then counted as Killed.
	AllowOverrun bool
	// MissingEstimate says what to do with a job whose estimate is missing.
	MissingEstimate MissingEstimate
	// Tracer, if set, receives the promises and withdrawals of every pass.
	Tracer Tracer
	// Seed seeds the random draws a machine model makes itself (the
	// two-tier machine draws each job's speed); the pool draws nothing. The
	// runner passes each replicate's workload seed, so every policy of one
	// replicate sees the same draws.
	Seed uint64
	// SizeHint is the number of jobs the source is expected to give, 0 if
	// unknown (a SliceSource tells the engine itself). With it the engine
	// allocates its job store once and hands it over as Result.Jobs without
	// copying; a wrong hint costs only memory or that copy.
	SizeHint int
}

// MissingEstimate selects the treatment of a job without an estimate.
type MissingEstimate uint8

const (
	// EstimateFromRuntime uses the run time as the estimate (a perfect
	// estimate) and counts the job in Result.EstimatesFilled. Default.
	EstimateFromRuntime MissingEstimate = iota
	// RejectMissingEstimate rejects the job with reason NoEstimate.
	RejectMissingEstimate
)

// Sentinel errors wrapped by *DecisionError and Run.
var (
	ErrNotWaiting  = errors.New("job is not waiting")
	ErrOvercommit  = errors.New("job does not fit the free resources")
	ErrBadPromise  = errors.New("invalid promise")
	ErrBadWake     = errors.New("wake time is not in the future")
	ErrStalled     = errors.New("jobs left waiting on an idle machine with no timer")
	ErrSourceOrder = errors.New("submit times go backwards")
)

// DecisionError reports a decision the engine refused. The run stops there.
type DecisionError struct {
	Policy string
	Time   Time
	Job    JobID // Missing when the fault is not a job's (a bad timer)
	Err    error
}

func (e *DecisionError) Error() string {
	if e.Job == Missing {
		return fmt.Sprintf("policy %q at t=%d: %v", e.Policy, e.Time, e.Err)
	}
	return fmt.Sprintf("policy %q at t=%d: job %d: %v", e.Policy, e.Time, e.Job, e.Err)
}

func (e *DecisionError) Unwrap() error { return e.Err }

// Run simulates policy p on machine model m over the jobs of src and
// returns every job's outcome. Events at one time are applied in the order
// completions (the model's events), arrivals, then one scheduling pass;
// equal completion times are broken by the order in which jobs started.
// The same inputs always give the same Result. A policy that is a
// ModelMaker runs on the model it makes for m's capacity instead of m.
//
// Run is single-threaded. The loop itself makes O(E log R) comparisons
// for E events and R running jobs, plus, for each pass that starts jobs,
// a binary search of the waiting queue per start and a copy of the queue
// after its first start; the model's cost (on the pool, O(log R) and
// a copy of up to R allocations per start and end) and the policy's come
// on top.
func Run(m Model, p Policy, src Source, opt Options) (*Result, error) {
	if mm, ok := p.(ModelMaker); ok {
		own, err := mm.NewModel(m.Capacity(), opt.Seed)
		if err != nil {
			return nil, fmt.Errorf("policy %q: %w", p.Name(), err)
		}
		m = own
	}
	e := &engine{
		m:      m,
		p:      p,
		opt:    opt,
		src:    src,
		res:    &Result{Policy: p.Name(), Capacity: m.Capacity()},
		nextAt: -1,
		jobs:   jobs.NewStore[Outcome, phase](opt.SizeHint, src),
	}
	e.obs, _ = p.(Observer)
	e.placer, _ = m.(Placer)
	if err := m.Open(e, opt); err != nil {
		return nil, fmt.Errorf("policy %q: %w", p.Name(), err)
	}
	if err := e.run(); err != nil {
		return nil, err
	}
	if err := m.Close(e.res); err != nil {
		return nil, fmt.Errorf("policy %q at t=%d: %w", p.Name(), e.now, err)
	}
	e.res.Jobs = e.jobs.Outcomes()
	return e.res, nil
}

type phase uint8

const (
	waiting phase = iota
	running
	done
)

type engine struct {
	m   Model
	p   Policy
	obs Observer
	opt Options
	src Source
	res *Result

	// jobs holds one Outcome and one phase per job where they never move,
	// so the *Job pointers handed to policies stay valid as the workload
	// grows; its outcomes become Result.Jobs.
	jobs jobs.Store[Outcome, phase]

	next    Record // the next arrival, valid when nextAt >= 0
	nextAt  Time   // its submit time; -1 when the source is exhausted
	lastSub Time
	now     Time
	wake    Time

	waiting []*Job
	gone    []int // positions in waiting of the jobs a pass started

	placer Placer   // the model's placement, nil on a model without
	agg    aggTrial // View.Trial when placer is nil
}

// View methods.
func (e *engine) Waiting() []*Job       { return e.waiting }
func (e *engine) Running() []Allocation { return e.m.Running() }
func (e *engine) Free() Resources       { return e.m.Free() }
func (e *engine) Capacity() Resources   { return e.m.Capacity() }
func (e *engine) Model() any            { return e.m.View() }

// Trial returns the model's trial, or the aggregate one over Free.
func (e *engine) Trial() Trial {
	if e.placer != nil {
		return e.placer.Trial()
	}
	e.agg.free = e.m.Free()
	return &e.agg
}

func (e *engine) run() error {
	if err := e.readNext(); err != nil {
		return err
	}
	for {
		t, ok := e.nextTime()
		if !ok {
			break
		}
		e.now = t
		changed := false
		for _, o := range e.m.Advance(t) {
			e.complete(o)
			changed = true
		}
		for e.nextAt == t {
			e.arrive()
			changed = true
			if err := e.readNext(); err != nil {
				return err
			}
		}
		if e.wake == t {
			e.wake, changed = 0, true
		}
		if changed && (len(e.waiting) > 0 || e.m.Movable()) {
			if err := e.pass(); err != nil {
				return err
			}
		}
	}
	if len(e.waiting) > 0 {
		j := e.waiting[0]
		return fmt.Errorf("policy %q at t=%d: %d %w (first: job %d, submitted at t=%d, needs %v)",
			e.p.Name(), e.now, len(e.waiting), ErrStalled, j.ID, j.Submit, j.Need)
	}
	return nil
}

// nextTime returns the time of the earliest pending event.
func (e *engine) nextTime() (Time, bool) {
	t, ok := e.m.Next()
	if e.nextAt >= 0 && (!ok || e.nextAt < t) {
		t, ok = e.nextAt, true
	}
	if e.wake > 0 && (!ok || e.wake < t) {
		t, ok = e.wake, true
	}
	return t, ok
}

// readNext reads the source's next record into e.next and checks it: its
// submit time is not negative and not before the previous record's.
// nextAt is -1 at the end of the source and on an error.
func (e *engine) readNext() error {
	var err error
	e.next, err = e.src.Next()
	e.nextAt = -1
	switch {
	case err == io.EOF:
		return nil
	case err != nil:
		return fmt.Errorf("reading workload: %w", err)
	case e.next.Submit < 0:
		return fmt.Errorf("reading workload: job %d: submit time %d is negative", e.next.ID, e.next.Submit)
	case e.next.Submit < e.lastSub:
		return fmt.Errorf("reading workload: job %d: submit time %d is before the previous job's %d: %w",
			e.next.ID, e.next.Submit, e.lastSub, ErrSourceOrder)
	}
	e.lastSub, e.nextAt = e.next.Submit, e.next.Submit
	return nil
}

// arrive admits e.next: it is rejected with a reason or joins the queue.
func (e *engine) arrive() {
	seq, o, ph := e.jobs.Add()
	*o = Outcome{Record: e.next, Start: -1, End: -1}
	o.Seq = seq
	r := Admit(o, e.res.Capacity, e.opt.MissingEstimate) // the model's, read once in Run
	if r == NoReason && e.placer != nil {
		r = e.placer.Refuse(o)
	}
	if o.EstimateFilled {
		e.res.EstimatesFilled++
	}
	if r != NoReason {
		o.State, o.Reason, *ph = Rejected, r, done
		e.res.Rejected++
		e.res.RejectedBy[r]++
		return
	}
	*ph = waiting
	e.m.Admit(o)
	e.waiting = append(e.waiting, &o.Job)
	if e.obs != nil {
		e.obs.Submitted(e.now, &o.Job)
	}
}

// Admit applies Run's admission rules to o, a job just read from the
// source: it returns why the job cannot run on a machine of the given
// capacity (NoReason if it can) and, when the estimate is missing and me
// says so, sets the estimate to the run time and o.EstimateFilled. Run
// calls it for every job; workloads calls it to count the work a run
// would admit.
func Admit(o *Outcome, capacity Resources, me MissingEstimate) Reason {
	switch {
	case o.Runtime < 0:
		return NoRuntime
	case o.Need[Procs] == 0:
		return NoProcessors
	case o.Estimate < Missing:
		return NegativeRequest
	}
	for _, v := range o.Need {
		if v < 0 {
			return NegativeRequest
		}
	}
	if _, over := o.Need.Exceeds(capacity); over {
		return TooLarge
	}
	if o.Estimate == Missing {
		if me == RejectMissingEstimate {
			return NoEstimate
		}
		o.Estimate, o.EstimateFilled = o.Runtime, true
	}
	return NoReason
}

// pass calls the policy and applies its decision: the starts, the actions
// in order, the withdrawals, the promises, the timer.
func (e *engine) pass() error {
	e.res.Passes++
	d, err := e.p.Schedule(e.now, e)
	if err != nil {
		return fmt.Errorf("policy %q at t=%d: %w", e.p.Name(), e.now, err)
	}
	e.gone = e.gone[:0]
	for _, j := range d.Start {
		if err := e.start(j); err != nil {
			return e.refuse(j, err)
		}
		e.gone = append(e.gone, e.waitingAt(j))
	}
	for i := range d.Actions {
		a := d.Actions[i]
		if err := e.apply(a); err != nil {
			return e.refuse(a.Job, fmt.Errorf("%v: %w", a.Move, err))
		}
		if a.Move == Start {
			e.gone = append(e.gone, e.waitingAt(a.Job))
		}
	}
	if len(e.gone) > 0 {
		e.compactWaiting()
	}
	if e.opt.Tracer != nil {
		for _, j := range d.Withdraw {
			e.opt.Tracer.Withdrawn(e.now, j)
		}
	}
	for _, r := range d.Promise {
		if err := e.checkPromise(r); err != nil {
			return e.refuse(r.Job, err)
		}
		if e.opt.Tracer != nil {
			e.opt.Tracer.Promised(e.now, r.Job, r.Start)
		}
	}
	if d.WakeAt != 0 && d.WakeAt <= e.now {
		return e.refuse(nil, fmt.Errorf("%w: %d", ErrBadWake, d.WakeAt))
	}
	e.wake = d.WakeAt
	return nil
}

// refuse returns the DecisionError of a refused part of a decision about
// j (nil: not a job's fault).
func (e *engine) refuse(j *Job, err error) error {
	id := JobID(Missing)
	if j != nil {
		id = j.ID
	}
	return &DecisionError{Policy: e.p.Name(), Time: e.now, Job: id, Err: err}
}

// own returns the outcome and phase behind j if j is a job this engine
// handed out.
func (e *engine) own(j *Job) (*Outcome, *phase, bool) {
	if j == nil || j.Seq < 0 || j.Seq >= e.jobs.Len() {
		return nil, nil, false
	}
	o, ph := e.jobs.At(j.Seq)
	return o, ph, &o.Job == j
}

// start starts a job of Decision.Start: a Start action without placement.
func (e *engine) start(j *Job) error {
	o, ph, ok := e.own(j)
	if !ok || *ph != waiting {
		return ErrNotWaiting
	}
	o.Start = e.now
	if err := e.m.Apply(e.now, o, Action{Move: Start, Job: j}); err != nil {
		return err
	}
	*ph = running
	return nil
}

// apply carries out one action of Decision.Actions: the loop checks that a
// Start's job waits, the model checks the rest.
func (e *engine) apply(a Action) error {
	o, ph, ok := e.own(a.Job)
	switch {
	case a.Move == Start && (!ok || *ph != waiting):
		return ErrNotWaiting
	case a.Move == Start:
		o.Start = e.now
	case !ok:
		o = nil
	}
	if err := e.m.Apply(e.now, o, a); err != nil {
		return err
	}
	if a.Move == Start {
		*ph = running
	}
	return nil
}

func (e *engine) complete(o *Outcome) {
	*e.jobs.Rec(o.Seq) = done
	if o.State == Killed {
		e.res.Killed++
	} else {
		e.res.Finished++
	}
	if e.obs != nil {
		e.obs.Finished(e.now, &o.Job, o.Work())
	}
}

// waitingAt returns the position of j in the waiting queue, which holds
// it. The queue is in arrival order, which is the order of Seq, unless a
// policy reordered the slice View.Waiting returned; then j is looked for
// one by one.
func (e *engine) waitingAt(j *Job) int {
	lo, hi := 0, len(e.waiting)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e.waiting[m].Seq < j.Seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(e.waiting) && e.waiting[lo] == j {
		return lo
	}
	return slices.Index(e.waiting, j)
}

// compactWaiting removes from the waiting queue the jobs at the positions
// in e.gone, the pass's starts, keeping the others in order. The jobs
// between two started ones move as one block, so a pass that starts s of
// w waiting jobs costs O(s log w) comparisons and a copy of the queue
// after its first start, not a test of every waiting job.
func (e *engine) compactWaiting() {
	g := e.gone
	slices.Sort(g)
	w := g[0]
	for k, p := range g {
		next := len(e.waiting)
		if k+1 < len(g) {
			next = g[k+1]
		}
		w += copy(e.waiting[w:], e.waiting[p+1:next])
	}
	clear(e.waiting[w:])
	e.waiting = e.waiting[:w]
}

func (e *engine) checkPromise(r Reservation) error {
	o, ph, ok := e.own(r.Job)
	switch {
	case !ok:
		return fmt.Errorf("%w: unknown job", ErrBadPromise)
	case *ph != waiting:
		if err := e.m.CheckPromise(o, *ph == running, e.now); err != nil {
			return err
		}
	}
	if r.Start < e.now {
		return fmt.Errorf("%w: start %d is in the past", ErrBadPromise, r.Start)
	}
	return nil
}
