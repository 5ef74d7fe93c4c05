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

// Push queues v, due at at.
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
func (q *Queue[T, V]) Pop() Event[T, V] {
	h := q.h
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h[last] = Event[T, V]{}
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(&h[l]) {
			m = r
		}
		if !h[m].less(&h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	q.h = h
	return top
}
