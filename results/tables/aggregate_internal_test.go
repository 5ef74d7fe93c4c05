package tables

import (
	"math"
	"testing"
)

// TestAggregate checks each summary on values worked by hand: sorted,
// 0, 0.25, 0.5, 1, 1; type-7 quantiles put the median at rank 2 (0.5)
// and the upper quartile at rank 3 (1).
func TestAggregate(t *testing.T) {
	vals := []float64{1, 0.5, 0, 1, 0.25}
	for agg, want := range map[string]float64{"mean": 0.55, "median": 0.5, "p75": 1, "sum": 2.75, "ones": 2} {
		if got := aggregate(agg, vals); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %g; want %g", agg, got, want)
		}
	}
	// Four values 1, 2, 3, 4: the upper quartile lies at rank 2.25,
	// between 3 and 4.
	if got := aggregate("p75", []float64{4, 1, 3, 2}); got != 3.25 {
		t.Errorf("p75 of 1…4 = %g; want 3.25", got)
	}
	if got := aggregate("median", nil); !math.IsNaN(got) {
		t.Errorf("median of nothing = %g; want NaN", got)
	}
}
