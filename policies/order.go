package policies

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// Order ranks the waiting queue. Every discipline in this package (strict
// list scheduling, EASY, conservative) takes one, so priorities such as
// fairshare plug in without touching the disciplines.
type Order interface {
	// Name is the order's name in messages and results.
	Name() string
	// Sort reorders q, highest priority first. q is the discipline's
	// whole waiting queue, in arrival order. It must be deterministic;
	// break ties by arrival (Job.Seq).
	Sort(now sim.Time, q []*sim.Job)
}

// StaticOrder is an Order whose ranking of two jobs never changes while they
// wait (it depends on the jobs alone, not on time or usage). The disciplines
// keep such a queue sorted across passes instead of sorting it at each one.
type StaticOrder interface {
	Order
	// Compare returns <0 if a ranks before b, >0 if after; never 0 for two
	// different jobs (break ties by Seq).
	Compare(a, b *sim.Job) int
}

// ObservingOrder is an Order whose ranking depends on what has happened:
// which jobs arrived, started and ended, and when. Fairshare is one. Every
// discipline in this package forwards to such an order the engine's
// sim.Observer calls (Submitted, Finished) as it receives them, and calls
// Started at the end of each pass that starts jobs; the calls come in
// simulation order, at non-decreasing times. An order that does not
// implement ObservingOrder costs the disciplines nothing extra.
type ObservingOrder interface {
	Order
	sim.Observer
	// Started is called once per pass that starts jobs, after the
	// discipline has decided and before the engine applies the decision,
	// with the jobs it starts at now (in the order they start) and the
	// pass's view, which still lists them as waiting. The order must not
	// keep v or js.
	Started(now sim.Time, v sim.View, js []*sim.Job)
}

// Arrival is first-come first-served order: the queue as it arrived.
type Arrival struct{}

// Name returns "arrival".
func (Arrival) Name() string { return "arrival" }

// Sort leaves q as it is.
func (Arrival) Sort(sim.Time, []*sim.Job) {}

// ShortestFirst orders by estimate (requested time), shortest first, ties
// by arrival.
type ShortestFirst struct{}

var _ StaticOrder = ShortestFirst{}

// Name returns "shortest-first".
func (ShortestFirst) Name() string { return "shortest-first" }

// Compare orders by (Estimate, Seq).
func (ShortestFirst) Compare(a, b *sim.Job) int {
	return cmp.Or(cmp.Compare(a.Estimate, b.Estimate), cmp.Compare(a.Seq, b.Seq))
}

// Sort orders q by (Estimate, Seq).
func (s ShortestFirst) Sort(_ sim.Time, q []*sim.Job) { slices.SortFunc(q, s.Compare) }

// ranked gives a discipline its queue in an order's sequence. Arrival order
// is the engine's own slice. A StaticOrder is kept sorted across passes: the
// jobs started since are dropped and the new arrivals sorted and merged in,
// O(queue + new·log new) a pass. Any other order is sorted afresh. An
// ObservingOrder receives the events the discipline forwards through
// submitted, finished and took.
type ranked struct {
	order  Order
	static StaticOrder
	obs    ObservingOrder // nil unless order observes
	// q is the queue of the last pass; spare and fresh are scratch space.
	q, spare, fresh []*sim.Job
	seen            int    // every job with Seq < seen has been merged into q
	gone            []bool // by Seq: started since it was merged
}

func newRanked(o Order) ranked {
	r := ranked{order: o}
	r.static, _ = o.(StaticOrder)
	r.obs, _ = o.(ObservingOrder)
	return r
}

// submitted forwards an arrival to an observing order.
func (r *ranked) submitted(now sim.Time, j *sim.Job) {
	if r.obs != nil {
		r.obs.Submitted(now, j)
	}
}

// finished forwards a completion to an observing order.
func (r *ranked) finished(now sim.Time, j *sim.Job, actual sim.Time) {
	if r.obs != nil {
		r.obs.Finished(now, j, actual)
	}
}

// jobs returns the waiting jobs in order. The slice is valid until the next
// call; the discipline must report the jobs it starts with took.
func (r *ranked) jobs(now sim.Time, v sim.View) []*sim.Job {
	w := v.Waiting()
	switch {
	case isArrival(r.order):
		return w
	case r.static == nil:
		r.q = append(r.q[:0], w...)
		r.order.Sort(now, r.q)
		return r.q
	}
	keep := r.q[:0]
	for _, j := range r.q {
		if !r.gone[j.Seq] {
			keep = append(keep, j)
		}
	}
	// New arrivals are the tail of the arrival-ordered waiting list.
	k := len(w)
	for k > 0 && w[k-1].Seq >= r.seen {
		k--
	}
	if k == len(w) {
		r.q = keep
		return r.q
	}
	r.fresh = append(r.fresh[:0], w[k:]...)
	r.seen = w[len(w)-1].Seq + 1
	for len(r.gone) < r.seen {
		r.gone = append(r.gone, false)
	}
	slices.SortFunc(r.fresh, r.static.Compare)
	merged := mergeSorted(r.spare[:0], keep, r.fresh, r.static.Compare)
	r.q, r.spare = merged, keep[:0]
	return r.q
}

// took records that js start now, so the next pass drops them, and tells an
// observing order.
func (r *ranked) took(now sim.Time, v sim.View, js []*sim.Job) {
	if r.obs != nil && len(js) > 0 {
		r.obs.Started(now, v, js)
	}
	if r.static == nil {
		return
	}
	for _, j := range js {
		// A job that starts before any pass merged it never will be: the
		// next pass takes only the waiting list's new tail.
		if j.Seq < len(r.gone) {
			r.gone[j.Seq] = true
		}
	}
}

func mergeSorted(dst, a, b []*sim.Job, compare func(a, b *sim.Job) int) []*sim.Job {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if compare(a[i], b[j]) <= 0 {
			dst = append(dst, a[i])
			i++
		} else {
			dst = append(dst, b[j])
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// qualified names a discipline run in order o: the bare name for Arrival,
// "name/order" otherwise.
func qualified(name string, o Order) string {
	if isArrival(o) {
		return name
	}
	return name + "/" + o.Name()
}

func isArrival(o Order) bool {
	_, ok := o.(Arrival)
	return ok
}

// userTable is the per-user state of an ObservingOrder that ranks jobs by
// their users (Fairshare, Accuracy): one U for each user seen so far, in
// the order they appeared, and the user of each submitted job. Orders embed
// it.
type userTable[U any] struct {
	users   []U
	index   map[int32]int32 // user number → index in users
	jobUser []int32         // by Job.Seq: index in users; -1 if not submitted
}

// register records j's user, appending a zero U for a user not seen
// before, and returns the user's index and whether it is new (its U for
// the caller to fill in).
func (t *userTable[U]) register(j *sim.Job) (ui int32, isNew bool) {
	for len(t.jobUser) <= j.Seq {
		t.jobUser = append(t.jobUser, -1)
	}
	ui, seen := t.index[j.User]
	if !seen {
		if t.index == nil {
			t.index = make(map[int32]int32)
		}
		ui = int32(len(t.users))
		var zero U
		t.users = append(t.users, zero)
		t.index[j.User] = ui
	}
	t.jobUser[j.Seq] = ui
	return ui, !seen
}

// user returns the state of j's user; j must have been registered.
func (t *userTable[U]) user(j *sim.Job) *U { return &t.users[t.jobUser[j.Seq]] }

// lookup returns the state of user, or false for a user not seen.
func (t *userTable[U]) lookup(user int32) (*U, bool) {
	ui, ok := t.index[user]
	if !ok {
		return nil, false
	}
	return &t.users[ui], true
}
