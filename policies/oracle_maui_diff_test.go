package policies_test

// The maui oracle of oracle_maui_test.go against the engine, under several
// parameter settings, on random workloads with several users and queues,
// the golden cases and a prefix of KTH-SP2; and a check that the
// comparison fails when the oracle breaks a rule on purpose.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// mauiOracleCase is a named maui configuration.
type mauiOracleCase struct {
	name string
	mc   mauiOracleConfig
}

// mauiOracleConfigs are the settings compared: the goldens' four, more
// reservations, none, and priorities that re-rank the queue between
// passes (expansion factor, fairshare, QoS, size).
func mauiOracleConfigs() []mauiOracleCase {
	with := func(f func(*mauiOracleConfig)) mauiOracleConfig {
		mc := defaultMauiOracle()
		f(&mc)
		return mc
	}
	return []mauiOracleCase{
		{"defaults", defaultMauiOracle()},
		{"backfill=false", with(func(mc *mauiOracleConfig) { mc.backfill = false })},
		{"depth=2", with(func(mc *mauiOracleConfig) { mc.depth = 2 })},
		{"depth=5", with(func(mc *mauiOracleConfig) { mc.depth = 5 })},
		{"depth=0 proc=1", with(func(mc *mauiOracleConfig) { mc.depth, mc.procs = 0, 1 })},
		{"xfactor=100", with(func(mc *mauiOracleConfig) { mc.xfactor = 100 })},
		{"xfactor=20 proc=-0.5 depth=3", with(func(mc *mauiOracleConfig) { mc.xfactor, mc.procs, mc.depth = 20, -0.5, 3 })},
		{"fairshare=1 half_life=300 depth=2", with(func(mc *mauiOracleConfig) { mc.fairshare, mc.halfLife, mc.depth = 1, 300, 2 })},
		{"xfactor=50 fairshare=2 shares nobackfill depth=2", with(func(mc *mauiOracleConfig) {
			mc.xfactor, mc.fairshare, mc.halfLife, mc.depth, mc.backfill = 50, 2, 100, 2, false
			mc.shares = map[int32]float64{2: 3}
		})},
		{"qos depth=3 nobackfill", with(func(mc *mauiOracleConfig) {
			mc.qos, mc.depth, mc.backfill = 1, 3, false
			mc.qosTable = map[int32]float64{1: 30, 2: -5}
		})},
		{"dominant fairshare=5 xfactor=1 qos", with(func(mc *mauiOracleConfig) {
			mc.fairshare, mc.dominant, mc.halfLife, mc.xfactor, mc.qos = 5, true, 600, 1, 2
			mc.qosTable = map[int32]float64{3: 10}
		})},
		{"queue_time=-1 depth=2", with(func(mc *mauiOracleConfig) { mc.queueTime, mc.depth = -1, 2 })},
	}
}

// mauiOracleEntry is the registry entry the Maui oracle compares.
const mauiOracleEntry = "maui"

// mauiOracleOptions are the engine options compared.
var mauiOracleOptions = []sim.Options{{}, {MissingEstimate: sim.RejectMissingEstimate}, {AllowOverrun: true}}

// runMaui runs maui configured by mc on the engine, without checks; t
// is nil when minimising.
func runMaui(t *testing.T, mc mauiOracleConfig, c sim.Resources, recs []sim.Record, opt sim.Options) ([]string, error) {
	p, err := policies.New(mauiOracleEntry, mc.settings()...)
	if err != nil {
		return nil, err
	}
	if t == nil {
		res, err := sim.Run(sim.NewPool(c), p, sim.NewSliceSource(recs), opt)
		if err != nil {
			return nil, err
		}
		return engineSummary(res), nil
	}
	t.Helper()
	res, _ := simtest.Run(t, c, p, recs, opt, simtest.Checks{MaxOpen: mc.depth})
	return engineSummary(res), nil
}

// mauiDiffers reports whether the oracle and the engine disagree on recs.
func mauiDiffers(mc mauiOracleConfig, c sim.Resources, recs []sim.Record, opt sim.Options) bool {
	want, err := oracleMaui(mc, c, recs, opt)
	if err != nil {
		return true
	}
	got, err := runMaui(nil, mc, c, recs, opt)
	return err != nil || !slices.Equal(want, got)
}

