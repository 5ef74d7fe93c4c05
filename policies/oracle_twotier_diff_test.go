package policies_test

// The differential tests of the two-tier oracle (oracle_twotier_test.go):
// KEASY, REASY and MEASY on the engine of sim/tier against the oracle, job
// for job and event for event (every placement with its processors, every
// rate change, end, promise and withdrawal), with the run's counters, on
// small random and tie-heavy workloads with CPU usages, the two-tier
// golden cases and a prefix of a real trace, under several machine models.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
	"github.com/schedsweep/schedsweep/workloads"
)

// ttPaper are the paper's two-tier policies as the registry names them,
// and ttEntries every two-tier entry: those and MEASY in fairshare order.
var (
	ttPaper   = []string{"keasy", "reasy", "measy"}
	ttEntries = append(slices.Clip(ttPaper), "fairshare-measy")
)

// ttVariants are the machine models compared besides the default: no or a
// long migration cost, a low threshold (many background VMs closed), the
// normalised progress formula, and a threshold of 1 (only a job of full
// usage closes its background VM).
var ttVariants = [][]string{
	nil,
	{"migration_cost=0"},
	{"migration_cost=100"},
	{"threshold=0.5"},
	{"progress=normalised"},
	{"threshold=1", "migration_cost=5"},
}

// ttExact removes the model's randomness: no foreground loss, α = 1, so
// rates are usages and shares of idle cycles, and ends and believed ends
// meet often.
var ttExact = []string{
	"loss_min=0", "loss_max=0", "alpha_single_min=1", "alpha_single_max=1",
	"alpha_multi_mean=1", "alpha_multi_sd=0", "alpha_multi_min=1", "alpha_multi_max=1",
}

// ttSetting is one two-tier policy to compare: a registry entry with
// parameters, and for the paper's Figure 1 a table of background rates
// that replaces the model (simtest.RateTable on the engine's side).
type ttSetting struct {
	entry  string
	params []string
	table  map[[2]sim.JobID]float64
}

func (s ttSetting) String() string {
	if len(s.params) == 0 {
		return s.entry
	}
	return s.entry + " " + strings.Join(s.params, " ")
}

// ttEngine runs s on the engine and renders the run as the oracle does.
func ttEngine(s ttSetting, n int, recs []sim.Record, opt sim.Options) ([]string, error) {
	p, err := policies.New(s.entry, s.params...)
	if err != nil {
		return nil, err
	}
	ts := p.(*policies.TwoTier)
	if s.table != nil {
		cfg := ts.Config()
		cfg.Model = func(uint64) tier.Model { return simtest.RateTable{Background: s.table} }
		tp := map[string]func() *policies.TwoTier{"keasy": policies.NewKEASY, "reasy": policies.NewREASY, "measy": policies.NewMEASY}[s.entry]
		if ts, err = tp().WithConfig(cfg); err != nil {
			return nil, err
		}
	}
	rec := &tier.Recorder{}
	opt.Tracer = rec
	res, err := sim.Run(sim.NewPool(sim.Resources{sim.Procs: int64(n)}), ts, sim.NewSliceSource(recs), opt)
	if err != nil {
		return nil, err
	}
	lines := engineSummary(res)
	c := res.Tiers
	lines = append(lines, ttCountsLine(c.Restarts, c.Migrations, c.Swaps, c.LostWork))
	evs := make([]ttEvent, len(rec.Events))
	for i, e := range rec.Events {
		ev := ttEvent{at: e.Time, kind: e.Kind, seq: e.Seq}
		switch e.Kind {
		case tier.Placed:
			ev.line = fmt.Sprintf("%v %v on %v", e.Move, e.Tier, sortedProcs(e.Procs))
		case tier.Rated:
			ev.line = fmt.Sprintf("rate %d", e.Rate)
		case tier.Ended:
			ev.line = "end"
		case tier.Promised:
			ev.line = fmt.Sprintf("promise %d", e.At)
		case tier.Withdrawn:
			ev.line = "withdraw"
		}
		evs[i] = ev
	}
	ids := make([]sim.JobID, len(res.Jobs))
	for i := range res.Jobs {
		ids[i] = res.Jobs[i].ID
	}
	return append(lines, renderEvents(ids, evs)...), nil
}

// ttOracle runs s on the oracle.
func ttOracle(s ttSetting, n int, recs []sim.Record, opt sim.Options) ([]string, error) {
	cfg, err := ttParse(s.entry, s.params)
	if err != nil {
		return nil, err
	}
	cfg.table = s.table
	return oracleTwoTier(cfg, n, recs, opt)
}

