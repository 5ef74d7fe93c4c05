package nodes

import (
	"math"
	"slices"
	"sort"

	"github.com/schedsweep/schedsweep/sim"
)

// Profile is the free resources of a Cluster's nodes over future time, as
// estimates predict them, with reservations that pin nodes (as Maui and
// Slurm reserve): a reservation is a placement (which nodes, how many
// cores on each, the job's memory and GPUs on each) held over
// [start, start+Span(estimate)). It is the node-level counterpart of
// sim.Profile for the backfilling policies that keep reservations
// (conservative, Maui); a policy gets the cluster's one Profile from
// ProfileOf.
//
// Each node has its own step function of free cores, memory and GPUs and
// of the jobs holding it (exclusive ones counted apart), built from the
// running jobs' placements to their estimated ends and from the
// reservations. A job fits at t when the cluster's fit rule (first or
// best fit, as Apply places) finds a placement among the nodes as they
// are over the whole of [t, t+Span(estimate)): each node offers the least
// it has free over that interval, and a node some job holds whole at any
// instant of it is not usable. Fit returns the earliest such t.
//
// The earliest t is the search's start or the end of some hold (a running
// job's estimated end, a reservation's end): just before a time at which
// no hold ends, every node has at least as much free over the interval
// as from that time. For a tasks request Fit tries those times in order;
// a sum over the nodes (a sim.Profile of free usable cores, memory and
// GPUs) skips the times at which even the aggregate lacks room, and only
// the rest are tried node by node. For a nodes × per-node request of k
// nodes it asks each node for its own earliest start and tries the k-th
// smallest, going on from there until k nodes hold the job together.
//
// A reservation never moves later: Move lifts it and places the job again
// with every other reservation in place, and its old slot (the same
// nodes, the same interval) is still free, so the new time is never later;
// at the same time the job keeps its nodes. A job whose reservation comes
// starts on its reserved nodes: Start returns the placement for
// sim.Action.Place, which the Cluster checks in Apply.
//
// Costs: with N nodes, a node's steps s, and c candidate times that pass
// the aggregate (or k-th smallest starts tried), Fit is
// O(aggregate steps + c × N × s) in the worst case (first fit stops at the
// nodes it needs); laying or lifting a reservation of k nodes is
// O(k × s) plus the aggregate's O(log steps + steps covered). A node with
// no core free at the time tried costs one comparison: the profile keeps
// when each node's first step with a free core starts. Move first
// asks the sum over the nodes whether an earlier time is possible at all,
// without changing it when the job's share of the sum is exactly what it
// asks of it (sim.Profile.FitLifted).
type Profile struct {
	c    *Cluster
	now  sim.Time
	node [][]pstep   // by node: its steps; those before now are dropped lazily
	free []sim.Time  // by node: when its first step with a free core starts, or unknown
	agg  sim.Profile // the sum over the nodes: a necessary condition
	ends []endAt     // the distinct ends of the holds after now, with counts
	res  []resv      // by Job.Seq
	runs []int       // the jobs whose hold may be running: laid by base, or Start since

	baseEnds  []sim.Time      // scratch of base: the running jobs' ends
	baseGives []sim.Resources // and what each gives back to the sum then

	found  found // the placement the last search found
	uses   []Use // scratch of the searches
	spare  []Use // a second, for ReserveTo
	cand   []cand
	starts []sim.Time

	record bool    // keep the log for Verify
	log    []Event // reservations laid, moved, lifted and started, in order
	// check, when set (tests), is told of every search's answer.
	check func(q Query)
}

// Query is one answer of a Profile's search, for a test's check
// (SetCheck in the tests): From the search's start, At its answer (-1:
// none) and Uses the placement found there. Only: whether j fits at From
// alone (Fits). Kept: Move kept j's reservation at At without a search on
// the nodes; the answer then holds with j's own reservation lifted, and
// Uses are its old nodes.
type Query struct {
	From, At   sim.Time
	Job        *sim.Job
	Uses       []Use
	Only, Kept bool
}

// pstep is a node's free resources on [at, the next step's at).
type pstep struct {
	at               sim.Time
	cores, mem, gpus int64
	jobs, excl       int32 // jobs holding the node; of those, exclusive ones
}

type endAt struct {
	at sim.Time
	n  int32
}

// resv is a job's reservation or, once it started, its hold.
type resv struct {
	state   uint8 // none, reserved, running
	at, end sim.Time
	uses    []Use
	lifted  bool // reserved but out of the profile (Suspend)
	r       req
	agg     sim.Resources
}

const (
	none uint8 = iota
	reserved
	running
)

type found struct {
	job  *sim.Job
	at   sim.Time
	uses []Use
}

