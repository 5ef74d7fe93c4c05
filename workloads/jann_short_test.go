package workloads

import (
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// jannDigest returns a hash of the first n records of the Jann stream,
// written field by field: a field sim.Job gains later (the node shape, say)
// does not move it, while any change to what the model draws does.
func jannDigest(t *testing.T, p JannParams, seed uint64, n int) string {
	t.Helper()
	src, err := NewJann(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for range n {
		rec, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Job.Shape != (sim.Shape{}) {
			t.Fatalf("job %d has a shape %+v; a Jann job has none", rec.Job.ID, rec.Job.Shape)
		}
		j := rec.Job
		fmt.Fprintf(h, "%d %d %d %d %d %d %d %v %g %d %d %d %d\n", j.ID, j.User, j.Group, j.Queue, j.Partition,
			j.Submit, j.Estimate, j.Need, j.CPUUsage, rec.Runtime, rec.Status, rec.Preceding, rec.Think)
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:16]
}

// TestJannShortShareZeroUnchanged pins the default stream to the one drawn
// before short_share existed (the digest this function gives on d8f0803),
// with any short_mean: short_share 0 must leave every workload as it was.
func TestJannShortShareZeroUnchanged(t *testing.T) {
	const want = "efb9d691570c87b9"
	for _, mean := range []float64{0, 300, 5000} {
		p := DefaultJannParams()
		p.ShortMean = mean
		if got := jannDigest(t, p, 1, 20_000); got != want {
			t.Errorf("short_share 0, short_mean %g: digest %s; want %s (the stream before the parameter)", mean, got, want)
		}
	}
}

// TestJannShortCalibration checks that the refit keeps the calibration
// targets: the short branch moves run time between jobs of a range, not its
// mean.
func TestJannShortCalibration(t *testing.T) {
	p := DefaultJannParams()
	p.ShortShare = 0.4
	var got []workloadStats
	for seed := range uint64(calibrationSeeds) {
		j, err := NewJann(p, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, measure(t, j, 100_000, p.Procs))
	}
	checkCalibration(t, "jann short_share 0.4", got, workloadStats{meanSize: 10.5, serial: 0.408, meanRuntime: 11267.0, load: 0.70})
}

// TestJannShortDistribution compares the serial jobs' run times with the
// refit's closed-form distribution function, one-stage hyper-exponential
// P(X ≤ x) = q(1 − e^(−x/300)) + (1 − q)(1 − e^(−x/L)) with L the long
// branch's mean, by the Kolmogorov–Smirnov statistic. Run times are rounded
// up to whole seconds, so the sample's distribution function at x is the
// model's at ⌊x⌋; the statistic compares them at each sample point from
// both sides.
func TestJannShortDistribution(t *testing.T) {
	const q, short = 0.4, 300.0
	p := DefaultJannParams()
	p.ShortShare = q
	j, err := NewJann(p, 3)
	if err != nil {
		t.Fatal(err)
	}
	serial := JannRanges()[0].Runtime.Mean()
	long := (serial - q*short) / (1 - q)
	cdf := func(x float64) float64 {
		return q*(1-math.Exp(-x/short)) + (1-q)*(1-math.Exp(-x/long))
	}
	var xs []float64
	for range 100_000 {
		rec, err := j.Next()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Need[sim.Procs] == 1 {
			xs = append(xs, float64(rec.Runtime))
		}
	}
	slices.Sort(xs)
	n := float64(len(xs))
	d := 0.0
	for i := 0; i < len(xs); {
		k := i
		for k < len(xs) && xs[k] == xs[i] {
			k++
		}
		// The sample holds i values below xs[i] and k at or below it.
		d = max(d, math.Abs(float64(k)/n-cdf(xs[i])), math.Abs(float64(i)/n-cdf(xs[i]-1)))
		i = k
	}
	// The 1% critical value of the one-sample test, 1.628/√n.
	if crit := 1.628 / math.Sqrt(n); d > crit {
		t.Errorf("serial run times (%d jobs): KS distance %.4f above the 1%% critical value %.4f", len(xs), d, crit)
	}
	if n < 35_000 {
		t.Errorf("only %d serial jobs of 100,000", len(xs))
	}
}

// TestJannShortTsafrir is the refit's purpose: with short_share 0.4 the
// Tsafrir model with its own share at the maximum gives every one of 20
// paper-size workloads estimates at a 36-hour maximum; without it most
// seeds fail.
func TestJannShortTsafrir(t *testing.T) {
	if testing.Short() {
		t.Skip("2 million jobs")
	}
	tsafrir := TsafrirParams{MaxEstimate: 36 * hour}
	fails := map[float64]int{}
	for _, q := range []float64{0, 0.4} {
		for seed := uint64(1); seed <= 20; seed++ {
			p := DefaultJannParams()
			p.ShortShare = q
			j, err := NewJann(p, seed)
			if err != nil {
				t.Fatal(err)
			}
			recs := make([]sim.Record, 100_000)
			for i := range recs {
				if recs[i], err = j.Next(); err != nil {
					t.Fatal(err)
				}
			}
			cut, err := AssignTsafrir(recs, tsafrir, seed)
			if err != nil {
				fails[q]++
				if q > 0 {
					t.Errorf("short_share %g, seed %d: %v", q, seed, err)
				}
				continue
			}
			if q > 0 && cut > 200 {
				t.Errorf("short_share %g, seed %d: %d run times cut to 36 h; want at most 200", q, seed, cut)
			}
		}
	}
	if fails[0] < 10 {
		t.Errorf("short_share 0: %d of 20 seeds failed; want most (the problem the refit solves)", fails[0])
	}
}

func TestJannShortBadParams(t *testing.T) {
	tests := []struct {
		name        string
		share, mean float64
		want        string
	}{
		{"share 1", 1, 300, `jann: parameter "short_share": "1" is outside [0, 1)`},
		{"negative share", -0.1, 300, `parameter "short_share": "-0.1" is outside [0, 1)`},
		{"NaN share", math.NaN(), 300, `parameter "short_share": "NaN" is outside`},
		{"zero mean", 0.4, 0, `parameter "short_mean": "0" is outside [1, 1e7] s`},
		{"mean above a range's", 0.4, 9500, `jann: range 0 (1..1): parameter "short_mean": "9500" is above the range's mean run time 9400 s`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultJannParams()
			p.ShortShare, p.ShortMean = tc.share, tc.mean
			_, err := NewJann(p, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewJann(%+v) = %v; want an error containing %q", p, err, tc.want)
			}
		})
	}
}
