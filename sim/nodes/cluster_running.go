package nodes

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// runKey is a running job's place in the running list: its estimated end
// (start + estimate) above its sequence number, end<<seqBits | seq, so
// that keys compare as (end, seq) do. It holds no pointer, so the list
// compares keys alone and moves plain memory, which a list of
// sim.Allocation did not: each comparison loaded the job's estimate and
// number through Job, from jobs all over the engine's store, and each
// move went through the write barrier's copy (typedslicecopy). A key
// holds ends from 0 to 2³³ s (272 years); a job that ends later by its
// estimate turns the list into allocations (runList.toList), which hold
// any.
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
// Cluster keeps their nodes in where). It holds them as keys until the
// first call of Cluster.Running (or a job no key can hold), and from then
// on as the allocations Running returns (al, with keys nil). EASY's pass
// on the nodes never asks; the policies that ask View.Running ask at
// every pass, and keeping both the keys and the allocations cost Slurm on
// METACENTRUM's nodes 15 M instructions more than the allocations alone
// (1,380 M against 1,364 M, callgrind inside sim.(*engine).run).
//
// The keys are a binary heap (cluster_run_heap.go): EASY reads the
// running jobs only in its shadow walks, in order from the first, and on
// wagap-2013's nodes its 1,210 walks read five jobs each on average, so a
// list kept sorted through 18 thousand starts and as many ends (8.3 M
// instructions, the search missing its branch prediction at every other
// probe) served little. The walk now draws the first jobs from the heap:
// starts, ends and walks cost 6.4 M there, and 115 thousand fewer
// branches are mispredicted (callgrind inside sim.(*engine).run).
//
// The allocations are a window al[lo:lo+n] with room on both sides, so
// that a start or an end moves the shorter side of the list by one place
// rather than always the jobs after it.
type runList struct {
	keys  []runKey  // a min-heap
	pos   []int32   // each running job's index in keys, by Seq
	at    []nextKey // a walk's heap of the keys next in line (runIter)
	al    []sim.Allocation
	lo, n int
	out   []*sim.Outcome // each started job's, by Seq
}

// minRunRoom is the smallest buffer runList allocates.
const minRunRoom = 64

// endAt returns the estimated end and the sequence number of the job at
// index i of the allocations.
func (r *runList) endAt(i int) (sim.Time, int32) {
	a := &r.al[r.lo+i]
	return a.EstimatedEnd(), int32(a.Job.Seq)
}

// toList turns the keys into allocations, for good (Cluster.Running).
func (r *runList) toList() {
	keys := slices.Clone(r.keys)
	slices.Sort(keys)
	r.al = make([]sim.Allocation, max(minRunRoom, 2*len(keys)+2))
	r.lo = (len(r.al) - len(keys)) / 2
	for x, k := range keys {
		j := &r.out[k.seq()].Job
		r.al[r.lo+x] = sim.Allocation{Job: j, Start: k.end() - j.Estimate}
	}
	r.keys = nil
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
	if int(seq) >= len(r.out) {
		r.out = growBySeq(r.out, int(seq))
	}
	r.out[seq] = o
	k, ok := keyOf(end, seq)
	if r.al != nil || !ok {
		if r.al == nil {
			r.toList()
		}
		r.insertAlloc(end, seq, o)
		return
	}
	r.push(k)
	r.n++
}

// insertAlloc is insert on the allocations.
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
// estimate, out of the list and reports whether it was there.
func (r *runList) remove(end sim.Time, seq int32) bool {
	if r.al != nil {
		return r.removeAlloc(end, seq)
	}
	k, ok := keyOf(end, seq)
	if !ok || !r.drop(k) { // no key holds it, or not there
		return false
	}
	r.n--
	return true
}

// removeAlloc is remove on the allocations. It looks at the front
// first: jobs often end first that were to end first (on METACENTRUM
// nearly all).
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
func spread(buf []sim.Allocation, from, n, i int) ([]sim.Allocation, int) {
	list := buf[from : from+n]
	if len(buf) < 2*(n+1) {
		buf = make([]sim.Allocation, max(minRunRoom, 4*(n+1)))
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
func slideLeft(s []sim.Allocation) {
	if len(s) > slideShort {
		copy(s, s[1:])
		return
	}
	for k := 0; k+1 < len(s); k++ {
		s[k] = s[k+1]
	}
}

// slideRight moves s[:len(s)-1] one place to the right, over the last.
func slideRight(s []sim.Allocation) {
	if len(s) > slideShort {
		copy(s[1:], s)
		return
	}
	for k := len(s) - 1; k > 0; k-- {
		s[k] = s[k-1]
	}
}
