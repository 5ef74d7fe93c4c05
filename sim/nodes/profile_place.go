package nodes

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// placeAt finds r's placement among the nodes as they are over [t, end)
// by the cluster's fit rule, the rules of state.place with each node's
// least free resources over the interval (win) for its free resources
// now; the slice is p's scratch.
func (p *Profile) placeAt(r req, t, end sim.Time) ([]Use, bool) {
	p.uses = p.uses[:0]
	fit := p.c.fit
	switch {
	case r.nodes > 0 && fit == BestFit:
		return p.bestNodesAt(r, t, end)
	case r.nodes > 0:
		return p.firstNodesAt(r, t, end)
	case fit == BestFit:
		if n := p.bestOneAt(r, t, end); n >= 0 {
			p.uses = appendUse(p.uses, n, r.tasks)
			return p.uses, true
		}
	}
	return p.firstTasksAt(r, t, end)
}

// appendUse puts cores on node n at the end of uses, extending its last
// run when n follows it with as many cores (state.add).
func appendUse(uses []Use, n int, cores int64) []Use {
	if k := len(uses) - 1; k >= 0 {
		if u := &uses[k]; int(u.Node+u.Nodes) == n && int64(u.Cores) == cores {
			u.Nodes++
			return uses
		}
	}
	return append(uses, Use{Node: int32(n), Nodes: 1, Cores: int32(cores)})
}

func (p *Profile) firstNodesAt(r req, t, end sim.Time) ([]Use, bool) {
	got := int64(0)
	for n := range p.node {
		if w, ok := p.winAtLeast(n, t, end, r.per); ok && p.usableWin(n, w, r) {
			p.uses = appendUse(p.uses, n, r.per)
			if got++; got == r.nodes {
				return p.uses, true
			}
		}
	}
	return nil, false
}

func (p *Profile) firstTasksAt(r req, t, end sim.Time) ([]Use, bool) {
	need, lim, used := r.tasks, p.c.st.maxNodes(r), int64(0)
	for n := range p.node {
		if p.fullAt(n, t) {
			continue
		}
		if w, ok := p.winAtLeast(n, t, end, 1); ok && p.usableWin(n, w, r) {
			if used++; lim > 0 && used > lim {
				return nil, false
			}
			take := min(w.cores, need)
			p.uses = appendUse(p.uses, n, take)
			if need -= take; need == 0 {
				return p.uses, true
			}
		}
	}
	return nil, false
}

// bestOneAt returns the usable node that holds all of r's tasks with the
// fewest cores left, the first such in node order; -1 if none.
func (p *Profile) bestOneAt(r req, t, end sim.Time) int {
	best, left := -1, int64(0)
	for n := range p.node {
		if w, ok := p.winAtLeast(n, t, end, r.tasks); ok && p.usableWin(n, w, r) && (best < 0 || w.cores < left) {
			best, left = n, w.cores
		}
	}
	return best
}

func (p *Profile) bestNodesAt(r req, t, end sim.Time) ([]Use, bool) {
	p.cand = p.cand[:0]
	for n := range p.node {
		if w, ok := p.winAtLeast(n, t, end, r.per); ok && p.usableWin(n, w, r) {
			p.cand = append(p.cand, cand{n, w.cores - r.per})
		}
	}
	if int64(len(p.cand)) < r.nodes {
		return nil, false
	}
	slices.SortFunc(p.cand, func(a, b cand) int { return cmp.Or(cmp.Compare(a.left, b.left), cmp.Compare(a.node, b.node)) })
	best := p.cand[:r.nodes]
	slices.SortFunc(best, func(a, b cand) int { return cmp.Compare(a.node, b.node) })
	for _, c := range best {
		p.uses = appendUse(p.uses, c.node, r.per)
	}
	return p.uses, true
}

// earliestNodes returns the earliest time at or after from at which r, a
// nodes × per-node request, can be placed for d seconds, its placement in
// p.uses; -1 if never. Each node has its own earliest start from a time
// (nodeStart); no time before the r.nodes-th smallest of them can hold
// r.nodes nodes. If that time cannot either (some of those nodes are free
// from their start, but not for d seconds from it), the search goes on
// from it, where at least one of them now starts later.
func (p *Profile) earliestNodes(r req, from, d sim.Time) sim.Time {
	t := from
	for {
		kth := p.kthStart(r, t, d)
		if kth < 0 {
			return -1
		}
		if _, ok := p.placeAt(r, kth, kth+d); ok {
			return kth
		}
		if kth == t {
			panic("nodes: the nodes' own starts disagree with the placement") // broken invariant
		}
		t = kth
	}
}

// kthStart returns the r.nodes-th smallest of the nodes' earliest starts
// at or after t for d seconds, -1 if fewer nodes can ever hold r.
func (p *Profile) kthStart(r req, t, d sim.Time) sim.Time {
	k := int(r.nodes)
	p.starts = p.starts[:0]
	for n := range p.node {
		limit := sim.Time(-1)
		if len(p.starts) == k {
			limit = p.starts[k-1]
		}
		e := p.nodeStart(n, r, t, d, limit)
		if e < 0 || limit >= 0 && e >= limit {
			continue
		}
		i, _ := slices.BinarySearch(p.starts, e)
		if len(p.starts) == k {
			p.starts = p.starts[:k-1]
		}
		p.starts = slices.Insert(p.starts, i, e)
	}
	if len(p.starts) < k {
		return -1
	}
	return p.starts[k-1]
}

// nodeStart returns the earliest time at or after from at which node n
// alone holds one node of r (a node r may use: per cores, its memory and
// GPUs, not held whole, idle if r is exclusive) for d seconds; -1 if never, or if not
// before limit (≥ 0).
func (p *Profile) nodeStart(n int, r req, from, d, limit sim.Time) sim.Time {
	if !p.c.st.may(n, r) {
		return -1
	}
	st := p.node[n]
	cand := sim.Time(-1)
	for i := findStep(st, from); i < len(st); i++ {
		s := &st[i]
		at := max(s.at, from)
		if cand < 0 && limit >= 0 && at >= limit {
			return -1
		}
		if s.cores < r.per || s.excl != 0 || r.excl && s.jobs != 0 || s.mem < r.mem || s.gpus < r.gpus {
			cand = -1
			continue
		}
		if cand < 0 {
			cand = at
		}
		if i+1 == len(st) || st[i+1].at-cand >= d {
			return cand
		}
	}
	return -1
}
