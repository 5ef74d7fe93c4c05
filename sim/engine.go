package sim

import (
	"errors"
	"fmt"
	"io"
	"sort"

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
	// Seed seeds the random draws an engine makes itself (the two-tier
	// engine draws each job's speed); Run's own engine draws nothing. The
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

// Run simulates policy p on machine m over the jobs of src and returns every
// job's outcome. Events at one time are applied in the order completions,
// arrivals, then one scheduling pass; equal completion times are broken by the
// order in which jobs started. The same inputs always give the same Result.
//
// Run is single-threaded. The engine itself makes O((E + S) log R)
// comparisons for E events, S starts and R running jobs, plus a copy of up
// to R allocations per start and end (the running list stays sorted) and a
// sweep of the waiting queue after each pass that starts jobs; the policy's
// cost comes on top.
//
// A policy that is a Simulator runs on its own engine: Run returns what its
// Simulate method returns.
func Run(m Machine, p Policy, src Source, opt Options) (*Result, error) {
	if s, ok := p.(Simulator); ok {
		return s.Simulate(m, src, opt)
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
	if err := e.run(); err != nil {
		return nil, err
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
	m   Machine
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
	running []Allocation          // by (estimated end, seq)
	ends    jobs.Queue[Time, int] // completions: the job's seq at its end
}

// View methods.
func (e *engine) Waiting() []*Job       { return e.waiting }
func (e *engine) Running() []Allocation { return e.running }
func (e *engine) Free() Resources       { return e.m.Free() }
func (e *engine) Capacity() Resources   { return e.m.Capacity() }

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
		for e.ends.Len() > 0 && e.ends.Min().At == t {
			e.complete(e.ends.Pop().V)
		}
		for e.nextAt == t {
			e.arrive()
			if err := e.readNext(); err != nil {
				return err
			}
		}
		if e.wake == t {
			e.wake = 0
		}
		if len(e.waiting) > 0 {
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
	t, ok := Time(0), false
	if e.ends.Len() > 0 {
		t, ok = e.ends.Min().At, true
	}
	if e.nextAt >= 0 && (!ok || e.nextAt < t) {
		t, ok = e.nextAt, true
	}
	if e.wake > 0 && (!ok || e.wake < t) {
		t, ok = e.wake, true
	}
	return t, ok
}

func (e *engine) readNext() error {
	ok, err := ReadNext(e.src, e.lastSub, &e.next)
	if !ok {
		e.nextAt = -1
		return err
	}
	e.lastSub, e.nextAt = e.next.Submit, e.next.Submit
	return nil
}

// ReadNext reads src's next record into rec and checks it as Run does: its
// submit time is not negative and not before last, the previous record's.
// ok is false at the end of src (err nil) and on an error. Engines other
// than Run's (Simulator) call it so that every engine reads sources alike.
// rec is a pointer so that the record, read once per job, is copied once.
func ReadNext(src Source, last Time, rec *Record) (ok bool, err error) {
	*rec, err = src.Next()
	switch {
	case err == io.EOF:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("reading workload: %w", err)
	case rec.Submit < 0:
		return false, fmt.Errorf("reading workload: job %d: submit time %d is negative", rec.ID, rec.Submit)
	case rec.Submit < last:
		return false, fmt.Errorf("reading workload: job %d: submit time %d is before the previous job's %d: %w",
			rec.ID, rec.Submit, last, ErrSourceOrder)
	}
	return true, nil
}

// arrive admits e.next: it is rejected with a reason or joins the queue.
func (e *engine) arrive() {
	seq, o, ph := e.jobs.Add()
	*o = Outcome{Record: e.next, Start: -1, End: -1}
	o.Seq = seq
	if r := e.admit(o); r != NoReason {
		o.State, o.Reason, *ph = Rejected, r, done
		e.res.Rejected++
		e.res.RejectedBy[r]++
		return
	}
	*ph = waiting
	e.waiting = append(e.waiting, &o.Job)
	if e.obs != nil {
		e.obs.Submitted(e.now, &o.Job)
	}
}

// admit applies the estimate rules and returns why o cannot run, if so.
func (e *engine) admit(o *Outcome) Reason {
	r := Admit(o, e.m.Capacity(), e.opt.MissingEstimate)
	if o.EstimateFilled {
		e.res.EstimatesFilled++
	}
	return r
}

// Admit applies the admission rules of Run to o, a job just read from the
// source: it returns why the job cannot run on a machine of the given
// capacity (NoReason if it can) and, when the estimate is missing and me
// says so, sets the estimate to the run time and o.EstimateFilled. Engines
// other than Run's (Simulator) call it so that every engine rejects the
// same jobs for the same reasons.
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

func (e *engine) pass() error {
	e.res.Passes++
	d, err := e.p.Schedule(e.now, e)
	if err != nil {
		return fmt.Errorf("policy %q at t=%d: %w", e.p.Name(), e.now, err)
	}
	for _, j := range d.Start {
		if err := e.start(j); err != nil {
			return &DecisionError{Policy: e.p.Name(), Time: e.now, Job: j.ID, Err: err}
		}
	}
	if len(d.Start) > 0 {
		e.compactWaiting()
	}
	if e.opt.Tracer != nil {
		for _, j := range d.Withdraw {
			e.opt.Tracer.Withdrawn(e.now, j)
		}
	}
	for _, r := range d.Promise {
		if err := e.checkPromise(r); err != nil {
			return &DecisionError{Policy: e.p.Name(), Time: e.now, Job: r.Job.ID, Err: err}
		}
		if e.opt.Tracer != nil {
			e.opt.Tracer.Promised(e.now, r.Job, r.Start)
		}
	}
	if d.WakeAt != 0 && d.WakeAt <= e.now {
		return &DecisionError{Policy: e.p.Name(), Time: e.now, Job: Missing,
			Err: fmt.Errorf("%w: %d", ErrBadWake, d.WakeAt)}
	}
	e.wake = d.WakeAt
	return nil
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

func (e *engine) start(j *Job) error {
	o, ph, ok := e.own(j)
	if !ok || *ph != waiting {
		return ErrNotWaiting
	}
	if !e.m.Place(j) {
		return fmt.Errorf("%w: needs %v, free %v", ErrOvercommit, j.Need, e.m.Free())
	}
	*ph = running
	o.Start = e.now
	run := o.Runtime
	o.State = Finished
	if !e.opt.AllowOverrun && run > j.Estimate {
		run, o.State = j.Estimate, Killed
	}
	o.End = e.now + run
	e.ends.Push(o.End, j.Seq)
	a := Allocation{Job: j, Start: e.now}
	i := sort.Search(len(e.running), func(i int) bool { return allocBefore(a, e.running[i]) })
	e.running = append(e.running, Allocation{})
	copy(e.running[i+1:], e.running[i:])
	e.running[i] = a
	return nil
}

func allocBefore(a, b Allocation) bool {
	ea, eb := a.EstimatedEnd(), b.EstimatedEnd()
	return ea < eb || ea == eb && a.Job.Seq < b.Job.Seq
}

func (e *engine) complete(seq int) {
	o, ph := e.jobs.At(seq)
	j := &o.Job
	e.m.Release(j)
	a := Allocation{Job: j, Start: o.Start}
	i := sort.Search(len(e.running), func(i int) bool { return !allocBefore(e.running[i], a) })
	if i == len(e.running) || e.running[i].Job != j {
		panic("sim: running list lost a job") // broken internal invariant
	}
	e.running = append(e.running[:i], e.running[i+1:]...)
	*ph = done
	if o.State == Killed {
		e.res.Killed++
	} else {
		e.res.Finished++
	}
	if e.obs != nil {
		e.obs.Finished(e.now, j, o.End-o.Start)
	}
}

func (e *engine) compactWaiting() {
	w := e.waiting[:0]
	for _, j := range e.waiting {
		if *e.jobs.Rec(j.Seq) == waiting {
			w = append(w, j)
		}
	}
	clear(e.waiting[len(w):])
	e.waiting = w
}

func (e *engine) checkPromise(r Reservation) error {
	o, ph, ok := e.own(r.Job)
	switch {
	case !ok:
		return fmt.Errorf("%w: unknown job", ErrBadPromise)
	case *ph != waiting && !(*ph == running && o.Start == e.now):
		return fmt.Errorf("%w: job is not waiting", ErrBadPromise)
	case r.Start < e.now:
		return fmt.Errorf("%w: start %d is in the past", ErrBadPromise, r.Start)
	}
	return nil
}
