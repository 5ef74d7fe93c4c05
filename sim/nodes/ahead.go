package nodes

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// look is the Cluster's sim.Lookahead: its trial, and the reserved job's
// view of the nodes at its shadow time.
//
// A head that asks only for cores anywhere (no memory, GPUs or
// exclusivity: simple) fits wherever enough usable cores are free, so its
// shadow time and the backfill test need only the count of usable free
// cores then: the walk adds what each ending job gives back (its cores, or
// its nodes whole if it was exclusive), and extra is what is left at the
// shadow time once the head has its cores. Any other head is placed on ah,
// a copy of the committed node state kept up to date by Apply and Advance
// once first needed: a pass lays its takes and releases on ah with an undo
// log, and keeps the head's placement there (hpl), so that a backfill
// candidate that touches none of those nodes needs no new placement.
type look struct {
	c *Cluster
	t *trial

	now    sim.Time
	head   *sim.Job // the reserved job; nil before Shadow in a trial
	hr     req
	shadow sim.Time
	simple bool
	extra  int64 // simple head: usable free cores at the shadow time beyond its own

	on   bool  // ah mirrors the committed state
	ah   state // the nodes at the shadow time, once on
	alog []undo
	hpl  []Use // the head's placement on ah, when hok
	hok  bool

	pend    *sim.Job // held on ah by Keeps, until its Take or the next question
	pendLog int
	pendH   []Use

	takes  []int // indices of the trial's takes, by estimated end
	capSum []int64
}

var _ sim.Lookahead = (*look)(nil)

// isSimple reports whether r asks for cores anywhere and nothing else.
func isSimple(r req) bool { return r.nodes == 0 && r.mem == 0 && r.gpus == 0 && !r.excl }

// begin starts a new trial: the pass's changes to ah are undone.
func (l *look) begin() {
	l.settle()
	l.head = nil
}

// settle undoes what the pass laid on ah, leaving it the committed state.
func (l *look) settle() {
	l.pend = nil
	l.undoTo(0)
}

func (l *look) undoTo(n int) {
	for i := len(l.alog) - 1; i >= n; i-- {
		l.ah.restore(l.alog[i])
	}
	l.alog = l.alog[:n]
}

// started and released keep ah the committed state, once it is on.
func (l *look) started(r req, uses []Use) {
	if l.on {
		l.settle()
		l.ah.take(r, uses, nil)
	}
}

func (l *look) released(r req, uses []Use) {
	if l.on {
		l.settle()
		l.ah.release(r, uses)
	}
}

// turnOn makes ah the committed state: the trial's state less its takes.
func (l *look) turnOn() {
	s := &l.c.st
	l.ah = state{cap: s.cap, cores: slices.Clone(s.cores), mem: slices.Clone(s.mem), gpus: slices.Clone(s.gpus),
		jobs: slices.Clone(s.jobs), held: slices.Clone(s.held), tree: maxTree{size: s.tree.size, v: slices.Clone(s.tree.v)},
		avail: s.avail}
	if l.t.first < len(l.t.takes) {
		for i := len(l.t.log) - 1; i >= l.t.takes[l.t.first].log; i-- {
			l.ah.restore(l.t.log[i])
		}
	}
	l.on = true
}

// dropPending undoes a hold of Keeps that no Take followed.
func (l *look) dropPending() {
	if l.pend != nil {
		l.undoTo(l.pendLog)
		l.pend = nil
	}
}

// Fits reports whether j can be placed now, after the jobs taken.
func (l *look) Fits(j *sim.Job) bool {
	l.dropPending()
	return l.t.Fits(j)
}

// Take counts j as started now; after Shadow, a j that runs past the
// shadow time also holds its nodes then.
func (l *look) Take(j *sim.Job) {
	if l.pend != j {
		l.dropPending()
	}
	n := len(l.t.takes)
	l.t.Take(j)
	if len(l.t.takes) == n || l.head == nil || l.now+j.Estimate <= l.shadow {
		l.dropPending() // a hold Keeps made for j is not needed
		return
	}
	tk := l.t.takes[n]
	uses := l.t.uses[tk.from:tk.to]
	r := reqOf(j)
	switch {
	case l.simple:
		l.extra -= l.lost(r, uses)
	case l.pend == j:
		l.hpl, l.hok = append(l.hpl[:0], l.pendH...), true
	default:
		l.ah.take(r, uses, &l.alog)
		if !l.hok || overlaps(uses, l.hpl) {
			l.placeHead()
		}
	}
	l.pend = nil
}

