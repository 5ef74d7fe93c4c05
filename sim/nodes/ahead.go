package nodes

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// look is the Cluster's sim.Lookahead: its trial, and the reserved job's
// view of the nodes at its shadow time.
//
// Whether the head fits somewhere is a sum over nodes: a head of N nodes
// × P cores fits when at least N nodes can each take P cores (with its
// memory, GPUs and exclusivity), a head of tasks when the nodes it may use
// have at least its tasks' cores free between them. So look keeps that sum
// (meas) rather than a placement, and a change to a few nodes updates it
// from those nodes alone.
//
// A head that asks only for cores anywhere (no memory, GPUs or
// exclusivity: simple) may use every node not held whole, so its sum is
// the trial's count of usable free cores and needs no node state at all:
// the walk adds what each ending job gives back (its cores, or its nodes
// whole if it was exclusive), and extra is what is left at the shadow
// time once the head has its cores. For any other head the nodes at the
// shadow time are ah: each shadow walk copies the nodes as they stand
// into it (rebuild) and releases the ending jobs there; the pass then
// lays on it the jobs it takes that run past the shadow time. A walk that
// is skipped (Shadow) finds ah as the last one left it.
type look struct {
	c *Cluster
	t *trial

	now     sim.Time
	head    *sim.Job // the reserved job; nil before Shadow in a trial
	hr      req
	hplain  bool // the head may use every node (rules.plain)
	shadow  sim.Time
	simple  bool
	limited bool  // the head is a tasks head its partition limits to some nodes (headPlaces)
	extra   int64 // simple head: usable free cores at the shadow time beyond its own

	on   bool   // ah has its arrays
	ah   state  // the nodes at the shadow time, once on
	alog []undo // what Keeps laid on ah for a moment
	meas int64  // the head's sum on ah: nodes that hold its share, or cores it may use
	need int64  // what meas must reach: its nodes, or its tasks

	takes  []int // indices of the trial's takes, by estimated end
	capSum []int64

	// fails are requests that did not fit in this trial, none asking at
	// least as much of everything as another. The takes only shrink what
	// is free, so a request that asks at least as much of everything as
	// one of them does not fit either (dominated).
	fails []req
	// sver and shead are the state version and head of the last shadow
	// walk; shead is nil until the first.
	sver  uint64
	shead *sim.Job
	// phead is the head pone was worked out for (part).
	phead *sim.Job
	pone  bool
	ms    memos // answers by request (memo.go)
	// verify, when set (tests), is told of every answer of Shadow.
	verify func(now sim.Time, head *sim.Job, shadow sim.Time, kept bool)
}

// maxFails bounds fails: when it is full the oldest goes.
const maxFails = 32

var (
	_ sim.Lookahead = (*look)(nil)
	_ sim.Classes   = (*look)(nil)
	_ sim.Monotone  = (*look)(nil)
)

// simple reports whether r asks for cores anywhere and nothing else: no
// memory, GPUs or whole nodes, and no partition, node groups or features
// that would keep it off some nodes.
func (s *state) simple(r req) bool {
	return r.nodes == 0 && r.mem == 0 && r.gpus == 0 && !r.excl && s.rs.plain(r.where)
}

// anywhere reports whether r asks for cores on any node of the cluster and
// nothing else: simple, with no Where and no partitions, so that the
// trial's count of usable free cores answers for it.
func (l *look) anywhere(r req) bool { return l.c.st.simple(r) }

// begin starts a new trial. What the last walk left on ah stays until
// the nodes change (started, released) or the next shadow walk, which may
// find it still the nodes at the shadow time (Shadow).
func (l *look) begin() {
	l.head = nil
	l.fails = l.fails[:0]
	l.ms.newGen()
}

// undoTo undoes what was laid on ah since alog held n entries.
func (l *look) undoTo(n int) {
	for i := len(l.alog) - 1; i >= n; i-- {
		l.ah.restore(l.alog[i])
	}
	l.alog = l.alog[:n]
}

// started and released note that the committed nodes changed: ah is no
// longer the last walk's, and the next walk copies it afresh (rebuild);
// unless the start keeps a take of the trial (committed), which Take has
// already counted (see Take), or the end is one that keptAfterEnd lays on
// ah or finds there already.
func (l *look) started(committed bool) {
	if !committed {
		l.shead = nil
	}
	l.ms.newGen()
}