// EventKind is what happened to a reservation.
type EventKind uint8

// The kinds of Event.
const (
	Laid    EventKind = iota + 1 // a new reservation
	Moved                        // a reservation re-placed earlier (compression)
	Lifted                       // a reservation withdrawn
	Started                      // the job started on its reservation
)

// Event is one entry of a Profile's log, kept when Cluster.RecordReservations
// was called: at time Now, job Seq's reservation was laid or moved to
// [At, …) on Uses, lifted, or its job started.
type Event struct {
	Kind EventKind
	Now  sim.Time
	Seq  int
	At   sim.Time
	Uses []Use
}

// ProfileOf returns the node profile of the cluster behind v, nil if v's
// model is not a Cluster. It makes the profile on the first call; a run
// has one, for its one policy.
func ProfileOf(v sim.View) *Profile {
	cv, ok := v.Model().(View)
	if !ok || cv.c == nil {
		return nil
	}
	c := cv.c
	if c.prof == nil {
		c.prof = &Profile{c: c, record: c.record}
	}
	return c.prof
}

// Reset makes p the profile at now of the cluster's running jobs, each
// holding its nodes to its estimated end (one second from now if that has
// passed), and lays the reservations of the jobs of q back on their
// nodes. It reports false if one starts before now or they no longer fit
// together (possible only when jobs overran their estimates); the policy
// then calls Clear.
func (p *Profile) Reset(now sim.Time, q []*sim.Job) bool {
	p.base(now)
	ok := true
	for _, j := range q {
		if j.Seq >= len(p.res) {
			continue
		}
		switch rs := &p.res[j.Seq]; {
		case rs.state != reserved:
		case rs.at < now:
			ok = false
		default:
			rs.lifted = false
			p.hold(rs.r, rs.uses, rs.at, rs.end, rs.agg, -1)
		}
	}
	return ok && !p.overfull()
}

// Clear lifts the reservations of the jobs of q, logged as withdrawn, and
// makes p the profile at now of the running jobs alone.
func (p *Profile) Clear(now sim.Time, q []*sim.Job) {
	for _, j := range q {
		if j.Seq < len(p.res) && p.res[j.Seq].state == reserved {
			p.res[j.Seq] = resv{}
			p.logEvent(Lifted, j.Seq, -1, nil)
		}
	}
	p.base(now)
}

// base lays the running jobs on fresh steps from now.
func (p *Profile) base(now sim.Time) {
	p.now = now
	st := &p.c.st
	if len(p.node) != len(st.cap) {
		p.node = make([][]pstep, len(st.cap))
		p.free = make([]sim.Time, len(st.cap))
	}
	for n := range p.free {
		p.free[n] = unknown
	}
	var total sim.Resources
	for n := range p.node {
		p.node[n] = append(p.node[n][:0], pstep{at: now, cores: st.cap[n], mem: p.c.groups[p.c.group[n]].Memory,
			gpus: p.c.groups[p.c.group[n]].GPUs})
		total = total.Add(sim.Resources{sim.Procs: st.cap[n], sim.Memory: p.node[n][0].mem, sim.GPUs: p.node[n][0].gpus})
	}
	p.ends = p.ends[:0]
	p.found = found{}
	for _, seq := range p.runs {
		if p.res[seq].state == running {
			p.res[seq] = resv{}
		}
	}
	p.runs = p.runs[:0]
	// The running jobs all hold from now, in order of estimated end: the
	// sum over the nodes is laid in one sweep (sim.Profile.ResetEnds).
	// Running's list is the cheapest to read, and the policies that keep a
	// profile ask it at every pass anyway (cluster_run_view.go).
	p.baseEnds, p.baseGives = p.baseEnds[:0], p.baseGives[:0]
	for _, a := range p.c.Running() {
		seq := a.Job.Seq
		p.grow(seq)
		uses := p.c.where[seq]
		r := reqOf(a.Job)
		rs := &p.res[seq]
		*rs = resv{state: running, at: a.Start, end: max(a.EstimatedEnd(), now+1), uses: uses, r: r, agg: p.aggOf(r, uses)}
		p.runs = append(p.runs, seq)
		for _, u := range uses {
			for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
				p.baseHold(n, rs.end, int64(u.Cores), r)
			}
		}
		p.addEnd(rs.end)
		total = total.Sub(rs.agg)
		p.baseEnds, p.baseGives = append(p.baseEnds, rs.end), append(p.baseGives, rs.agg)
	}
	p.agg.ResetEnds(now, total, p.baseEnds, p.baseGives)
}

func (p *Profile) grow(seq int) {
	for len(p.res) <= seq {
		p.res = append(p.res, resv{})
	}
}

