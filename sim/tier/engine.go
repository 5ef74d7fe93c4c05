package tier

import (
	"errors"
	"fmt"
	"sort"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// ErrTwoTier is returned by Simulator.Schedule: a tier policy runs only on
// the two-tier engine, which sim.Run starts for it.
var ErrTwoTier = errors.New("a two-tier policy runs on its own engine: call sim.Run, not Schedule")

// ErrNoProgress is wrapped by the error of a run that ends with a job
// running at rate 0 and nothing left that could change it (a model that
// stalls the foreground).
var ErrNoProgress = errors.New("job makes no progress and nothing can change that")

// Simulator runs a tier Policy on a two-tier machine. It is a
// sim.Simulator: sim.Run hands it the run. A Simulator serves one run.
//
// The machine has one foreground and one background VM on each of its
// processors (the capacity's processor count; a machine with memory or GPUs
// is refused, since the model knows processors only). Jobs are admitted as
// sim.Run admits them. A job's work is its run time in dedicated-processor
// seconds, counted in millionths (Rate): each process progresses at the
// rate the Model gives for its tier and its neighbour in the other VM, the
// job at its slowest process's rate, and the rates change only when a job
// starts, moves or ends, when the engine re-plans the completion of every
// job whose rate changed. A job ends at the first whole second by which it
// has done its work. Outcome.Start is when it was first placed, in either
// tier; End when it ended; Outcome.Work (not End − Start) is its work.
//
// Estimates: a job is never killed at its estimate in wall-clock seconds,
// which slow background progress would make wrong. Unless
// sim.Options.AllowOverrun is set, a job whose run time exceeds its
// estimate has the estimate as its work, ends when its progress reaches it
// and counts as Killed; the estimate bounds dedicated-processor time, as a
// wall-time limit does on dedicated processors.
//
// What the engine believes, and tells the policy (View.End, View.Span): a
// job in the foreground ends at most ceil(estimate / m) seconds after it
// got there, m being the model's lowest foreground rate, plus the
// migration cost if it migrated. This ignores progress made in the
// background and is an upper bound whenever the work does not exceed the
// estimate (always, unless overruns are allowed), so a reservation built
// on it holds: Verify checks every promise unless a job overran.
//
// Observers and timers: as sim.Run, see Policy.
//
// Options: MissingEstimate, AllowOverrun, SizeHint as sim.Run; Seed seeds
// the Model; Tracer gets the promises, and every move, rate change and
// completion if it is also a Tracer of this package.
type Simulator struct {
	p   Policy
	cfg Config
}

var _ sim.Simulator = (*Simulator)(nil)

// New returns a Simulator of p on the machine model cfg, which it checks.
func New(p Policy, cfg Config) (*Simulator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Simulator{p: p, cfg: cfg}, nil
}

// Name returns the policy's name.
func (s *Simulator) Name() string { return s.p.Name() }

// Config returns the machine model.
func (s *Simulator) Config() Config { return s.cfg }

// Schedule returns ErrTwoTier: the policy needs processor identities and
// job speeds that sim.View does not have.
func (s *Simulator) Schedule(sim.Time, sim.View) (sim.Decision, error) {
	return sim.Decision{}, ErrTwoTier
}

// MaxProcs is the most processors the two-tier machine models.
const MaxProcs = 1 << 24

// CheckCapacity returns nil if the two-tier machine can model a cluster of
// capacity c: processors only, between 1 and MaxProcs of them.
func CheckCapacity(c sim.Resources) error {
	for k, v := range c {
		if k != int(sim.Procs) && v != 0 {
			return fmt.Errorf("the two-tier machine has processors only; the cluster has %s", c)
		}
	}
	if c[sim.Procs] <= 0 || c[sim.Procs] > MaxProcs {
		return fmt.Errorf("the two-tier machine needs between 1 and %d processors, not %d", MaxProcs, c[sim.Procs])
	}
	return nil
}

// Simulate runs the policy over src on machine m (its capacity only).
func (s *Simulator) Simulate(m sim.Machine, src sim.Source, opt sim.Options) (*sim.Result, error) {
	c := m.Capacity()
	if err := CheckCapacity(c); err != nil {
		return nil, fmt.Errorf("policy %q: %w", s.p.Name(), err)
	}
	model := s.cfg.NewModel(opt.Seed)
	e := &engine{
		s: s, model: model, opt: opt, src: src, nextAt: -1,
		minFg: RateOf(model.MinForeground()),
		res:   &sim.Result{Policy: s.p.Name(), Capacity: c},
		b:     newBoard(int(c[sim.Procs]), s.cfg.Threshold),
		jobs:  jobs.NewStore[sim.Outcome, job](opt.SizeHint, src),
	}
	e.tr, _ = opt.Tracer.(Tracer)
	e.obs, _ = s.p.(sim.Observer)
	if err := e.run(); err != nil {
		return nil, err
	}
	e.res.Jobs = e.jobs.Outcomes()
	e.res.Tiers.LostWork = float64(e.lost) / float64(FullRate)
	return e.res, nil
}

type phase uint8

const (
	waiting phase = iota
	running
	done
)

// job is the engine's record of one job.
type job struct {
	out   *sim.Outcome // beside it in engine.jobs
	phase phase
	tier  Tier
	procs []int
	// work and done are in millionths of a dedicated-processor second;
	// done counts progress up to since.
	work, done int64
	rate       Rate
	since      sim.Time
	resume     sim.Time // end of a migration's pause; paused while resume > now
	fgAt       sim.Time // when it got to the foreground
	end        sim.Time // believed end in the foreground
	wakeAt     sim.Time // the planned wake-up, -1 if none
	ver        uint32   // bumped whenever the wake-up is re-planned
	mark       uint64   // the engine's stamp when last marked dirty
}

type engine struct {
	s     *Simulator
	obs   sim.Observer // the policy, if it observes
	model Model
	minFg Rate
	opt   sim.Options
	tr    Tracer
	src   sim.Source
	res   *sim.Result

	// jobs holds every job's outcome and record where they never move, so
	// *sim.Job pointers stay valid; its outcomes become Result.Jobs, as in
	// sim.Run.
	jobs jobs.Store[sim.Outcome, job]

	next    sim.Record
	nextAt  sim.Time
	lastSub sim.Time
	now     sim.Time
	timer   sim.Time // the policy's WakeAt, 0 if none

	b       board
	waiting []*sim.Job
	bgList  []*sim.Job // by Seq
	fgList  []Running  // by (End, Seq)
	wakes   jobs.Queue[sim.Time, wake]
	dirty   []*job
	stamp   uint64
	lost    int64 // millionths of processor-seconds
}

func (e *engine) job(seq int) *job { return e.jobs.Rec(seq) }

// own returns the record behind j if j is a job this engine handed out.
func (e *engine) own(j *sim.Job) *job {
	if j == nil || j.Seq < 0 || j.Seq >= e.jobs.Len() {
		return nil
	}
	js := e.job(j.Seq)
	if &js.out.Job != j {
		return nil
	}
	return js
}

// View methods.

func (e *engine) Procs() int                { return len(e.b.fg) }
func (e *engine) Waiting() []*sim.Job       { return e.waiting }
func (e *engine) Background() []*sim.Job    { return e.bgList }
func (e *engine) Foreground() []Running     { return e.fgList }
func (e *engine) ForegroundVMs() []*sim.Job { return e.b.fg }
func (e *engine) BackgroundVMs() []*sim.Job { return e.b.bg }
func (e *engine) IdleForeground() int       { return e.b.idleFg }
func (e *engine) OpenBackground() int       { return e.b.openBg }
func (e *engine) Threshold() float64        { return e.b.threshold }

func (e *engine) Tier(j *sim.Job) Tier {
	if js := e.own(j); js != nil && js.phase == running {
		return js.tier
	}
	return 0
}

func (e *engine) Where(j *sim.Job) []int {
	if js := e.own(j); js != nil && js.phase == running {
		return js.procs
	}
	return nil
}

func (e *engine) End(j *sim.Job) sim.Time {
	if js := e.own(j); js != nil && js.phase == running && js.tier == Foreground {
		return js.end
	}
	return -1
}

func (e *engine) Span(j *sim.Job, m Move) sim.Time {
	s := span(j.Estimate, e.minFg)
	if m == Migrate {
		s += e.s.cfg.MigrationCost
	}
	return s
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
		for e.wakes.Len() > 0 && e.wakes.Min().At == t {
			w := e.wakes.Pop().V
			if js := e.job(w.seq); js.phase == running && js.ver == w.ver {
				js.wakeAt = -1
				changed = e.wake(js) || changed
			}
		}
		for e.nextAt == t {
			e.arrive()
			changed = true
			if err := e.readNext(); err != nil {
				return err
			}
		}
		if e.timer == t {
			e.timer, changed = 0, true
		}
		if changed && len(e.waiting)+len(e.bgList) > 0 {
			if err := e.pass(); err != nil {
				return err
			}
		}
		e.rerate()
	}
	if len(e.waiting) > 0 {
		j := e.waiting[0]
		return fmt.Errorf("policy %q at t=%d: %d %w (first: job %d, submitted at t=%d, needs %v)",
			e.s.p.Name(), e.now, len(e.waiting), sim.ErrStalled, j.ID, j.Submit, j.Need)
	}
	for i := range e.jobs.Len() {
		if js := e.job(i); js.phase == running {
			return fmt.Errorf("policy %q at t=%d: job %d in the %v: %w", e.s.p.Name(), e.now, js.out.ID, js.tier, ErrNoProgress)
		}
	}
	return nil
}

