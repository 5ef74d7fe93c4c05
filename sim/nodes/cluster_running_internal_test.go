package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestRunList starts and ends jobs at random on a runList and checks the
// list after every step against the plain one, a slice kept sorted by
// (estimated end, seq) with inserts and deletes that shift the tail: the
// same allocations in the same order. The runs mix workloads whose ends
// fall near the front, near the back or anywhere, with many ties of
// estimated end, and empty the list now and then.
func TestRunList(t *testing.T) {
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var (
			r     runList
			list  []sim.Allocation
			plain []sim.Allocation
			jobs  []*sim.Job
		)
		bias := seed % 3 // 0: ends anywhere; 1: near the front; 2: near the back
		for step := range 4000 {
			grow := len(plain) == 0 || rng.IntN(100) < 50+int(step/700%2)*10-int(step/1900%2)*15
			if grow {
				j := &sim.Job{Seq: len(jobs), Estimate: sim.Time(rng.IntN(12))}
				jobs = append(jobs, j)
				al := sim.Allocation{Job: j, Start: sim.Time(rng.IntN(6))}
				list = r.insert(list, al)
				i, _ := slices.BinarySearchFunc(plain, al, func(a, b sim.Allocation) int {
					if a.EstimatedEnd() != b.EstimatedEnd() {
						return int(a.EstimatedEnd() - b.EstimatedEnd())
					}
					return a.Job.Seq - b.Job.Seq
				})
				plain = slices.Insert(plain, i, al)
			} else {
				k := rng.IntN(len(plain))
				switch bias {
				case 1:
					k = min(k, rng.IntN(len(plain)))
				case 2:
					k = max(k, rng.IntN(len(plain)))
				}
				al := plain[k]
				var ok bool
				if list, ok = r.remove(list, al.Job, al.Start); !ok {
					t.Fatalf("seed %d step %d: remove of job %d found nothing", seed, step, al.Job.Seq)
				}
				plain = slices.Delete(plain, k, k+1)
			}
			if !slices.Equal(plain, list) { // the same jobs, by pointer, and starts
				t.Fatalf("seed %d step %d: list %v; want %v", seed, step, list, plain)
			}
			if len(list) > 0 && &list[0] != &r.buf[r.lo] {
				t.Fatalf("seed %d step %d: the list is not the window at lo %d", seed, step, r.lo)
			}
		}
		gone := &sim.Job{Seq: len(jobs)}
		if _, ok := r.remove(list, gone, 0); ok {
			t.Fatalf("seed %d: remove found a job never inserted", seed)
		}
	}
}
