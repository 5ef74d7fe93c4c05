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
	"github.com/schedsweep/schedsweep/workloads"
)

// TestBalancedOneKind checks what the formulas reduce to when only
// processors are in play, whether the cluster has no memory or has memory
// that no job asks for: IBB's test always holds, so IBB schedules exactly as
// EASY does; BB's ordering does not depend on an unused kind.
func TestBalancedOneKind(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 6))
		procsOnly := simtest.Cluster(1+rng.Int64N(32), 0)
		recs := randomWorkload(rng, 300, procsOnly, 30)
		withMemory := procsOnly
		withMemory[sim.Memory] = 1 << 30
		for _, c := range []sim.Resources{procsOnly, withMemory} {
			sameSchedule(t, fmt.Sprintf("seed %d, capacity %v", seed, c), c, recs,
				policies.NewIBB(), policies.NewEASY(policies.Arrival{}), simtest.Checks{MaxOpen: 1})
		}
		for _, once := range []bool{false, true} {
			plain, _ := simtest.Run(t, procsOnly, policies.NewBB(once), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			unused, _ := simtest.Run(t, withMemory, policies.NewBB(once), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			if diff := cmp.Diff(scheduleLines(plain), scheduleLines(unused)); diff != "" {
				t.Fatalf("seed %d, once %v: BB with unused memory differs (-procs only +unused memory):\n%s", seed, once, diff)
			}
		}
	}
}

// TestBalancedDiffer makes sure the three backfilling choices are not one in
// disguise: on random workloads that use memory, BB, BB once per pass and
// IBB each give a schedule other than EASY's on some seed, and BB's two
// readings differ from each other.
func TestBalancedDiffer(t *testing.T) {
	differ := map[string]bool{}
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := simtest.Cluster(8+rng.Int64N(24), 1<<20)
		recs := randomWorkload(rng, 200, c, 20)
		run := func(p sim.Policy) string {
			res, _ := simtest.Run(t, c, p, recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			return strings.Join(scheduleLines(res), "\n")
		}
		easy, bb, once, ibb := run(policies.NewEASY(policies.Arrival{})), run(policies.NewBB(false)), run(policies.NewBB(true)), run(policies.NewIBB())
		differ["bb"] = differ["bb"] || bb != easy
		differ["bb once"] = differ["bb once"] || once != easy
		differ["ibb"] = differ["ibb"] || ibb != easy
		differ["bb vs once"] = differ["bb vs once"] || bb != once
	}
	for _, k := range []string{"bb", "bb once", "ibb", "bb vs once"} {
		if !differ[k] {
			t.Errorf("%s: the same schedule on every seed", k)
		}
	}
}

// TestBalancedParams builds backfill-balanced with good and bad parameters.
func TestBalancedParams(t *testing.T) {
	tests := []struct {
		set  []string
		want string // the policy's name, or a fragment of the error
		bad  bool
	}{
		{nil, "backfill-balanced", false},
		{[]string{"backfill=repeat"}, "backfill-balanced", false},
		{[]string{"backfill=once"}, "backfill-balanced/once", false},
		{[]string{"backfill=all"}, `parameter "backfill": "all" is not repeat or once`, true},
		{[]string{"backfill="}, `parameter "backfill": "" is not repeat or once`, true},
	}
	for _, tc := range tests {
		pol, err := policies.New("backfill-balanced", tc.set...)
		switch {
		case tc.bad && err == nil:
			t.Errorf("%v: got policy %s; want an error containing %q", tc.set, pol.Name(), tc.want)
		case tc.bad && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%v: got error %q; want it to contain %q", tc.set, err, tc.want)
		case !tc.bad && err != nil:
			t.Errorf("%v: got error %v; want policy %s", tc.set, err, tc.want)
		case !tc.bad && pol.Name() != tc.want:
			t.Errorf("%v: got policy %s; want %s", tc.set, pol.Name(), tc.want)
		}
	}
}

// memoryTraces are the shared traces that carry memory, with the machines
// the ibb2016 and toth2014 studies give them; TestRealTraces runs every
// policy on processors alone, where IBB is EASY.
var memoryTraces = []struct {
	file string
	c    sim.Resources
	opt  workloads.SWFOptions
	long bool
}{
	{"wagap-2013.swf.gz", sim.Resources{2176, 14403 << 30},
		workloads.SWFOptions{NegativeAsMissing: true, Memory: workloads.RequestedMemory, MemoryUnit: workloads.BytesPerJob}, false},
	{"METACENTRUM-2009-2.swf.gz", sim.Resources{806, 806 << 30},
		workloads.SWFOptions{Memory: workloads.UsedMemory, MemoryUnit: workloads.KBPerJob}, true},
}