// nextTime returns the time of the earliest pending event, dropping
// re-planned wake-ups on the way.
func (e *engine) nextTime() (sim.Time, bool) {
	for e.wakes.Len() > 0 {
		w := e.wakes.Min().V
		if js := e.job(w.seq); js.phase == running && js.ver == w.ver {
			break
		}
		e.wakes.Pop()
	}
	t, ok := sim.Time(0), false
	if e.wakes.Len() > 0 {
		t, ok = e.wakes.Min().At, true
	}
	if e.nextAt >= 0 && (!ok || e.nextAt < t) {
		t, ok = e.nextAt, true
	}
	if e.timer > 0 && (!ok || e.timer < t) {
		t, ok = e.timer, true
	}
	return t, ok
}

func (e *engine) readNext() error {
	ok, err := sim.ReadNext(e.src, e.lastSub, &e.next)
	if !ok {
		e.nextAt = -1
		return err
	}
	e.lastSub, e.nextAt = e.next.Submit, e.next.Submit
	return nil
}

// arrive admits e.next: it is rejected with a reason or joins the queue.
func (e *engine) arrive() {
	seq, o, js := e.jobs.Add()
	*o = sim.Outcome{Record: e.next, Start: -1, End: -1}
	*js = job{out: o, wakeAt: -1}
	o.Seq = seq
	if r := sim.Admit(o, e.res.Capacity, e.opt.MissingEstimate); r != sim.NoReason {
		o.State, o.Reason, js.phase = sim.Rejected, r, done
		e.res.Rejected++
		e.res.RejectedBy[r]++
		return
	}
	if o.EstimateFilled {
		e.res.EstimatesFilled++
	}
	work := o.Runtime
	if !e.opt.AllowOverrun && work > o.Estimate {
		work = o.Estimate
	}
	js.work = int64(work) * int64(FullRate)
	e.model.Admit(&o.Job)
	e.waiting = append(e.waiting, &o.Job)
	if e.obs != nil {
		e.obs.Submitted(e.now, &o.Job)
	}
}

