package policies_test

// The oracle's Backfill Balanced and Improved Backfill Balanced, re-derived
// from balanced.go's comment:
//
//   - The pass is EASY's in arrival order: jobs start while they fit, the
//     first that does not is the head, and a later job is a candidate if
//     it fits now and either ends by the head's shadow time or fits in
//     the extra resources. As in oracleEASY, the shadow time and extra
//     are recomputed from scratch, with every job started so far, before
//     each choice.
//   - K is the kinds whose capacity is above zero. S_i is the fraction of
//     kind i in use now, the jobs started earlier in the pass counted;
//     x_i = (used_i + need_i)/capacity_i, in one division, is the use
//     once candidate j has started too.
//   - BB scores a candidate max_i x_i / (Σ x_i / K) · (1 − Σ x_i / K) and
//     starts the lowest, the earliest in queue order on equal scores;
//     with backfill = "repeat" it then rescores every candidate against
//     the new S and repeats until none is left; with "once" it stops
//     after one. The oracle asks every job after the head again at each
//     round whether it is a candidate; balanced.go prunes one list,
//     claiming that candidates only ever drop out in a pass.
//   - IBB walks the jobs after the head once in queue order and starts
//     each candidate that does not worsen the balance: Formula 2 as
//     balanced.go multiplies it out, max(x)·Σ S ≤ max(S)·Σ x, so that the
//     float64 comparison is the one balanced.go makes (the comment gives
//     the form; the oracle follows it to the operation, as it does
//     Formula 1's, since a different rounding would decide near-ties
//     otherwise).

import "github.com/schedsweep/schedsweep/sim"

// oracleBalanced is one BB pass (IBB if improved; BB one backfill per pass
// if once).
func oracleBalanced(now sim.Time, c sim.Resources, waiting, running []*oracleJob, improved, once bool) []*oracleJob {
	start, free, held, i := easyHead(now, c, waiting, running)
	if i == len(waiting) {
		return start
	}
	head := waiting[i]
	rest := waiting[i+1:]
	candidate := func(j *oracleJob) bool {
		if !fitsAll(j.Need, free) {
			return false
		}
		shadow, extra := oracleShadow(now, head.Need, free, held)
		return now+j.Estimate <= shadow || fitsAll(j.Need, extra)
	}
	take := func(j *oracleJob) {
		free = free.Sub(j.Need)
		start = append(start, j)
		held = append(held, runningJob{j.Need, now + j.Estimate})
	}
	taken := map[*oracleJob]bool{}
	if improved {
		for _, j := range rest {
			if candidate(j) && !worsensBalance(c, free, j.Need) {
				take(j)
			}
		}
		return start
	}
	for {
		var best *oracleJob
		bestScore := 0.0
		for _, j := range rest {
			if taken[j] || !candidate(j) {
				continue
			}
			if s := balanceScore(c, free, j.Need); best == nil || s < bestScore {
				best, bestScore = j, s
			}
		}
		if best == nil {
			return start
		}
		take(best)
		taken[best] = true
		if once {
			return start
		}
	}
}

// useWith returns the largest value, the sum and the count of the
// fractions of each kind in use on c once need is added to what free
// leaves used.
func useWith(c, free, need sim.Resources) (peak, sum float64, k int) {
	for i := range c {
		if c[i] > 0 {
			x := float64(c[i]-free[i]+need[i]) / float64(c[i])
			peak, sum, k = max(peak, x), sum+x, k+1
		}
	}
	return peak, sum, k
}

// balanceScore is BB's Formula 1: balance measure times fullness modifier.
func balanceScore(c, free, need sim.Resources) float64 {
	peak, sum, k := useWith(c, free, need)
	mean := sum / float64(k)
	return peak / mean * (1 - mean)
}

// worsensBalance reports whether IBB's Formula 2 fails for need.
func worsensBalance(c, free, need sim.Resources) bool {
	sPeak, sSum, _ := useWith(c, free, sim.Resources{})
	xPeak, xSum, _ := useWith(c, free, need)
	return xPeak*sSum > sPeak*xSum
}
