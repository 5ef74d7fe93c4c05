package nodes

import (
	"math"
	"slices"
	"sort"

	"github.com/schedsweep/schedsweep/sim"
)

// The nodes' steps and the sum over them: how a Profile lays and lifts
// holds, and what it reads of them.

// hold adds sign × j's use of each node of uses on [from, to), agg in the
// sum, and counts (sign -1) or forgets (+1) to as a hold's end.
func (p *Profile) hold(r req, uses []Use, from, to sim.Time, agg sim.Resources, sign int64) {
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			p.nodeHold(n, from, to, int64(u.Cores), r, sign)
		}
	}
	if sign < 0 {
		p.agg.Reserve(from, to-from, agg)
		p.addEnd(to)
	} else {
		p.agg.Unreserve(from, to-from, agg)
		p.dropEnd(to)
	}
}

// nodeHold adds sign × (cores, r's memory and GPUs, one job) to node n on
// [from, to), merging the steps it leaves equal at its edges.
func (p *Profile) nodeHold(n int, from, to sim.Time, cores int64, r req, sign int64) {
	st := p.node[n]
	if k := findStep(st, p.now); k > 0 { // drop the steps before now
		st = st[:copy(st, st[k:])]
	}
	st, i := splitStep(st, from)
	st, j := splitStep(st, to)
	ex := int32(0)
	if r.excl {
		ex = int32(sign)
	}
	for k := i; k < j; k++ {
		s := &st[k]
		s.cores += sign * cores
		s.mem += sign * r.mem
		s.gpus += sign * r.gpus
		s.jobs -= int32(sign)
		s.excl -= ex
	}
	if j < len(st) && sameFree(st[j-1], st[j]) {
		st = slices.Delete(st, j, j+1)
	}
	if i > 0 && sameFree(st[i-1], st[i]) {
		st = slices.Delete(st, i, i+1)
	}
	p.node[n] = st
	p.free[n] = unknown
}

// unknown marks a node's entry of Profile.free as to be found again.
const unknown = sim.Time(math.MinInt64)

// fullAt reports whether node n has no core free at t (not before the
// profile's start) by the start of its first step with a free core (1
// core: no placement search asks less of a node), which it finds again
// after the node's steps changed. A search skips such a node with one
// comparison, where reading its step at t costs a binary search: on a busy
// cluster nearly every node is full at the times the backfill tries.
func (p *Profile) fullAt(n int, t sim.Time) bool {
	f := p.free[n]
	if f == unknown {
		f = p.firstFree(n)
	}
	return t < f
}

// firstFree records and returns when node n's first step with a free core
// starts, math.MaxInt64 if none has one.
func (p *Profile) firstFree(n int) sim.Time {
	f := sim.Time(math.MaxInt64)
	for _, s := range p.node[n] {
		if s.cores >= 1 {
			f = s.at
			break
		}
	}
	p.free[n] = f
	return f
}

// baseHold is nodeHold for base: it takes cores, r's memory and GPUs and
// one job from node n on [now, to), where to is not before any step of
// the node. In base every hold starts at now and they come in order of
// end, so the hold covers every step but a last one at to, which it adds
// if need be; no step is searched, and none merges (the step before to
// holds one job more than the step at to). It falls back on nodeHold if
// to comes before the node's last step.
func (p *Profile) baseHold(n int, to sim.Time, cores int64, r req) {
	st := p.node[n]
	last := len(st) - 1
	if to < st[last].at {
		p.nodeHold(n, p.now, to, cores, r, -1)
		return
	}
	if st[last].at != to {
		st = append(st, st[last])
		last++
		st[last].at = to
	}
	ex := int32(0)
	if r.excl {
		ex = 1
	}
	for k := range st[:last] {
		s := &st[k]
		s.cores -= cores
		s.mem -= r.mem
		s.gpus -= r.gpus
		s.jobs++
		s.excl += ex
	}
	p.node[n] = st
	p.free[n] = unknown
}

func sameFree(a, b pstep) bool {
	return a.cores == b.cores && a.mem == b.mem && a.gpus == b.gpus && a.jobs == b.jobs && a.excl == b.excl
}

// findStep returns the index of the step of st that holds t.
func findStep(st []pstep, t sim.Time) int {
	if len(st) == 1 || st[1].at > t {
		return 0
	}
	return sort.Search(len(st), func(i int) bool { return st[i].at > t }) - 1
}

// splitStep makes sure a step of st starts at t and returns its index.
func splitStep(st []pstep, t sim.Time) ([]pstep, int) {
	i := findStep(st, t)
	if st[i].at == t {
		return st, i
	}
	s := st[i]
	s.at = t
	st = slices.Insert(st, i+1, s)
	return st, i + 1
}