// released is told of a job that has just ended and left the committed
// nodes. The last walk stands if nothing else changed since and
// keptAfterEnd says so.
func (l *look) released(o *sim.Outcome) {
	l.ms.newGen()
	switch {
	case l.shead == nil:
	case l.sver+1 == l.c.st.ver && l.keptAfterEnd(o):
		l.sver = l.c.st.ver
	default:
		l.shead = nil
	}
}

// keptAfterEnd reports whether the last walk's shadow time and ah are
// what a walk would find once o's job, which the walk counted as ending
// at its estimated end (no earlier than now+1), has gone; if so ah is
// made that walk's. The head's fit only grows with what is free (but for a
// limited head, whose placement may not), and the walk's nodes at a time t
// are the nodes now and the jobs that end by t given back:
//
//   - a job the walk gave back before the shadow time leaves, at every
//     earlier t, at most the nodes of the walk at the later of t and its
//     end, where the head did not fit; and the same nodes at the shadow
//     time, where the walk gave it back already;
//   - for a head of nodes, a job the walk did not give back, on nodes that
//     cannot hold the head even once it has gone at the shadow time, adds
//     nothing to the head's sum at any earlier time either (on its nodes
//     the sum is 0 there too; elsewhere nothing changes), so ah gets it
//     back and the shadow time stands.
//
// A job ending at the shadow time itself may make the head fit earlier:
// the next walk works it out.
func (l *look) keptAfterEnd(o *sim.Outcome) bool {
	end := max(o.Start+o.Estimate, l.now+1)
	switch {
	case l.limited:
		return false
	case end < l.shadow:
		return true
	case end == l.shadow:
		return l.keptAtShadow(o)
	case l.simple || l.hr.nodes == 0:
		return false
	}
	uses := l.c.where[o.Seq]
	l.ah.release(reqOf(&o.Job), uses) // rebuilt at the next walk if this one goes
	return l.parts(uses) == 0
}

// rebuild makes ah a copy of the nodes now, the trial's takes included:
// where a shadow walk starts. Copying the nodes' arrays costs less than
// undoing the last walk's releases and laying the starts and ends since,
// one node at a time, as ah did before it was rebuilt.
func (l *look) rebuild() {
	s, a := &l.c.st, &l.ah
	if !l.on {
		*a = state{cap: s.cap, cores: slices.Clone(s.cores), mem: slices.Clone(s.mem), gpus: slices.Clone(s.gpus),
			jobs: slices.Clone(s.jobs), held: slices.Clone(s.held), tree: s.tree.clone(),
			grp: s.grp, rs: s.rs}
		l.on = true
	} else {
		copy(a.cores, s.cores)
		copy(a.mem, s.mem)
		copy(a.gpus, s.gpus)
		copy(a.jobs, s.jobs)
		copy(a.held, s.held)
		copy(a.tree.v, s.tree.v)
	}
	a.avail = s.avail
	a.ver++
	l.alog = l.alog[:0]
}

// Fits reports whether j can be placed now, after the jobs taken. A job
// with a class answers from its memo, request and kind (memo.go) without
// working out its request again.
func (l *look) Fits(j *sim.Job) bool {
	l.t.last = nil
	m := l.known(j)
	if m == nil {
		r := reqOf(j)
		if l.anywhere(r) {
			return r.tasks <= l.c.st.avail // as trial.Fits
		}
		if m = l.class(j, r); m == nil {
			if l.c.st.oneOK(r) {
				return l.oneFits(r)
			}
			return l.fitsPlaced(j, nil, r)
		}
	} else if fit, ok := l.fitsMemo(m); ok {
		return fit
	}
	switch m.kind {
	case kindAnywhere:
		return m.r.tasks <= l.c.st.avail
	case kindOne:
		return l.noteFits(m, l.firstOne(m, m.r.per, m.r.mem) >= 0) // placed only when needed (placed)
	case kindNodes:
		if l.holding(m) < m.r.nodes {
			return l.noteFits(m, false)
		}
	}
	return l.fitsPlaced(j, m, m.r)
}

