package nodes

import "github.com/schedsweep/schedsweep/sim"

// runKey is a running job's place in the running list: its estimated end
// (start + estimate) and its sequence number. It holds no pointer, so the
// list's search reads the keys alone and its slides move plain memory,
// which a list of sim.Allocation did not: each probe of its search loaded
// the job's estimate and number through Job (a cache miss as often as
// not), and each slide went through the write barrier's copy
// (typedslicecopy).
type runKey struct {
	end sim.Time
	seq int32
}

// before reports whether k comes before (end, seq) in the list.
func (k runKey) before(end sim.Time, seq int32) bool {
	return k.end < end || k.end == end && k.seq < seq
}

// runList is the running jobs' keys by (estimated end, seq), the order of
// View.Running, with the jobs' outcomes by sequence number (out, as the
// Cluster keeps their nodes in where), and once asked for them (list) their
// allocations too, in a second buffer laid out as the first: al[i] is
// buf[i]'s job. The keys move first and the allocations, if kept, after
// them (follow), which keeps the keys' code free of the allocations'.
//
// The list is a window buf[lo:lo+n] with room on both sides, so that a
// start or an end moves the shorter side of the list by one place rather
// than always the keys after it. On wagap-2013 most ends are near the
// front (jobs end before their estimates, the earliest estimated ends
// first) and starts fall all over the list, so this moves about a third
// of what shifting the tail does.
type runList struct {
	buf   []runKey
	al    []sim.Allocation // nil until list is called
	lo, n int
	out   []*sim.Outcome // each started job's, by Seq: the caller makes room for it
}

// minRunRoom is the smallest buffer runList allocates.
const minRunRoom = 64

// keys returns the list; it is valid until the next insert or remove.
func (r *runList) keys() []runKey { return r.buf[r.lo : r.lo+r.n] }

// list returns the running jobs' allocations. From its first call on,
// insert and remove move the allocations after the keys, at no cost to
// search them. It is valid until the next insert or remove.
func (r *runList) list() []sim.Allocation {
	if r.al == nil {
		r.al = make([]sim.Allocation, len(r.buf), max(1, len(r.buf))) // not nil even when empty
		for i := range r.n {
			r.put(r.lo + i)
		}
	}
	return r.al[r.lo : r.lo+r.n]
}

// put sets al[x] to the allocation of buf[x]'s job: its start is the key's
// end less its estimate, which is how the key was made (Cluster.startRun).
func (r *runList) put(x int) {
	k := r.buf[x]
	j := &r.out[k.seq].Job
	r.al[x] = sim.Allocation{Job: j, Start: k.end - j.Estimate}
}

// at returns the first index of the list whose key is not before (end,
// seq); n if none.
func (r *runList) at(end sim.Time, seq int32) int {
	list := r.keys()
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if list[m].before(end, seq) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// shift is how an insert or a remove moved the keys, for follow.
type shift uint8

// The shifts: those of an insert, then those of a remove.
const (
	headLeft shift = iota
	tailRight
	spreadGap // spread moved the allocations too
	headRight
	tailLeft
	emptied
)

// insert puts the key (end, seq) of o's job in its place; out must have
// room for it.
func (r *runList) insert(end sim.Time, seq int32, o *sim.Outcome) {
	r.out[seq] = o
	n := r.n
	i := r.at(end, seq)
	sh := spreadGap
	switch {
	case i < n-i && r.lo > 0: // the head moves one place to the left
		r.lo--
		slideLeft(r.buf[r.lo : r.lo+i+1])
		sh = headLeft
	case i >= n-i && r.lo+n < len(r.buf): // the tail moves one place to the right
		slideRight(r.buf[r.lo+i : r.lo+n+1])
		sh = tailRight
	default:
		r.spread(i)
	}
	r.buf[r.lo+i] = runKey{end, seq}
	r.n++
	if r.al != nil {
		r.follow(i, sh)
	}
}

// spread lays the list out again with as much room on both sides, and a
// gap at i for the key insert adds: in place when the buffer holds twice
// the list, else in a buffer twice as large. The allocations, if kept,
// move the same way.
func (r *runList) spread(i int) {
	n := r.n
	size := len(r.buf)
	if size < 2*(n+1) {
		size = max(minRunRoom, 4*(n+1))
	}
	lo := (size - (n + 1)) / 2
	r.buf = spreadOut(r.buf, size, r.lo, lo, n, i)
	if r.al != nil {
		r.al = spreadOut(r.al, size, r.lo, lo, n, i)
	}
	r.lo = lo
}

// spreadOut moves the list buf[from:from+n] to buf[to:], but for a gap at
// its index i, in a new buffer of the given size if buf is not as large.
// In place, the pieces move in the order that overwrites nothing still to
// be moved: to the right, the tail first. Into a new buffer either order
// does.
func spreadOut[T any](buf []T, size, from, to, n, i int) []T {
	list := buf[from : from+n]
	if len(buf) != size {
		buf = make([]T, size)
	}
	if to > from {
		copy(buf[to+i+1:], list[i:])
		copy(buf[to:], list[:i])
	} else {
		copy(buf[to:], list[:i])
		copy(buf[to+i+1:], list[i:])
	}
	return buf
}

// remove takes the key (end, seq) out of the list and reports whether it
// was there.
func (r *runList) remove(end sim.Time, seq int32) bool {
	list, n := r.keys(), r.n
	i := 0 // jobs often end first that were to end first
	if n == 0 || list[0] != (runKey{end, seq}) {
		if i = r.at(end, seq); i == n || list[i].seq != seq {
			return false
		}
	}
	r.n--
	sh := emptied
	switch {
	case n == 1: // empty: as much room on both sides again
		r.lo = len(r.buf) / 2
	case i < n-1-i: // the head moves one place to the right
		slideRight(list[:i+1])
		r.lo++
		sh = headRight
	default:
		slideLeft(list[i:])
		sh = tailLeft
	}
	if r.al != nil {
		r.follow(i, sh)
	}
	return true
}

// follow moves the kept allocations as insert or remove moved the keys:
// sh at index i, and after an insert, puts the new job's at i.
func (r *runList) follow(i int, sh shift) {
	lo, n := r.lo, r.n
	switch sh {
	case headLeft:
		slideLeft(r.al[lo : lo+i+1])
	case tailRight:
		slideRight(r.al[lo+i : lo+n])
	case headRight:
		slideRight(r.al[lo-1 : lo+i])
	case tailLeft:
		slideLeft(r.al[lo+i : lo+n+1])
	}
	if sh <= spreadGap {
		r.put(lo + i)
	}
}

// slideShort is the longest slide done one element at a time: below it a
// loop costs less than copy's call.
const slideShort = 8

// slideLeft moves s[1:] one place to the left, over s[0].
func slideLeft[T any](s []T) {
	if len(s) > slideShort {
		copy(s, s[1:])
		return
	}
	for k := 0; k+1 < len(s); k++ {
		s[k] = s[k+1]
	}
}

// slideRight moves s[:len(s)-1] one place to the right, over the last.
func slideRight[T any](s []T) {
	if len(s) > slideShort {
		copy(s[1:], s)
		return
	}
	for k := len(s) - 1; k > 0; k-- {
		s[k] = s[k-1]
	}
}