// win returns node n's least free cores, memory and GPUs and most jobs
// and exclusive jobs over [t, end).
func (p *Profile) win(n int, t, end sim.Time) pstep {
	st := p.node[n]
	i := findStep(st, t)
	w := st[i]
	for i++; i < len(st) && st[i].at < end; i++ {
		s := &st[i]
		w.cores = min(w.cores, s.cores)
		w.mem = min(w.mem, s.mem)
		w.gpus = min(w.gpus, s.gpus)
		w.jobs = max(w.jobs, s.jobs)
		w.excl = max(w.excl, s.excl)
	}
	return w
}

// winAtLeast is win for a search that needs at least least free cores on
// node n throughout [t, end): it reports false as soon as a step has
// fewer, without reading the rest of the interval, and otherwise returns
// win(n, t, end) and true. Most nodes of a busy cluster have no core free
// at a time the backfill tries, so most searches stop at the first step.
func (p *Profile) winAtLeast(n int, t, end sim.Time, least int64) (pstep, bool) {
	if least >= 1 && p.fullAt(n, t) {
		return pstep{}, false
	}
	st := p.node[n]
	i := findStep(st, t)
	w := st[i]
	if w.cores < least {
		return w, false
	}
	for i++; i < len(st) && st[i].at < end; i++ {
		s := &st[i]
		if s.cores < least {
			return w, false
		}
		w.cores = min(w.cores, s.cores)
		w.mem = min(w.mem, s.mem)
		w.gpus = min(w.gpus, s.gpus)
		w.jobs = max(w.jobs, s.jobs)
		w.excl = max(w.excl, s.excl)
	}
	return w, true
}

// usableWin reports whether r may use node n, which has w over its
// interval, its cores aside (state.usable over time): its partition, node
// groups and features allow it (rules.go), and w's memory, GPUs and jobs.
func (p *Profile) usableWin(n int, w pstep, r req) bool {
	return p.c.st.may(n, r) && w.excl == 0 && (!r.excl || w.jobs == 0) && w.mem >= r.mem && w.gpus >= r.gpus
}

// filter is the least r takes from the sum over the nodes at every
// instant it runs: its cores, and its memory and GPUs on as few nodes as
// it may use.
func filter(r req) sim.Resources {
	k := int64(1)
	if r.nodes > 0 {
		k = r.nodes
	}
	return sim.Resources{sim.Procs: r.tasks, sim.Memory: r.mem * k, sim.GPUs: r.gpus * k}
}

// aggOf is what r on uses takes from the sum over the nodes: its cores (a
// whole node where it is exclusive: nothing else may use it), its memory
// and GPUs on each node.
func (p *Profile) aggOf(r req, uses []Use) sim.Resources {
	var a sim.Resources
	for _, u := range uses {
		k := int64(u.Nodes)
		if r.excl {
			for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
				a[sim.Procs] += p.c.st.cap[n]
			}
		} else {
			a[sim.Procs] += k * int64(u.Cores)
		}
		a[sim.Memory] += k * r.mem
		a[sim.GPUs] += k * r.gpus
	}
	return a
}

func (p *Profile) addEnd(t sim.Time) {
	if k := len(p.ends) - 1; k >= 0 && p.ends[k].at <= t { // base adds them in order
		if p.ends[k].at == t {
			p.ends[k].n++
		} else {
			p.ends = append(p.ends, endAt{t, 1})
		}
		return
	}
	i := sort.Search(len(p.ends), func(i int) bool { return p.ends[i].at >= t })
	if i < len(p.ends) && p.ends[i].at == t {
		p.ends[i].n++
		return
	}
	p.ends = slices.Insert(p.ends, i, endAt{t, 1})
}

func (p *Profile) dropEnd(t sim.Time) {
	i := sort.Search(len(p.ends), func(i int) bool { return p.ends[i].at >= t })
	if i < len(p.ends) && p.ends[i].at == t {
		if p.ends[i].n--; p.ends[i].n == 0 {
			p.ends = slices.Delete(p.ends, i, i+1)
		}
	}
}

// nextEnd returns the first end of a hold after t, -1 if none.
func (p *Profile) nextEnd(t sim.Time) sim.Time {
	i := sort.Search(len(p.ends), func(i int) bool { return p.ends[i].at > t })
	if i == len(p.ends) {
		return -1
	}
	return p.ends[i].at
}

// overfull reports whether some node is overcommitted at some step.
func (p *Profile) overfull() bool {
	for n := range p.node {
		for _, s := range p.node[n] {
			if s.cores < 0 || s.mem < 0 || s.gpus < 0 || s.excl > 0 && s.jobs > 1 {
				return true
			}
		}
	}
	return false
}

func (p *Profile) logEvent(k EventKind, seq int, t sim.Time, uses []Use) {
	if p.record && k != 0 {
		p.log = append(p.log, Event{Kind: k, Now: p.now, Seq: seq, At: t, Uses: slices.Clone(uses)})
	}
}