// fitsPlaced is Fits for a job that is neither of cores anywhere nor of
// one node for the lookups: it places the job, unless the request asks at
// least as much as one that did not fit. m is j's memo, nil if none.
func (l *look) fitsPlaced(j *sim.Job, m *memo, r req) bool {
	// A tasks job its partition limits to some nodes may fit after a take
	// (memo.go), so its no proves nothing for later requests.
	limited := r.nodes == 0 && l.c.st.maxNodes(r) > 0
	if !limited && l.dominated(r) {
		return l.noteFits(m, false)
	}
	if _, ok := l.c.st.place(r, l.c.fit); ok {
		l.t.last = j
		return l.noteFits(m, true)
	}
	if l.noteFits(m, false); limited {
		return false
	}
	l.fails = slices.DeleteFunc(l.fails, func(f req) bool { return covers(r, f) })
	if len(l.fails) == maxFails {
		l.fails = slices.Delete(l.fails, 0, 1)
	}
	l.fails = append(l.fails, r)
	return false
}

// Monotone reports whether a take never lets a job fit that did not fit
// before it (sim.Monotone): false on a cluster with a partition that
// limits the nodes of a job (memo.go).
func (l *look) Monotone() bool {
	l.ms.init(l.c.st.rs)
	return !l.ms.off
}

// covers reports whether f asks at least as much of everything as r, in
// the same form (nodes × cores or tasks) and on the same nodes (the same
// Where: sources share one among the jobs that ask the same).
func covers(r, f req) bool {
	return (f.nodes > 0) == (r.nodes > 0) && f.nodes >= r.nodes && f.per >= r.per && f.tasks >= r.tasks &&
		f.mem >= r.mem && f.gpus >= r.gpus && (f.excl || !r.excl) && f.where == r.where
}

// dominated reports whether r asks at least as much of everything as a
// request that did not fit in this trial: nodes and cores per node (or
// tasks), memory and GPUs per node, and exclusivity.
func (l *look) dominated(r req) bool {
	for _, f := range l.fails {
		if covers(f, r) {
			return true
		}
	}
	return false
}

// Take counts j as started now; after Shadow, a j that runs past the
// shadow time also holds its nodes then.
//
// After a take, ah is still what a new walk for the same head would leave,
// for a head that is not simple and not limited, when the take is the only
// change to the nodes since the walk and the head still fits on ah: the
// walk would meet the same ends, with fewer free resources before the
// shadow time (where the head did not fit, and fewer resources never let
// it fit) and the same at it, the job running past it held there as Take
// lays it. So the take moves the walk's state version with it, and if the
// loop starts the job as taken (started), the next pass's Shadow for the
// same head keeps the walk.
func (l *look) Take(j *sim.Job) {
	n := len(l.t.takes)
	l.presetOne(j)
	l.t.Take(j)
	if len(l.t.takes) == n || l.head == nil {
		return
	}
	keep := !l.simple && !l.limited && l.shead == l.head && l.sver+1 == l.c.st.ver
	if l.now+j.Estimate > l.shadow {
		tk := l.t.takes[n]
		uses := l.t.uses[tk.from:tk.to]
		r := reqOf(j)
		if l.simple {
			l.extra -= l.lost(r, uses)
			return
		}
		before := l.parts(uses)
		l.ah.take(r, uses, nil) // ah is rebuilt at the next walk
		l.meas += l.parts(uses) - before
	}
	if keep && l.meas >= l.need {
		l.sver = l.c.st.ver
	}
}

// presetOne lays j's placement where trial.Take finds it (t.last), when
// j asks for one node under first fit and has a memo: firstOne knows the
// node, mostly without a search since Fits asked, and the placement is
// that node alone, as firstNodes would find it.
func (l *look) presetOne(j *sim.Job) {
	if l.t.last == j || l.c.fit != FirstFit {
		return
	}
	m := l.known(j)
	if m == nil || m.kind != kindOne {
		return
	}
	if n := l.firstOne(m, m.r.per, m.r.mem); n >= 0 {
		s := &l.c.st
		s.scratch = append(s.scratch[:0], Use{Node: int32(n), Nodes: 1, Cores: int32(m.r.per)})
		l.t.last = j
	}
}