// ttDiff returns how the engine's run of s differs from the oracle's,
// "" if it does not, and the oracle's counters line.
func ttDiff(s ttSetting, n int, recs []sim.Record, opt sim.Options) (diff, counts string) {
	want, err := ttOracle(s, n, recs, opt)
	if errors.Is(err, errOracleTie) {
		return "", "" // undecided: see oracle_order_test.go
	}
	if err != nil {
		return "oracle: " + err.Error(), ""
	}
	got, err := ttEngine(s, n, recs, opt)
	if err != nil {
		return "engine: " + err.Error(), ""
	}
	return gocmp.Diff(want, got), want[len(recs)+1]
}

// ttTally counts what the comparisons covered.
type ttTally struct {
	jobs                        int
	restarts, migrations, swaps int
}

func (t ttTally) String() string {
	return fmt.Sprintf("%d job schedules agreed, with %d restarts, %d migrations and %d swaps", t.jobs, t.restarts, t.migrations, t.swaps)
}

// ttOptName names the options that matter here.
func ttOptName(o sim.Options) string {
	return fmt.Sprintf("seed %d, %s", o.Seed, optName(o))
}

// compareTwoTier fails t if the engine and the oracle disagree on recs
// under s and opt, showing the start of the difference and a minimised
// workload. It adds what agreed to tally.
func compareTwoTier(t *testing.T, tally *ttTally, name string, s ttSetting, n int, recs []sim.Record, opt sim.Options) {
	t.Helper()
	diff, counts := ttDiff(s, n, recs, opt)
	if diff == "" && counts == "" {
		return // a fairshare near-tie the oracle cannot decide
	}
	if diff == "" {
		var lost string
		var r, m, w int
		if _, err := fmt.Sscanf(counts, "tiers restarts=%d migrations=%d swaps=%d lost=%s", &r, &m, &w, &lost); err != nil {
			t.Fatalf("bad counters %q: %v", counts, err)
		}
		tally.jobs += len(recs)
		tally.restarts, tally.migrations, tally.swaps = tally.restarts+r, tally.migrations+m, tally.swaps+w
		return
	}
	if lines := strings.Split(diff, "\n"); len(lines) > 60 {
		diff = strings.Join(lines[:60], "\n") + "\n\t…"
	}
	small := minimise(sim.Resources{sim.Procs: int64(n)}, recs, func(try []sim.Record) bool {
		d, _ := ttDiff(s, n, try, opt)
		return d != ""
	})
	t.Errorf("%s, %s, %s: engine differs from oracle (-oracle +engine):\n%s\nminimised (CPU usages: %v): %s",
		name, s, ttOptName(opt), diff, ttUsages(recs), small)
}

// ttUsages lists the jobs' CPU usages by ID, for a failure message.
func ttUsages(recs []sim.Record) string {
	var b strings.Builder
	for _, r := range recs {
		if r.CPUUsage != 0 {
			fmt.Fprintf(&b, "%d:%.3g ", r.ID, r.CPUUsage)
		}
	}
	return b.String()
}

// withUsages gives the multi-process jobs of recs a CPU usage between 0.4
// and 1 (the paper's section 3.1), and now and then any job an unknown
// usage, exactly 1, the default threshold, or a low one.
func withUsages(rng *rand.Rand, recs []sim.Record) {
	for i := range recs {
		if recs[i].Need[sim.Procs] > 1 {
			recs[i].CPUUsage = 0.4 + 0.6*rng.Float64()
		}
		switch rng.IntN(12) {
		case 0:
			recs[i].CPUUsage = 0
		case 1:
			recs[i].CPUUsage = 1
		case 2:
			recs[i].CPUUsage = 0.96
		case 3:
			recs[i].CPUUsage = 0.1 + 0.3*rng.Float64()
		}
	}
}

// withTieUsages gives every job a usage from a handful of values, so that
// Dispatch meets ties of usage and exact rates meet each other.
func withTieUsages(rng *rand.Rand, recs []sim.Record) {
	usages := []float64{0, 0.25, 0.5, 0.5, 0.75, 0.96, 1}
	for i := range recs {
		recs[i].CPUUsage = usages[rng.IntN(len(usages))]
	}
}

// ttOptions are the engine options of seed's runs.
func ttOptions(seed uint64) sim.Options {
	opt := sim.Options{Seed: seed}
	switch seed % 3 {
	case 1:
		opt.AllowOverrun = true
	case 2:
		opt.MissingEstimate = sim.RejectMissingEstimate
	}
	return opt
}

