package policies

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// EASY is EASY backfilling (Lifka 1995, the Argonne SP scheduler; analysed by
// Mu'alem & Feitelson 2001, section 2): jobs start in queue order while they
// fit; the first job that does not fit (the head) gets a reservation at its
// shadow time, the earliest time at which the running jobs' estimated ends
// free enough of every resource kind for it; a later job may then start now
// if it fits now and either ends by the shadow time or fits in the "extra"
// resources, those still free at the shadow time once the head has what it
// needs. The reservation is kept up to date after every start: a backfilled
// job that ends by the shadow time does not change the resources free there,
// and one that uses the extra resources shrinks them by its need, so updating
// extra in place equals recomputing the reservation.
//
// All resource kinds are checked, not only processors. Only the head holds a
// reservation; the queue order is pluggable (Arrival gives classic EASY).
// The head's reservation is reported as a promise every time it is set or
// moves earlier. Under an order other than Arrival a new job can outrank the
// head: if it becomes the head, or starts ahead of the head and so takes
// resources the reservation counted on, the old promise is withdrawn. Under
// Arrival order that never happens. A dynamic order (Fairshare) can also
// re-rank the waiting jobs between passes, as usage accrues and decays: the
// head is whichever job ranks first at the pass, the same two withdrawals
// cover it, and a head that stays the head keeps its reservation, since
// backfilled jobs never touch it (simtest.Verify checks this on the real
// traces and random workloads).
//
// On a machine of nodes (sim/nodes: the model's trial is a sim.Lookahead)
// the nodes decide, not the totals. A job fits now when it can be placed on
// the nodes the jobs taken before it leave. The head's shadow time is the
// earliest estimated end (of a running job, or of one started earlier in
// the pass, at now + its estimate) at which the head can be placed on what
// the jobs still running then leave. A later job backfills if it can be
// placed now and either ends by the shadow time or the head can still be
// placed at the shadow time with this job, on the nodes it really gets
// now, and every earlier backfilled job that runs past the shadow time
// holding theirs. The reservation does not pin nodes: it only has to be
// feasible at its time, as internal/nodeoracle's EASY (which the engine
// matches job for job). Fewer running jobs never make the head not fit, so
// the promise holds; the promises and withdrawals are the pool's, and
// simtest.Verify checks them. On nodes a job refused for the head's sake
// may be admitted later in the pass, since where it would land moves as
// others start; EASY's single scan in queue order does not go back for it
// (nor does the oracle), and a later pass does.
//
// Deviation: a running job that has overrun its estimate (possible only with
// sim.Options.AllowOverrun) is assumed to end one second from now; with
// overruns the head's reservation can be missed, as in any EASY.
type EASY struct {
	name string
	rank ranked
	// fill picks the backfilled jobs of a pass; nil is EASY's own first
	// fit in queue order. Balanced sets it.
	fill func(w *window, q []*sim.Job)

	head   *sim.Job // the job holding the reservation, nil if none
	headAt sim.Time
	// win is the pass's backfill window, kept here so that handing it to
	// fill does not allocate one per pass.
	win window

	started []sim.Allocation // started this pass, by estimated end
	start   []*sim.Job
	// On nodes: whether a job ended since the last pass, and what that
	// pass left (see passNodes).
	ended    bool
	last     lastPass
	kept     []*sim.Job
	classes  classState // easy_classes.go
	chainsOn bool       // this pass's look-ahead keeps classes.ch
	promise  []sim.Reservation
	withdraw []*sim.Job
}

var (
	_ sim.Policy   = (*EASY)(nil)
	_ sim.Observer = (*EASY)(nil)
)

// NewEASY returns EASY backfilling over the queue in order o (Arrival for
// classic EASY).
func NewEASY(o Order) *EASY {
	return &EASY{name: qualified("easy", o), rank: newRanked(o)}
}

// Name returns "easy", or "easy/<order>" for an order other than Arrival.
func (e *EASY) Name() string { return e.name }

// Submitted tells the order, if it observes, that j arrived.
func (e *EASY) Submitted(now sim.Time, j *sim.Job) { e.rank.submitted(now, j) }

// Finished tells the order, if it observes, that j ended.
func (e *EASY) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	e.ended = true
	e.rank.finished(now, j, actual)
}

