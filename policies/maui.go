package policies

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// MauiConfig are the knobs of the Maui scheduler.
type MauiConfig struct {
	// Weights of the priority factors; DefaultMauiWeights are Maui's.
	Weights MauiWeights
	// QoS gives a QoS priority to jobs by their SWF queue number (a job
	// of an unlisted queue has 0).
	QoS map[int32]float64
	// Fairshare is the usage accounting the fairshare factor reads; it is
	// used only when Weights.Fairshare is not 0.
	Fairshare FairshareConfig
	// ReservationDepth is how many of the highest-priority jobs that cannot
	// start hold a reservation (RESERVATIONDEPTH, default 1); ≥ 0.
	ReservationDepth int
	// Backfill lets a job start ahead of higher-priority ones when it
	// delays no reservation (BACKFILLPOLICY FIRSTFIT, the default); false
	// is BACKFILLPOLICY NONE.
	Backfill bool
}

// DefaultMauiConfig returns Maui's defaults: queue-time priority, one
// reservation, backfill on, and the fairshare accounting of DefaultHalfLife
// (unused unless a fairshare weight is set).
func DefaultMauiConfig() MauiConfig {
	return MauiConfig{
		Weights:          DefaultMauiWeights(),
		Fairshare:        FairshareConfig{HalfLife: DefaultHalfLife, Usage: UsageProcs},
		ReservationDepth: 1,
		Backfill:         true,
	}
}

// Maui is the Maui scheduler as Bode et al. describe it in "The Portable
// Batch Scheduler and the Maui Scheduler on Linux Clusters" (4th Annual
// Linux Showcase and Conference, 2000, section 4.3, and their glossary's
// fairshare, reservation, backfill, expansion factor and QoS): it "orders
// the queued jobs based upon priority (which in turn is derived from
// several configurable parameters), starts all the high priority jobs that
// it can, and then makes a reservation in the future for the next high
// priority job"; then "the backfill mechanism attempts to find lower
// priority jobs that will fit into time gaps in the reservation system".
// The priority and the parameters' defaults follow the Maui
// Administrator's Guide (sections 5.1, 7.1.4 and 8.2; Jackson, Snell and
// Clement, "Core Algorithms of the Maui Scheduler", JSSPP 2001): see
// MauiWeights. Backfilling can be turned off (Bode et al.'s "Maui without
// backfill").
//
// A pass ranks the waiting jobs by priority and walks them in that order,
// with an availability profile (sim.Profile) of the running jobs'
// estimated ends and the reservations held:
//   - a job holding a reservation keeps it while fewer than
//     reservation_depth jobs ranked above it hold one; it is lifted and
//     laid again at its earliest fit with every other reservation in
//     place, so it only moves earlier, and starts when that is now. A
//     job with reservation_depth jobs above it holding reservations loses
//     its own (CURRENTHIGHEST): the promise is withdrawn;
//   - any other job starts now if it fits for its whole estimate around
//     every reservation held (it delays none). Without backfill it may
//     do so only while every job ranked above it has started;
//   - a job that cannot start gets a reservation at its earliest fit if
//     fewer than reservation_depth jobs ranked above it hold one. Without
//     backfill that fit is sought from the latest reservation made above
//     it, so no job starts before one ranked above it.
//
// Every reservation made or moved is reported as a promise; at most
// reservation_depth are open at once, and none is ever delayed: backfilled
// jobs fit around all reservations, and moving a reservation earlier keeps
// the others in place. With reservation_depth 1 and the default weights
// (queue time only, which is arrival order) Maui is EASY backfilling, and
// without backfill FCFS; the tests check both. A timer brings a pass at
// the earliest reservation.
//
// Choices and deviations:
//   - each factor has one weight, the product of Maui's component and
//     subcomponent weights (SERVICEWEIGHT × QUEUETIMEWEIGHT, …); Maui's
//     component weights default to 1, so the defaults agree;
//   - factors a trace cannot feed are left out: credentials (user, group,
//     account, class priorities), targets (TARGETQUEUETIME,
//     TARGETXFACTOR), backfill bypass counts, memory, disk and the other
//     resource subfactors; group and account fairshare. QoS is a priority
//     per SWF queue number (the qos parameter), without QoS's target
//     expansion factors, billing or exemptions;
//   - queue time is in minutes as a real number, not whole minutes, and
//     counts from submission (no holds or deferrals here); the priority is
//     not bounded to Maui's [0, 10^7]; ties go by arrival;
//   - the expansion factor counts a requested time below one second as
//     one second;
//   - fairshare is policies.Fairshare's usage, decayed continuously with
//     a half-life rather than in Maui's FSINTERVAL windows and FSDECAY;
//     the factor is the target minus the used share in percentage points,
//     targets being the shares parameter's weights normalised over the
//     users seen (equal by default);
//   - reservations are kept from pass to pass rather than recomputed at
//     every iteration, so that none is delayed; a job that climbs above
//     reserved ones (Maui's CURRENTHIGHEST) is placed with their
//     reservations lifted, and each is then laid back where it was if it
//     still fits there, else withdrawn, to be placed again when the pass
//     reaches it;
//   - backfill is first fit in priority order (Maui's FIRSTFIT, the
//     default); BESTFIT, GREEDY and PREEMPT are not modelled; on the pool
//     the machine is one pool of resources and every resource kind is
//     checked; on a cluster of nodes (package sim/nodes) reservations pin
//     nodes, as Maui's do: each is a placement by the cluster's fit rule
//     (not Maui's NODEALLOCATIONPOLICY) on the nodes free for the job's
//     whole estimate, a job may start now only where it delays no
//     reservation's nodes, and a job whose reservation comes starts on
//     its reserved nodes (maui_nodes.go);
//   - Maui's iterations come on events and every RMPOLLINTERVAL; a pass
//     here happens at every event and at the earliest reservation;
//   - with overruns (sim.Options.AllowOverrun) a job past its estimate is
//     taken to end one second from now, and when the reservations no
//     longer fit because of it, all are withdrawn and made again.
//
// A Maui value serves one run.
type Maui struct {
	rank     ranked
	depth    int
	backfill bool

	// prof holds the running jobs' estimated spans and the reservations.
	// It is kept from pass to pass: time moves its start, an early end gives
	// back the rest of the job's span (Finished), and it is rebuilt only
	// while a job overruns its estimate.
	prof    sim.Profile
	built   bool       // prof is up to date
	compact int        // steps after the last Compact
	at      []sim.Time // by Job.Seq: the reservation of a waiting job (-1 for none), the start of a started one
	held    []*sim.Job // the jobs holding a reservation, in the last pass's order

	// gains counts the times room was given back to prof (an early end, a
	// reservation lifted, a rebuild); between two gains the profile only
	// loses room. memo, by Job.Seq, is what the last looks at a waiting
	// job found; while gains has not moved they still hold, and a pass
	// skips the profile scan.
	gains  uint64
	memo   []fitMemo
	nomemo bool // tests: forget memo at every pass

	// The state of a pass's walk down the queue.
	pending []*sim.Job // held reservations not reached yet: all rank below
	next    []*sim.Job // the reservations kept or made so far: those held after the pass
	last    sim.Time   // the latest of them, or now
	blocked bool       // a job ranked above the current one waits
	wake    sim.Time   // the earliest of them; 0 if none

	overran bool // some job has run past its estimate

	start    []*sim.Job
	promise  []sim.Reservation
	withdraw []*sim.Job

	// On a cluster of nodes (maui_nodes.go) the reservations pin nodes and
	// live in the cluster's node profile; prof is not used.
	np      *nodes.Profile
	pool    bool // the model is not a cluster of nodes (known from the first pass)
	actions []sim.Action
}

