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
		if w := p.win(n, t, end); w.cores >= r.per && usableWin(w, r) {
			p.uses = appendUse(p.uses, n, r.per)
			if got++; got == r.nodes {
				return p.uses, true
			}
		}
	}
	return nil, false
}

func (p *Profile) firstTasksAt(r req, t, end sim.Time) ([]Use, bool) {
	need := r.tasks
	for n := range p.node {
		if w := p.win(n, t, end); w.cores >= 1 && usableWin(w, r) {
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
		if w := p.win(n, t, end); w.cores >= r.tasks && usableWin(w, r) && (best < 0 || w.cores < left) {
			best, left = n, w.cores
		}
	}
	return best
}

func (p *Profile) bestNodesAt(r req, t, end sim.Time) ([]Use, bool) {
	p.cand = p.cand[:0]
	for n := range p.node {
		if w := p.win(n, t, end); w.cores >= r.per && usableWin(w, r) {
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
