package nodes

import (
	"math/bits"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// endQueue is the running jobs' true ends: they leave it by end, those at
// the same end in the order they started, as they left the jobs.Queue of
// *sim.Outcome the cluster kept before. That queue's events took 24 bytes
// with a pointer, and every move in Push and Pop went through the write
// barrier's check; here an end is one uint64 (endKey), its end above its
// order of start, so a heap's comparison is one and a move one word. The
// job of each start is in started. An end out of a key's range, [0, 2³³)
// s, goes to far, a jobs.Queue (a run's ends are never negative, and a
// trace spans years, not centuries).
//
// On wagap-2013's nodes this cut EASY's instructions by 1.1 M of 122 M
// (callgrind inside sim.(*engine).run): push and pop cost 5.1 M where
// Push and Pop cost 7.0 M, less what the checks of far add to Advance
// and Next. A heap of 16-byte ends (end, order of start, seq) cut 0.5 M.
type endQueue struct {
	h       []endKey
	started []int32 // the jobs' sequence numbers, in the order they started
	far     jobs.Queue[sim.Time, int32]
}

// endKey is a job's end above its order of start, at<<startBits | n, so
// that keys compare as (at, n) do.
type endKey uint64

// startBits is how many bits of an endKey hold the order of start.
const startBits = 31

// len returns how many ends are queued.
func (q *endQueue) len() int { return len(q.h) + q.far.Len() }

// first returns the earliest end; the queue must not be empty.
func (q *endQueue) first() sim.Time {
	if q.farFirst() {
		return q.far.Min().At
	}
	return sim.Time(q.h[0] >> startBits)
}

// farFirst reports whether the earliest end is far's: ends in far and in
// the heap differ, so the order of start never decides between them.
func (q *endQueue) farFirst() bool {
	return q.far.Len() > 0 && (len(q.h) == 0 || q.far.Min().At < sim.Time(q.h[0]>>startBits))
}

// push queues the end at of the job of sequence number seq, which starts
// now: the jobs start at most 2³¹ times (Cluster.Apply).
func (q *endQueue) push(at sim.Time, seq int32) {
	n := len(q.started)
	q.started = append(q.started, seq)
	if at < 0 || at >= 1<<(64-startBits) {
		q.far.Push(at, seq)
		return
	}
	k := endKey(at)<<startBits | endKey(n)
	h := append(q.h, k)
	i := len(h) - 1
	for i > 0 { // most ends are after their parent's, so swap rather than a hole
		p := (i - 1) / 2
		if h[p] <= k {
			break
		}
		h[i], h[p] = h[p], k
		i = p
	}
	q.h = h
}

// pop removes the earliest end and returns its job's sequence number; the
// queue must not be empty.
func (q *endQueue) pop() int32 {
	if q.farFirst() {
		return q.far.Pop().V
	}
	return q.started[q.popKey()&(1<<startBits-1)]
}

// popKey removes and returns the heap's least key. The last key fills the
// root's place: rather than sift it down with two comparisons a level, it
// moves the smaller child up into the hole all the way to a leaf, one
// comparison a level, then sifts the last key up from there (Floyd's
// bottom-up variant, as jobs.Queue): the last key is most often among the
// latest, so it seldom rises far.
func (q *endQueue) popKey() endKey {
	h := q.h
	top := h[0]
	last := len(h) - 1
	x := h[last]
	h = h[:last]
	if last > 0 {
		n := uint(len(h)) // unsigned indices spare the bounds checks
		i := uint(0)
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			if r := c + 1; r < n { // the smaller child, without a branch on the keys
				_, less := bits.Sub64(uint64(h[r]), uint64(h[c]), 0)
				c += uint(less)
			}
			h[i] = h[c]
			i = c
		}
		for i > 0 {
			p := (i - 1) / 2
			if x >= h[p] {
				break
			}
			h[i] = h[p]
			i = p
		}
		h[i] = x
	}
	q.h = h
	return top
}
