package nodes

// Most jobs of a data set such as wagap-2013 ask for one node with some
// cores and some memory (PBS nodes=1:ppn=P, mem=M), and a backfilling
// pass asks about many of them: most do not fit, and most of those that
// fit would take the node the head needs at its shadow time (Keeps for
// such a job: shadow_keeps.go). Whether it fits needs no placement.
//
// Such a job fits exactly when some node not held whole has P free cores
// and M free memory. So the state keeps, per core count P, the most free
// memory of a node with at least P usable free cores: one sweep over the
// nodes and the core counts fills it when first asked after the state
// changed (ver); in a pass, where nothing changes between the takes, each
// question is then a lookup. A job with a class (memo.go) is
// answered from the node its class found last and the nodes changed since
// (firstOne), which mostly needs neither the table nor a search; the
// table serves jobs without one and long searches.

// maxOneCores bounds the cores per node of a cluster the table serves.
const maxOneCores = 1024

// oneTab is the table: by core count k, the most free memory of a node
// with at least k usable free cores (-1: none), over all nodes, as of
// state version ver.
type oneTab struct {
	ver uint64
	all []int64
}

// oneOK reports whether the table answers for r: one node of at least one
// core, neither exclusive nor asking GPUs, with no Where on a cluster
// without partitions, whose nodes have at most maxOneCores cores.
func (s *state) oneOK(r req) bool {
	return r.nodes == 1 && !r.excl && r.gpus == 0 && r.per >= 1 && r.per <= s.oneK && s.rs.plain(r.where)
}

// oneAll returns the most free memory of a node with at least k usable
// free cores, -1 if none; 1 ≤ k ≤ s.oneK.
func (s *state) oneAll(k int64) int64 {
	t := s.oneTable()
	if t.ver != s.ver {
		s.fill(t.all, len(s.cores))
		t.ver = s.ver
	}
	return t.all[k]
}

func (s *state) oneTable() *oneTab {
	if s.one == nil {
		s.one = &oneTab{all: make([]int64, s.oneK+1)}
	}
	return s.one
}

// fill makes dst[k] the most free memory of the nodes before limit with
// at least k usable free cores: each node counts at its own free cores,
// then a sweep from the most cores down carries the maximum.
func (s *state) fill(dst []int64, limit int) {
	for k := range dst {
		dst[k] = -1
	}
	for n := range limit {
		// The tree holds a node's usable free cores: 0 when held whole.
		if f := s.tree.v[s.tree.size+n]; f > 0 {
			dst[f] = max(dst[f], s.mem[n])
		}
	}
	for k := len(dst) - 2; k >= 1; k-- {
		dst[k] = max(dst[k], dst[k+1])
	}
}

// oneWalk bounds the nodes oneFits visits before it turns to the table.
const oneWalk = 16

// firstOne returns the first node that holds a job of m's request now,
// one node of per cores and mem memory that oneOK accepts: where first
// fit puts it; -1 if none. m remembers the node and the nodes' change
// and rise numbers then (maxTree.seq, maxTree.up). Between two rises a
// node's free resources only shrink, so a node before the remembered one
// that did not rise since still does not hold the request: the first is
// the first of the nodes that rose since and hold it now, before the
// remembered one, else the remembered node if it still holds it, and only
// else a search from the node after it. A class's questions thus mostly
// cost a look at the few nodes given back since it last asked, within a
// trial and across trials.
func (l *look) firstOne(m *memo, per, mem int64) int {
	if m.oneAt == l.c.st.tree.seq { // nothing changed since: mostly Keeps and Take after Fits
		return m.one
	}
	return l.firstOneSince(m, per, mem)
}

// firstOneSince is firstOne when a node may have changed since m's answer.
func (l *look) firstOneSince(m *memo, per, mem int64) int {
	s := &l.c.st
	t := &s.tree
	from := 0
	if m.oneAt != 0 && t.up-m.oneUp <= logSize {
		n := m.one
		if n < 0 {
			n = len(s.cores)
		}
		first := n
		for i := m.oneUp; i < t.up; i++ {
			if c := int(t.rises[uint8(i)]); c < first && s.holdsOne(c, per, mem) {
				first = c
			}
		}
		if first < n || n == len(s.cores) || s.holdsOne(n, per, mem) {
			if first == len(s.cores) {
				first = -1
			}
			m.one, m.oneAt, m.oneUp = first, t.seq, t.up
			return first
		}
		from = n + 1
	}
	n := s.firstFrom(from, per, mem)
	m.one, m.oneAt, m.oneUp = n, t.seq, t.up
	return n
}

// holdsOne reports whether node n holds a job of one node of per cores
// and mem memory that oneOK accepts, now: its usable free cores (the
// tree's leaf, 0 when held whole) and its memory are enough.
func (s *state) holdsOne(n int, per, mem int64) bool {
	return s.tree.v[s.tree.size+n] >= per && s.mem[n] >= mem
}

// firstFrom returns the first node from from that holds a job of one node
// of per cores and mem memory, which oneOK accepts, now; -1 if none. It
// visits the nodes with enough free cores in node order; when it has
// passed oneWalk of them without enough memory, the table says whether
// any node holds the job.
func (s *state) firstFrom(from int, per, mem int64) int {
	n, k := s.tree.next(from, per), 0
	for n >= 0 && s.mem[n] < mem {
		if k++; k == oneWalk && s.oneAll(per) < mem {
			return -1
		}
		n = s.tree.next(n+1, per)
	}
	return n
}

// oneFits reports whether a job of request r, which oneOK accepts, can be
// placed now, for a job without a memo (firstOne answers for the others).
// It first visits the nodes with enough free cores, in node order, for one
// with enough memory: the answer is mostly found at the first such node,
// or at once when none has the cores, where filling the table costs a
// sweep of all nodes. Past oneWalk nodes it asks the table.
func (l *look) oneFits(r req) bool {
	s := &l.c.st
	k := 0
	for n := s.tree.next(0, r.per); n >= 0; n = s.tree.next(n+1, r.per) {
		if s.mem[n] >= r.mem {
			return true
		}
		if k++; k == oneWalk {
			return r.mem <= s.oneAll(r.per)
		}
	}
	return false
}
