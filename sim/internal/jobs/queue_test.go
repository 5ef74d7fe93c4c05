package jobs

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueueOrder pushes and pops at random and checks every pop against a
// plain model of the queue, a slice searched for its earliest event: the
// events leave in time order, those due at the same time in the order they
// entered. Times are drawn from a narrow range so that ties are common,
// either never earlier than the last pop (as an engine's events) or
// anywhere.
func TestQueueOrder(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 1))
		monotone := seed%2 == 0
		var q Queue[int64, int]
		var model []Event[int64, int] // in order of entry
		pushed := 0
		var last int64
		for step := range 3000 {
			// Grow in bursts, then drain, so the heap is deep at times.
			if q.Len() == 0 || rng.IntN(7) < 3+int(step/500%2)*2 {
				at := rng.Int64N(8)
				if monotone {
					at += last
				}
				q.Push(at, pushed)
				model = append(model, Event[int64, int]{At: at, V: pushed})
				pushed++
				continue
			}
			k := 0
			for i, e := range model {
				if e.At < model[k].At {
					k = i
				}
			}
			want := model[k]
			model = slices.Delete(model, k, k+1)
			if q.Min().At != want.At || q.Min().V != want.V {
				t.Fatalf("seed %d step %d: Min (%d, %d); want (%d, %d)", seed, step, q.Min().At, q.Min().V, want.At, want.V)
			}
			if e := q.Pop(); e.At != want.At || e.V != want.V {
				t.Fatalf("seed %d step %d: popped (%d, %d); want (%d, %d)", seed, step, e.At, e.V, want.At, want.V)
			}
			if q.Len() != len(model) {
				t.Fatalf("seed %d step %d: Len %d; want %d", seed, step, q.Len(), len(model))
			}
			last = want.At
		}
	}
}
