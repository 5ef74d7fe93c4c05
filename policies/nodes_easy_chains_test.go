package policies

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestChainsNextShort checks chains.nextShort, which walks on from the
// end of the run of long jobs a class's last walk saw, against a plain
// walk over the class's linked jobs, under random links at the chains'
// tails, unlinks anywhere, and walks from random jobs with bounds that
// mostly shrink (as the shadow time stays and now grows) and sometimes
// grow; and that present stays in order by first job.
func TestChainsNextShort(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 77))
		const classes = 3
		ch := chains{linked: -1}
		var of []classedJob
		model := make([][]int32, classes) // by class: its linked jobs, by Seq
		d := sim.Time(50)
		for op := range 400 {
			switch k := rng.IntN(10); {
			case k < 4: // a job arrives
				s, c := int32(len(of)), int32(rng.IntN(classes))
				of = append(of, classedJob{job: &sim.Job{Seq: int(s), Estimate: 1 + sim.Time(rng.IntN(100))}, cls: c})
				ch.add(s, c)
				model[c] = append(model[c], s)
			case k < 6: // a job starts
				c := rng.IntN(classes)
				if len(model[c]) == 0 {
					continue
				}
				i := rng.IntN(len(model[c]))
				ch.unlink(model[c][i], int32(c))
				model[c] = slices.Delete(model[c], i, i+1)
			default: // a walk
				c := rng.IntN(classes)
				if len(model[c]) == 0 {
					continue
				}
				if rng.IntN(8) == 0 {
					d += sim.Time(rng.IntN(40))
				} else {
					d = max(1, d-sim.Time(rng.IntN(3)))
				}
				from := rng.IntN(len(model[c]))
				want := int32(-1)
				for _, s := range model[c][from:] {
					if of[s].job.Estimate <= d {
						want = s
						break
					}
				}
				if got := ch.nextShort(of, int32(c), model[c][from], d); got != want {
					t.Fatalf("seed %d, op %d: class %d from job %d, estimate at most %d: job %d, want %d",
						seed, op, c, model[c][from], d, got, want)
				}
			}
			if err := checkPresent(&ch, model); err != "" {
				t.Fatalf("seed %d, op %d: %s", seed, op, err)
			}
		}
	}
}

// checkPresent returns what is wrong with ch.present, or "": it must
// list the classes of model with a linked job, by their first job, and
// where must give each one's place.
func checkPresent(ch *chains, model [][]int32) string {
	var want []int32
	for c, js := range model {
		if len(js) > 0 {
			want = append(want, int32(c))
		}
	}
	slices.SortFunc(want, func(a, b int32) int { return int(model[a][0] - model[b][0]) })
	if !slices.Equal(ch.present, want) {
		return fmt.Sprintf("present %v, want %v", ch.present, want)
	}
	for k, c := range ch.present {
		if ch.where[c] != int32(k) || ch.first[c] != model[c][0] {
			return fmt.Sprintf("class %d at %d: where %d, first %d, want %d", c, k, ch.where[c], ch.first[c], model[c][0])
		}
	}
	return ""
}