// minimiseMaui is minimise for a disagreement between the Maui oracle
// under mc and the engine.
func minimiseMaui(mc mauiOracleConfig, c sim.Resources, recs []sim.Record, opt sim.Options) string {
	return minimise(c, recs, func(try []sim.Record) bool { return mauiDiffers(mc, c, try, opt) })
}

// compareMaui fails t where the oracle and the engine disagree on oc under
// any configuration of cfgs and any option, showing a minimised workload,
// and returns the number of job schedules that agreed.
func compareMaui(t *testing.T, oc oracleCase, cfgs []mauiOracleCase) int {
	t.Helper()
	n := 0
	for _, cf := range cfgs {
		for _, opt := range mauiOracleOptions {
			want, err := oracleMaui(cf.mc, oc.c, oc.recs, opt)
			if err != nil {
				t.Errorf("%s, maui %s, %s: %v\nminimised: %s", oc.name, cf.name, optName(opt), err, minimiseMaui(cf.mc, oc.c, oc.recs, opt))
				continue
			}
			got, _ := runMaui(t, cf.mc, oc.c, oc.recs, opt)
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("%s, maui %s, %s: engine differs from oracle (-oracle +engine):\n%s\nminimised: %s",
					oc.name, cf.name, optName(opt), diff, minimiseMaui(cf.mc, oc.c, oc.recs, opt))
				continue
			}
			n += len(oc.recs)
		}
	}
	return n
}

// withQueues puts the jobs in SWF queues 0 to 3, for the QoS priorities,
// from a stream of their own.
func withQueues(seed uint64, recs []sim.Record) {
	rng := rand.New(rand.NewPCG(seed, 23))
	for i := range recs {
		recs[i].Queue = int32(rng.IntN(4))
	}
}

// mauiRandomCases draws the random workloads: randomWorkload's (four
// users; processors only, with memory, with memory and GPUs) and
// tieWorkload's, given three users.
func mauiRandomCases(seeds, size int) []oracleCase {
	var cases []oracleCase
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 29))
		c, gap, recs := drawOracleCase(rng, seed, size)
		withQueues(seed, recs)
		cases = append(cases, oracleCase{fmt.Sprintf("seed %d (gap %d)", seed, gap), c, recs})
		small := c
		small[sim.Procs] = 1 + rng.Int64N(8)
		if small[sim.Memory] > 0 {
			small[sim.Memory] = 4
		}
		ties := tieWorkload(rng, 1+rng.IntN(size), small)
		for i := range ties {
			ties[i].User = int32(rng.IntN(3))
		}
		withQueues(seed, ties)
		cases = append(cases, oracleCase{fmt.Sprintf("seed %d (ties)", seed), small, ties})
	}
	return cases
}

// TestMauiOracleRandom compares the oracle with the engine on random
// workloads under every configuration.
func TestMauiOracleRandom(t *testing.T) {
	seeds, size := 8, 30
	if longOracle() {
		seeds, size = 60, 200
	}
	jobs := 0
	for _, oc := range mauiRandomCases(seeds, size) {
		jobs += compareMaui(t, oc, mauiOracleConfigs())
	}
	t.Logf("%d job schedules agreed", jobs)
}

// mauiGoldenConfigs are the golden folders of maui and their parameters
// (goldenPolicies in golden_test.go).
func mauiGoldenConfigs() map[string]mauiOracleConfig {
	all := map[string]mauiOracleConfig{}
	for _, cf := range mauiOracleConfigs() {
		all[cf.name] = cf.mc
	}
	return map[string]mauiOracleConfig{
		"maui": all["defaults"], "maui-nobackfill": all["backfill=false"],
		"maui-depth2": all["depth=2"], "maui-xfactor": all["xfactor=100"],
	}
}

// TestMauiOracleGolden checks the oracle against maui's hand-worked
// goldens, then compares it with the engine on every golden case.
func TestMauiOracleGolden(t *testing.T) {
	for folder, mc := range mauiGoldenConfigs() {
		checkOracleGoldens(t, folder, func(tc testCase) ([]string, error) {
			return oracleMaui(mc, tc.capacity, tc.jobs, sim.Options{})
		})
	}
	for _, gc := range goldenCases(t) {
		compareMaui(t, gc.oracleCase(), mauiOracleConfigs())
	}
}

