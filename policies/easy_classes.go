package policies

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// On a machine of nodes a backfilling pass asks the look-ahead about
// every waiting job, and a long queue holds few distinct requests
// (wagap-2013: 130 jobs and about five requests a pass on average). When
// the look-ahead classes jobs by request (sim.Classes), the pass asks
// Fits and Keeps once per class between two takes and answers the other
// jobs of the class from that: between two takes nothing changes on the
// nodes or at the shadow time, so a job of the same class gets the same
// answers. The jobs started, and the order in which they are started,
// are those of the pass that asks every job.
//
// EASY's own backfilling in arrival order goes further (backfillChains):
// it keeps the waiting queue indexed by class across passes, so that a
// pass visits only the jobs at which something may happen instead of
// passing over the others one by one (wagap-2013 as nodes: 2.27 million
// candidates over the run, 1.56 million of a class Fits had refused and
// 0.64 million of one Keeps had refused). Other orders, and Balanced,
// visit every job (backfillClasses).

// A class's answer since its last take is one word: the epoch (the
// pass's count of takes and Shadow calls) times 4 plus one of the codes
// below, so that the loop over a long queue reads one word per job.
const (
	classNoFit    = iota // does not fit now
	classFits            // fits; Keeps not asked
	classKept            // fits, and Keeps accepts it
	classRefused         // fits, and Keeps refuses it
	classCodeBits = 2
)

// classedJob is a job's class, by Seq; job tells a stale entry apart.
type classedJob struct {
	job *sim.Job
	cls int32
}

// classState is EASY's memory of classes on nodes.
type classState struct {
	owner sim.Classes   // the look-ahead the classes are of
	lk    sim.Lookahead // the same, as chained last met it
	of    []classedJob
	ans   []uint64 // by class: epoch<<classCodeBits | code
	epoch uint64
	ch    chains
	// monotone is the owner's sim.Monotone, asked once: a cluster's
	// partitions do not change (passNodes asks at every pass).
	monotone bool
	// rv is the owner's sim.Revivals, nil if it offers none or is not
	// monotone.
	rv sim.Revivals
}

// own makes cs the memory of cl's classes, forgetting another's.
func (cs *classState) own(cl sim.Classes) {
	if cs.owner == cl {
		return
	}
	ch := cs.ch
	*cs = classState{owner: cl, of: cs.of[:0], ans: cs.ans[:0], epoch: cs.epoch}
	if m, ok := cl.(sim.Monotone); ok {
		cs.monotone = m.Monotone()
	}
	if rv, ok := cl.(sim.Revivals); ok && cs.monotone {
		cs.rv = rv
	}
	cs.ch = chains{linked: -1, prev: ch.prev[:0], next: ch.next[:0], present: ch.present[:0], live: ch.live[:0], gen: ch.gen}
}

// classOf returns j's class under cl, asking cl once per job.
func (cs *classState) classOf(cl sim.Classes, j *sim.Job) int {
	if s := j.Seq; s >= 0 && s < len(cs.of) && cs.of[s].job == j {
		return int(cs.of[s].cls)
	}
	c := cl.Class(j)
	if j.Seq >= 0 && c >= 0 {
		if j.Seq >= len(cs.of) { // doubled: appending one at a time grew it by a quarter
			cs.of = grow(cs.of, max(j.Seq+1, 2*len(cs.of)), classedJob{})
		}
		cs.of[j.Seq] = classedJob{job: j, cls: int32(c)}
		for len(cs.ans) <= c {
			cs.ans = append(cs.ans, 0)
		}
	}
	return c
}

// ruledOut reports whether the first job of q does not fit now by the
// look-ahead's Revivals, cl being its classes (nil: none), when it has
// been classed: after a job ends, the head that waited before it mostly
// still does not fit, which Revived says without a placement. A job not
// yet classed has not waited as head (most start as they arrive), and
// classing it would cost more than Fits.
func (cs *classState) ruledOut(cl sim.Classes, q []*sim.Job) bool {
	if cl == nil || cs.rv == nil || len(q) == 0 {
		return false
	}
	s := q[0].Seq
	return s >= 0 && s < len(cs.of) && cs.of[s].job == q[0] && !cs.rv.Revived(int(cs.of[s].cls))
}