// Advance moves the profile's start to now, which must not be before the
// last. Steps before now are dropped as they are next touched.
func (p *Profile) Advance(now sim.Time) {
	p.now = now
	p.agg.Advance(now)
	i := sort.Search(len(p.ends), func(i int) bool { return p.ends[i].at > now })
	p.ends = p.ends[:copy(p.ends, p.ends[i:])]
	p.found = found{}
}

// Len returns the number of steps of the sum over the nodes.
func (p *Profile) Len() int { return p.agg.Len() }

// Compact merges the aggregate's equal neighbouring steps (sim.Profile's
// Compact); the nodes' steps are merged as they change.
func (p *Profile) Compact() { p.agg.Compact() }

// FreeAt returns the sum over the nodes of what is free at t: usable cores
// (none on a node held whole), memory and GPUs.
func (p *Profile) FreeAt(t sim.Time) sim.Resources { return p.agg.FreeAt(t) }

// Fit returns the earliest time at or after from (not before the
// profile's start) at which j can be placed for Span(its estimate), -1 if
// never (j fits no node of the empty cluster). It changes nothing; Reserve
// lays j where it found room.
func (p *Profile) Fit(from sim.Time, j *sim.Job) sim.Time {
	r := reqOf(j)
	d := sim.Span(j.Estimate)
	filt := filter(r)
	t := max(from, p.now)
	if r.nodes > 0 {
		if t = p.earliestNodes(r, t, d); t >= 0 {
			p.found = found{job: j, at: t, uses: p.uses}
		}
	}
	for r.nodes == 0 {
		if t = p.agg.Fit(t, d, filt); t < 0 {
			break
		}
		if uses, ok := p.placeAt(r, t, t+d); ok {
			p.found = found{job: j, at: t, uses: uses}
			break
		}
		if t = p.nextEnd(t); t < 0 {
			break
		}
	}
	if p.check != nil {
		q := Query{From: from, At: t, Job: j}
		if t >= 0 {
			q.Uses = p.found.uses
		}
		p.check(q)
	}
	return t
}

// Fits reports whether j can be placed at t for Span(its estimate). If it
// cannot, until is a time before which it cannot be placed from any time
// in [t, until) either, as long as no room is given back (math.MaxInt64:
// not while the profile only loses room).
func (p *Profile) Fits(t sim.Time, j *sim.Job) (ok bool, until sim.Time) {
	r := reqOf(j)
	d := sim.Span(j.Estimate)
	if ok, until := p.agg.Fits(t, d, filter(r)); !ok {
		if p.check != nil {
			p.check(Query{From: t, At: -1, Job: j, Only: true})
		}
		return false, until
	}
	uses, ok := p.placeAt(r, t, t+d)
	if p.check != nil {
		q := Query{From: t, At: -1, Job: j, Only: true}
		if ok {
			q.At, q.Uses = t, uses
		}
		p.check(q)
	}
	if ok {
		p.found = found{job: j, at: t, uses: uses}
		return true, 0
	}
	if until = p.nextEnd(t); until < 0 {
		until = math.MaxInt64
	}
	return false, until
}

// Place lays j at its earliest fit from from and returns that time, -1
// (laying nothing) if j fits nowhere.
func (p *Profile) Place(from sim.Time, j *sim.Job) sim.Time {
	t := p.Fit(from, j)
	if t >= 0 {
		p.Reserve(j, t)
	}
	return t
}

// Reserve lays j's reservation at t on the placement the last Fit or
// Fits found for j at t; j must hold none. It panics if there is no such
// placement (a policy's broken invariant).
func (p *Profile) Reserve(j *sim.Job, t sim.Time) {
	if p.found.job != j || p.found.at != t {
		panic("nodes: Reserve without a placement found at that time") // broken invariant
	}
	p.lay(j, t, slices.Clone(p.found.uses), Laid)
	p.found = found{}
}

// lay records and lays j's reservation at t on uses.
func (p *Profile) lay(j *sim.Job, t sim.Time, uses []Use, kind EventKind) {
	p.layTo(j, t, t+sim.Span(j.Estimate), uses, kind)
}

// layTo records and lays j's reservation on [t, end) on uses.
func (p *Profile) layTo(j *sim.Job, t, end sim.Time, uses []Use, kind EventKind) {
	p.grow(j.Seq)
	r := reqOf(j)
	rs := &p.res[j.Seq]
	*rs = resv{state: reserved, at: t, end: end, uses: uses, r: r, agg: p.aggOf(r, uses)}
	p.hold(r, uses, t, rs.end, rs.agg, -1)
	p.logEvent(kind, j.Seq, t, uses)
}

