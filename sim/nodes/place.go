package nodes

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// req is a job's request, its shape resolved.
type req struct {
	nodes, per int64 // nodes × cores per node; nodes 0: tasks
	tasks      int64 // cores in all
	mem, gpus  int64 // per node used
	excl       bool
	where      *sim.Where // the nodes it may use; see rules
}

func reqOf(j *sim.Job) req {
	s := &j.Shape // not a copy: the request is built from the fields
	if *s == (sim.Shape{}) {
		return req{tasks: j.Need[sim.Procs], mem: j.Need[sim.Memory], gpus: j.Need[sim.GPUs]}
	}
	return req{nodes: int64(s.Nodes), per: int64(s.PerNode), tasks: j.Need[sim.Procs],
		mem: s.MemPerNode, gpus: int64(s.GPUsPerNode), excl: s.Exclusive, where: s.Where}
}

// state is the nodes' free resources.
type state struct {
	cap, cores, mem, gpus []int64
	jobs                  []int32 // jobs on each node
	held                  []bool  // held whole by an exclusive job
	tree                  maxTree // usable free cores: 0 on a held node
	avail                 int64   // free cores on nodes not held
	scratch               []Use
	cand                  []cand
	grp                   []int32 // each node's group
	rs                    *rules  // partitions, node groups and features; nil: none
	ver                   uint64  // changes with every take, release and restore, from 1
	one                   *oneTab // onenode.go's table, once asked
	oneK                  int64   // the most cores of a node, if at most maxOneCores; else 0
}

type cand struct {
	node int
	left int64
}

func newState(cores, mem, gpus []int64) state {
	s := state{cap: cores, cores: slices.Clone(cores), mem: mem, gpus: gpus,
		jobs: make([]int32, len(cores)), held: make([]bool, len(cores)), tree: newMaxTree(cores), ver: 1}
	for _, v := range cores {
		s.avail += v
		s.oneK = max(s.oneK, v)
	}
	if s.oneK > maxOneCores {
		s.oneK = 0
	}
	return s
}

// usable reports whether r may use node n, its cores aside.
func (s *state) usable(n int, r req) bool {
	return !s.held[n] && (!r.excl || s.jobs[n] == 0) && s.mem[n] >= r.mem && s.gpus[n] >= r.gpus && s.may(n, r)
}

// place finds r's nodes by fit, in node order; the slice is s's scratch.
func (s *state) place(r req, fit Fit) ([]Use, bool) {
	s.scratch = s.scratch[:0]
	switch {
	case r.tasks > s.avail:
		return nil, false
	case r.nodes > 0 && fit == BestFit:
		return s.bestNodes(r)
	case r.nodes > 0:
		return s.firstNodes(r)
	case fit == BestFit:
		if n := s.bestOne(r); n >= 0 {
			s.add(n, r.tasks)
			return s.scratch, true
		}
	}
	return s.firstTasks(r)
}

// appendUses is append(to, uses...), which calls memmove even for the one
// run most placements are.
func appendUses(to, uses []Use) []Use {
	if len(uses) == 1 {
		return append(to, uses[0])
	}
	return append(to, uses...)
}

// add puts cores on node n at the end of the placement in s.scratch,
// extending its last run when n follows it with as many cores.
func (s *state) add(n int, cores int64) {
	if k := len(s.scratch) - 1; k >= 0 {
		if u := &s.scratch[k]; int(u.Node+u.Nodes) == n && int64(u.Cores) == cores {
			u.Nodes++
			return
		}
	}
	s.scratch = append(s.scratch, Use{Node: int32(n), Nodes: 1, Cores: int32(cores)})
}

func (s *state) firstNodes(r req) ([]Use, bool) {
	got := int64(0)
	for n := s.tree.next(0, r.per); n >= 0; n = s.tree.next(n+1, r.per) {
		if s.usable(n, r) {
			s.add(n, r.per)
			if got++; got == r.nodes {
				return s.scratch, true
			}
		}
	}
	return nil, false
}

func (s *state) firstTasks(r req) ([]Use, bool) {
	need, lim, used := r.tasks, s.maxNodes(r), int64(0)
	for n := s.tree.next(0, 1); n >= 0; n = s.tree.next(n+1, 1) {
		if s.usable(n, r) {
			if used++; lim > 0 && used > lim {
				return nil, false
			}
			take := min(s.cores[n], need)
			s.add(n, take)
			if need -= take; need == 0 {
				return s.scratch, true
			}
		}
	}
	return nil, false
}

// bestOne returns the usable node that holds all of r's tasks with the
// fewest cores left, the first such in node order; -1 if none.
func (s *state) bestOne(r req) int {
	best := -1
	for n := s.tree.next(0, r.tasks); n >= 0; n = s.tree.next(n+1, r.tasks) {
		if s.usable(n, r) && (best < 0 || s.cores[n] < s.cores[best]) {
			best = n
		}
	}
	return best
}

func (s *state) bestNodes(r req) ([]Use, bool) {
	s.cand = s.cand[:0]
	for n := s.tree.next(0, r.per); n >= 0; n = s.tree.next(n+1, r.per) {
		if s.usable(n, r) {
			s.cand = append(s.cand, cand{n, s.cores[n] - r.per})
		}
	}
	if int64(len(s.cand)) < r.nodes {
		return nil, false
	}
	slices.SortFunc(s.cand, func(a, b cand) int { return cmp.Or(cmp.Compare(a.left, b.left), cmp.Compare(a.node, b.node)) })
	best := s.cand[:r.nodes]
	slices.SortFunc(best, func(a, b cand) int { return cmp.Compare(a.node, b.node) })
	for _, c := range best {
		s.add(c.node, r.per)
	}
	return s.scratch, true
}

