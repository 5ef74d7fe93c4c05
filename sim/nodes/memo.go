package nodes

import (
	"github.com/schedsweep/schedsweep/sim"
)

// A backfilling pass asks Fits and Keeps of every waiting job, and on a
// machine such as wagap-2013 the queue holds hundreds of jobs but only a
// handful of distinct requests (sim.Where is shared among the jobs that
// ask the same, so a req is comparable as a value). Both answers depend on
// the job's request and the nodes alone, so the trial remembers them per
// request (a class):
//
//   - Fits: yes holds while the nodes do not change (state version); no
//     holds for the rest of the trial, since a trial's takes only shrink
//     what is free and fewer free resources never let a request fit.
//   - Keeps: its answer holds while the nodes now and at the shadow time
//     do not change: the state version (each take, start and end moves
//     it) and the shadow walk (sgen, which moves only when Shadow walks
//     anew), across trials.
//
// One kind of request breaks "no holds": a tasks job that its partition
// limits to a number of nodes may fit after a take that makes an early
// node unusable to it (firstTasks counts only usable nodes towards the
// limit). A cluster with such a partition keeps no memo at all, so its
// answers are as without one; the look's list of failed requests leaves
// such requests out (Fits), and the cluster tells policies that a no
// from Fits need not hold after a take (Monotone).
//
// Jobs of cores anywhere (look.anywhere) are answered from a counter and
// get no class.

// classed is a waiting job's class, by Seq; job is the job it was worked
// out for, so a Job of the same Seq from elsewhere is not mistaken for it.
type classed struct {
	job *sim.Job
	cls int32
}

// memo is one class's request and kind, and its remembered answers, each
// with the generation and state version it was found at (gen 0: none).
type memo struct {
	r                req
	kind             uint8
	fitGen, fitVer   uint64
	keepGen, keepVer uint64
	fit, keep        bool
	// one is the first node that holds the request (-1: none) as of the
	// nodes' change number oneAt (0: not known) and rise number oneUp
	// (firstOne, onenode.go).
	one          int
	oneAt, oneUp uint64
	set          nodeSet // kindNodes
	// noAt is the nodes' rise count (maxTree.up) when Fits last refused
	// the class, 0 if its last answer was yes or none (Revived).
	noAt uint64
}

// A class's kind says how Fits answers for it: from the count of free
// cores (look.anywhere), from the lookups of one node (state.oneOK), from
// its set of nodes that hold its share, placing it only if they are
// enough (state.setOK), or by placing the job. None of this depends on
// the nodes, so it is worked out once per class.
const (
	kindPlaced = iota
	kindAnywhere
	kindOne
	kindNodes // a node set (fits_nodes.go), then placed if it holds enough
)

// memos is the look's memory of answers by class.
type memos struct {
	off bool          // the cluster has node-limited partitions: no memo
	ids map[req]int32 // requests with a Where; nil until init
	tab classTable    // the others (fits_classes.go)
	// last is the class+1 of the last request without a Where looked
	// up (0: none): jobs that arrive one after another often ask the
	// same, and comparing with it costs less than hashing.
	last int32
	of   []classed // by Seq
	m    []memo    // by class
	// tgen changes with every new trial and every start or end on the
	// cluster (a Fits no holds within one); sgen with every shadow walk
	// that walks (a Keeps answer holds while the nodes, by the state's
	// version, and the walk are the same, across trials too: a walk is
	// kept only for the same head on nodes of the same version).
	tgen, sgen uint64
}

// newGen starts a new trial's memory (Trial, Apply, Advance). Keeps's
// answers need no new generation: a start or an end changes the state's
// version, which they are keyed by too.
func (ms *memos) newGen() { ms.tgen++ }

// init works out once whether the cluster keeps a memo.
func (ms *memos) init(rs *rules) {
	if ms.ids != nil {
		return
	}
	for _, p := range rs.parts {
		ms.off = ms.off || p.MaxNodes > 0
	}
	ms.ids = map[req]int32{}
}

