package results

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// TestStatsMatchGonumEmpirical checks that Stats' nearest-rank median and
// 95th percentile are gonum's stat.Quantile with stat.Empirical.
func TestStatsMatchGonumEmpirical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 2500; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64() // distinct, so a wrong rank shows
		}
		got := stats(0, x)
		slices.Sort(x)
		if want := stat.Quantile(0.5, stat.Empirical, x, nil); got.Median != want {
			t.Errorf("n=%d: median %v; want gonum's %v", n, got.Median, want)
		}
		if want := stat.Quantile(0.95, stat.Empirical, x, nil); got.P95 != want {
			t.Errorf("n=%d: p95 %v; want gonum's %v", n, got.P95, want)
		}
	}
}

func TestNearestRank(t *testing.T) {
	tests := []struct{ n, pct, want int }{
		{1, 50, 0}, {1, 95, 0}, {2, 50, 0}, {3, 50, 1}, {4, 50, 1},
		{20, 95, 18}, {21, 95, 19}, {100, 95, 94}, {101, 95, 95},
	}
	for _, tc := range tests {
		if got := nearestRank(tc.n, tc.pct); got != tc.want {
			t.Errorf("nearestRank(%d, %d) = %d; want %d", tc.n, tc.pct, got, tc.want)
		}
	}
}

// TestSelectRank checks selectRank against sorting, on inputs with many
// ties, sorted and reversed runs, and a sawtooth, and its fallback to
// sorting when rounds run out.
func TestSelectRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := []struct {
		name string
		gen  func(i, n int) float64
	}{
		{"ties", func(i, n int) float64 { return float64(rng.IntN(3)) }},
		{"zeros", func(i, n int) float64 { return 0 }},
		{"sorted", func(i, n int) float64 { return float64(i) }},
		{"reversed", func(i, n int) float64 { return float64(n - i) }},
		{"sawtooth", func(i, n int) float64 { return float64(i % 7) }},
		{"random", func(i, n int) float64 { return rng.NormFloat64() }},
	}
	for _, in := range inputs {
		for _, n := range []int{1, 2, 3, 10, 101, 1000} {
			x := make([]float64, n)
			for i := range x {
				x[i] = in.gen(i, n)
			}
			sorted := slices.Sorted(slices.Values(x))
			for _, k := range []int{0, n / 2, n - 1, nearestRank(n, 95)} {
				y := slices.Clone(x)
				if got := selectRank(y, k); got != sorted[k] {
					t.Errorf("%s n=%d: selectRank(k=%d) = %v; want %v", in.name, n, k, got, sorted[k])
				}
				if got := selectRankWithin(slices.Clone(x), k, 1); got != sorted[k] {
					t.Errorf("%s n=%d: selectRankWithin(k=%d, 1 round) = %v; want %v", in.name, n, k, got, sorted[k])
				}
				for i := range y {
					if (i < k && y[i] > sorted[k]) || (i > k && y[i] < sorted[k]) {
						t.Fatalf("%s n=%d k=%d: x[%d] = %v on the wrong side of %v", in.name, n, k, i, y[i], sorted[k])
					}
				}
			}
		}
	}
}
