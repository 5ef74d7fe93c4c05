package tier

import (
	"errors"
	"fmt"
	"sort"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// ErrNoProgress is wrapped by the error of a run that ends with a job
// running at rate 0 and nothing left that could change it (a model that
// stalls the foreground).
var ErrNoProgress = errors.New("job makes no progress and nothing can change that")

// Machine is the two-tier machine, a sim.Model: sim.Run's loop runs a
// policy on it (the policies' ModelMaker builds one with NewMachine). A
// Machine serves one run.
//
// The machine has one foreground and one background VM on each of its
// processors (the capacity's processor count; a machine with memory or GPUs
// is refused, since the model knows processors only). Jobs are admitted as
// on any model. A job's work is its run time in dedicated-processor
// seconds, counted in millionths (Rate): each process progresses at the
// rate the Model gives for its tier and its neighbour in the other VM, the
// job at its slowest process's rate, and the rates change only when a job
// starts, moves or ends, when the machine re-plans the completion of every
// job whose rate changed (in Next, once the pass of the time is over). A
// job ends at the first whole second by which it has done its work.
// Outcome.Start is when it was first placed, in either tier; End when it
// ended; Outcome.Work (not End − Start) is its work.
//
// Estimates: a job is never killed at its estimate in wall-clock seconds,
// which slow background progress would make wrong. Unless
// sim.Options.AllowOverrun is set, a job whose run time exceeds its
// estimate has the estimate as its work, ends when its progress reaches it
// and counts as Killed; the estimate bounds dedicated-processor time, as a
// wall-time limit does on dedicated processors.
//
// What the machine believes, and tells the policy (View.End, View.Span): a
// job in the foreground ends at most ceil(estimate / m) seconds after it
// got there, m being the model's lowest foreground rate, plus the
// migration cost if it migrated. This ignores progress made in the
// background and is an upper bound whenever the work does not exceed the
// estimate (always, unless overruns are allowed), so a reservation built
// on it holds: Verify checks every promise unless a job overran.
//
// A pass is due at every event time at which a job arrived or ended or the
// policy's timer fired, whenever a job is waiting or runs in the
// background (Movable); the end of a migration's pause alone calls no
// pass. A promise may name a waiting job, a background job, or a job
// moved to the foreground in this pass: it says the job will be in the
// foreground (or have ended) by then. sim.View.Running is empty on this
// machine (Foreground and Background say where jobs run) and Free counts
// the idle foreground VMs.
//
// Options: the run's Seed seeds the Model (NewMachine takes it); Tracer
// gets every move, rate change and completion if it is also a Tracer of
// this package.
type Machine struct {
	cfg      Config
	capacity sim.Resources
	loop     sim.View // the run's view, for Waiting
	model    Model
	minFg    Rate
	overrun  bool
	tr       Tracer

	// recs holds the machine's record of every job by arrival index, in
	// chunks that never move; jobs rejected at arrival keep a zero record.
	recs jobs.Store[struct{}, job]
	now  sim.Time

	b      board
	bgList []*sim.Job // by Seq
	fgList []Running  // by (End, Seq)
	wakes  jobs.Queue[sim.Time, wake]
	dirty  []*job
	stamp  uint64
	counts sim.TierCounts
	lost   int64 // millionths of processor-seconds
	ended  []*sim.Outcome
}

var (
	_ sim.Model = (*Machine)(nil)
	_ View      = (*Machine)(nil)
)

// NewMachine returns the two-tier machine of a cluster of the given
// capacity, with the machine model cfg (which it checks) and the progress
// model cfg makes for seed.
func NewMachine(capacity sim.Resources, cfg Config, seed uint64) (*Machine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := CheckCapacity(capacity); err != nil {
		return nil, err
	}
	model := cfg.NewModel(seed)
	return &Machine{
		cfg: cfg, capacity: capacity, model: model,
		minFg: RateOf(model.MinForeground()),
		b:     newBoard(int(capacity[sim.Procs]), cfg.Threshold),
	}, nil
}

// Config returns the machine model.
func (m *Machine) Config() Config { return m.cfg }

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

type phase uint8

const (
	absent phase = iota // rejected at arrival, or not yet seen
	waiting
	running
	done
)

// job is the machine's record of one job.
type job struct {
	out   *sim.Outcome // in the loop's job store
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
	mark       uint64   // the machine's stamp when last marked dirty
}

func (m *Machine) job(seq int) *job { return m.recs.Rec(seq) }

// own returns the record behind j if j is a job of this run the machine
// admitted.
func (m *Machine) own(j *sim.Job) *job {
	if j == nil || j.Seq < 0 || j.Seq >= m.recs.Len() {
		return nil
	}
	js := m.job(j.Seq)
	if js.phase == absent || &js.out.Job != j {
		return nil
	}
	return js
}

// View methods.

func (m *Machine) Procs() int                { return len(m.b.fg) }
func (m *Machine) Waiting() []*sim.Job       { return m.loop.Waiting() }
func (m *Machine) Background() []*sim.Job    { return m.bgList }
func (m *Machine) Foreground() []Running     { return m.fgList }
func (m *Machine) ForegroundVMs() []*sim.Job { return m.b.fg }
func (m *Machine) BackgroundVMs() []*sim.Job { return m.b.bg }
func (m *Machine) IdleForeground() int       { return m.b.idleFg }
func (m *Machine) OpenBackground() int       { return m.b.openBg }
func (m *Machine) Threshold() float64        { return m.b.threshold }

func (m *Machine) Tier(j *sim.Job) Tier {
	if js := m.own(j); js != nil && js.phase == running {
		return js.tier
	}
	return 0
}

func (m *Machine) Where(j *sim.Job) []int {
	if js := m.own(j); js != nil && js.phase == running {
		return js.procs
	}
	return nil
}

func (m *Machine) End(j *sim.Job) sim.Time {
	if js := m.own(j); js != nil && js.phase == running && js.tier == Foreground {
		return js.end
	}
	return -1
}

func (m *Machine) Span(j *sim.Job, mv Move) sim.Time {
	s := span(j.Estimate, m.minFg)
	if mv == Migrate {
		s += m.cfg.MigrationCost
	}
	return s
}

// Model methods.

// Capacity returns the cluster's processors.
func (m *Machine) Capacity() sim.Resources { return m.capacity }

// Free returns the processors whose foreground VM is idle.
func (m *Machine) Free() sim.Resources {
	return sim.Resources{sim.Procs: int64(m.b.idleFg)}
}

// Running returns nil: where jobs run is Foreground's and Background's.
func (m *Machine) Running() []sim.Allocation { return nil }

// View returns the machine as a tier View.
func (m *Machine) View() any { return View(m) }

// Open takes the run's view, overrun rule and tracer.
func (m *Machine) Open(v sim.View, opt sim.Options) error {
	m.loop, m.overrun = v, opt.AllowOverrun
	m.tr, _ = opt.Tracer.(Tracer)
	m.recs = jobs.NewStore[struct{}, job](opt.SizeHint, nil)
	return nil
}

// Movable reports whether a job runs in the background, where a pass may
// move it.
func (m *Machine) Movable() bool { return len(m.bgList) > 0 }

// CheckPromise accepts a promise for a background job or one moved to the
// foreground in this pass.
func (m *Machine) CheckPromise(o *sim.Outcome, running bool, now sim.Time) error {
	if js := m.own(&o.Job); running && js != nil && (js.tier != Foreground || js.fgAt == now) {
		return nil
	}
	return fmt.Errorf("%w: job is neither waiting nor in the background", sim.ErrBadPromise)
}

// Close fills Result.Tiers and fails if a job runs at rate 0 for good.
func (m *Machine) Close(res *sim.Result) error {
	res.Tiers = m.counts
	res.Tiers.LostWork = float64(m.lost) / float64(FullRate)
	for i := range m.recs.Len() {
		if js := m.job(i); js.phase == running {
			return fmt.Errorf("job %d in the %v: %w", js.out.ID, js.tier, ErrNoProgress)
		}
	}
	return nil
}

// Next settles the time step just over (every job marked dirty gets its
// new rate) and returns the next planned wake-up, dropping re-planned
// ones on the way.
func (m *Machine) Next() (sim.Time, bool) {
	m.rerate()
	for m.wakes.Len() > 0 {
		w := m.wakes.Min().V
		if js := m.job(w.seq); js.phase == running && js.ver == w.ver {
			return m.wakes.Min().At, true
		}
		m.wakes.Pop()
	}
	return 0, false
}

// Advance handles the wake-ups due at now and returns the jobs that ended.
func (m *Machine) Advance(now sim.Time) []*sim.Outcome {
	m.now = now
	m.ended = m.ended[:0]
	for m.wakes.Len() > 0 && m.wakes.Min().At == now {
		w := m.wakes.Pop().V
		if js := m.job(w.seq); js.phase == running && js.ver == w.ver {
			js.wakeAt = -1
			if m.wake(js) {
				m.ended = append(m.ended, js.out)
			}
		}
	}
	return m.ended
}

// Admit makes o's record: its work, and the model's draw.
func (m *Machine) Admit(o *sim.Outcome) {
	for m.recs.Len() <= o.Seq {
		m.recs.Add()
	}
	js := m.job(o.Seq)
	*js = job{out: o, phase: waiting, wakeAt: -1}
	work := o.Runtime
	if !m.overrun && work > o.Estimate {
		work = o.Estimate
	}
	js.work = int64(work) * int64(FullRate)
	m.model.Admit(&o.Job)
}

// Apply checks and carries out one action.
func (m *Machine) Apply(now sim.Time, o *sim.Outcome, a sim.Action) error {
	if a.Place != nil {
		return fmt.Errorf("the two-tier machine takes no node placement")
	}
	m.now = now
	var js *job
	if o != nil {
		js = m.own(&o.Job)
	}
	return m.apply(js, &a)
}

// apply checks and carries out one action.
func (m *Machine) apply(js *job, a *Action) error {
	if js == nil || js.phase == done {
		if a.Move == Start {
			return ErrNotWaiting
		}
		return ErrNotBackground
	}
	old := js.procs
	if err := m.b.check(a, js.tier, old); err != nil {
		return err
	}
	m.advance(js)
	for _, p := range old { // the background VMs it leaves
		if n := m.b.fg[p]; n != nil {
			m.markDirty(m.job(n.Seq))
		}
	}
	m.b.apply(a, old)
	to := a.Procs
	if a.Move == Swap {
		to = old
	}
	tier := Foreground
	if a.Move == Start {
		tier = a.Tier
	}
	for _, p := range to { // its new neighbours
		n := m.b.bg[p]
		if tier == Background {
			n = m.b.fg[p]
		}
		if n != nil {
			m.markDirty(m.job(n.Seq))
		}
	}
	if a.Move == Start {
		js.phase, js.out.Start = running, m.now
	} else {
		m.bgList = removeBySeq(m.bgList, a.Job)
	}
	switch a.Move {
	case Swap:
		m.counts.Swaps++
	case Restart:
		m.lost += js.done * int64(len(old))
		js.done = 0
		m.counts.Restarts++
	case Migrate:
		js.resume = m.now + m.cfg.MigrationCost
		m.counts.Migrations++
	}
	if a.Move != Swap {
		js.procs = append(js.procs[:0], a.Procs...)
	}
	js.tier = tier
	if tier == Background {
		m.bgList = insertBySeq(m.bgList, a.Job)
	} else {
		js.fgAt, js.end = m.now, m.now+m.Span(a.Job, a.Move)
		m.fgList = insertRunning(m.fgList, Running{Job: a.Job, End: js.end})
	}
	m.markDirty(js)
	if m.tr != nil {
		m.tr.Placed(m.now, a.Job, a.Move, tier, js.procs)
	}
	return nil
}

// wake handles a planned wake-up of js at m.now: its completion, or the
// end of a migration's pause. It reports whether the job ended.
func (m *Machine) wake(js *job) bool {
	m.advance(js)
	if js.done < js.work {
		m.markDirty(js)
		return false
	}
	j := &js.out.Job
	for _, p := range js.procs {
		m.b.set(p, js.tier, nil)
		n := m.b.bg[p]
		if js.tier == Background {
			n = m.b.fg[p]
		}
		if n != nil {
			m.markDirty(m.job(n.Seq))
		}
	}
	if js.tier == Foreground {
		m.fgList = removeRunning(m.fgList, Running{Job: j, End: js.end})
	} else {
		m.bgList = removeBySeq(m.bgList, j)
	}
	js.phase, js.out.End = done, m.now
	if js.work < int64(js.out.Runtime)*int64(FullRate) {
		js.out.State = sim.Killed
	} else {
		js.out.State = sim.Finished
	}
	if m.tr != nil {
		m.tr.Ended(m.now, j)
	}
	return true
}

// advance counts js's progress up to now at its current rate.
func (m *Machine) advance(js *job) {
	if m.now > js.since {
		js.done += int64(js.rate) * int64(m.now-js.since)
	}
	js.since = m.now
}

func (m *Machine) markDirty(js *job) {
	if js.mark != m.stamp+1 {
		js.mark = m.stamp + 1
		m.dirty = append(m.dirty, js)
	}
}

// rerate gives every job marked this time step its new rate and re-plans
// its wake-up if that moved.
func (m *Machine) rerate() {
	for _, js := range m.dirty {
		if js.phase != running {
			continue
		}
		m.advance(js)
		if r := m.rateOf(js); r != js.rate {
			js.rate = r
			if m.tr != nil {
				m.tr.Rated(m.now, &js.out.Job, r)
			}
		}
		if at := m.wakeTime(js); at != js.wakeAt {
			js.ver++
			js.wakeAt = at
			if at >= 0 {
				m.wakes.Push(at, wake{seq: js.out.Seq, ver: js.ver})
			}
		}
	}
	clear(m.dirty)
	m.dirty = m.dirty[:0]
	m.stamp++
}

// rateOf returns js's rate now: 0 during a migration's pause, else its
// slowest process's.
func (m *Machine) rateOf(js *job) Rate {
	if js.resume > m.now {
		return 0
	}
	j := &js.out.Job
	r := FullRate
	for _, p := range js.procs {
		other := m.b.bg[p]
		if js.tier == Background {
			other = m.b.fg[p]
		}
		if x := RateOf(m.model.Rate(j, js.tier, other)); x < r {
			r = x
		}
	}
	return r
}

// wakeTime returns when js must next be looked at: now if its work is
// done, the end of its pause, the first whole second by which its work
// will be done, or -1 if it makes no progress.
func (m *Machine) wakeTime(js *job) sim.Time {
	rem := js.work - js.done
	switch {
	case rem <= 0:
		return m.now
	case js.resume > m.now:
		return js.resume
	case js.rate <= 0:
		return -1
	}
	return m.now + sim.Time((rem+int64(js.rate)-1)/int64(js.rate))
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
