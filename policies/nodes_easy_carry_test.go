package policies_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// TestNodesEASYCarry checks the shortcuts EASY's backfill by class takes
// from one pass to the next (a Keeps refusal of the last pass's last
// epoch, the head's Fits, a class's long run of jobs) against the plain
// loop over every job, pass by pass and node by node, on workloads that
// make them matter: arrivals in bursts between ends, so that many passes
// follow one without an end, and jobs that run past their estimates
// under sim.Options.AllowOverrun, so that the head's shadow time moves
// between two passes with no end (a running job past its estimate counts
// as ending at now+1).
func TestNodesEASYCarry(t *testing.T) {
	wheres := []*sim.Where{nil, nil, {Groups: []string{"t"}}, {NotGroups: []string{"b"}}}
	for seed := range uint64(60) {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 2711))
			cfg := nodes.Config{Groups: randomGroups(rng), Fit: nodes.Fit(seed % 2)}
			recs := fewClassWorkload(rng, 400, wheres)
			burst(rng, recs)
			opt := sim.Options{AllowOverrun: seed%2 == 0}
			if opt.AllowOverrun {
				overrun(rng, recs)
			}
			byClassAgainstEvery(t, cfg, recs, opt)
		})
	}
}

// burst gathers the arrivals of recs, in order, into bursts of one to
// twelve jobs a second apart, so that several passes run between two
// ends.
func burst(rng *rand.Rand, recs []sim.Record) {
	var t sim.Time
	for i := 0; i < len(recs); {
		t += sim.Time(rng.IntN(60))
		for n := 1 + rng.IntN(12); n > 0 && i < len(recs); n-- {
			recs[i].Submit = t
			t++
			i++
		}
	}
}

// overrun makes about one job in four run up to twice its estimate.
func overrun(rng *rand.Rand, recs []sim.Record) {
	for i := range recs {
		if rng.IntN(4) == 0 {
			recs[i].Runtime = recs[i].Estimate + 1 + sim.Time(rng.Int64N(int64(recs[i].Estimate)))
		}
	}
}