// Lift takes j's reservation out of the profile and forgets it (a
// withdrawn promise).
func (p *Profile) Lift(j *sim.Job) {
	rs := &p.res[j.Seq]
	if rs.state != reserved {
		return
	}
	if !rs.lifted {
		p.hold(reqOf(j), rs.uses, rs.at, rs.end, rs.agg, +1)
	}
	*rs = resv{}
	p.found = found{}
	p.logEvent(Lifted, j.Seq, -1, nil)
}

// Suspend takes j's reservation out of the profile but keeps it, for
// Resume to lay back.
func (p *Profile) Suspend(j *sim.Job) {
	rs := &p.res[j.Seq]
	if rs.state == reserved && !rs.lifted {
		p.hold(reqOf(j), rs.uses, rs.at, rs.end, rs.agg, +1)
		rs.lifted = true
		p.found = found{}
	}
}

// Resume lays j's suspended reservation back on its nodes at its time if
// they still hold it and reports true; otherwise it forgets the
// reservation (logged as withdrawn) and reports false.
func (p *Profile) Resume(j *sim.Job) bool {
	rs := &p.res[j.Seq]
	if rs.state != reserved || !rs.lifted {
		return rs.state == reserved
	}
	r := reqOf(j)
	for _, u := range rs.uses {
		for n := int(u.Node); n < int(u.Node+u.Nodes); n++ {
			if w := p.win(n, rs.at, rs.end); !p.usableWin(n, w, r) || w.cores < int64(u.Cores) {
				*rs = resv{}
				p.logEvent(Lifted, j.Seq, -1, nil)
				return false
			}
		}
	}
	rs.lifted = false
	p.hold(r, rs.uses, rs.at, rs.end, rs.agg, -1)
	return true
}

// Move re-places j's reservation at its earliest fit from from with every
// other reservation in place, and returns its time. When from is not
// after the reservation, the old slot is still free, so the new time is
// never later; if it is not earlier either, j keeps its nodes. When from
// is after it (a policy that may not let j start before a later one), the
// reservation is withdrawn and laid anew at the fit.
func (p *Profile) Move(from sim.Time, j *sim.Job) sim.Time {
	rs := &p.res[j.Seq]
	old, r := rs.at, reqOf(j)
	if from <= old {
		// The aggregate alone, with j's own room given back, says whether
		// an earlier time is possible at all.
		var t sim.Time
		if filt := filter(r); filt == rs.agg {
			t = p.agg.FitLifted(from, rs.end-old, filt, old) // no change to the sum
		} else {
			p.agg.Unreserve(old, rs.end-old, rs.agg)
			t = p.agg.Fit(from, rs.end-old, filt)
			p.agg.Reserve(old, rs.end-old, rs.agg)
		}
		if t >= old {
			if p.check != nil {
				p.check(Query{From: from, At: old, Job: j, Uses: rs.uses, Kept: true})
			}
			return old
		}
	}
	uses := rs.uses
	p.hold(r, uses, old, rs.end, rs.agg, +1)
	*rs = resv{}
	t := p.Fit(from, j)
	switch {
	case from <= old && (t < 0 || t >= old):
		p.lay(j, old, uses, 0) // unchanged: not logged
		return old
	case from > old:
		p.logEvent(Lifted, j.Seq, -1, nil)
		if t < 0 {
			return -1
		}
		p.lay(j, t, slices.Clone(p.found.uses), Laid)
	default:
		p.lay(j, t, slices.Clone(p.found.uses), Moved)
	}
	p.found = found{}
	return t
}

// Start marks j, whose reservation is at now, as started on it and
// returns its placement, for sim.Action.Place. Nothing changes in the
// profile: the reservation becomes the running job's hold.
func (p *Profile) Start(j *sim.Job) []Use {
	rs := &p.res[j.Seq]
	if rs.state != reserved || rs.at != p.now || rs.lifted {
		panic("nodes: Start of a job whose reservation is not now") // broken invariant
	}
	rs.state = running
	p.runs = append(p.runs, j.Seq)
	p.logEvent(Started, j.Seq, p.now, rs.uses)
	return rs.uses
}

// Ended gives back, from now, the rest of the hold of j, a job that
// started on its reservation (or ran when the profile was reset) and ended
// at now; it reports whether that was before its estimated end, so that
// room was given back.
func (p *Profile) Ended(now sim.Time, j *sim.Job) bool {
	if j.Seq >= len(p.res) {
		return false
	}
	rs := &p.res[j.Seq]
	early := rs.state == running && now < rs.end
	if early {
		p.hold(rs.r, rs.uses, now, rs.end, rs.agg, +1)
	}
	*rs = resv{}
	return early
}
