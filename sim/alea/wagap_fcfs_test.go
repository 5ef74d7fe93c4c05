package alea_test

import (
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// TestWagapFCFS pins FCFS under compat alea on the whole of wagap-2013
// with its .machines file. Alea's own run (tools/alea-check.sh: Alea at
// a3315f0, FCFS, use_RAM=true) reports 17,900 jobs, 1 cancelled (job
// 8687: ppn=80 and 512 GB on a node of 504.9 GB), a mean wait of
// 162,008.53 s over the 17,899 others (its s_wait; its wait, 161,999.48
// s, divides the same sum by all 17,900) and 702 jobs cut at their limit
// (597 on zewura, 105 on zegox); the same numbers come out here from the
// machine's own clock. The loop's whole-second starts give a mean wait
// 0.13 s shorter.
func TestWagapFCFS(t *testing.T) {
	res, m, tr := runWagapFCFS(t)
	if len(tr.Dropped) != 0 || tr.Raised != 0 || tr.Capped != 0 || tr.BadProcs != 0 || tr.NoMemory != 0 || tr.ShortTimes != 2 {
		t.Errorf("reading: dropped %v, raised %d, capped %d, bad %d, no memory %d, short times %d; want none but 2 short times (the two negative run times)",
			tr.Dropped, tr.Raised, tr.Capped, tr.BadProcs, tr.NoMemory, tr.ShortTimes)
	}
	var waitTicks, waitSec, n int64
	cut := map[string]int{}
	var maxWait sim.Time
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State == sim.Rejected {
			continue
		}
		n++
		waitSec += int64(o.Start - o.Submit)
		waitTicks += m.StartTick(i) - int64(o.Submit)*alea.Ticks
		maxWait = max(maxWait, o.Start-o.Submit)
		if o.State == sim.Killed {
			cl, _, _ := m.Where(i)
			cut[cl]++
		}
	}
	rej := m.Rejections()
	if len(rej) != 1 || rej[0].ID != 8687 || res.Rejected != 1 || res.RejectedBy[sim.TooLarge] != 1 {
		t.Errorf("rejections %+v (%d in the result); want job 8687 alone, too large", rej, res.Rejected)
	}
	aleaMean := float64(waitTicks) / float64(n) / alea.Ticks
	if len(res.Jobs) != 17900 || n != 17899 || math.Abs(aleaMean-162008.53) > 0.005 || cut["zewura"] != 597 || cut["zegox"] != 105 {
		t.Errorf("%d jobs, %d run, mean wait on the machine's clock %.3f s, cut %v; want 17900, 17899, 162008.53 (Alea's), map[zegox:105 zewura:597]",
			len(res.Jobs), n, aleaMean, cut)
	}
	mean := float64(waitSec) / float64(n)
	if math.Abs(mean-162008.404) > 0.001 || maxWait != 511352 {
		t.Errorf("mean wait %.3f s, max %d s; want 162008.404, 511352", mean, maxWait)
	}
	t.Logf("mean wait %.3f s (%.3f s on the machine's clock), max %d s, %d passes", mean, aleaMean, maxWait, res.Passes)
}
