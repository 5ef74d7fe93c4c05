package plot

import (
	"image/color"
	"math"
	"testing"
)

func TestErrorBars(t *testing.T) {
	nan := math.NaN()
	e := errorBars([]float64{1, 2, 3}, []float64{-5, nan, 2}, []float64{10, 4, 6}, color.Black)
	if len(e.XYs) != 2 || len(e.YErrors) != 2 {
		t.Fatalf("got %d bars; want 2 (the one with a NaN end left out)", len(e.XYs))
	}
	xmin, xmax, ymin, ymax := e.DataRange()
	if xmin != 1 || xmax != 3 || ymin != -5 || ymax != 10 {
		t.Errorf("DataRange() = %g, %g, %g, %g; want 1, 3, -5, 10", xmin, xmax, ymin, ymax)
	}
}

func TestBoundedSlowdownLabel(t *testing.T) {
	m, err := lookup(runMetrics, "bounded_slowdown_mean", "runs.parquet")
	if want := "mean bounded slowdown (τ = 10 s)"; err != nil || m.label != want {
		t.Errorf("label %q, error %v; want %q", m.label, err, want)
	}
}