// fitMemo is what the last looks at a waiting job found.
type fitMemo struct {
	// At gains failed, the job did not fit from any time before until.
	failed uint64
	until  sim.Time
	// At gains held, the job's reservation was at its earliest fit from
	// from: it cannot move earlier from any time at or after from.
	held uint64
	from sim.Time
}

var (
	_ sim.Policy   = (*Maui)(nil)
	_ sim.Observer = (*Maui)(nil)
)

// NewMaui returns the Maui scheduler configured by c. It fails, naming
// the parameter, on a weight that is not finite, a negative reservation
// depth or a bad fairshare configuration (when the fairshare weight is
// set).
func NewMaui(c MauiConfig) (*Maui, error) {
	if err := c.Weights.check(); err != nil {
		return nil, err
	}
	if c.ReservationDepth < 0 {
		return nil, fmt.Errorf("parameter \"reservation_depth\": %d is negative", c.ReservationDepth)
	}
	o, _, err := newMauiOrder(c.Weights, c.QoS, c.Fairshare)
	if err != nil {
		return nil, err
	}
	return &Maui{rank: newRanked(o), depth: c.ReservationDepth, backfill: c.Backfill, gains: 1}, nil
}

// Name returns "maui".
func (m *Maui) Name() string { return "maui" }

// Submitted makes room for j's reservation and tells the fairshare
// accounting.
func (m *Maui) Submitted(now sim.Time, j *sim.Job) {
	for len(m.at) <= j.Seq {
		m.at = append(m.at, -1)
		m.memo = append(m.memo, fitMemo{})
	}
	m.rank.submitted(now, j)
}