// lastPass is what a pass on nodes left: its head and the head's shadow
// time, the last job it saw (by Seq) and the jobs that fitted but that
// Keeps refused, in queue order. head is nil when the next pass may not
// skip anything.
type lastPass struct {
	head   *sim.Job
	shadow sim.Time
	seq    int
	kept   []*sim.Job
}

// Schedule runs one EASY pass: in aggregate on the pool, on the nodes
// (scheduleNodes) when the model has a view of its own and its trial is a
// sim.Lookahead. The pool's pass stays one function: split, it cost the
// pool's EASY 1.5 % more instructions on KTH-SP2.
func (e *EASY) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	if v.Model() != nil {
		if lk, ok := v.Trial().(sim.Lookahead); ok {
			e.scheduleNodes(now, v, lk)
			return sim.Decision{Start: e.start, Promise: e.promise, Withdraw: e.withdraw}, nil
		}
	}
	q := e.rank.jobs(now, v)
	free := v.Free()
	e.start, e.started = e.start[:0], e.started[:0]
	e.promise, e.withdraw = e.promise[:0], e.withdraw[:0]

	i := 0
	for ; i < len(q) && q[i].Need.FitsIn(free); i++ {
		free = free.Sub(q[i].Need)
		e.begin(now, q[i])
	}
	var head *sim.Job
	if i < len(q) {
		head = q[i]
		shadow, extra := e.shadow(now, head, free, v.Running())
		if e.fill != nil {
			e.win = window{now: now, shadow: shadow, free: free, extra: extra, capacity: v.Capacity(), start: e.start}
			e.fill(&e.win, q[i+1:])
			e.start = e.win.start
			e.win.start = nil
		} else {
			// EASY's own backfilling: first fit in queue order. This is
			// window's admits and take with the window in locals: it runs
			// at nearly every pass, and through e.win it was measurably
			// slower on sim's BenchmarkSimulate (most on KTH-SP2).
			for _, j := range q[i+1:] {
				if free[sim.Procs] == 0 {
					break // every admitted job needs a processor
				}
				if !j.Need.FitsIn(free) {
					continue
				}
				if now+j.Estimate > shadow {
					if !j.Need.FitsIn(extra) {
						continue
					}
					extra = extra.Sub(j.Need)
				}
				free = free.Sub(j.Need)
				e.start = append(e.start, j)
			}
		}
		// Jobs started ahead of the head this pass outrank it (a new job
		// under a priority order): they may take what its reservation
		// counted on, so the old promise is withdrawn and made again.
		overtaken := head == e.head && i > 0
		if overtaken {
			e.withdraw = append(e.withdraw, head)
		}
		if head != e.head || overtaken || shadow != e.headAt {
			e.promise = append(e.promise, sim.Reservation{Job: head, Start: shadow})
		}
		e.headAt = shadow
	}
	if e.head != nil && e.head != head && !e.startedNow(e.head) {
		e.withdraw = append(e.withdraw, e.head)
	}
	e.head = head
	e.rank.took(now, v, e.start)
	return sim.Decision{Start: e.start, Promise: e.promise, Withdraw: e.withdraw}, nil
}

// scheduleNodes is Schedule on a machine of nodes, asked through lk; its
// promises and withdrawals are the pool pass's. It leaves the decision in
// e.start, e.promise and e.withdraw: returning a Decision from here too
// copied it once more a pass, through the stack.
func (e *EASY) scheduleNodes(now sim.Time, v sim.View, lk sim.Lookahead) {
	q := e.rank.jobs(now, v)
	e.start, e.started = e.start[:0], e.started[:0]
	e.promise, e.withdraw = e.promise[:0], e.withdraw[:0]
	i, head, shadow := e.passNodes(now, v, q, lk)
	if e.chainsOn {
		e.classes.unlinkAll(e.start)
	}
	if head != nil {
		overtaken := head == e.head && i > 0
		if overtaken {
			e.withdraw = append(e.withdraw, head)
		}
		if head != e.head || overtaken || shadow != e.headAt {
			e.promise = append(e.promise, sim.Reservation{Job: head, Start: shadow})
		}
		e.headAt = shadow
	}
	if e.head != nil && e.head != head && !e.startedNow(e.head) {
		e.withdraw = append(e.withdraw, e.head)
	}
	e.head = head
	e.rank.took(now, v, e.start)
}

