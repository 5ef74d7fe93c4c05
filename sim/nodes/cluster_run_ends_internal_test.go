package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// TestEndQueue pushes and pops at random on an endQueue and on the
// jobs.Queue the cluster kept its ends in before, and checks that the
// first end and every pop are the same: the ends leave by time, those at
// the same time in the order they came. Times fall in a narrow range so
// that ties are common, never before the last pop (as a run's ends) or
// anywhere; in some runs a few fall out of a key's range (negative, or
// past 2³³), and the queues grow deep and empty now and then.
func TestEndQueue(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 3))
		monotone, far := seed%2 == 0, seed%4 >= 2
		var (
			q    endQueue
			want jobs.Queue[sim.Time, int32]
			seq  int32
			last sim.Time
		)
		for step := range 3000 {
			if q.len() != want.Len() {
				t.Fatalf("seed %d step %d: %d ends queued; want %d", seed, step, q.len(), want.Len())
			}
			if q.len() == 0 || rng.IntN(7) < 3+step/500%2*2 {
				at := sim.Time(rng.IntN(8))
				switch {
				case far && rng.IntN(20) == 0:
					at += 1 << 33
				case far && !monotone && rng.IntN(20) == 0:
					at = -at - 1
				}
				if monotone {
					at += last
				}
				q.push(at, seq)
				want.Push(at, seq)
				seq++
				continue
			}
			if got, w := q.first(), want.Min().At; got != w {
				t.Fatalf("seed %d step %d: the first end is at %d; want %d", seed, step, got, w)
			}
			got, w := q.pop(), want.Pop()
			if got != w.V {
				t.Fatalf("seed %d step %d: pop gave job %d; want job %d (at %d)", seed, step, got, w.V, w.At)
			}
			last = w.At
		}
	}
}