// backfillClasses is backfill asking once per class between two takes.
func (e *EASY) backfillClasses(now, shadow sim.Time, lk sim.Lookahead, cl sim.Classes, cand []*sim.Job) {
	cs := &e.classes
	cs.own(cl)
	cs.epoch++ // Shadow was called, or this is a new pass
	full := lk.Full()
	for k := 0; k < len(cand) && !full; k++ {
		if k = e.passOver(cand, k, now, shadow); k == len(cand) {
			break
		}
		j := cand[k]
		runsPast := now+j.Estimate > shadow
		switch cs.ask(lk, j, cs.classOf(cl, j), runsPast) {
		case classNoFit:
			continue
		case classRefused:
			if runsPast {
				e.kept = append(e.kept, j)
				continue
			}
		}
		lk.Take(j)
		e.start = append(e.start, j)
		cs.epoch++
		full = lk.Full()
	}
}

// passOver returns the first index from k of cand whose job the pass
// must look at: it passes over, without a call, the jobs of a class that
// does not fit, and those of a class that Keeps refused that run past the
// shadow time (noting them in e.kept).
func (e *EASY) passOver(cand []*sim.Job, k int, now, shadow sim.Time) int {
	cs := &e.classes
	of, ans := cs.of, cs.ans
	noFit, refused := cs.epoch<<classCodeBits|classNoFit, cs.epoch<<classCodeBits|classRefused
	for ; k < len(cand); k++ {
		j := cand[k]
		s := j.Seq
		if uint(s) >= uint(len(of)) || of[s].job != j {
			return k
		}
		v := ans[of[s].cls]
		if v == refused && now+j.Estimate > shadow {
			e.kept = append(e.kept, j)
			continue
		}
		if v != noFit {
			return k
		}
	}
	return k
}

// ask returns the answer for j, of class c (-1: none): its class's if
// the pass has one since the last take, else Fits's, and Keeps's too when
// j runs past the shadow time and fits; a class's answer is noted.
func (cs *classState) ask(lk sim.Lookahead, j *sim.Job, c int, runsPast bool) uint64 {
	ep := cs.epoch
	var v uint64
	if c >= 0 {
		v = cs.ans[c]
	}
	if v>>classCodeBits != ep || c < 0 {
		v = ep<<classCodeBits | classNoFit
		if lk.Fits(j) {
			v = ep<<classCodeBits | classFits
		}
	}
	if v&(1<<classCodeBits-1) == classFits && runsPast {
		v = ep<<classCodeBits | classRefused
		if lk.Keeps(j) {
			v = ep<<classCodeBits | classKept
		}
	}
	if c >= 0 {
		cs.ans[c] = v
	}
	return v & (1<<classCodeBits - 1)
}

// chains indexes the waiting queue by class, across passes, when EASY
// backfills on its own in arrival order (backfillChains): per class, its
// waiting jobs in arrival order, linked by Seq. A pass that backfills
// links the jobs from its head on that arrived since the last one did
// (a job started without a backfill is never classed), and every pass
// unlinks the linked jobs it starts. Every waiting job up to Seq linked
// is linked.
type chains struct {
	off    bool // a job without a class was met: the index is not used
	linked int  // the largest Seq linked, -1 none
	// By Seq: the job's neighbours in its chain (-1: none); prev is
	// unlinkedJob for a job not linked.
	prev, next []int32
	// By class: the ends of its chain, and its place in present (-1:
	// its chain is empty). present lists the classes with a waiting job
	// by their first job, so that a pass lists them nearly in the order
	// it visits them (begin): a new class's first job is the last
	// linked, and a class whose first job starts moves up.
	first, last, where []int32
	present            []int32

	// A pass's walk, by class: cur is the first job of the class not yet
	// passed, at the one to visit next (cur, or after Keeps refused the
	// class, its next job that ends by the shadow time; -1 none). dead
	// is the generation in which Fits refused the class: it holds while
	// the passes keep the same head first in the queue and no job ends
	// (gen stays), and past an end while the look-ahead's Revivals does
	// not revive the class (begin). long is what the class's last walks
	// for a short job saw (nextShort).
	cur, at []int32
	dead    []uint64
	gen     uint64
	long    []longRun
	// live lists the classes with a job to visit (at ≥ 0), by at from
	// the last down, so that the next job to visit is the last's;
	// refused lists those Keeps refused since the last take that have a
	// job after the one refused, to be visited again after a take.
	live, refused []int32
}

