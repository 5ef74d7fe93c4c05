package policies_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// TestPBSStarvingPromises checks what the golden schedule of
// pbs-starving cannot show: the guard takes effect, and its promise is
// made, at t=110, when job 2 has waited max_starve, though nothing
// arrives or ends then; and each later head starves at once.
func TestPBSStarvingPromises(t *testing.T) {
	tc := loadCase(t, casePath("pbs-starving"))
	_, rec := simtest.Run(t, tc.capacity, golden(t, "pbs-fifo").new(t, tc.params...), tc.jobs, sim.Options{}, simtest.Checks{MaxOpen: 1})
	want := []simtest.Event{
		{Kind: simtest.Promise, Time: 110, Seq: 1, At: 300},
		{Kind: simtest.Promise, Time: 300, Seq: 4, At: 400},
		{Kind: simtest.Promise, Time: 400, Seq: 5, At: 450},
		{Kind: simtest.Promise, Time: 450, Seq: 6, At: 460},
	}
	if diff := cmp.Diff(want, rec.Events); diff != "" {
		t.Errorf("promises on pbs-starving (-want +got):\n%s", diff)
	}
}

// TestPBSWithoutGuard: with help_starving_jobs = false the policy is
// first fit, so on pbs-starving job 5 starts as soon as it fits (115)
// and job 7 when job 5 ends (165), while job 2 still waits for 300.
func TestPBSWithoutGuard(t *testing.T) {
	tc := loadCase(t, casePath("pbs-starving"))
	res, rec := simtest.Run(t, tc.capacity, golden(t, "pbs-fifo").new(t, append(tc.params, "help_starving_jobs=false")...), tc.jobs, sim.Options{}, simtest.Checks{})
	for _, w := range []struct {
		id    sim.JobID
		start sim.Time
	}{{2, 300}, {5, 115}, {7, 165}} {
		if got := res.Jobs[w.id-1].Start; got != w.start {
			t.Errorf("job %d starts at %d; want %d", w.id, got, w.start)
		}
	}
	if len(rec.Events) > 0 {
		t.Errorf("without the guard: got promises %v; want none", rec.Events)
	}
}

// TestPBSLimits compares pbs-fifo with the policies it becomes at the ends
// of its threshold: with max_starve = 0 every blocked head starves at once,
// which is FCFS; with a threshold longer than any wait the guard never
// acts, which is first fit, as with the guard off.
func TestPBSLimits(t *testing.T) {
	pbs := golden(t, "pbs-fifo")
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 5))
		c := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 200, c, 30)
		pairs := []struct {
			name       string
			got, other sim.Policy
		}{
			{"max_starve=0 vs fcfs", pbs.new(t, "max_starve=0"), golden(t, "fcfs").new(t)},
			{"max_starve=10^9 vs no guard", pbs.new(t, "max_starve=1000000000"), pbs.new(t, "help_starving_jobs=false")},
		}
		for _, p := range pairs {
			sameSchedule(t, fmt.Sprintf("seed %d, %s", seed, p.name), c, recs, p.got, p.other, simtest.Checks{MaxOpen: 1})
		}
	}
}

func TestPBSParams(t *testing.T) {
	e, err := policies.Lookup("pbs-fifo")
	if err != nil {
		t.Fatal(err)
	}
	p := e.Params().(*policies.PBSParams)
	if !p.HelpStarving || p.MaxStarve != 86400 {
		t.Errorf("defaults: got %+v; want the guard on at 86400 s", *p)
	}
	p.MaxStarve = -1
	if _, err := e.New(p); err == nil || !strings.Contains(err.Error(), `parameter "max_starve": -1`) {
		t.Errorf("max_starve = -1: got %v; want an error naming the parameter", err)
	}
}
