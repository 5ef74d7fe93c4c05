package nodes

import "github.com/schedsweep/schedsweep/sim"

// runKey is a running job's place in the running list: its estimated end
// (start + estimate) above its sequence number, end<<seqBits | seq, so
// that keys compare as (end, seq) do. It holds no pointer, so the list's
// search reads the keys alone and its slides move plain memory, which a
// list of sim.Allocation did not: each probe of its search loaded the
// job's estimate and number through Job, from jobs all over the engine's
// store, and each slide went through the write barrier's copy
// (typedslicecopy). A key holds ends from 0 to 2³³ s (272 years); a job
// that ends later by its estimate turns the list into allocations
// (runList.toList), which hold any.
//
// On wagap-2013's nodes the keys cut EASY's instructions by about 1 M of
// 125 M (callgrind inside sim.(*engine).run), and packing them in 8
// bytes rather than 16 (an end and a seq) by 2.3 M more, half of it in
// the slides' memmove; callgrind's cache simulation finds a few misses
// fewer than with allocations (L1 data misses 570 k → 556 k).
type runKey uint64

// seqBits is how many bits of a runKey hold the sequence number.
const seqBits = 31

// keyOf returns the key of (end, seq), and false if end is out of a key's
// range.
func keyOf(end sim.Time, seq int32) (runKey, bool) {
	return runKey(end)<<seqBits | runKey(seq), end >= 0 && end < 1<<(64-seqBits)
}

// end and seq return the parts of the key.
func (k runKey) end() sim.Time { return sim.Time(k >> seqBits) }
func (k runKey) seq() int32    { return int32(k & (1<<seqBits - 1)) }

// runList is the running jobs by (estimated end, seq), the order of
// View.Running, with their outcomes by sequence number (out, as the
// Cluster keeps their nodes in where). It holds them as keys (buf) until
// the first call of Cluster.Running (or a job no key can hold), and from
// then on as the allocations Running returns (al, with buf nil). EASY's
// pass on the nodes never asks and reads the keys; the policies that ask
// View.Running ask at every pass, and keeping both the keys and the
// allocations cost Slurm on METACENTRUM's nodes 15 M instructions more
// than the allocations alone (1,380 M against 1,364 M, callgrind inside
// sim.(*engine).run), most of it sliding both.
//
// The list is a window buf[lo:lo+n] (or al's) with room on both sides, so
// that a start or an end moves the shorter side of the list by one place
// rather than always the jobs after it. On wagap-2013 most ends are near
// the front (jobs end before their estimates, the earliest estimated ends
// first) and starts fall all over the list, so this moves about a third
// of what shifting the tail does.
type runList struct {
	buf   []runKey
	al    []sim.Allocation
	lo, n int
	out   []*sim.Outcome // each started job's, by Seq: the caller makes room for it
}

// minRunRoom is the smallest buffer runList allocates.
const minRunRoom = 64

// endAt returns the estimated end and the sequence number of the job at
// index i of the list.
func (r *runList) endAt(i int) (sim.Time, int32) {
	if r.al != nil {
		a := &r.al[r.lo+i]
		return a.EstimatedEnd(), int32(a.Job.Seq)
	}
	k := r.buf[r.lo+i]
	return k.end(), k.seq()
}

// toList turns the keys into allocations, for good (Cluster.Running).
func (r *runList) toList() {
	r.al = make([]sim.Allocation, len(r.buf), max(1, len(r.buf))) // not nil even when empty
	for x := r.lo; x < r.lo+r.n; x++ {
		k := r.buf[x]
		j := &r.out[k.seq()].Job
		r.al[x] = sim.Allocation{Job: j, Start: k.end() - j.Estimate}
	}
	r.buf = nil
}

