package nodes

// Most jobs of a data set such as wagap-2013 ask for one node with some
// cores and some memory (PBS nodes=1:ppn=P, mem=M), and a backfilling
// pass asks about many of them: most do not fit, and most of those that
// fit would take the node the head needs at its shadow time. Both
// questions have answers that need no placement.
//
// Such a job fits exactly when some node not held whole has P free cores
// and M free memory, and first fit puts it on node c exactly when c holds
// it and no node before c does. So the state keeps, per core count P, the
// most free memory of a node with at least P usable free cores, over all
// nodes and over those before one node c, computed on first use and valid
// until the state changes (ver) or c does: in a pass, where nothing
// changes between the takes, each question is a lookup.
//
// For the head's side (look.crit): when the head asks for one node, the
// head's sum at the shadow time counts the nodes that could hold it then.
// A job of one node changes the sum on its node alone, by at most one; so
// with two or more such nodes it always keeps the head, and with exactly
// one, c, it keeps the head unless first fit puts it on c and c can no
// longer hold the head with it there.

// maxOneCores bounds the core counts the table answers for.
const maxOneCores = 256

// oneMem is the table's entry for one core count as of state version
// ver: the most free memory of a node with at least that many usable free
// cores (-1: none), and the same over the nodes before node crit.
type oneMem struct {
	ver         uint64
	crit        int
	all, before int64
}

// oneOK reports whether the table answers for r: one node of at least one
// core, neither exclusive nor asking GPUs, with no Where on a cluster
// without partitions.
func (s *state) oneOK(r req) bool {
	return r.nodes == 1 && !r.excl && r.gpus == 0 && r.per >= 1 && r.per <= maxOneCores && s.rs.plain(r.where)
}

// oneEntry returns the table's entry for r.per, with before taken over
// the nodes before crit (any value when crit < 0). Call it only when
// oneOK(r).
func (s *state) oneEntry(r req, crit int) *oneMem {
	if s.one == nil {
		s.one = make([]oneMem, maxOneCores+1)
	}
	e := &s.one[r.per]
	if e.ver != s.ver || crit >= 0 && e.crit != crit {
		all, before := int64(-1), int64(-1)
		// The tree holds 0 for a node held whole, so every node it
		// yields is usable by r but for its memory.
		for n := s.tree.next(0, r.per); n >= 0; n = s.tree.next(n+1, r.per) {
			all = max(all, s.mem[n])
			if n < crit {
				before = all
			}
		}
		*e = oneMem{ver: s.ver, crit: crit, all: all, before: before}
	}
	return e
}

// critNone and critSlack are look.crit's values other than a node: no
// shortcut, and a head that any job of one node keeps.
const (
	critNone  = -1
	critSlack = -2
	critStale = -3 // not worked out since the head's sum last changed
)

// critical works out look.crit for the head on ah.
func (l *look) critical() int {
	if l.head == nil || l.simple || l.hr.nodes != 1 {
		return critNone
	}
	if l.meas > l.need {
		return critSlack
	}
	k := max(l.hr.per, 1)
	for n := l.ah.tree.next(0, k); n >= 0; n = l.ah.tree.next(n+1, k) {
		if l.part(n) > 0 {
			return n
		}
	}
	return critNone // cannot happen: meas counts one such node
}

// keepsOne answers Keeps for a job j of one node that oneOK accepts, when
// look.crit gives a shortcut; ok false: it does not.
func (l *look) keepsOne(r req) (keeps, ok bool) {
	if l.crit == critStale {
		l.crit = l.critical()
	}
	switch {
	case l.crit == critSlack:
		return true, true
	case l.crit < 0 || l.c.fit != FirstFit:
		return false, false
	}
	c, s := l.crit, &l.c.st
	e := s.oneEntry(r, c)
	onC := e.before < r.mem && s.tree.v[s.tree.size+c] >= r.per && s.mem[c] >= r.mem
	if !onC {
		return true, true
	}
	return l.partWith(c, r, r.per) > 0, true
}

// oneFits reports whether a job of request r, which oneOK accepts, can be
// placed now.
func (l *look) oneFits(r req) bool { return r.mem <= l.c.st.oneEntry(r, -1).all }