// placeHead places the head on ah, in hpl; hok tells whether it fits.
func (l *look) placeHead() bool {
	uses, ok := l.ah.place(l.hr, FirstFit)
	l.hok = ok
	if ok {
		l.hpl = append(l.hpl[:0], uses...)
	}
	return ok
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

// overlaps reports whether two placements, each in node order, share a
// node.
func overlaps(a, b []Use) bool {
	i, k := 0, 0
	for i < len(a) && k < len(b) {
		switch {
		case a[i].Node+a[i].Nodes <= b[k].Node:
			i++
		case b[k].Node+b[k].Nodes <= a[i].Node:
			k++
		default:
			return true
		}
	}
	return false
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

// takeEnd is when take i of the trial ends by its estimate, as the
// shadow walk counts it.
func (l *look) takeEnd(i int) sim.Time {
	return max(l.now+l.t.takes[i].job.Estimate, l.now+1)
}

// Shadow returns the head's shadow time (see sim.Lookahead), walking the
// running jobs and the trial's takes by estimated end; for a head that is
// not simple, it leaves ah at that time and the head's placement in hpl.
func (l *look) Shadow(now sim.Time, head *sim.Job) sim.Time {
	l.dropPending()
	l.undoTo(0)
	l.now, l.head, l.hr = now, head, reqOf(head)
	l.simple = isSimple(l.hr)
	if !l.simple && !l.on {
		l.turnOn()
	}
	l.takes = l.takes[:0]
	for i := l.t.first; i < len(l.t.takes); i++ {
		l.takes = append(l.takes, i)
		if !l.simple {
			tk := l.t.takes[i]
			l.ah.take(reqOf(tk.job), l.t.uses[tk.from:tk.to], &l.alog)
		}
	}
	slices.SortStableFunc(l.takes, func(a, b int) int { return int(l.takeEnd(a) - l.takeEnd(b)) })
	avail := l.c.st.avail
	run := l.c.running
	r, k := 0, 0
	next := func() sim.Time { // the end of the next job of the walk, -1 if none
		switch {
		case r < len(run) && (k == len(l.takes) || max(run[r].EstimatedEnd(), now+1) <= l.takeEnd(l.takes[k])):
			return max(run[r].EstimatedEnd(), now+1)
		case k < len(l.takes):
			return l.takeEnd(l.takes[k])
		}
		return -1
	}
	for end := next(); end >= 0; {
		var j *sim.Job
		var uses []Use
		if r < len(run) && max(run[r].EstimatedEnd(), now+1) == end && (k == len(l.takes) || end <= l.takeEnd(l.takes[k])) {
			j = run[r].Job
			uses = l.c.where[j.Seq]
			r++
		} else {
			tk := l.t.takes[l.takes[k]]
			j, uses = tk.job, l.t.uses[tk.from:tk.to]
			k++
		}
		rq := reqOf(j)
		if l.simple {
			if rq.excl {
				avail += l.wholeCores(uses)
			} else {
				avail += rq.tasks
			}
		} else {
			l.release(rq, uses)
		}
		t := next()
		if t == end {
			continue
		}
		if l.simple && avail >= l.hr.tasks {
			l.shadow, l.extra = end, avail-l.hr.tasks
			return end
		}
		if !l.simple && l.placeHead() {
			l.shadow = end
			return end
		}
		end = t
	}
	// Cannot happen: an admitted job fits the empty cluster (Refuse).
	panic("nodes: the reserved job fits at no estimated end")
}

// release gives back r's nodes on ah, logged.
func (l *look) release(r req, uses []Use) {
	s := &l.ah
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			l.alog = append(l.alog, undo{n, s.cores[n], s.mem[n], s.gpus[n], s.jobs[n], s.held[n]})
		}
	}
	s.release(r, uses)
}

// Keeps reports whether the head still fits at its shadow time with j
// holding, past it, the nodes it gets now. It holds j on ah until the
// next question, so that a Take of j that follows keeps the work.
func (l *look) Keeps(j *sim.Job) bool {
	l.dropPending()
	if l.head == nil {
		return true
	}
	r := reqOf(j)
	if l.simple && !r.excl {
		return r.tasks <= l.extra
	}
	uses, ok := l.placed(j, r)
	if !ok {
		return false
	}
	if l.simple {
		return l.wholeCores(uses) <= l.extra
	}
	pos := len(l.alog)
	l.ah.take(r, uses, &l.alog)
	if !l.hok || overlaps(uses, l.hpl) {
		h, ok := l.ah.place(l.hr, FirstFit)
		if !ok {
			l.undoTo(pos)
			return false
		}
		l.pendH = append(l.pendH[:0], h...)
	} else {
		l.pendH = append(l.pendH[:0], l.hpl...)
	}
	l.pend, l.pendLog = j, pos
	return true
}

// Free returns the free cores, memory and GPUs of the nodes not held
// whole, after the takes. O(nodes).
func (l *look) Free() sim.Resources {
	s := &l.c.st
	var f sim.Resources
	for n := range s.cores {
		if !s.held[n] {
			f[sim.Procs] += s.cores[n]
			f[sim.Memory] += s.mem[n]
			f[sim.GPUs] += s.gpus[n]
		}
	}
	return f
}

// Cost returns what j would take of Free where it fits now; zero if it
// does not fit.
func (l *look) Cost(j *sim.Job) sim.Resources {
	r := reqOf(j)
	if isSimple(r) {
		return sim.Resources{sim.Procs: r.tasks}
	}
	var c sim.Resources
	uses, ok := l.placed(j, r)
	if !ok {
		return c
	}
	s := &l.c.st
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if r.excl {
				c[sim.Procs] += s.cores[n]
				c[sim.Memory] += s.mem[n]
				c[sim.GPUs] += s.gpus[n]
			} else {
				c[sim.Procs] += int64(u.Cores)
				c[sim.Memory] += r.mem
				c[sim.GPUs] += r.gpus
			}
		}
	}
	return c
}
