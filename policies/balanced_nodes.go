package policies

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// backfillNodes is backfill on a machine of nodes (see Balanced): w.lk
// admits and places, w.free is the node-level free resources and a
// candidate's R is what it would hold of them (sim.Lookahead.Cost). It is
// backfill's code with those three changes; the pool's stays apart so that
// its small methods stay inlined.
func (b *Balanced) backfillNodes(w *window, q []*sim.Job) {
	lk := w.lk
	if lk.Full() {
		return
	}
	admits := func(j *sim.Job) bool {
		return lk.Fits(j) && (w.now+j.Estimate <= w.shadow || lk.Keeps(j))
	}
	take := func(j *sim.Job) {
		w.free = w.free.Sub(lk.Cost(j))
		lk.Take(j)
		w.start = append(w.start, j)
	}
	b.use.reset(w)
	if b.improved {
		for _, j := range q {
			if lk.Full() {
				return
			}
			if !admits(j) {
				continue
			}
			need := lk.Cost(j)
			if b.use.smallNeed(w, &need, b.small) || !b.use.worsensNeed(w, &need) {
				take(j)
				b.use.measure(w)
			}
		}
		return
	}
	// A candidate refused once is not asked again in the pass, as on the
	// pool, although on nodes a later start can move where it would land.
	b.cand = b.cand[:0]
	for _, j := range q {
		if admits(j) {
			b.cand = append(b.cand, j)
		}
	}
	for !lk.Full() {
		n, best, bestScore := 0, -1, 0.0
		for _, j := range b.cand {
			if !admits(j) {
				continue
			}
			need := lk.Cost(j)
			if s := b.use.scoreNeed(w, &need); best < 0 || s < bestScore {
				best, bestScore = n, s
			}
			b.cand[n] = j
			n++
		}
		if best < 0 {
			return
		}
		take(b.cand[best])
		if b.once {
			return
		}
		b.use.measure(w)
		b.cand = slices.Delete(b.cand[:n], best, best+1)
	}
}

// withNeed is with for a candidate that holds need.
func (u *usage) withNeed(w *window, need *sim.Resources) (peak, sum float64) {
	for _, k := range u.kinds[:u.n] {
		x := float64(w.capacity[k]-w.free[k]+need[k]) / float64(w.capacity[k])
		peak, sum = max(peak, x), sum+x
	}
	return peak, sum
}

// scoreNeed is score for a candidate that holds need.
func (u *usage) scoreNeed(w *window, need *sim.Resources) float64 {
	peak, sum := u.withNeed(w, need)
	if sum == 0 {
		return 1
	}
	mean := sum / float64(u.n)
	return peak / mean * (1 - mean)
}

// smallNeed is small for a candidate that holds need.
func (u *usage) smallNeed(w *window, need *sim.Resources, f float64) bool {
	if f <= 0 {
		return false
	}
	for _, k := range u.kinds[:u.n] {
		if float64(need[k]) > f*float64(w.capacity[k]) {
			return false
		}
	}
	return true
}

// worsensNeed is worsens for a candidate that holds need.
func (u *usage) worsensNeed(w *window, need *sim.Resources) bool {
	peak, sum := u.withNeed(w, need)
	return peak*u.sum > u.peak*sum
}