// TestMauiOracleTrace compares the oracle with the engine on a prefix of
// KTH-SP2 (longer in the long mode, with every configuration).
func TestMauiOracleTrace(t *testing.T) {
	n, cfgs := 500, mauiOracleConfigs()[:1]
	if longOracle() {
		n, cfgs = 5000, mauiOracleConfigs()
	}
	recs := readTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", workloads.SWFOptions{})
	recs = recs[:min(n, len(recs))]
	jobs := compareMaui(t, oracleCase{"KTH-SP2", sim.Resources{100}, recs}, cfgs)
	t.Logf("%d job schedules agreed", jobs)
}

// TestMauiOracleCanFail breaks one rule of the oracle at a time and checks
// that the comparison notices on the goldens and a few random workloads:
// the agreement elsewhere is not for want of looking.
func TestMauiOracleCanFail(t *testing.T) {
	var cases []oracleCase
	for _, gc := range goldenCases(t) {
		cases = append(cases, gc.oracleCase())
	}
	cases = append(cases, mauiRandomCases(6, 40)...)
	for _, tc := range []struct {
		broken string
		mc     mauiOracleConfig
	}{
		// Equal priorities by reverse arrival.
		{"ties-last-first", defaultMauiOracle()},
		// A job is bound by the reservations of jobs ranked below it.
		{"bound-by-lower", mauiGoldenConfigs()["maui-xfactor"]},
		// A kept reservation never moves earlier.
		{"keep-in-place", mauiGoldenConfigs()["maui-depth2"]},
	} {
		mc := tc.mc
		mc.broken = tc.broken
		caught := ""
		for _, oc := range cases {
			if mauiDiffers(mc, oc.c, oc.recs, sim.Options{}) {
				caught = oc.name
				break
			}
		}
		if caught == "" {
			t.Errorf("oracle broken by %s: no case tells it from the engine", tc.broken)
		} else {
			t.Logf("oracle broken by %s: %s tells", tc.broken, caught)
		}
	}
}

// TestMauiEqualPrioritiesByArrival: jobs whose priorities are equal go
// by arrival (Maui's deviations: "ties go by arrival"), even where the
// minutes waited are not whole: found by the oracle on random workloads
// and on KTH-SP2, where the engine ranked such ties by rounding error.
func TestMauiEqualPrioritiesByArrival(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings []string
		c        sim.Resources
		recs     []sim.Record
		want     []string
	}{
		{
			// At 711 job 1 ends: job 2 has waited 695 s with 14
			// processors, job 3 635 s with 15: 695/60 + 14 = 635/60 + 15.
			// Job 2, the earlier, starts; job 3 (15) waits for room.
			"size and queue time", []string{"proc_weight=1", "reservation_depth=0"}, sim.Resources{25},
			[]sim.Record{simtest.J(1, 16, 695, 695, 17), simtest.J(2, 16, 892, 2692, 14), simtest.J(3, 76, 238, 1509, 15)},
			[]string{"1 16 16 711 17 finished", "2 16 711 1603 14 finished", "3 76 1603 1841 15 finished"},
		},
		{
			// KTH-SP2's jobs 1673 and 1674: 300 s requested, 8 processors
			// against 6, submitted 12 s apart: at any time w s after job
			// 3's submission, (w+12)/60 + 20·(w+312)/300 − 0.5·8 = w/60
			// + 20·(w+300)/300 − 0.5·6. At 60 job 1 ends; job 2, the
			// earlier, starts; job 3 (6) waits for its 8 processors.
			"expansion factor", []string{"xfactor_weight=20", "proc_weight=-0.5"}, sim.Resources{10},
			[]sim.Record{simtest.J(1, 0, 60, 60, 10), simtest.J(2, 13, 50, 300, 8), simtest.J(3, 25, 54, 300, 6)},
			[]string{"1 0 0 60 10 finished", "2 13 60 110 8 finished", "3 25 110 164 6 finished"},
		},
	} {
		p, err := policies.New("maui", tc.settings...)
		if err != nil {
			t.Fatal(err)
		}
		res, _ := simtest.Run(t, tc.c, p, tc.recs, sim.Options{}, simtest.Checks{})
		if diff := gocmp.Diff(tc.want, scheduleLines(res)); diff != "" {
			t.Errorf("%s: maui %v (-want +got):\n%s", tc.name, tc.settings, diff)
		}
	}
}