// longRun is a run of a class's chain that a walk for a short job passed
// over: every job of the class linked with Seq from lo to seen has an
// estimate longer than d. It stays true while the jobs stay linked or
// are unlinked (a chain only grows at its tail, past seen), and for any
// bound up to d; seen < 0: none.
type longRun struct {
	lo, seen int32
	d        sim.Time
}

// unlinkedJob marks in chains.prev a Seq whose job is not linked.
const unlinkedJob = -2

// linkedJob reports whether j is linked or arrived after every job linked.
func (cs *classState) linkedJob(j *sim.Job) bool {
	s := j.Seq
	return s > cs.ch.linked || s >= 0 && s < len(cs.of) && cs.of[s].job == j
}

// link adds the jobs of q, the waiting queue from the head on in arrival
// order, that arrived since the last call; false if one has no class.
func (cs *classState) link(cl sim.Classes, q []*sim.Job) bool {
	ch := &cs.ch
	k := len(q)
	for k > 0 && q[k-1].Seq > ch.linked {
		k--
	}
	for _, j := range q[k:] {
		c := cs.classOf(cl, j)
		if c < 0 {
			return false
		}
		ch.add(int32(j.Seq), int32(c))
		ch.linked = j.Seq
	}
	return true
}

// grow returns s with v appended up to length n.
func grow[T any](s []T, n int, v T) []T {
	if n <= len(s) {
		return s
	}
	m := len(s)
	s = slices.Grow(s, n-m)[:n]
	for i := m; i < n; i++ {
		s[i] = v
	}
	return s
}

// add links job s at the end of class c's chain.
func (ch *chains) add(s, c int32) {
	if int(s) >= len(ch.prev) {
		n := max(int(s)+1, 2*len(ch.prev))
		ch.prev, ch.next = grow(ch.prev, n, unlinkedJob), grow(ch.next, n, -1)
	}
	if int(c) >= len(ch.first) {
		n := int(c) + 1
		ch.first, ch.last, ch.where = grow(ch.first, n, -1), grow(ch.last, n, -1), grow(ch.where, n, -1)
		ch.cur, ch.at, ch.dead = grow(ch.cur, n, -1), grow(ch.at, n, -1), grow(ch.dead, n, 0)
		ch.long = grow(ch.long, n, longRun{seen: -1})
	}
	p := ch.last[c]
	ch.prev[s], ch.next[s] = p, -1
	if p >= 0 {
		ch.next[p] = s
	} else {
		ch.first[c] = s
		ch.where[c] = int32(len(ch.present))
		ch.present = append(ch.present, c)
	}
	ch.last[c] = s
}

// unlink removes job s, which is linked, from class c's chain.
func (ch *chains) unlink(s, c int32) {
	p, n := ch.prev[s], ch.next[s]
	ch.prev[s] = unlinkedJob
	if p >= 0 {
		ch.next[p] = n
	} else {
		ch.first[c] = n
	}
	if n >= 0 {
		ch.prev[n] = p
	} else {
		ch.last[c] = p
	}
	if p < 0 {
		ch.reorder(c)
	}
}

// reorder moves class c, whose first job was unlinked, up present to
// its place by its new first job, or out if its chain is empty.
func (ch *chains) reorder(c int32) {
	l, w, f := ch.present, ch.where[c], ch.first[c]
	k := w
	for ; k+1 < int32(len(l)) && (f < 0 || ch.first[l[k+1]] < f); k++ {
		l[k] = l[k+1]
		ch.where[l[k]] = k
	}
	if f < 0 {
		ch.present, ch.where[c] = l[:k], -1
		return
	}
	l[k], ch.where[c] = c, k
}

