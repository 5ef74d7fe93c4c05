package nodes

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// takeEnd is when take i of the trial ends by its estimate, as the
// shadow walk counts it.
func (l *look) takeEnd(i int) sim.Time {
	return max(l.now+l.t.takes[i].job.Estimate, l.now+1)
}

// Shadow returns the head's shadow time (see sim.Lookahead), walking the
// running jobs and the trial's takes by estimated end; for a head that is
// not simple, it leaves ah as the nodes are at that time.
//
// A walk for the same head on nodes that have not changed since the last
// walk (no take, end or undo: the state's version is the one recorded; no
// start but those of the takes Take counted, see Take; no end but those
// keptAfterEnd counted) finds the same shadow time, and leaves ah as the
// last one did with those takes laid and those ends given back, so it is
// skipped, unless that time was now+1 or earlier: ends not after now
// count as now+1, so that time moves with now. Any later time is the end
// of the same running job, reached after the same ones. EASY on
// wagap-2013's nodes walks for 1,486 of its 18,713 questions (11,643
// when every end meant a new walk): its head is mostly a job of one node
// that waits for a late end, and most jobs end before that one.
//
// Keeps's remembered answers (memo.go) are keyed by sgen and the state's
// version; a skipped walk leaves sgen alone, since the head, ah and the
// head's sum are the last walk's, and whatever changed ah since (a take,
// an end) changed the version too.
//
// The walk itself is in shadow_walk.go. Under tests, verify compares each
// answer with a plain walk from scratch (TestShadowAgainstWalk).
func (l *look) Shadow(now sim.Time, head *sim.Job) sim.Time {
	if l.verify == nil {
		return l.shadowOf(now, head)
	}
	kept := head == l.shead && l.c.st.ver == l.sver && l.shadow > now+1
	t := l.shadowOf(now, head)
	l.verify(now, head, t, kept)
	return t
}

// shadowOf is Shadow without the tests' check.
func (l *look) shadowOf(now sim.Time, head *sim.Job) sim.Time {
	if head == l.shead && l.c.st.ver == l.sver && l.shadow > now+1 {
		l.now, l.head = now, head
		return l.shadow
	}
	l.ms.sgen++ // Keeps's answers hold no longer (memo.go)
	l.sver, l.shead = l.c.st.ver, head
	l.now, l.head, l.hr = now, head, reqOf(head)
	l.hplain = l.c.st.rs.plain(l.hr.where)
	l.simple = l.anywhere(l.hr)
	l.need = l.hr.tasks
	l.limited = l.hr.nodes == 0 && l.c.st.maxNodes(l.hr) > 0
	if l.hr.nodes > 0 {
		l.need = l.hr.nodes
	}
	l.takes = l.takes[:0]
	for i := l.t.first; i < len(l.t.takes); i++ {
		l.takes = append(l.takes, i)
	}
	slices.SortStableFunc(l.takes, func(a, b int) int { return cmp.Compare(l.takeEnd(a), l.takeEnd(b)) })
	if l.simple {
		return l.walkCores(now)
	}
	return l.walkNodes(now)
}

// Keeps reports whether the head still fits at its shadow time with j
// holding, past it, the nodes it gets now: the head's sum changes on
// those nodes only.
func (l *look) Keeps(j *sim.Job) bool {
	if l.head == nil {
		return true
	}
	m := l.known(j)
	if m != nil {
		if keep, ok := l.keepsMemo(m); ok {
			return keep
		}
	}
	return l.noteKeeps(m, l.keeps(m, j))
}

// keeps is Keeps worked out; m is j's memo, nil if none.
func (l *look) keeps(m *memo, j *sim.Job) bool {
	r := reqOf(j)
	if l.simple && !r.excl {
		return r.tasks <= l.extra
	}
	if !l.simple && l.c.st.oneOK(r) {
		if keeps, ok := l.keepsNode(m, r); ok {
			return keeps
		}
	}
	uses, ok := l.placed(j, r)
	if !ok {
		return false
	}
	if l.simple {
		return l.wholeCores(uses) <= l.extra
	}
	sum := l.meas
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			sum += l.partWith(n, r, int64(u.Cores)) - l.part(n)
		}
	}
	if sum < l.need || !l.limited {
		return sum >= l.need
	}
	mark := len(l.alog) // lay j on ah for the placement, then lift it
	l.ah.take(r, uses, &l.alog)
	ok = l.headPlaces()
	l.undoTo(mark)
	return ok
}

// headPlaces reports whether the head can be placed on ah. The head's sum
// says so for every head but one: a tasks head that its partition limits
// to a number of nodes may have the cores it needs on more nodes than it
// may use, so for it the placement is tried.
func (l *look) headPlaces() bool {
	if !l.limited {
		return true
	}
	_, ok := l.ah.place(l.hr, l.c.fit)
	return ok
}

// Full reports whether no usable core is free, after the takes.
func (l *look) Full() bool { return l.c.st.avail == 0 }

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
	if l.c.st.simple(r) {
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