// lost is how many usable cores a job on uses takes away from the simple
// head: its cores, or its nodes whole if it is exclusive.
func (l *look) lost(r req, uses []Use) int64 {
	if !r.excl {
		return r.tasks
	}
	return l.wholeCores(uses)
}

// wholeCores is the cores of the nodes of uses.
func (l *look) wholeCores(uses []Use) int64 {
	if l.capSum == nil {
		l.capSum = make([]int64, len(l.c.st.cap)+1)
		for n, v := range l.c.st.cap {
			l.capSum[n+1] = l.capSum[n] + v
		}
	}
	var sum int64
	for _, u := range uses {
		sum += l.capSum[u.Node+u.Nodes] - l.capSum[u.Node]
	}
	return sum
}

// placed returns j's placement now: the one Fits found, or a new one.
func (l *look) placed(j *sim.Job, r req) ([]Use, bool) {
	if l.t.last == j {
		return l.c.st.scratch, true
	}
	uses, ok := l.c.st.place(r, l.c.fit)
	if ok {
		l.t.last = j
	}
	return uses, ok
}

// part is node n's part of the head's sum on ah. For a head of nodes of
// at least one core each that may use every node, without GPUs or
// exclusivity (most heads: pone), a node counts when its usable free
// cores (the tree's leaf: 0 when held whole) and memory hold the head's
// share, which costs two comparisons rather than the general test.
func (l *look) part(n int) int64 {
	s, r := &l.ah, &l.hr
	if l.plainHead() {
		if !s.held[n] && s.cores[n] >= r.per && s.mem[n] >= r.mem {
			return 1
		}
		return 0
	}
	switch {
	case s.held[n] || r.excl && s.jobs[n] != 0 || s.mem[n] < r.mem || s.gpus[n] < r.gpus ||
		!l.hplain && !s.may(n, *r): // state.usable, without copying the request
		return 0
	case r.nodes == 0:
		return s.cores[n]
	case s.cores[n] >= r.per:
		return 1
	}
	return 0
}

// plainHead reports whether the head is one for which part and partWith
// need only the node's free cores, whether it is held whole and its
// memory (pone), working it out once per head. They read the cores, not
// the tree's leaf: a shadow walk gives jobs back on ah without mending
// its tree until it stops (shadow_walk.go).
func (l *look) plainHead() bool {
	if l.phead != l.head {
		l.phead, l.pone = l.head, l.hr.nodes > 0 && l.hr.per >= 1 && !l.hr.excl && l.hr.gpus == 0 && l.hplain
	}
	return l.pone
}

// parts is the head's sum over the nodes of uses.
func (l *look) parts(uses []Use) int64 {
	if len(uses) == 1 && uses[0].Nodes == 1 { // a job of one node, most often
		return l.part(int(uses[0].Node))
	}
	var sum int64
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			sum += l.part(n)
		}
	}
	return sum
}

// measure returns the head's sum over all of ah, visiting only the nodes
// with enough free cores.
func (l *look) measure() int64 {
	k := max(l.hr.per, 1)
	var sum int64
	for n := l.ah.tree.next(0, k); n >= 0; n = l.ah.tree.next(n+1, k) {
		sum += l.part(n)
	}
	return sum
}

// partWith is node n's part of the head's sum on ah once a job of r
// holds c cores there too (as state.take would leave it).
func (l *look) partWith(n int, r req, c int64) int64 {
	if l.plainHead() {
		s, h := &l.ah, &l.hr
		if r.excl || s.held[n] || s.cores[n]-c < h.per || s.mem[n]-r.mem < h.mem || s.gpus[n] < r.gpus {
			return 0
		}
		return 1
	}
	s, h := &l.ah, l.hr
	switch {
	case !s.may(n, h), // the head may not use the node at all
		s.held[n] || r.excl || h.excl, // the node is no longer idle
		s.mem[n]-r.mem < h.mem, s.gpus[n]-r.gpus < h.gpus:
		return 0
	case h.nodes == 0:
		return s.cores[n] - c
	case s.cores[n]-c >= h.per:
		return 1
	}
	return 0
}