// TestBalancedRealMemory runs BB and IBB over the real traces with memory:
// Verify must hold, a second run must give the same schedule, and IBB must
// schedule otherwise than EASY, or the memory path was never taken.
func TestBalancedRealMemory(t *testing.T) {
	for _, tr := range memoryTraces {
		t.Run(tr.file, func(t *testing.T) {
			if tr.long && testing.Short() {
				t.Skip("the 100,000-job trace is skipped under -short")
			}
			recs := readTrace(t, tr.file, tr.opt)
			easy, _ := simtest.Run(t, tr.c, policies.NewEASY(policies.Arrival{}), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			for _, p := range []func() sim.Policy{
				func() sim.Policy { return policies.NewBB(false) },
				func() sim.Policy { return policies.NewBB(true) },
				func() sim.Policy { return policies.NewIBB() },
			} {
				first, _ := simtest.Run(t, tr.c, p(), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
				again, _ := simtest.Run(t, tr.c, p(), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
				lines := scheduleLines(first)
				if diff := cmp.Diff(lines, scheduleLines(again)); diff != "" {
					t.Fatalf("%s: two runs differ (-first +second):\n%s", p().Name(), diff)
				}
				if p().Name() == "improved-backfill-balanced" && cmp.Equal(lines, scheduleLines(easy)) {
					t.Errorf("%s: the same schedule as EASY", p().Name())
				}
			}
		})
	}
}

// BenchmarkBalancedMemory times EASY, BB and IBB on the real traces with
// memory, where BB and IBB weigh two kinds (sim's BenchmarkSimulate runs
// them on processors alone).
func BenchmarkBalancedMemory(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	for _, tr := range memoryTraces {
		for _, name := range []string{"easy", "backfill-balanced", "improved-backfill-balanced"} {
			b.Run(name+"/"+strings.TrimSuffix(tr.file, ".swf.gz"), func(b *testing.B) {
				recs := readTrace(b, tr.file, tr.opt)
				b.ReportAllocs()
				for b.Loop() {
					pol, err := policies.New(name)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := sim.Run(sim.NewPool(tr.c), pol, sim.NewSliceSource(recs), sim.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestIBBSmall checks the small-job exemption at its ends: with small = 1
// every admitted candidate is exempt, so IBB is EASY; with small = 0 it
// is plain IBB; in between it differs from both on some seed. Bad values
// are refused by name.
func TestIBBSmall(t *testing.T) {
	differ := false
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := simtest.Cluster(8+rng.Int64N(24), 1<<20)
		recs := randomWorkload(rng, 200, c, 20)
		name := fmt.Sprintf("seed %d", seed)
		sameSchedule(t, name+", small 1", c, recs, policies.NewIBBSmall(1), policies.NewEASY(policies.Arrival{}), simtest.Checks{MaxOpen: 1})
		sameSchedule(t, name+", small 0", c, recs, policies.NewIBBSmall(0), policies.NewIBB(), simtest.Checks{MaxOpen: 1})
		run := func(p sim.Policy) string {
			res, _ := simtest.Run(t, c, p, recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			return strings.Join(scheduleLines(res), "\n")
		}
		mid, plain, easy := run(policies.NewIBBSmall(0.2)), run(policies.NewIBB()), run(policies.NewEASY(policies.Arrival{}))
		differ = differ || mid != plain && mid != easy
	}
	if !differ {
		t.Error("small = 0.2 gave plain IBB's or EASY's schedule on every seed")
	}
	for _, tc := range []struct {
		set, err string
	}{{"small=-0.01", `parameter "small": -0.01 is not a fraction`}, {"small=1.5", `parameter "small": 1.5 is not a fraction`}} {
		if _, err := policies.New("improved-backfill-balanced", tc.set); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %v; want %q", tc.set, err, tc.err)
		}
	}
	if p, err := policies.New("improved-backfill-balanced", "small=0.01"); err != nil || p.Name() != "improved-backfill-balanced" {
		t.Errorf("small=0.01: %v, %v", p, err)
	}
}