// passNodes is EASY's pass on a machine of nodes, asked through lk: a job starts
// when it can be placed now; the head's shadow time is the earliest
// estimated end at which it can be placed on what the jobs still running
// then leave; a later job backfills if it can be placed now and either
// ends by the shadow time or leaves the head able to be placed then, its
// own nodes and those of every earlier backfilled job that runs past the
// shadow time still held. The reservation does not pin nodes: it only has
// to be feasible at its time (see sim.Lookahead).
//
// A pass in arrival order with EASY's own backfilling skips some of the
// jobs the pass before saw, when no job has ended since and the head is
// the same: the nodes now are those that pass left less its starts, and
// on a machine that promises it (sim.Monotone) fewer free resources never
// let a job fit, so a job that did not fit then (or was not reached once
// no core was free) does not fit now. A partition that limits the nodes
// of a job of tasks breaks that promise, and there nothing is skipped.
// The pass re-asks only the jobs that fitted but that Keeps refused: where
// a job fits moves as others start, so Keeps may accept it now. The
// schedule is the same as without the skip. For the same reason such a
// pass does not ask Fits about the head when the last pass's head still
// leads the queue: it did not fit then, so it does not fit now.
//
// EASY's own backfilling in arrival order on a look-ahead that classes
// every job goes through the queue's index by class instead
// (backfillChains, easy_classes.go), which makes the same skip by class.
func (e *EASY) passNodes(now sim.Time, v sim.View, q []*sim.Job, lk sim.Lookahead) (int, *sim.Job, sim.Time) {
	cl, indexed := e.chained(lk, q)
	last := &e.last
	lastHead := last.head
	skip := !e.ended && e.fill == nil && isArrival(e.rank.order) && lastHead != nil && e.monotone(lk, cl)
	e.ended = false
	e.last.head = nil
	i := 0
	if (!skip || len(q) == 0 || q[0] != lastHead) && !e.classes.ruledOut(cl, q) {
		for ; i < len(q) && lk.Fits(q[i]); i++ {
			lk.Take(q[i])
			e.start = append(e.start, q[i])
		}
	}
	if i == len(q) {
		return i, nil, 0 // no head: every waiting job started
	}
	head := q[i]
	shadow := lk.Shadow(now, head)
	if indexed {
		if e.classes.link(cl, q[i:]) {
			e.backfillChains(now, shadow, lk, head, skip && i == 0 && head == lastHead)
			e.last = lastPass{head: head, shadow: shadow}
			return i, head, shadow
		}
		e.classes.ch.off = true // a job without a class: visit every job
		skip = false            // the last pass left no list for it
	}
	if e.fill != nil {
		e.win = window{now: now, shadow: shadow, free: lk.Free(), capacity: v.Capacity(), start: e.start, lk: lk}
		e.fill(&e.win, q[i+1:])
		e.start = e.win.start
		e.win.start, e.win.lk = nil, nil
		return i, head, shadow
	}
	rest := q[i+1:]
	e.kept = e.kept[:0]
	if skip && i == 0 && head == lastHead {
		// rest is in arrival order: the jobs the last pass saw lead it.
		k, _ := slices.BinarySearchFunc(rest, last.seq+1, func(j *sim.Job, seq int) int { return cmp.Compare(j.Seq, seq) })
		e.backfill(now, shadow, lk, last.kept)
		rest = rest[k:]
	}
	e.backfill(now, shadow, lk, rest)
	e.last = lastPass{head: head, seq: q[len(q)-1].Seq, kept: append(last.kept[:0], e.kept...)}
	return i, head, shadow
}

// monotone reports whether lk promises that a no from Fits holds until a
// job ends (sim.Monotone). When lk's classes are cl, which chained made
// e.classes's owner, the answer was noted then (classState.own).
func (e *EASY) monotone(lk sim.Lookahead, cl sim.Classes) bool {
	if cl != nil {
		return e.classes.monotone
	}
	m, ok := lk.(sim.Monotone)
	return ok && m.Monotone()
}

// chained returns the look-ahead's classes and whether the pass
// backfills through the index of the queue by class (backfillChains):
// EASY's own backfilling in arrival order on a look-ahead that classes
// every job.
func (e *EASY) chained(lk sim.Lookahead, q []*sim.Job) (sim.Classes, bool) {
	cs := &e.classes
	if cs.owner != nil && lk == cs.lk && (len(q) == 0 || cs.linkedJob(q[0])) {
		e.chainsOn = !cs.ch.off // the last pass's look-ahead: what follows holds
		return cs.owner, e.chainsOn
	}
	e.chainsOn = false
	cl, ok := lk.(sim.Classes)
	if !ok || e.fill != nil || !isArrival(e.rank.order) {
		return nil, false
	}
	if len(q) > 0 && !cs.linkedJob(q[0]) {
		cs.owner = nil // a policy serves one run; if reused, start afresh
	}
	cs.own(cl)
	cs.lk = lk
	e.chainsOn = !cs.ch.off
	return cl, e.chainsOn
}

