package jobs

// Event is what a Queue holds: V is due at At. Events due at the same
// time leave the queue in the order they entered it.
type Event[T ~int64, V any] struct {
	At T
	V  V
	n  uint64 // order of entry, unique within a queue
}

func (a *Event[T, V]) less(b *Event[T, V]) bool {
	return a.At < b.At || a.At == b.At && a.n < b.n
}

// Queue is a binary min-heap of events by (At, order of entry). It is
// container/heap's algorithm on a concrete type, which keeps the engines'
// hot paths free of interface calls and allocations. Push and Pop take
// O(log n) for n events queued. The zero Queue is empty.
type Queue[T ~int64, V any] struct {
	h []Event[T, V]
	n uint64
}

// Len returns how many events are queued.
func (q *Queue[T, V]) Len() int { return len(q.h) }

// Min returns the earliest event; the queue must not be empty.
func (q *Queue[T, V]) Min() Event[T, V] { return q.h[0] }

// Push queues v, due at at. It swaps the new event up: most events are
// due after their parent and stay where append put them, which a hole
// moved up (as Pop does) would write a second time.
func (q *Queue[T, V]) Push(at T, v V) {
	q.n++
	h := append(q.h, Event[T, V]{At: at, V: v, n: q.n})
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

// Pop removes and returns the earliest event; the queue must not be empty.
//
// The last event fills the root's place. Rather than sift it down with two
// comparisons a level, Pop moves the smaller child up into the hole all
// the way to a leaf, one comparison a level, then sifts the last event up
// from there (Floyd's bottom-up variant): the last event of a heap is
// most often among the latest, so it seldom rises far. The order in which
// events leave depends only on (At, order of entry), a total order, so it
// is the same as with any other heap algorithm.
func (q *Queue[T, V]) Pop() Event[T, V] {
	h := q.h
	top := h[0]
	last := len(h) - 1
	x := h[last]
	h[last] = Event[T, V]{}
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