// Finished tells the fairshare accounting that j ended.
func (m *Maui) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	m.rank.finished(now, j, actual)
	if !m.built {
		return
	}
	if m.np != nil {
		if m.np.Ended(now, j) {
			m.gains++
		}
		return
	}
	if end := m.at[j.Seq] + sim.Span(j.Estimate); now < end {
		m.giveBack(now, end-now, j.Need)
	}
}

// Schedule runs one Maui pass.
func (m *Maui) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	if !m.pool { // the first pass, or a cluster of nodes
		if m.np == nil {
			m.np = nodes.ProfileOf(v)
			m.pool = m.np == nil
		}
		if m.np != nil {
			return m.scheduleNodes(now, v)
		}
	}
	q := m.rank.jobs(now, v)
	if m.nomemo {
		m.gains++
	}
	m.start, m.promise, m.withdraw = m.start[:0], m.promise[:0], m.withdraw[:0]
	running := v.Running()
	overrun := len(running) > 0 && running[0].EstimatedEnd() <= now
	if !m.built || overrun {
		m.rebuild(now, v, overrun)
		m.built = !overrun
	} else {
		m.prof.Advance(now)
	}

	m.pending = append(m.pending[:0], m.held...)
	m.next = m.next[:0]
	m.last, m.blocked, m.wake = now, false, 0
	for _, j := range q {
		if old := m.at[j.Seq]; old >= 0 {
			m.unpend(j)
			if len(m.next) < m.depth {
				m.keep(now, j, old)
				continue
			}
			m.release(j, old) // reservation_depth jobs above it hold one
		}
		// j outranks every pending reservation: it may take their room.
		lifted := false
		if len(m.pending) > 0 {
			if len(m.next) >= m.depth {
				m.releasePending() // they rank below reservation_depth reserved jobs
			} else {
				for _, p := range m.pending {
					m.giveBack(m.at[p.Seq], p.Estimate, p.Need)
				}
				lifted = true
			}
		}
		if err := m.place(now, j); err != nil {
			return sim.Decision{}, err
		}
		if lifted {
			m.relay()
		}
		if len(m.pending) == 0 && len(m.next) >= m.depth && (m.blocked && !m.backfill || m.prof.FreeAt(now)[sim.Procs] == 0) {
			break // nothing left to reserve, release or start
		}
	}
	m.held, m.next = m.next, m.held
	if m.prof.Len() > 2*m.compact {
		// Giving spans back leaves equal neighbouring steps; merge them
		// whenever the profile has doubled, O(1) a step amortised.
		m.prof.Compact()
		m.compact = max(m.prof.Len(), 16)
	}
	wake := m.wake
	if overrun {
		// The reservations rest on a guess about when the overrunning job
		// ends; a timer at the guess would only bring a pass per second.
		wake = 0
	}
	m.rank.took(now, v, m.start)
	return sim.Decision{Start: m.start, Promise: m.promise, Withdraw: m.withdraw, WakeAt: wake}, nil
}

// keep moves j's reservation at old to its earliest fit with every other
// reservation in place, and starts j if that is now.
func (m *Maui) keep(now sim.Time, j *sim.Job, old sim.Time) {
	t, from, memo := old, m.from(now), &m.memo[j.Seq]
	if memo.held != m.gains || from < memo.from || from > old {
		t = m.move(now, j, old, from)
		memo.held, memo.from = m.gains, from
	}
	if t == now {
		m.start = append(m.start, j) // at[j.Seq] is now, its start
		return
	}
	m.reserved(j, t)
}

// place starts j now if it may and fits around every reservation laid,
// else reserves it at its earliest fit if fewer than reservation_depth
// jobs above it hold a reservation.
func (m *Maui) place(now sim.Time, j *sim.Job) error {
	if (m.backfill || !m.blocked) && m.fits(now, j) {
		m.prof.Reserve(now, j.Estimate, j.Need)
		m.at[j.Seq] = now
		m.start = append(m.start, j)
		return nil
	}
	m.blocked = true
	if len(m.next) >= m.depth {
		return nil
	}
	from := m.from(now)
	t := m.prof.Fit(from, j.Estimate, j.Need)
	switch {
	case t < 0:
		return &sim.JobError{Job: j.ID, Err: fmt.Errorf("(needs %v) fits nowhere in the profile", j.Need)}
	case t == now:
		panic("policies: Maui reserves now a job it did not start") // broken invariant
	}
	m.prof.Reserve(t, j.Estimate, j.Need)
	m.at[j.Seq] = t
	m.memo[j.Seq].held, m.memo[j.Seq].from = m.gains, from
	m.promise = append(m.promise, sim.Reservation{Job: j, Start: t})
	m.reserved(j, t)
	return nil
}