// TestTwoTierOracleRandom compares the oracle with the engine on random
// workloads of 10 to 60 jobs on 4 to 16 processors, and on tie-heavy ones
// with exact rates on 1 to 8, under every policy and a machine model by
// seed; in the long mode on more seeds, with up to 250 jobs on up to 32
// processors.
func TestTwoTierOracleRandom(t *testing.T) {
	seeds, size, procs := 160, 60, 16
	if longOracle() {
		seeds, size, procs = 1000, 250, 32
	}
	gaps := []int{5, 30, 100, 400}
	var tally ttTally
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 31))
		n := 4 + rng.IntN(procs-3)
		gap := gaps[seed%4]
		recs := randomWorkload(rng, 10+rng.IntN(size-9), simtest.Cluster(int64(n), 0), gap)
		withUsages(rng, recs)
		small := 1 + rng.IntN(8)
		ties := tieWorkload(rng, 10+rng.IntN(size/2-9), simtest.Cluster(int64(small), 0))
		withTieUsages(rng, ties)
		variant := ttVariants[int(seed/3)%len(ttVariants)]
		for _, entry := range ttEntries {
			opt := ttOptions(seed)
			name := fmt.Sprintf("seed %d (gap %d, %d processors)", seed, gap, n)
			compareTwoTier(t, &tally, name, ttSetting{entry: entry, params: variant}, n, recs, opt)
			exact := ttSetting{entry: entry, params: slices.Concat(ttExact, variant)}
			compareTwoTier(t, &tally, fmt.Sprintf("seed %d (ties)", seed), exact, small, ties, opt)
		}
	}
	t.Log(tally)
}

// figure1Table is Figure 1's rates for s (twotier_test.go's figureRates).
func figure1Setting(entry string) ttSetting {
	return ttSetting{entry: entry, params: []string{"migration_cost=2"}, table: figureRates[entry]}
}

// TestTwoTierOracleGolden checks the oracle against the hand-worked goldens
// of the two-tier policies (jobs and counters), then compares it with the
// engine on every golden case that has processors only, under the default
// and the exact model.
func TestTwoTierOracleGolden(t *testing.T) {
	for _, entry := range ttPaper {
		for _, g := range []struct {
			golden, swf string
			s           ttSetting
		}{
			{filepath.Join("testdata", entry, "tiers-move.golden"), "tiers-move", ttSetting{entry: entry}},
			{filepath.Join("testdata", "figure1", entry+".golden"), "figure1", figure1Setting(entry)},
		} {
			tc := loadCase(t, casePath(g.swf))
			g.s.params = append(g.s.params, tc.params...)
			got, err := ttOracle(g.s, int(tc.capacity[sim.Procs]), tc.jobs, sim.Options{})
			if err != nil {
				t.Errorf("%s on %s: %v", g.s, g.swf, err)
				continue
			}
			_, want := readGolden(t, g.golden)
			want = slices.DeleteFunc(want, func(l string) bool { return strings.HasPrefix(l, "at ") })
			got = append(got[:len(tc.jobs)], got[len(tc.jobs)+1])
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("oracle %s on %s differs from %s (-want +got):\n%s", g.s, g.swf, g.golden, diff)
			}
		}
	}
	var tally ttTally
	for _, tc := range goldenCases(t) {
		if tc.capacity[sim.Memory] != 0 || tc.capacity[sim.GPUs] != 0 {
			continue
		}
		n := int(tc.capacity[sim.Procs])
		// Only the parameters of the two-tier policies: the others'
		// cases ask for a fairshare half-life or a starvation time.
		params := slices.DeleteFunc(slices.Clone(tc.params), func(p string) bool {
			_, err := ttParse("keasy", []string{p})
			return err != nil
		})
		for _, entry := range ttEntries {
			settings := []ttSetting{{entry: entry, params: params}, {entry: entry, params: slices.Concat(ttExact, params)}}
			if tc.name == "figure1.swf" && figureRates[entry] != nil {
				settings = append(settings, figure1Setting(entry))
			}
			for _, s := range settings {
				for _, opt := range []sim.Options{{}, {AllowOverrun: true, Seed: 7}} {
					compareTwoTier(t, &tally, tc.name, s, n, tc.jobs, opt)
				}
			}
		}
	}
	t.Log(tally)
}

// TestTwoTierOracleTrace compares the oracle with the engine on a prefix of
// KTH-SP2 (longer in the long mode), whose CPU usages come from the trace.
func TestTwoTierOracleTrace(t *testing.T) {
	n := 800
	if longOracle() {
		n = 0 // all
	}
	recs := readTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", workloads.SWFOptions{})
	if n > 0 && n < len(recs) {
		recs = recs[:n]
	}
	var tally ttTally
	for i, entry := range ttEntries {
		for _, params := range [][]string{nil, ttVariants[1+i]} {
			compareTwoTier(t, &tally, "KTH-SP2", ttSetting{entry: entry, params: params}, 100, recs, sim.Options{Seed: uint64(i)})
		}
	}
	t.Log(tally)
}