// classID returns the class of j, of request r, assigning it on first
// sight; -1 for a job without a sequence number.
func (l *look) classID(j *sim.Job, r req) int32 {
	ms := &l.ms
	ms.init(l.c.st.rs)
	if j.Seq < 0 {
		return -1
	}
	var id int32
	if r.where == nil {
		if id = ms.last - 1; id < 0 || !sameReq(&ms.m[id].r, &r) {
			if id = ms.tab.find(ms.m, &r); id < 0 {
				id = l.newClass(r)
				ms.tab.add(ms.m, id)
			}
			ms.last = id + 1
		}
	} else {
		var ok bool
		if id, ok = ms.ids[r]; !ok {
			id = l.newClass(r)
			ms.ids[r] = id
		}
	}
	if j.Seq >= len(ms.of) {
		ms.of = growBySeq(ms.of, j.Seq)
	}
	ms.of[j.Seq] = classed{job: j, cls: id}
	return id
}

// newClass makes a class for request r and returns it.
func (l *look) newClass(r req) int32 {
	l.ms.m = append(l.ms.m, memo{r: r, kind: l.kindOf(r)})
	return int32(len(l.ms.m) - 1)
}

// kindOf works out the kind of a class of request r.
func (l *look) kindOf(r req) uint8 {
	switch {
	case l.anywhere(r):
		return kindAnywhere
	case l.c.st.oneOK(r):
		return kindOne
	case l.c.st.setOK(r):
		return kindNodes
	}
	return kindPlaced
}

// class returns j's memo, assigning j a class on first sight, or nil when
// the cluster keeps no memo.
func (l *look) class(j *sim.Job, r req) *memo {
	id := l.classID(j, r)
	if id < 0 || l.ms.off {
		return nil
	}
	return &l.ms.m[id]
}

// known returns j's memo if j has a class and the cluster keeps a memo,
// else nil.
func (l *look) known(j *sim.Job) *memo {
	if s := j.Seq; s >= 0 && s < len(l.ms.of) && l.ms.of[s].job == j && !l.ms.off {
		return &l.ms.m[l.ms.of[s].cls]
	}
	return nil
}

// Class returns j's request class (sim.Classes): jobs of one class ask
// the same of the nodes, so Fits, Keeps and Cost answer the same for them
// while the trial takes nothing and the head stays. On a cluster that
// keeps no memo it classes nothing (-1): there Fits's list of failed
// requests can answer two jobs of one request differently.
func (l *look) Class(j *sim.Job) int {
	if s := j.Seq; s >= 0 && s < len(l.ms.of) && l.ms.of[s].job == j && !l.ms.off {
		return int(l.ms.of[s].cls)
	}
	if l.ms.init(l.c.st.rs); l.ms.off {
		return -1
	}
	return int(l.classID(j, reqOf(j)))
}

// fitsMemo returns Fits's remembered answer for m, ok false if none.
func (l *look) fitsMemo(m *memo) (fit, ok bool) {
	if m.fitGen != l.ms.tgen {
		return false, false
	}
	if !m.fit {
		return false, true
	}
	return true, m.fitVer == l.c.st.ver
}

func (l *look) noteFits(m *memo, fit bool) bool {
	if m != nil {
		m.fitGen, m.fitVer, m.fit = l.ms.tgen, l.c.st.ver, fit
		m.noAt = 0
		if !fit {
			m.noAt = l.c.st.tree.up
		}
	}
	return fit
}

// keepsMemo returns Keeps's remembered answer for m, ok false if none.
func (l *look) keepsMemo(m *memo) (keep, ok bool) {
	return m.keep, m.keepGen == l.ms.sgen && m.keepVer == l.c.st.ver
}

func (l *look) noteKeeps(m *memo, keep bool) bool {
	if m != nil {
		m.keepGen, m.keepVer, m.keep = l.ms.sgen, l.c.st.ver, keep
	}
	return keep
}