// fits reports whether j fits now for its whole estimate, remembering a
// failure.
func (m *Maui) fits(now sim.Time, j *sim.Job) bool {
	memo := &m.memo[j.Seq]
	if memo.failed == m.gains && now < memo.until {
		return false
	}
	ok, until := m.prof.Fits(now, j.Estimate, j.Need)
	if !ok {
		memo.failed, memo.until = m.gains, until
	}
	return ok
}

// giveBack frees need on [t, t+Span(dur)) in the profile.
func (m *Maui) giveBack(t, dur sim.Time, need sim.Resources) {
	m.prof.Unreserve(t, dur, need)
	m.gains++
}

// reserved records that j holds a reservation at t after this pass.
func (m *Maui) reserved(j *sim.Job, t sim.Time) {
	m.blocked, m.last = true, max(m.last, t)
	m.next = append(m.next, j)
	if m.wake == 0 || t < m.wake {
		m.wake = t
	}
}

// release lifts j's reservation at old and withdraws its promise.
func (m *Maui) release(j *sim.Job, old sim.Time) {
	m.giveBack(old, j.Estimate, j.Need)
	m.at[j.Seq] = -1
	m.withdraw = append(m.withdraw, j)
}

// releasePending releases every pending reservation.
func (m *Maui) releasePending() {
	for _, p := range m.pending {
		m.release(p, m.at[p.Seq])
	}
	m.pending = m.pending[:0]
}

// relay lays the lifted pending reservations back, in the order they were
// made, each where it was if it still fits there; one that does not has
// lost its room to a job that outranks it and is withdrawn (the job is
// placed again when the walk reaches it).
func (m *Maui) relay() {
	kept := m.pending[:0]
	for _, p := range m.pending {
		t := m.at[p.Seq]
		if ok, _ := m.prof.Fits(t, p.Estimate, p.Need); !ok {
			m.at[p.Seq] = -1
			m.withdraw = append(m.withdraw, p)
			continue
		}
		m.prof.Reserve(t, p.Estimate, p.Need)
		kept = append(kept, p)
	}
	clear(m.pending[len(kept):])
	m.pending = kept
}

// unpend removes j from the pending reservations.
func (m *Maui) unpend(j *sim.Job) {
	for i, p := range m.pending {
		if p == j {
			m.pending = append(m.pending[:i], m.pending[i+1:]...)
			return
		}
	}
}

// from is where a reservation is sought: now, or, without backfill, the
// latest reservation made above, so that no job overtakes a higher one.
func (m *Maui) from(now sim.Time) sim.Time {
	if m.backfill {
		return now
	}
	return m.last
}

// rebuild lays the profile anew from the running jobs and the reservations
// held. If the reservations no longer fit, or one has passed without its
// job starting (possible only with overruns: a reservation laid behind an
// overrunning job rests on a guess), all are withdrawn.
func (m *Maui) rebuild(now sim.Time, v sim.View, overrun bool) {
	m.prof.Reset(now, v.Free(), v.Running())
	m.gains++
	stale := false
	for _, j := range m.held {
		if t := m.at[j.Seq]; t >= now {
			m.prof.Reserve(t, j.Estimate, j.Need)
		} else {
			stale = true
		}
	}
	m.overran = m.overran || overrun
	if !stale && (len(m.held) == 0 || !overrun || !m.prof.Negative()) {
		return
	}
	if !m.overran {
		panic("policies: Maui's reservations do not fit though no job overran") // broken invariant
	}
	for _, j := range m.held {
		m.at[j.Seq] = -1
		m.withdraw = append(m.withdraw, j)
	}
	m.held = m.held[:0]
	m.prof.Reset(now, v.Free(), v.Running())
}

// move lifts j's reservation at old and lays it at its earliest fit from
// from, reporting a move as a promise unless j starts now. The fit is never
// later than old when from ≤ old. Only without backfill can from pass old:
// a job now ranked above j has been reserved after j's slot, and j, which
// may not overtake it, moves later; its promise is withdrawn.
func (m *Maui) move(now sim.Time, j *sim.Job, old, from sim.Time) sim.Time {
	var t sim.Time
	if from <= old {
		if t = m.prof.FitLifted(from, j.Estimate, j.Need, old); t == old {
			return old
		}
		m.giveBack(old, j.Estimate, j.Need)
	} else {
		m.giveBack(old, j.Estimate, j.Need)
		m.withdraw = append(m.withdraw, j)
		t = m.prof.Fit(from, j.Estimate, j.Need)
	}
	m.prof.Reserve(t, j.Estimate, j.Need)
	m.at[j.Seq] = t
	if t > now {
		m.promise = append(m.promise, sim.Reservation{Job: j, Start: t})
	}
	return t
}
