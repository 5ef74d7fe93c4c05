package nodes

import "github.com/schedsweep/schedsweep/sim"

// endKey is a running job's true end in the cluster's queue of ends: when
// it ends, the order in which it started (n, one count per start) and
// its sequence number. It holds no pointer, for the reason runKey holds
// none: a heap of sim.Outcome pointers (jobs.Queue, as the pool keeps)
// copied each moved event through the write barrier's check.
type endKey struct {
	at  sim.Time
	n   uint32
	seq int32
}

func (a *endKey) less(b *endKey) bool {
	return a.at < b.at || a.at == b.at && a.n < b.n
}

// endQueue is a binary min-heap of endKeys by (at, n): the jobs that end
// at the same time leave it in the order they started, as they left
// jobs.Queue, whose algorithms it follows (see there). The zero endQueue
// is empty.
type endQueue struct {
	h []endKey
	n uint32
}

// len returns how many ends are queued.
func (q *endQueue) len() int { return len(q.h) }

// push queues the end at of the job of sequence number seq.
func (q *endQueue) push(at sim.Time, seq int32) {
	q.n++
	h := append(q.h, endKey{at: at, n: q.n, seq: seq})
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	q.h = h
}

// pop removes and returns the earliest end; the queue must not be empty.
// It moves the smaller child up into the hole down to a leaf, then sifts
// the last end up from there (Floyd's bottom-up variant, as jobs.Queue).
func (q *endQueue) pop() endKey {
	h := q.h
	top := h[0]
	last := len(h) - 1
	x := h[last]
	h = h[:last]
	if last > 0 {
		n := uint(len(h)) // unsigned indices spare the bounds checks
		i, hole := uint(0), &h[0]
		for {
			c := 2*i + 1
			if c >= n {
				break
			}
			pc := &h[c]
			if r := c + 1; r < n && h[r].less(pc) {
				c, pc = r, &h[r]
			}
			*hole = *pc
			i, hole = c, pc
		}
		for i > 0 {
			p := (i - 1) / 2
			if !x.less(&h[p]) {
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
