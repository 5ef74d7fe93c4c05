package workloads

// This file holds the optional user population of the synthetic models:
// job ownership drawn from a Zipf law over a fixed number of users.

import (
	"math"
	"math/rand/v2"
	"sort"
)

// MaxZipfUsers is the largest user population a model draws owners from.
// The population's table holds one float64 per user.
const MaxZipfUsers = 1_000_000

// DefaultZipfExponent is the exponent of the Zipf law of job ownership when
// a model's parameter leaves it at 0: user k owns a share of the jobs
// proportional to 1/k. It is a modelling choice, not a measured value: the
// share of the most active users in archived logs spans a wide range.
const DefaultZipfExponent = 1.0

// zipfUsers draws job owners 1 … n with P(user k) = k^−s / Σ_j j^−s, by
// inverting the cumulative table with a binary search: one uniform draw
// and O(log n) work a job.
type zipfUsers struct {
	cdf []float64 // cdf[k−1] = P(owner ≤ k); cdf[n−1] = 1
	rng *rand.Rand
}

// newZipfUsers returns the population of n users (1 ≤ n ≤ MaxZipfUsers)
// with exponent s (s ≥ 0, finite) drawing from rng.
func newZipfUsers(n int64, s float64, rng *rand.Rand) *zipfUsers {
	cdf := make([]float64, n)
	sum := 0.0
	for k := range cdf {
		sum += math.Pow(float64(k+1), -s)
		cdf[k] = sum
	}
	for k := range cdf {
		cdf[k] /= sum
	}
	cdf[n-1] = 1 // rounding must not leave a draw above the last entry
	return &zipfUsers{cdf: cdf, rng: rng}
}

// draw returns the next job's owner, from 1.
func (z *zipfUsers) draw() int32 {
	u := z.rng.Float64() // in [0, 1)
	return int32(sort.Search(len(z.cdf), func(i int) bool { return z.cdf[i] > u })) + 1
}

// zipfShare returns the expected share of user k's jobs (1 ≤ k ≤ n) in a
// population of n users with exponent s.
func zipfShare(k, n int64, s float64) float64 {
	sum := 0.0
	for j := int64(1); j <= n; j++ {
		sum += math.Pow(float64(j), -s)
	}
	return math.Pow(float64(k), -s) / sum
}
