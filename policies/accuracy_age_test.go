package policies_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestPSPAgeTerm checks the age term at its ends on random workloads: an
// age_scale longer than max_age makes the class decide and the wait only
// break ties, which the arrival order already does, so PSP schedules as
// without the term; so does age_scale 0, no term; a short
// age_scale gives another schedule on some seed. Bad values are refused
// by name.
func TestPSPAgeTerm(t *testing.T) {
	psp := func(set ...string) sim.Policy {
		p, err := policies.New("psp", set...)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	differ := false
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 11))
		c := simtest.Cluster(4+rng.Int64N(16), 0)
		recs := randomWorkload(rng, 200, c, 20)
		name := fmt.Sprintf("seed %d", seed)
		sameSchedule(t, name+", age_scale > max_age", c, recs, psp("age_scale=1000000", "max_age=999999"), psp(), simtest.Checks{MaxOpen: 1})
		sameSchedule(t, name+", age_scale 0", c, recs, psp("age_scale=0", "max_age=5"), psp(), simtest.Checks{MaxOpen: 1})
		short, _ := simtest.Run(t, c, psp("age_scale=30"), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
		plain, _ := simtest.Run(t, c, psp(), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
		differ = differ || strings.Join(scheduleLines(short), "\n") != strings.Join(scheduleLines(plain), "\n")
	}
	if !differ {
		t.Error("age_scale = 30 s gave plain PSP's schedule on every seed")
	}
	for _, tc := range []struct{ set, err string }{
		{"age_scale=-1", `parameter "age_scale": -1 is not in 0..`},
		{"max_age=-5", `parameter "max_age": -5 is not in 0..`},
	} {
		if _, err := policies.New("psp", tc.set); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %v; want %q", tc.set, err, tc.err)
		}
	}
}