// backfill starts the jobs of cand that lk places now and that end by the
// shadow time or that lk.Keeps, in order; it notes in e.kept those that
// fitted but that Keeps refused.
func (e *EASY) backfill(now, shadow sim.Time, lk sim.Lookahead, cand []*sim.Job) {
	if cl, ok := lk.(sim.Classes); ok {
		e.backfillClasses(now, shadow, lk, cl, cand) // easy_classes.go
		return
	}
	for _, j := range cand {
		if lk.Full() {
			return // every admitted job needs a core
		}
		if !lk.Fits(j) {
			continue
		}
		if now+j.Estimate <= shadow || lk.Keeps(j) {
			lk.Take(j)
			e.start = append(e.start, j)
			continue
		}
		e.kept = append(e.kept, j)
	}
}

// window is what backfilling must respect in a pass once the head is
// blocked: the resources free now, the head's shadow time and the extra
// resources left over at the shadow time. take keeps it up to date.
//
// On a machine of nodes (lk set) the nodes decide instead, and the
// methods below are not used (Balanced.backfillNodes): a job is admitted
// when lk can place it now and either it ends by the shadow time or
// lk.Keeps it, and free is the node-level free resources (lk.Free: nodes
// held whole by an exclusive job count as used), which a start lowers by
// what the job holds there (lk.Cost); extra is unused.
type window struct {
	now, shadow sim.Time
	free, extra sim.Resources
	capacity    sim.Resources
	start       []*sim.Job // the pass's starts so far, backfilled jobs last
	lk          sim.Lookahead
}

// admits reports whether j may start now without delaying the head: it fits
// the free resources and either ends by the shadow time or fits the extra.
func (w *window) admits(j *sim.Job) bool {
	return j.Need.FitsIn(w.free) && (w.now+j.Estimate <= w.shadow || j.Need.FitsIn(w.extra))
}

// take starts j, which admits has passed. A job that runs past the shadow
// time uses the extra resources.
func (w *window) take(j *sim.Job) {
	if w.now+j.Estimate > w.shadow {
		w.extra = w.extra.Sub(j.Need)
	}
	w.free = w.free.Sub(j.Need)
	w.start = append(w.start, j)
}

// full reports whether no job can start: every admitted job needs a
// processor.
func (w *window) full() bool { return w.free[sim.Procs] == 0 }

// begin records that j starts now.
func (e *EASY) begin(now sim.Time, j *sim.Job) {
	e.start = append(e.start, j)
	a := sim.Allocation{Job: j, Start: now}
	k := len(e.started)
	e.started = append(e.started, a)
	for ; k > 0 && e.started[k-1].EstimatedEnd() > a.EstimatedEnd(); k-- {
		e.started[k] = e.started[k-1]
	}
	e.started[k] = a
}

func (e *EASY) startedNow(j *sim.Job) bool {
	for _, s := range e.start {
		if s == j {
			return true
		}
	}
	return false
}

// shadow returns the head's reservation time and the resources that will be
// left over then once it has started. It walks the running jobs and those
// started this pass together, by estimated end.
func (e *EASY) shadow(now sim.Time, head *sim.Job, free sim.Resources, running []sim.Allocation) (sim.Time, sim.Resources) {
	avail, shadow := free, sim.Time(-1)
	r, s := 0, 0
	for r < len(running) || s < len(e.started) {
		var a sim.Allocation
		if s == len(e.started) || r < len(running) && running[r].EstimatedEnd() <= e.started[s].EstimatedEnd() {
			a, r = running[r], r+1
		} else {
			a, s = e.started[s], s+1
		}
		end := max(a.EstimatedEnd(), now+1)
		if shadow >= 0 && end > shadow {
			break
		}
		avail = avail.Add(a.Job.Need)
		if shadow < 0 && head.Need.FitsIn(avail) {
			shadow = end
		}
	}
	if shadow < 0 {
		// Cannot happen: admitted jobs fit the empty machine.
		panic("policies: EASY head never fits")
	}
	return shadow, avail.Sub(head.Need)
}
