package nodes

import (
	"math/rand/v2"
	"testing"
)

// TestMaxTreeNext checks next against a linear scan after random updates,
// and that each update logs its node.
func TestMaxTreeNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 7, 8, 33} {
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = rng.Int64N(5)
		}
		tr := newMaxTree(vals)
		for range 200 {
			i := rng.IntN(n)
			vals[i] = rng.Int64N(5)
			tr.set(i, vals[i])
			from, k := rng.IntN(n+1), 1+rng.Int64N(5)
			want := -1
			for j := from; j < n; j++ {
				if vals[j] >= k {
					want = j
					break
				}
			}
			if got := tr.log[uint8(tr.seq-1)]; got != int32(i) {
				t.Fatalf("n %d: set(%d) logged node %d", n, i, got)
			}
			if got := tr.next(from, k); got != want {
				t.Fatalf("n %d, values %v: next(%d, %d) = %d, want %d", n, vals, from, k, got, want)
			}
		}
	}
}