// keyAt returns the first index of the keys whose key is not below k; n
// if none. (A search without a branch on the keys, the borrow of a
// subtraction choosing the half, missed 130 thousand fewer predictions on
// wagap-2013's nodes but ran 2.5 M more instructions in all: dropped.)
func (r *runList) keyAt(k runKey) int {
	list := r.buf[r.lo : r.lo+r.n]
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if list[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// allocAt returns the first index of the allocations whose job ends
// after end, or at end with a sequence number of at least seq; n if none.
func (r *runList) allocAt(end sim.Time, seq int32) int {
	list := r.al[r.lo : r.lo+r.n]
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		a := &list[m]
		if e := a.Start + a.Job.Estimate; e < end || e == end && int32(a.Job.Seq) < seq {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// insert puts o's job, which ends at end by its estimate, in its place.
func (r *runList) insert(end sim.Time, seq int32, o *sim.Outcome) {
	r.out[seq] = o
	k, ok := keyOf(end, seq)
	if r.al != nil || !ok {
		if r.al == nil {
			r.toList()
		}
		r.insertAlloc(end, seq, o)
		return
	}
	n := r.n
	i := r.keyAt(k)
	switch {
	case i < n-i && r.lo > 0: // the head moves one place to the left
		r.lo--
		slideLeft(r.buf[r.lo : r.lo+i+1])
	case i >= n-i && r.lo+n < len(r.buf): // the tail moves one place to the right
		slideRight(r.buf[r.lo+i : r.lo+n+1])
	default:
		r.buf, r.lo = spread(r.buf, r.lo, n, i)
	}
	r.buf[r.lo+i] = k
	r.n++
}

// insertAlloc is insert on the allocations. It moves them as insert moves
// the keys, which stays written out there: a function of both, generic
// on the element, costs EASY a call per insert.
func (r *runList) insertAlloc(end sim.Time, seq int32, o *sim.Outcome) {
	n := r.n
	i := r.allocAt(end, seq)
	switch {
	case i < n-i && r.lo > 0:
		r.lo--
		slideLeft(r.al[r.lo : r.lo+i+1])
	case i >= n-i && r.lo+n < len(r.al):
		slideRight(r.al[r.lo+i : r.lo+n+1])
	default:
		r.al, r.lo = spread(r.al, r.lo, n, i)
	}
	r.al[r.lo+i] = sim.Allocation{Job: &o.Job, Start: end - o.Estimate}
	r.n++
}

// remove takes the job of sequence number seq, which ends at end by its
// estimate, out of the list and reports whether it was there. It looks at
// the front first: jobs often end first that were to end first (on
// METACENTRUM nearly all).
func (r *runList) remove(end sim.Time, seq int32) bool {
	if r.al != nil {
		return r.removeAlloc(end, seq)
	}
	k, ok := keyOf(end, seq)
	if !ok { // no key holds it
		return false
	}
	list, n := r.buf[r.lo:r.lo+r.n], r.n
	i := 0
	if n == 0 || list[0] != k {
		if i = r.keyAt(k); i == n || list[i] != k {
			return false
		}
	}
	r.n--
	switch {
	case n == 1: // empty: as much room on both sides again
		r.lo = len(r.buf) / 2
	case i < n-1-i: // the head moves one place to the right
		slideRight(list[:i+1])
		r.lo++
	default:
		slideLeft(list[i:])
	}
	return true
}

// removeAlloc is remove on the allocations, which it moves as remove
// moves the keys.
func (r *runList) removeAlloc(end sim.Time, seq int32) bool {
	list, n := r.al[r.lo:r.lo+r.n], r.n
	i := 0
	if n == 0 || list[0].Job.Seq != int(seq) || list[0].EstimatedEnd() != end {
		if i = r.allocAt(end, seq); i == n || list[i].Job.Seq != int(seq) || list[i].EstimatedEnd() != end {
			return false
		}
	}
	r.n--
	switch {
	case n == 1:
		r.lo = len(r.al) / 2
	case i < n-1-i:
		slideRight(list[:i+1])
		r.lo++
	default:
		slideLeft(list[i:])
	}
	return true
}

// spread lays the list buf[from:from+n] out again with as much room on
// both sides, and a gap at its index i: in place when the buffer holds
// twice the list, else in a buffer twice as large. It returns the buffer
// and the list's new start.
func spread[T any](buf []T, from, n, i int) ([]T, int) {
	list := buf[from : from+n]
	if len(buf) < 2*(n+1) {
		buf = make([]T, max(minRunRoom, 4*(n+1)))
	}
	to := (len(buf) - (n + 1)) / 2
	// In place, the pieces move in the order that overwrites nothing
	// still to be moved: to the right, the tail first. Into a new buffer
	// either order does.
	if to > from {
		copy(buf[to+i+1:], list[i:])
		copy(buf[to:], list[:i])
	} else {
		copy(buf[to:], list[:i])
		copy(buf[to+i+1:], list[i:])
	}
	return buf, to
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
