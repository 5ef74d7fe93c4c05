package results

import "math"

// Trim says which jobs of a run its metrics measure: the warm-up and
// cool-down fractions of the jobs, in submit (arrival) order, that are left
// out. The zero Trim measures every job. The schedule is never affected:
// the left-out jobs are simulated like any other and keep their rows in the
// jobs file; only the per-job statistics of runs.parquet and users.parquet
// skip them (results/README.md, "Warm-up and cool-down").
type Trim struct {
	// Warmup is the share of the first jobs left out, in [0, 1).
	Warmup float64
	// Cooldown is the share of the last jobs left out, in [0, 1).
	Cooldown float64
}

// Kept returns the half-open range [lo, hi) of the arrival-order positions
// (sim.Outcome.Seq) of the n jobs t keeps: lo = ⌊Warmup·n⌋ and
// hi = n − ⌊Cooldown·n⌋, in float64 arithmetic as DuckDB's floor gives it.
// When Warmup + Cooldown < 1 (runner/spec checks it), the floors leave at
// least one of n > 0 jobs; should rounding ever leave none, the job at lo
// is kept, so a run with jobs always measures one. lo ≤ hi always.
func (t Trim) Kept(n int) (lo, hi int) {
	lo = int(math.Floor(t.Warmup * float64(n)))
	hi = n - int(math.Floor(t.Cooldown*float64(n)))
	lo = min(max(lo, 0), n)
	hi = min(max(hi, lo), n)
	if n > 0 && hi == lo {
		lo = min(lo, n-1)
		hi = lo + 1
	}
	return lo, hi
}

// IsZero reports whether t keeps every job.
func (t Trim) IsZero() bool { return t.Warmup == 0 && t.Cooldown == 0 }