// unlinkAll removes the jobs of js, started this pass, from the index.
func (cs *classState) unlinkAll(js []*sim.Job) {
	ch := &cs.ch
	for _, j := range js {
		if s := j.Seq; s < len(ch.prev) && ch.prev[s] != unlinkedJob {
			ch.unlink(int32(s), cs.of[s].cls)
		}
	}
}

// backfillChains is backfill over the waiting jobs after head, in
// arrival order, asking once per class between two takes, and visiting
// only the jobs at which something may happen: a class Fits refused is
// passed over for the rest of the pass, and for the passes after while
// the head stays and no job ends (carry), since takes and starts only
// shrink what is free and the look-ahead refuses every job of a class
// once it refused one (sim.Classes); the head's class is refused from
// the start; after Keeps refused a class, only its jobs that end by the
// shadow time are visited until the next take. The jobs started, in
// their order, are those of the plain loop over every job.
//
// A Keeps refusal also carries into the next pass when it came after
// the last take of its pass (the pass's last epoch), no job ended since,
// the head is the same and so is its shadow time (kept): the nodes now
// are then those the refusal saw (the pass's starts hold the nodes its
// takes had; arrivals change nothing), and the jobs that hold nodes at
// the shadow time are the same (those running past it: the last pass's
// takes now run with the ends the trial gave them, and a job past its
// estimate, taken to end at now+1, ends by the shadow time in both), so
// Keeps would refuse the class again. With overruns the shadow time can
// move between two such passes, hence its check. Only the
// refusal carries: a job of the class that ends by the shadow time is
// asked Fits again before it is taken, since a trial takes only what it
// accepted itself.
func (e *EASY) backfillChains(now, shadow sim.Time, lk sim.Lookahead, head *sim.Job, carry bool) {
	cs := &e.classes
	ch := &cs.ch
	kept := ^uint64(0) // the answer word of a refusal that carries: none
	if !carry {
		ch.gen++
	} else if shadow == e.last.shadow {
		kept = cs.epoch<<classCodeBits | classRefused
	}
	cs.epoch++ // Shadow was called, or this is a new pass
	if lk.Full() {
		return // every admitted job needs a core
	}
	ch.dead[cs.of[head.Seq].cls] = ch.gen
	ch.begin(int32(head.Seq), cs.of, cs.ans, kept, shadow-now, cs.rv)
	for len(ch.live) > 0 {
		// cs.ask, written out: this loop asks 75 thousand times on
		// wagap-2013 as nodes, always of a class.
		c := ch.live[len(ch.live)-1]
		s := ch.at[c]
		j := cs.of[s].job
		ep := cs.epoch << classCodeBits
		v := cs.ans[c]
		if v&^(1<<classCodeBits-1) != ep {
			if !lk.Fits(j) {
				cs.ans[c] = ep | classNoFit
				ch.dead[c] = ch.gen
				ch.live = ch.live[:len(ch.live)-1]
				continue
			}
			v = ep | classFits
		}
		if now+j.Estimate > shadow {
			if v == ep|classFits {
				v = ep | classRefused
				if lk.Keeps(j) {
					v = ep | classKept
				}
			}
			if cs.ans[c] = v; v == ep|classRefused {
				ch.live = ch.live[:len(ch.live)-1]
				ch.refuse(cs.of, c, ch.next[s], shadow-now)
				continue
			}
		}
		cs.ans[c] = v
		lk.Take(j)
		e.start = append(e.start, j)
		cs.epoch++
		if lk.Full() {
			return
		}
		ch.past(c, s)
	}
}

