package nodes

// After a job ends, a backfilling pass asked again about every class Fits
// refused while no job ended, though an end gives back only its own nodes
// (on wagap-2013's nodes, EASY's class pass asked Fits 74,801 times; with
// Revived, 29,203: callgrind's call counts, sim/README.md). Revived answers for a class from the nodes
// that rose since Fits refused it: between two rises every node's free
// resources only shrink (a take; on a cluster that keeps memos, no
// partition limits a job's nodes, so a take never lets a request fit),
// so a placement now on nodes that did not rise would have been one then.

// Revived reports whether a job of class c may fit now (sim.Revivals):
// false when Fits refused the class when last asked and no node that rose
// since can take a part of it (one node's share of a request of nodes,
// the whole of one of one node); for a class of cores anywhere, whether
// the free cores are enough; for the others, whether any node rose.
func (l *look) Revived(c int) bool {
	if c < 0 || c >= len(l.ms.m) || l.ms.off {
		return true
	}
	m := &l.ms.m[c]
	s := &l.c.st
	t := &s.tree
	switch {
	case m.kind == kindAnywhere:
		return m.r.tasks <= s.avail // Fits's own answer
	case m.noAt == 0:
		return true // Fits accepted it last, or was not asked
	case m.noAt == t.up:
		return false
	case m.kind == kindPlaced, t.up-m.noAt > logSize:
		return true
	}
	if m.kind == kindOne { // holdsShare for what oneOK accepts
		per, mem := m.r.per, m.r.mem
		for i := m.noAt; i < t.up; i++ {
			if s.holdsOne(int(t.rises[uint8(i)]), per, mem) {
				return true
			}
		}
	} else {
		for i := m.noAt; i < t.up; i++ {
			if s.holdsShare(uint(t.rises[uint8(i)]), &m.r) {
				return true
			}
		}
	}
	m.noAt = t.up // still refused now
	return false
}
