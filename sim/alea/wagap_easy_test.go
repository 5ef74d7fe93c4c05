package alea_test

import (
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// TestWagapEASY pins Alea's EASY under compat alea on the whole of
// wagap-2013. Alea's own run (.ci/alea) reports a mean wait of 20,820.11
// s over the 17,899 jobs it ran (s_wait; wait, 20,818.94 s, over all
// 17,900), 12,915 jobs backfilled, 2,489 of them on the head's reserved
// cluster; the same numbers come out here.
func TestWagapEASY(t *testing.T) {
	e := alea.NewEASY()
	res, m, _ := runWagap(t, e)
	var waitTicks, waitSec, n int64
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State == sim.Rejected {
			continue
		}
		n++
		waitSec += int64(o.Start - o.Submit)
		waitTicks += m.StartTick(i) - int64(o.Submit)*alea.Ticks
	}
	aleaMean := float64(waitTicks) / float64(n) / alea.Ticks
	if n != 17899 || math.Abs(aleaMean-20820.11) > 0.005 || e.Backfilled != 12915 || e.OnReserved != 2489 {
		t.Errorf("%d jobs run, mean wait on the machine's clock %.3f s, %d backfilled, %d on the reserved cluster; want 17899, 20820.11 (Alea's), 12915, 2489",
			n, aleaMean, e.Backfilled, e.OnReserved)
	}
	mean := float64(waitSec) / float64(n)
	if math.Abs(mean-20820.102) > 0.001 {
		t.Errorf("mean wait %.3f s; want 20820.102", mean)
	}
	t.Logf("mean wait %.3f s (%.3f s on the machine's clock), %d passes", mean, aleaMean, res.Passes)
}