// begin lists in live the classes not dead that have a job after the
// head (at Seq h), each at its first such job, or for a class whose
// answer in ans is kept (a Keeps refusal that carries), at its first
// such job that runs for at most d. A class that died in the generation
// before stays dead when rv (if not nil) does not revive it: after a job
// ends, the classes that end's nodes cannot hold are refused as before.
func (ch *chains) begin(h int32, of []classedJob, ans []uint64, kept uint64, d sim.Time, rv sim.Revivals) {
	ch.live, ch.refused = ch.live[:0], ch.refused[:0]
	for k := len(ch.present) - 1; k >= 0; k-- {
		c := ch.present[k]
		if ch.dead[c] == ch.gen {
			continue
		}
		if rv != nil && ch.dead[c]+1 == ch.gen && !rv.Revived(int(c)) {
			ch.dead[c] = ch.gen
			continue
		}
		s := ch.first[c]
		for s >= 0 && s <= h {
			s = ch.next[s] // started earlier in this pass
		}
		if s < 0 {
			continue
		}
		ch.cur[c], ch.at[c] = s, s
		if ans[c] == kept {
			ch.refused = append(ch.refused, c)
			if ch.at[c] = ch.nextShort(of, c, s, d); ch.at[c] < 0 {
				continue
			}
		}
		ch.live = append(ch.live, c)
	}
	ch.sortLive()
}

// sortLive sorts live by at from the last down (few classes, mostly in
// order: an insertion sort; begin lists them by first job, from the
// last).
func (ch *chains) sortLive() {
	l, at := ch.live, ch.at
	for i := 1; i < len(l); i++ {
		c := l[i]
		k := i
		for ; k > 0 && at[l[k-1]] < at[c]; k-- {
			l[k] = l[k-1]
		}
		l[k] = c
	}
}

// insert adds class c to live at its place by at.
func (ch *chains) insert(c int32) {
	ch.live = append(ch.live, c)
	l, a := ch.live, ch.at[c]
	k := len(l) - 1
	for ; k > 0 && ch.at[l[k-1]] < a; k-- {
		l[k] = l[k-1]
	}
	l[k] = c
}

// refuse notes that Keeps refused class c, whose job visited, just taken
// off live, is followed by s in its chain: until the next take only its
// jobs from s on that run for at most d are visited.
func (ch *chains) refuse(of []classedJob, c, s int32, d sim.Time) {
	if s < 0 {
		return // no later job
	}
	ch.cur[c] = s
	ch.refused = append(ch.refused, c)
	if ch.at[c] = ch.nextShort(of, c, s, d); ch.at[c] >= 0 {
		ch.insert(c)
	}
}

// nextShort returns the first job of class c from s on its chain that
// runs for at most d by its estimate, -1 if none. It walks on from the
// end of the class's long run when s lies in it and d is no longer than
// the run's bound, and notes the run it walked.
func (ch *chains) nextShort(of []classedJob, c, s int32, d sim.Time) int32 {
	if s < 0 {
		return -1
	}
	r := &ch.long[c]
	p := s
	if r.seen >= 0 && d <= r.d && r.lo <= s && s <= r.seen && ch.prev[r.seen] != unlinkedJob {
		p = ch.next[r.seen]
	} else {
		r.lo, r.seen = s, -1
	}
	r.d = d
	for ; p >= 0; p = ch.next[p] {
		if of[p].job.Estimate <= d {
			return p
		}
		r.seen = p
	}
	return -1
}

// past moves on, after the take of job t of class c (the last of live),
// c and every class refused since the last take to its first job after
// t, dropping those that have none. The other live classes are at their
// first job not passed, after t (the job visited first). A refused class
// that died since (a carried refusal whose short job Fits refused) stays
// out: Fits would refuse it again.
func (ch *chains) past(c, t int32) {
	ch.live = ch.live[:len(ch.live)-1]
	n := ch.next[t]
	ch.cur[c], ch.at[c] = n, n
	if n >= 0 {
		ch.insert(c)
	}
	if len(ch.refused) == 0 {
		return
	}
	for _, r := range ch.refused {
		if r == c || ch.dead[r] == ch.gen {
			continue
		}
		s := ch.cur[r]
		for s >= 0 && s <= t {
			s = ch.next[s]
		}
		was := ch.at[r]
		ch.cur[r], ch.at[r] = s, s
		if was < 0 && s >= 0 {
			ch.live = append(ch.live, r)
		}
	}
	ch.refused = ch.refused[:0]
	ch.sortLive()
}
