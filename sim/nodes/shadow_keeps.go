package nodes

// Keeps for a job of one node under first fit, the question a backfilling
// pass on wagap-2013's nodes asks most: the head's sum at the shadow time
// changes on the job's node c alone, and first fit's c is known (firstOne,
// which Fits has just asked for the same request). So the answer is the
// sum with c's part once the job holds its cores there too, in place of
// c's part now: for a head of nodes, a node that holds one of them keeps
// doing so exactly when its spare cores, memory and GPUs at the shadow
// time, beyond the head's share, hold the job too (beside).

// keepsNode answers keeps for a job of request r, which oneOK accepts, of
// memo m; ok false when the shortcut does not apply: a limited head (whose
// placement may need other nodes), or a head that the job may leave
// without its last node and either not first fit, no memo or no node that
// holds the job.
func (l *look) keepsNode(m *memo, r req) (keeps, ok bool) {
	switch {
	case l.limited:
		return false, false
	case l.hr.nodes > 0 && l.meas > l.need: // one node's part is 1 at most
		return true, true
	case m == nil || l.c.fit != FirstFit:
		return false, false
	}
	c := l.firstOne(m, r.per, r.mem)
	switch {
	case c < 0:
		return false, false
	case l.hr.nodes == 0: // a tasks head: c's part is its free cores
		return l.meas+l.partWith(c, r, r.per)-l.part(c) >= l.need, true
	case !l.holds(c): // c adds nothing to the sum, with the job or without
		return l.meas >= l.need, true
	}
	return l.beside(c, r), true
}

// beside reports whether node c of ah, which holds one node of the head
// (holds), still does with a job of request r there too, which oneOK
// accepts (one node, neither exclusive nor asking GPUs): partWith for
// such a head, whose checks on the node's group and whole-node hold
// holds has made.
func (l *look) beside(c int, r req) bool {
	a, h := &l.ah, &l.hr
	return !h.excl && a.cores[c]-r.per >= h.per && a.mem[c]-r.mem >= h.mem && a.gpus[c] >= h.gpus
}