func (e *engine) pass() error {
	e.res.Passes++
	name := e.s.p.Name()
	d, err := e.s.p.Schedule(e.now, e)
	if err != nil {
		return fmt.Errorf("policy %q at t=%d: %w", name, e.now, err)
	}
	started := false
	for i := range d.Actions {
		a := &d.Actions[i]
		if err := e.apply(a); err != nil {
			id := sim.JobID(sim.Missing)
			if a.Job != nil {
				id = a.Job.ID
			}
			return &sim.DecisionError{Policy: name, Time: e.now, Job: id, Err: fmt.Errorf("%v: %w", a.Move, err)}
		}
		started = started || a.Move == Start
	}
	if started {
		w := e.waiting[:0]
		for _, j := range e.waiting {
			if e.job(j.Seq).phase == waiting {
				w = append(w, j)
			}
		}
		clear(e.waiting[len(w):])
		e.waiting = w
	}
	if e.opt.Tracer != nil {
		for _, j := range d.Withdraw {
			e.opt.Tracer.Withdrawn(e.now, j)
		}
	}
	for _, r := range d.Promise {
		js := e.own(r.Job)
		switch {
		case js == nil:
			err = fmt.Errorf("%w: unknown job", sim.ErrBadPromise)
		case js.phase == done || js.phase == running && js.tier == Foreground && js.fgAt != e.now:
			err = fmt.Errorf("%w: job is neither waiting nor in the background", sim.ErrBadPromise)
		case r.Start < e.now:
			err = fmt.Errorf("%w: start %d is in the past", sim.ErrBadPromise, r.Start)
		}
		if err != nil {
			return &sim.DecisionError{Policy: name, Time: e.now, Job: r.Job.ID, Err: err}
		}
		if e.opt.Tracer != nil {
			e.opt.Tracer.Promised(e.now, r.Job, r.Start)
		}
	}
	if d.WakeAt != 0 && d.WakeAt <= e.now {
		return &sim.DecisionError{Policy: name, Time: e.now, Job: sim.Missing,
			Err: fmt.Errorf("%w: %d", sim.ErrBadWake, d.WakeAt)}
	}
	e.timer = d.WakeAt
	return nil
}