// undo is one node's state before a trial took part of it.
type undo struct {
	node      int
	cores     int64
	mem, gpus int64
	jobs      int32
	held      bool
}

// take gives r the nodes of uses; with log non-nil it records how to undo
// it, one entry per node.
func (s *state) take(r req, uses []Use, log *[]undo) {
	s.ver++
	for _, u := range uses {
		c := int64(u.Cores)
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if log != nil {
				*log = append(*log, undo{n, s.cores[n], s.mem[n], s.gpus[n], s.jobs[n], s.held[n]})
			}
			s.cores[n] -= c
			s.mem[n] -= r.mem
			s.gpus[n] -= r.gpus
			s.jobs[n]++
			s.avail -= c
			if r.excl {
				s.held[n] = true
				s.avail -= s.cores[n]
			}
			s.sync(n)
		}
	}
}

// release gives back what take gave r on uses.
func (s *state) release(r req, uses []Use) {
	s.ver++
	for _, u := range uses {
		c := int64(u.Cores)
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if r.excl {
				s.held[n] = false
				s.avail += s.cores[n]
			}
			s.cores[n] += c
			s.mem[n] += r.mem
			s.gpus[n] += r.gpus
			s.jobs[n]--
			s.avail += c
			s.sync(n)
			s.tree.rose(n)
		}
	}
}

// sync puts node n's usable free cores in the tree.
func (s *state) sync(n int) {
	v := s.cores[n]
	if s.held[n] {
		v = 0
	}
	s.tree.set(n, v)
}

// restore puts node u.node back as u recorded it.
func (s *state) restore(u undo) {
	s.ver++
	if s.held[u.node] {
		s.avail += s.cores[u.node]
	}
	s.avail += u.cores - s.cores[u.node]
	if u.held {
		s.avail -= u.cores
	}
	s.cores[u.node], s.mem[u.node], s.gpus[u.node] = u.cores, u.mem, u.gpus
	s.jobs[u.node], s.held[u.node] = u.jobs, u.held
	s.sync(u.node)
	s.tree.rose(u.node)
}

// trial is the cluster's sim.Trial: its takes change the nodes' state,
// each noted with its placement so it can be undone. When the loop then
// starts the jobs in the order they were taken, Apply keeps each take as
// the job's placement (commit); anything else first undoes the takes not
// kept (rollback).
//
// A take is undone by releasing it: state.release gives back exactly what
// state.take took (a node an exclusive job holds was idle and not held
// before it), and undoing the takes newest first meets every node as the
// take left it. So a take logs no node state; most takes are kept anyway
// (every one under EASY on wagap-2013). TestRollback checks the nodes come
// back as they were.
type trial struct {
	c     *Cluster
	uses  []Use   // the takes' placements, in order
	takes []taken // in order
	first int     // the first take not yet kept
	last  *sim.Job
}

// taken is one take: its job and its runs in uses.
type taken struct {
	job      *sim.Job
	from, to int
}

// Fits reports whether j can be placed now. A job of cores anywhere
// without memory, GPUs or exclusivity fits when the free cores of the
// nodes not held whole are enough; another job is placed to find out.
func (t *trial) Fits(j *sim.Job) bool {
	r := reqOf(j)
	t.last = nil
	if r.nodes == 0 && r.mem == 0 && r.gpus == 0 && !r.excl && t.c.st.rs.plain(r.where) {
		return r.tasks <= t.c.st.avail
	}
	_, ok := t.c.st.place(r, t.c.fit)
	if ok {
		t.last = j
	}
	return ok
}

func (t *trial) Take(j *sim.Job) {
	r := reqOf(j)
	uses := t.c.st.scratch
	if t.last != j {
		var ok bool
		if uses, ok = t.c.st.place(r, t.c.fit); !ok {
			return
		}
	}
	tk := taken{job: j, from: len(t.uses)}
	t.uses = appendUses(t.uses, uses)
	tk.to = len(t.uses)
	t.c.st.take(r, uses, nil)
	t.takes = append(t.takes, tk)
	t.last = nil
}

// commit returns the placement of the first take not yet kept and keeps
// it, if that take is j's.
func (t *trial) commit(j *sim.Job) ([]Use, bool) {
	if t.first == len(t.takes) || t.takes[t.first].job != j {
		return nil, false
	}
	tk := t.takes[t.first]
	t.first++
	uses := t.uses[tk.from:tk.to]
	if t.first == len(t.takes) {
		t.reset()
	}
	return uses, true
}

// rollback undoes the takes not kept, newest first. Without takes (the
// trial was kept whole, or took nothing) it only forgets the last Fits:
// uses is empty and first 0 then, which commit's reset sees to; the
// loop calls it before every pass and end, so the short way is inlined.
func (t *trial) rollback() {
	if len(t.takes) == 0 {
		t.last = nil
		return
	}
	t.undo()
}

// undo is rollback with takes to undo.
func (t *trial) undo() {
	for i := len(t.takes) - 1; i >= t.first; i-- {
		tk := t.takes[i]
		t.c.st.release(reqOf(tk.job), t.uses[tk.from:tk.to])
	}
	t.reset()
}

func (t *trial) reset() {
	t.uses, t.takes = t.uses[:0], t.takes[:0]
	t.first, t.last = 0, nil
}
