package nodes

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// ShadowCounts counts the answers of Shadow that CheckShadows compared:
// all of them, and those given without a walk (the last walk kept).
type ShadowCounts struct{ Calls, Kept int }

// CheckShadows makes c's look-ahead compare every answer of Shadow, and
// the nodes it leaves at the shadow time, with those of a walk from
// scratch on a fresh look-ahead, telling f of each difference.
func CheckShadows(c *Cluster, f func(error)) *ShadowCounts {
	n := &ShadowCounts{}
	l := &c.lk
	l.verify = func(now sim.Time, head *sim.Job, got sim.Time, kept bool) {
		n.Calls++
		if kept {
			n.Kept++
		}
		p := &look{c: c, t: l.t}
		p.ms.newGen()
		want := p.plainShadow(now, head)
		if err := sameWalk(l, p, got, want); err != nil {
			f(fmt.Errorf("t=%d head %d (kept %v): %w", now, head.ID, kept, err))
		}
	}
	return n
}

// sameWalk reports how l's answer got and what it left differ from the
// plain walk p's.
func sameWalk(l, p *look, got, want sim.Time) error {
	switch {
	case got != want:
		return fmt.Errorf("shadow time %d, the walk says %d", got, want)
	case p.simple:
		if l.extra != p.extra {
			return fmt.Errorf("extra %d, the walk says %d", l.extra, p.extra)
		}
		return nil
	case l.meas != p.meas:
		return fmt.Errorf("head's sum %d, the walk says %d", l.meas, p.meas)
	}
	a, b := &l.ah, &p.ah
	if !slices.Equal(a.cores, b.cores) || !slices.Equal(a.mem, b.mem) || !slices.Equal(a.gpus, b.gpus) ||
		!slices.Equal(a.jobs, b.jobs) || !slices.Equal(a.held, b.held) || !slices.Equal(a.tree.v, b.tree.v) || a.avail != b.avail {
		return fmt.Errorf("nodes at the shadow time %v %v %v, the walk's %v %v %v", a.cores, a.mem, a.held, b.cores, b.mem, b.held)
	}
	return nil
}

// plainShadow is the shadow walk at its plainest, for the tests to
// compare with: every job given back through release, which keeps ah's
// tree, and nothing kept from a walk before.
func (l *look) plainShadow(now sim.Time, head *sim.Job) sim.Time {
	l.now, l.head, l.hr = now, head, reqOf(head)
	l.hplain = l.c.st.rs.plain(l.hr.where)
	l.simple = l.anywhere(l.hr)
	l.need = l.hr.tasks
	l.limited = l.hr.nodes == 0 && l.c.st.maxNodes(l.hr) > 0
	if l.hr.nodes > 0 {
		l.need = l.hr.nodes
	}
	if !l.simple {
		l.rebuild()
		l.meas = l.measure()
	}
	var takes []int
	for i := l.t.first; i < len(l.t.takes); i++ {
		takes = append(takes, i)
	}
	slices.SortStableFunc(takes, func(a, b int) int { return cmp.Compare(l.takeEnd(a), l.takeEnd(b)) })
	type end struct {
		at   sim.Time
		job  *sim.Job
		uses []Use
	}
	var all []end
	for _, a := range l.c.running {
		all = append(all, end{max(a.EstimatedEnd(), now+1), a.Job, l.c.where[a.Job.Seq]})
	}
	for _, i := range takes {
		tk := l.t.takes[i]
		all = append(all, end{l.takeEnd(i), tk.job, l.t.uses[tk.from:tk.to]})
	}
	slices.SortStableFunc(all, func(a, b end) int { return cmp.Compare(a.at, b.at) })
	avail := l.c.st.avail
	for i, e := range all {
		rq := reqOf(e.job)
		switch {
		case !l.simple:
			before := l.parts(e.uses) // state.release, and the head's sum with it
			l.ah.release(rq, e.uses)
			l.meas += l.parts(e.uses) - before
		case rq.excl:
			avail += l.wholeCores(e.uses)
		default:
			avail += rq.tasks
		}
		switch {
		case i+1 < len(all) && all[i+1].at == e.at:
		case l.simple && avail >= l.need:
			l.extra = avail - l.need
			return e.at
		case !l.simple && l.meas >= l.need && l.headPlaces():
			return e.at
		}
	}
	panic("nodes: the reserved job fits at no estimated end")
}

// PlainKeeps is Keeps worked out from scratch on c's look-ahead: j placed
// now as the cluster's fit places it, laid on a copy of the nodes at the
// shadow time, and the head placed there. It changes nothing, not even the
// placement a take would use (the state's scratch).
func PlainKeeps(c *Cluster, j *sim.Job) bool {
	l := &c.lk
	if l.head == nil {
		return true
	}
	s := &c.st
	saved := slices.Clone(s.scratch)
	r := reqOf(j)
	uses, ok := s.place(r, c.fit)
	uses = slices.Clone(uses)
	s.scratch = append(s.scratch[:0], saved...)
	switch {
	case !ok:
		return false
	case l.simple:
		return l.lost(r, uses) <= l.extra
	}
	a := l.ah
	at := state{cap: a.cap, cores: slices.Clone(a.cores), mem: slices.Clone(a.mem), gpus: slices.Clone(a.gpus),
		jobs: slices.Clone(a.jobs), held: slices.Clone(a.held), tree: a.tree.clone(),
		avail: a.avail, grp: a.grp, rs: a.rs}
	at.take(r, uses, nil)
	_, ok = at.place(l.hr, c.fit)
	return ok
}