// apply checks and carries out one action.
func (e *engine) apply(a *Action) error {
	js := e.own(a.Job)
	if js == nil || js.phase == done {
		if a.Move == Start {
			return ErrNotWaiting
		}
		return ErrNotBackground
	}
	old := js.procs
	if err := e.b.check(a, js.tier, old); err != nil {
		return err
	}
	e.advance(js)
	for _, p := range old { // the background VMs it leaves
		if n := e.b.fg[p]; n != nil {
			e.markDirty(e.job(n.Seq))
		}
	}
	e.b.apply(a, old)
	to := a.Procs
	if a.Move == Swap {
		to = old
	}
	tier := Foreground
	if a.Move == Start {
		tier = a.Tier
	}
	for _, p := range to { // its new neighbours
		n := e.b.bg[p]
		if tier == Background {
			n = e.b.fg[p]
		}
		if n != nil {
			e.markDirty(e.job(n.Seq))
		}
	}
	if a.Move == Start {
		js.phase, js.out.Start = running, e.now
	} else {
		e.bgList = removeBySeq(e.bgList, a.Job)
	}
	switch a.Move {
	case Swap:
		e.res.Tiers.Swaps++
	case Restart:
		e.lost += js.done * int64(len(old))
		js.done = 0
		e.res.Tiers.Restarts++
	case Migrate:
		js.resume = e.now + e.s.cfg.MigrationCost
		e.res.Tiers.Migrations++
	}
	if a.Move != Swap {
		js.procs = append(js.procs[:0], a.Procs...)
	}
	js.tier = tier
	if tier == Background {
		e.bgList = insertBySeq(e.bgList, a.Job)
	} else {
		js.fgAt, js.end = e.now, e.now+e.Span(a.Job, a.Move)
		e.fgList = insertRunning(e.fgList, Running{Job: a.Job, End: js.end})
	}
	e.markDirty(js)
	if e.tr != nil {
		e.tr.Placed(e.now, a.Job, a.Move, tier, js.procs)
	}
	return nil
}

// wake handles a planned wake-up of js at e.now: its completion, or the
// end of a migration's pause. It reports whether the job ended.
func (e *engine) wake(js *job) bool {
	e.advance(js)
	if js.done < js.work {
		e.markDirty(js)
		return false
	}
	j := &js.out.Job
	for _, p := range js.procs {
		e.b.set(p, js.tier, nil)
		n := e.b.bg[p]
		if js.tier == Background {
			n = e.b.fg[p]
		}
		if n != nil {
			e.markDirty(e.job(n.Seq))
		}
	}
	if js.tier == Foreground {
		e.fgList = removeRunning(e.fgList, Running{Job: j, End: js.end})
	} else {
		e.bgList = removeBySeq(e.bgList, j)
	}
	js.phase, js.out.End = done, e.now
	if js.work < int64(js.out.Runtime)*int64(FullRate) {
		js.out.State = sim.Killed
		e.res.Killed++
	} else {
		js.out.State = sim.Finished
		e.res.Finished++
	}
	if e.tr != nil {
		e.tr.Ended(e.now, j)
	}
	if e.obs != nil {
		e.obs.Finished(e.now, j, sim.Time(js.work/int64(FullRate)))
	}
	return true
}

