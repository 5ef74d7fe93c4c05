package sim

// endEvent is a job completion. Completions order by time, then by the order
// in which they were scheduled.
type endEvent struct {
	at  Time
	n   uint64
	seq int // the job's arrival index
}

func (a endEvent) less(b endEvent) bool { return a.at < b.at || a.at == b.at && a.n < b.n }

// endHeap is a binary min-heap of completions. It is container/heap's
// algorithm on a concrete type, which keeps the engine's hot path free of
// interface calls and allocations.
type endHeap []endEvent

func (h *endHeap) push(x endEvent) {
	*h = append(*h, x)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q[i].less(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *endHeap) pop() endEvent {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q[last] = endEvent{}
	q = q[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		m := l
		if r := l + 1; r < len(q) && q[r].less(q[l]) {
			m = r
		}
		if !q[m].less(q[i]) {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}
