package nodes

import (
	"math"

	"github.com/schedsweep/schedsweep/sim"
)

// The shadow walk gives back the running jobs and the trial's takes in
// the order of their estimated ends until the head fits. On wagap-2013's
// nodes a walk for a head of one node that waits for a late end gives
// back some 90 jobs, nearly all of one node each; giving one back on the
// copy of the nodes through look.release cost about 290 instructions:
// the head's part of the node before and after, a copy of the job's
// request, and the copy's tree of free cores, about 110 of them, which
// nothing reads until the walk stops (but the placement of a limited
// head). So past the first few jobs the walk leaves the tree alone and
// mends it once at the end (resync), and a job of one node is given back
// by giveNode, about 110 instructions in all.

// never is an end that does not come: the walk has no job left.
const never = sim.Time(math.MaxInt64)

// ends gives the shadow walk its jobs: the running jobs (by estimated end)
// and the trial's takes (l.takes, by estimated end) merged, a running job
// before a take that ends at the same time; an end not after now counts
// as now+1.
type ends struct {
	run    runIter // the running jobs
	where  [][]Use // the running jobs' nodes, by Seq
	l      *look
	now    sim.Time
	k      int      // the next take
	re, te sim.Time // their ends; never when none is left
}

func (l *look) ends(now sim.Time) ends {
	e := ends{run: l.c.runs.iter(), where: l.c.where, l: l, now: now}
	e.re, e.te = e.runEnd(), e.takeEnd()
	return e
}

func (e *ends) runEnd() sim.Time {
	end, _, ok := e.run.peek()
	if !ok {
		return never
	}
	return max(end, e.now+1)
}

func (e *ends) takeEnd() sim.Time {
	if e.k == len(e.l.takes) {
		return never
	}
	return e.l.takeEnd(e.l.takes[e.k])
}

// next returns the next job to give back, its nodes and its end; a nil
// job when none is left.
func (e *ends) next() (*sim.Job, []Use, sim.Time) {
	if end := e.re; end <= e.te && end != never {
		_, seq, _ := e.run.peek()
		e.run.next()
		e.re = e.runEnd()
		return &e.run.r.out[seq].Job, e.where[seq], end
	}
	if e.te == never {
		return nil, nil, never
	}
	end, tk := e.te, &e.l.t.takes[e.l.takes[e.k]]
	e.k++
	e.te = e.takeEnd()
	return tk.job, e.l.t.uses[tk.from:tk.to], end
}

// peek returns the end of the job next would return.
func (e *ends) peek() sim.Time { return min(e.re, e.te) }

// walkCores is the walk for a simple head: it counts the usable free
// cores each job gives back (its cores, or its nodes whole if it is
// exclusive) and touches no node.
func (l *look) walkCores(now sim.Time) sim.Time {
	avail := l.c.st.avail
	e := l.ends(now)
	for {
		j, uses, end := e.next()
		switch {
		case j == nil:
			// Cannot happen: an admitted job fits the empty cluster (Refuse).
			panic("nodes: the reserved job fits at no estimated end")
		case j.Shape.Exclusive:
			avail += l.wholeCores(uses)
		default:
			avail += j.Need[sim.Procs]
		}
		if e.peek() != end && avail >= l.need {
			l.shadow, l.extra = end, avail-l.need
			return end
		}
	}
}

// eagerGives is how many jobs, per 64 leaves of ah's tree, a walk gives
// back keeping the tree before it leaves the tree to one resync: a resync
// visits every leaf and every inner entry once, a kept tree climbs a few
// levels for each node given back.
const eagerGives = 8

// walkNodes is the walk for a head that is not simple: it gives the jobs
// back on ah, a copy of the nodes now, and keeps the head's sum (meas).
func (l *look) walkNodes(now sim.Time) sim.Time {
	l.rebuild() // the nodes now, the trial's takes held
	l.meas = l.measure()
	e := l.ends(now)
	eager := max(1, eagerGives*l.ah.tree.size/64)
	gave := 0
	for {
		j, uses, end := e.next()
		switch {
		case j == nil:
			// Cannot happen: an admitted job fits the empty cluster (Refuse).
			panic("nodes: the reserved job fits at no estimated end")
		case l.hr.nodes > 0 && len(uses) == 1 && uses[0].Nodes == 1:
			l.giveNode(j, int(uses[0].Node), int64(uses[0].Cores))
		default:
			l.give(j, uses)
		}
		if gave++; l.limited || gave <= eager { // a limited head's placement reads the tree
			l.ah.syncUses(uses)
		}
		if e.peek() != end && l.meas >= l.need && l.headPlaces() {
			if gave > eager {
				l.ah.resync()
			}
			l.shadow = end
			return end
		}
	}
}

// give is release without the tree: it gives back what j holds on uses
// on ah, as state.release does, and updates the head's sum, but leaves
// ah's tree of free cores as it was.
func (l *look) give(j *sim.Job, uses []Use) {
	a := &l.ah
	a.ver++
	mem, gpus, excl := j.Need[sim.Memory], j.Need[sim.GPUs], false // reqOf's, without its copy
	if s := &j.Shape; !s.IsZero() {
		mem, gpus, excl = s.MemPerNode, int64(s.GPUsPerNode), s.Exclusive
	}
	for _, u := range uses {
		c := int64(u.Cores)
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			before := l.part(n)
			if excl {
				a.held[n] = false
				a.avail += a.cores[n]
			}
			a.cores[n] += c
			a.mem[n] += mem
			a.gpus[n] += gpus
			a.jobs[n]--
			a.avail += c
			l.meas += l.part(n) - before
		}
	}
}

// giveNode is give for a job that holds c cores on node n alone, when the
// head asks for nodes: a node's part of such a head's sum is whether it
// holds one of them (holds), and giving a job back never takes that away.
func (l *look) giveNode(j *sim.Job, n int, c int64) {
	a, s := &l.ah, &j.Shape
	a.ver++
	was := l.meas > 0 && l.holds(n) // with no node holding the head, none did
	if s.Exclusive {
		a.held[n] = false
		a.avail += a.cores[n]
	}
	a.cores[n] += c
	a.avail += c
	a.jobs[n]--
	if s.Nodes == 0 && s.IsZero() { // reqOf's memory and GPUs, without its copy
		a.mem[n] += j.Need[sim.Memory]
		a.gpus[n] += j.Need[sim.GPUs]
	} else {
		a.mem[n] += s.MemPerNode
		a.gpus[n] += int64(s.GPUsPerNode)
	}
	if !was && l.holds(n) {
		l.meas++
	}
}

// holds reports whether node n of ah can hold one node of a head of
// nodes: part, for such a head.
func (l *look) holds(n int) bool {
	a, h := &l.ah, &l.hr
	return !a.held[n] && a.cores[n] >= h.per && a.mem[n] >= h.mem && a.gpus[n] >= h.gpus &&
		(!h.excl || a.jobs[n] == 0) && (l.hplain || a.may(n, *h))
}

// syncUses puts the usable free cores of the nodes of uses in s's tree.
func (s *state) syncUses(uses []Use) {
	for _, u := range uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			s.sync(n)
		}
	}
}

// resync puts every node's usable free cores in s's tree (as sync does
// one node at a time) and works out the tree's inner entries again.
func (s *state) resync() {
	t := &s.tree
	for n, v := range s.cores {
		if s.held[n] {
			v = 0
		}
		t.v[t.size+n] = v
	}
	for x := t.size - 1; x >= 1; x-- {
		t.v[x] = max(t.v[2*x], t.v[2*x+1])
	}
}