// advance counts js's progress up to now at its current rate.
func (e *engine) advance(js *job) {
	if e.now > js.since {
		js.done += int64(js.rate) * int64(e.now-js.since)
	}
	js.since = e.now
}

func (e *engine) markDirty(js *job) {
	if js.mark != e.stamp+1 {
		js.mark = e.stamp + 1
		e.dirty = append(e.dirty, js)
	}
}

// rerate gives every job marked this time step its new rate and re-plans
// its wake-up if that moved.
func (e *engine) rerate() {
	for _, js := range e.dirty {
		if js.phase != running {
			continue
		}
		e.advance(js)
		if r := e.rateOf(js); r != js.rate {
			js.rate = r
			if e.tr != nil {
				e.tr.Rated(e.now, &js.out.Job, r)
			}
		}
		if at := e.wakeTime(js); at != js.wakeAt {
			js.ver++
			js.wakeAt = at
			if at >= 0 {
				e.wakes.Push(at, wake{seq: js.out.Seq, ver: js.ver})
			}
		}
	}
	clear(e.dirty)
	e.dirty = e.dirty[:0]
	e.stamp++
}

// rateOf returns js's rate now: 0 during a migration's pause, else its
// slowest process's.
func (e *engine) rateOf(js *job) Rate {
	if js.resume > e.now {
		return 0
	}
	j := &js.out.Job
	r := FullRate
	for _, p := range js.procs {
		other := e.b.bg[p]
		if js.tier == Background {
			other = e.b.fg[p]
		}
		if x := RateOf(e.model.Rate(j, js.tier, other)); x < r {
			r = x
		}
	}
	return r
}

// wakeTime returns when js must next be looked at: now if its work is
// done, the end of its pause, the first whole second by which its work
// will be done, or -1 if it makes no progress.
func (e *engine) wakeTime(js *job) sim.Time {
	rem := js.work - js.done
	switch {
	case rem <= 0:
		return e.now
	case js.resume > e.now:
		return js.resume
	case js.rate <= 0:
		return -1
	}
	return e.now + sim.Time((rem+int64(js.rate)-1)/int64(js.rate))
}

// wake is a planned look at a job; stale once the job's ver moved on.
type wake struct {
	seq int
	ver uint32
}

func insertBySeq(l []*sim.Job, j *sim.Job) []*sim.Job {
	i := sort.Search(len(l), func(i int) bool { return l[i].Seq >= j.Seq })
	l = append(l, nil)
	copy(l[i+1:], l[i:])
	l[i] = j
	return l
}

func removeBySeq(l []*sim.Job, j *sim.Job) []*sim.Job {
	i := sort.Search(len(l), func(i int) bool { return l[i].Seq >= j.Seq })
	if i == len(l) || l[i] != j {
		panic("tier: background list lost a job") // broken internal invariant
	}
	copy(l[i:], l[i+1:])
	l[len(l)-1] = nil
	return l[:len(l)-1]
}

func runningBefore(a, b Running) bool {
	return a.End < b.End || a.End == b.End && a.Job.Seq < b.Job.Seq
}

func insertRunning(l []Running, r Running) []Running {
	i := sort.Search(len(l), func(i int) bool { return runningBefore(r, l[i]) })
	l = append(l, Running{})
	copy(l[i+1:], l[i:])
	l[i] = r
	return l
}

func removeRunning(l []Running, r Running) []Running {
	i := sort.Search(len(l), func(i int) bool { return !runningBefore(l[i], r) })
	if i == len(l) || l[i].Job != r.Job {
		panic("tier: foreground list lost a job") // broken internal invariant
	}
	copy(l[i:], l[i+1:])
	l[len(l)-1] = Running{}
	return l[:len(l)-1]
}
