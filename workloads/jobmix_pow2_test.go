package workloads

import (
	"math"
	"math/bits"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// mixPow2Range is the nodes a job of each class may use on 64 nodes with
// power-of-two sizes: Large only the whole machine, Medium 16 and 32, Small
// up to 8 (below 9.6), Debug up to 4 (below 6.4).
var mixPow2Range = map[MixClass][]int64{
	MixLarge: {64}, MixMedium: {16, 32}, MixSmall: {1, 2, 4, 8}, MixDebug: {1, 2, 4}, MixFailed: {1, 2, 4, 8, 16, 32, 64},
}

func pow2(p *JobMixParams) { p.PowerOfTwo = true }

// TestJobMixPowerOfTwo checks every job of power-of-two mixes against the
// paper's rules and the sizes each class can take, and that the default
// (false) does not.
func TestJobMixPowerOfTwo(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m, recs := mixJobs(t, seed, pow2)
		if len(recs) != 76 {
			t.Fatalf("seed %d: %d jobs; want 76", seed, len(recs))
		}
		for i, r := range recs {
			checkMixJob(t, seed, m, recs, i)
			n := r.Need[sim.Procs]
			if !contains(mixPow2Range[m.Class(r.ID)], n) {
				t.Errorf("seed %d, job %d (%v): %d nodes; want one of %v", seed, r.ID, m.Class(r.ID), n, mixPow2Range[m.Class(r.ID)])
			}
		}
	}
	_, off := mixJobs(t, 1, nil)
	_, on := mixJobs(t, 1, pow2)
	if cmp.Equal(off, on) {
		t.Error("power_of_two true and false gave the same mix of seed 1")
	}
}

func contains(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestJobMixDefaultUnchanged pins the first jobs of the default mix of
// seed 1, drawn before power_of_two existed: with it false, sizes, requests,
// work and delays take the same draws.
func TestJobMixDefaultUnchanged(t *testing.T) {
	_, recs := mixJobs(t, 1, nil)
	type j struct {
		procs            int64
		submit, est, run sim.Time
	}
	var got []j
	for _, r := range recs[:4] {
		got = append(got, j{r.Need[sim.Procs], r.Submit, r.Estimate, r.Runtime})
	}
	// From `schedsweep trace generate job-mix` built before power_of_two.
	want := []j{{51, 77, 4430, 4281}, {5, 153, 8326, 6339}, {30, 248, 8067, 5700}, {56, 337, 10010, 8060}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(j{})); diff != "" {
		t.Errorf("first jobs of seed 1 (-want +got):\n%s", diff)
	}
}

// TestJobMixPowerOfTwoFigures checks the draws against hand-worked
// probabilities and the bounds over many mixes against the paper's.
//
// Per draw on 64 nodes, each of 1, 2, …, 64 has probability 1/7 and the
// efficiency work/request is close to uniform on [0, 1], so: Large (64
// nodes, ≥ 70 %) 1/7 × 0.3 ≈ 0.0429; Medium (16, 32) 2/7 × 0.3 ≈ 0.0857;
// Small (1–8) 4/7 × 0.3 ≈ 0.1714; Debug (1–4, 40–70 %) 3/7 × 0.3 ≈ 0.1286;
// Failed (< 20 %) 0.2. Large is then the class hardest to fill.
//
// Over 200 mixes the paper's theoretical minimum read with requested
// times (RequestedMinimum) is ≈ 53.7 h (paper 53.6 h), with work times
// ≈ 44.2 h, and the sequential maximum ≈ 91 h (paper 90.2 h).
func TestJobMixPowerOfTwoFigures(t *testing.T) {
	p := DefaultJobMixParams()
	pow2(&p)
	const draws = 1_000_000
	rng := NewStream(1, StreamExtra)
	var perDraw [MixFailed + 1]float64
	var sizes [7]float64
	for range draws {
		procs := p.drawProcs(rng)
		sizes[bits.Len64(uint64(procs))-1] += 1.0 / draws
		req := p.MinRequest + sim.Time(rng.Int64N(int64(p.MaxRequest-p.MinRequest)+1))
		perDraw[ClassifyMixJob(p.Nodes, procs, sim.Time(rng.Int64N(int64(req)+1)), req)] += 1.0 / draws
	}
	for k, got := range sizes {
		if math.Abs(got-1.0/7) > 0.002 {
			t.Errorf("share of draws of %d nodes: got %.4f; want 1/7 ± 0.002", 1<<k, got)
		}
	}
	want := [...]float64{MixLarge: 0.3 / 7, MixMedium: 0.6 / 7, MixSmall: 1.2 / 7, MixDebug: 0.9 / 7, MixFailed: 0.2}
	for c := MixLarge; c <= MixFailed; c++ {
		if math.Abs(perDraw[c]-want[c]) > 0.002 {
			t.Errorf("%v per draw: got %.4f; want %.4f ± 0.002", c, perDraw[c], want[c])
		}
	}

	const seeds = 200
	var seq, work, req float64
	for seed := uint64(1); seed <= seeds; seed++ {
		_, recs := mixJobs(t, seed, pow2)
		seq += float64(SequentialMaximum(recs)) / 3600 / seeds
		work += float64(TheoreticalMinimum(recs, p.Nodes)) / 3600 / seeds
		req += float64(RequestedMinimum(recs, p.Nodes)) / 3600 / seeds
	}
	t.Logf("over %d power-of-two mixes: requested-time minimum %.2f h, work-time minimum %.2f h, sequential maximum %.2f h", seeds, req, work, seq)
	for _, f := range []struct {
		what      string
		got, want float64
	}{
		{"sequential maximum (h)", seq, 91},
		{"theoretical minimum, work times (h)", work, 44.2},
		{"theoretical minimum, requested times (h)", req, 53.7},
	} {
		if math.Abs(f.got/f.want-1) > 0.02 {
			t.Errorf("mean over %d seeds, %s: got %.4g; want %.4g ± 2%%", seeds, f.what, f.got, f.want)
		}
	}
}
