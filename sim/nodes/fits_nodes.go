package nodes

import "math/bits"

// Jobs of several nodes, or of one node held whole, ask each node they use
// for the same: usable free cores, memory and GPUs enough for their share,
// no other job if exclusive, and a node their Where allows. Whether such
// a job fits is whether enough nodes do that; first fit takes the first
// of them. On wagap-2013 most such jobs do not fit when a pass asks, and
// finding that out by placing them visited every node with the cores.
//
// So a class of such requests (kindNodes) keeps the set of nodes that
// hold its share, as a bitset with its count, as of the nodes' change
// number (maxTree.log): a node that has not changed since holds the share
// or not as it did, so bringing the set up to date looks at the nodes
// changed since alone. The set is filled afresh the first time and when
// the log no longer holds every change since; to keep that cheap, only
// clusters of at most maxSetNodes nodes keep sets.

// maxSetNodes bounds the nodes of a cluster whose classes keep node sets.
const maxSetNodes = 1024

// nodeSet is a kindNodes class's set of nodes that hold its share.
type nodeSet struct {
	bits []uint64 // by node
	n    int64    // nodes in bits
	at   uint64   // the change number it is as of; 0: never filled
}

// setOK reports whether a class of request r keeps a node set: a request
// of nodes, at least one core on each, on a cluster small enough.
func (s *state) setOK(r req) bool {
	return r.nodes >= 1 && r.per >= 1 && len(s.cores) <= maxSetNodes
}

// holdsShare reports whether node n can take a node's share of r now:
// as state.usable, with the usable free cores in the tree's leaf.
func (s *state) holdsShare(n uint, r *req) bool {
	return s.tree.v[uint(s.tree.size)+n] >= r.per && (!r.excl || s.jobs[n] == 0) && s.mem[n] >= r.mem &&
		s.gpus[n] >= r.gpus && (s.rs.plain(r.where) || s.may(int(n), *r))
}

// holding returns how many nodes can take a share of m's request now,
// bringing m's node set up to date.
func (l *look) holding(m *memo) int64 {
	s, ns := &l.c.st, &m.set
	t := &s.tree
	if ns.at == 0 || t.seq-ns.at > logSize {
		l.fillSet(m)
		return ns.n
	}
	r, plain := &m.r, s.rs.plain(m.r.where)
	for i := ns.at; i < t.seq; i++ {
		n := uint(t.log[uint8(i)])
		w, b := &ns.bits[n/64], uint64(1)<<(n%64)
		// holdsShare, written out, with plain worked out once
		now := t.v[uint(t.size)+n] >= r.per && (!r.excl || s.jobs[n] == 0) &&
			s.mem[n] >= r.mem && s.gpus[n] >= r.gpus && (plain || s.may(int(n), *r))
		if now != (*w&b != 0) {
			*w ^= b
			if now {
				ns.n++
			} else {
				ns.n--
			}
		}
	}
	ns.at = t.seq
	return ns.n
}

// fillSet fills m's node set afresh, visiting the nodes with the cores.
func (l *look) fillSet(m *memo) {
	s, ns := &l.c.st, &m.set
	if ns.bits == nil {
		ns.bits = make([]uint64, (len(s.cores)+63)/64)
	}
	clear(ns.bits)
	ns.n = 0
	for n := s.tree.next(0, m.r.per); n >= 0; n = s.tree.next(n+1, m.r.per) {
		if s.holdsShare(uint(n), &m.r) {
			ns.bits[n/64] |= 1 << (n % 64)
			ns.n++
		}
	}
	ns.at = s.tree.seq
}

// count counts the nodes in the set's bits (tests check n by it).
func (ns *nodeSet) count() int64 {
	var c int
	for _, w := range ns.bits {
		c += bits.OnesCount64(w)
	}
	return int64(c)
}
