package jobs

import (
	"math/rand/v2"
	"testing"
)

// TestQueueOrder pushes and pops at random and checks that events leave in
// time order, those due at the same time in the order they entered.
func TestQueueOrder(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var q Queue[int64, int]
		pushed := 0
		var last Event[int64, int]
		popped := 0
		for range 2000 {
			if q.Len() == 0 || rng.IntN(3) > 0 {
				// Never earlier than the last pop, as an engine's events.
				q.Push(last.At+rng.Int64N(5), pushed)
				pushed++
				continue
			}
			e := q.Pop()
			if popped > 0 && (e.At < last.At || e.At == last.At && e.V < last.V) {
				t.Fatalf("seed %d: popped (%d, %d) after (%d, %d)", seed, e.At, e.V, last.At, last.V)
			}
			last = e
			popped++
		}
	}
}
