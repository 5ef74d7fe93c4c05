package policies_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// tierLine renders a two-tier run's counters as a golden data line; nil for
// a run without any.
func tierLine(res *sim.Result) []string {
	c := res.Tiers
	if c == (sim.TierCounts{}) {
		return nil
	}
	return []string{fmt.Sprintf("tiers restarts=%d migrations=%d swaps=%d lost=%s",
		c.Restarts, c.Migrations, c.Swaps, strconv.FormatFloat(c.LostWork, 'g', -1, 64))}
}

// figureRates are the progress rates the text of the paper's Figure 1
// assumes, by (job, foreground neighbour); see testdata/figure1/*.golden.
var figureRates = map[string]map[[2]sim.JobID]float64{
	"keasy": {{5, 1}: .4, {6, 1}: .4, {7, 3}: .4, {8, 3}: .4, {9, 1}: .4, {9, 2}: 0, {10, 1}: .25, {10, 2}: .25},
	"reasy": {{5, 1}: .4, {6, 1}: .375, {7, 3}: .4, {8, 3}: .4, {9, 1}: .4, {9, 2}: .5, {10, 2}: .25, {11, 12}: .5},
	"measy": {{5, 1}: .4, {6, 1}: .4, {7, 3}: .4, {8, 3}: .4, {9, 1}: .4, {9, 2}: 0, {10, 1}: .25, {10, 2}: .25},
}

// TestFigure1 replays the worked examples of the paper's Figure 1 (KEASY,
// REASY; MEASY is ours) with the rates its text assumes, and checks every
// job, the placements at the times the golden file lists and the counters.
func TestFigure1(t *testing.T) {
	tc := loadCase(t, filepath.Join("testdata", "cases", "figure1.swf"))
	for _, name := range []string{"keasy", "reasy", "measy"} {
		t.Run(name, func(t *testing.T) {
			cfg := tier.DefaultConfig()
			cfg.MigrationCost = 2
			cfg.Model = func(uint64) tier.Model { return simtest.RateTable{Background: figureRates[name]} }
			newSim := func() *policies.TwoTier {
				var p *policies.TwoTier
				switch name {
				case "keasy":
					p = policies.NewKEASY()
				case "reasy":
					p = policies.NewREASY()
				default:
					p = policies.NewMEASY()
				}
				s, err := p.WithConfig(cfg)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			res, _ := simtest.Run(t, tc.capacity, newSim(), tc.jobs, sim.Options{}, simtest.Checks{MaxOpen: 1})
			rec := &tier.Recorder{}
			if _, err := sim.Run(sim.NewPool(tc.capacity), newSim(), sim.NewSliceSource(tc.jobs), sim.Options{Tracer: rec}); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "figure1", name+".golden")
			comments, want := readGolden(t, golden)
			got := scheduleLines(res)
			for _, l := range want {
				if at, ok := strings.CutPrefix(l, "at "); ok {
					tm, _, _ := strings.Cut(at, ":")
					n, err := strconv.ParseInt(tm, 10, 64)
					if err != nil {
						t.Fatalf("%s: bad line %q", golden, l)
					}
					got = append(got, snapshot(res, rec, sim.Time(n)))
				}
			}
			got = append(got, tierLine(res)...)
			if *update {
				writeGolden(t, golden, comments, got)
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s differs from %s (-want +got):\n%s", name, golden, diff)
			}
		})
	}
}

// snapshot renders what runs where once every event at time at has
// happened: "at T: P1 fg/bg P2 fg/bg …" with job IDs, "-" for an idle VM.
func snapshot(res *sim.Result, rec *tier.Recorder, at sim.Time) string {
	n := int(res.Capacity[sim.Procs])
	fg, bg := make([]int, n), make([]int, n)
	where := map[int][]int{}
	in := map[int]tier.Tier{}
	for _, e := range rec.Events {
		if e.Time > at {
			break
		}
		switch e.Kind {
		case tier.Placed:
			for _, p := range where[e.Seq] {
				bg[p] = 0 // a move always leaves the background
			}
			for _, p := range e.Procs {
				if e.Tier == tier.Foreground {
					fg[p] = e.Seq + 1
				} else {
					bg[p] = e.Seq + 1
				}
			}
			where[e.Seq], in[e.Seq] = e.Procs, e.Tier
		case tier.Ended:
			for _, p := range where[e.Seq] {
				if in[e.Seq] == tier.Foreground {
					fg[p] = 0
				} else {
					bg[p] = 0
				}
			}
		}
	}
	id := func(seq int) string {
		if seq == 0 {
			return "-"
		}
		return strconv.FormatInt(int64(res.Jobs[seq-1].ID), 10)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "at %d:", at)
	for p := range n {
		fmt.Fprintf(&b, " P%d %s/%s", p+1, id(fg[p]), id(bg[p]))
	}
	return b.String()
}

// TestTwoTierRandom runs the two-tier policies on seeded random workloads
// with CPU usages, so that jobs do run behind others: tier.Verify holds
// (simtest.Run checks it, rates recomputed from the model), two runs give
// the same bytes, and each policy moves background jobs only its own way.
func TestTwoTierRandom(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 8
	}
	var total [3]sim.TierCounts
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 5))
		c := simtest.Cluster(1+rng.Int64N(24), 0)
		recs := randomWorkload(rng, 150, c, 60)
		for i := range recs {
			if recs[i].Need[sim.Procs] > 1 {
				recs[i].CPUUsage = 0.2 + 0.8*rng.Float64()
			}
		}
		for k, name := range []string{"keasy", "reasy", "measy"} {
			for _, opt := range []sim.Options{{Seed: seed}, {Seed: seed, AllowOverrun: true}} {
				gp := golden(t, name)
				params := []string{"migration_cost=" + strconv.Itoa(int(seed%4)*15)}
				if seed%3 == 0 {
					params = append(params, "progress=normalised")
				}
				res, _ := simtest.Run(t, c, gp.new(t, params...), recs, opt, gp.checks)
				again, _ := simtest.Run(t, c, gp.new(t, params...), recs, opt, gp.checks)
				if !bytes.Equal(simtest.Bytes(res), simtest.Bytes(again)) {
					t.Fatalf("seed %d, %s: two runs differ", seed, name)
				}
				tc := res.Tiers
				if name != "keasy" && tc.Restarts+int(tc.LostWork) > 0 || name != "measy" && tc.Migrations > 0 {
					t.Fatalf("seed %d, %s: moves of another policy: %+v", seed, name, tc)
				}
				total[k].Restarts += tc.Restarts
				total[k].Migrations += tc.Migrations
				total[k].Swaps += tc.Swaps
			}
		}
	}
	// The workloads are busy enough that each policy's own move happens.
	if total[0].Restarts == 0 || total[2].Migrations == 0 || total[1].Swaps == 0 {
		t.Errorf("no restart, migration or swap in %d seeds: %+v", seeds, total)
	}
}
