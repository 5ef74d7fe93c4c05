package psp

import (
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

func TestClass(t *testing.T) {
	tests := []struct {
		acc  float64
		want int
	}{
		{0, 1}, {0.1999, 1}, {0.2, 2}, {0.35, 2}, // 0.35 → priority 2 is the paper's example
		{0.4, 3}, {0.5999, 3}, {0.6, 4}, {0.7999, 4}, {0.8, 5}, {1, 5}, {1.3, 5},
		{-0.1, 0}, {math.NaN(), 0},
	}
	for _, tc := range tests {
		if got := Class(tc.acc); got != tc.want {
			t.Errorf("Class(%v): got %d; want %d", tc.acc, got, tc.want)
		}
	}
}

func TestAccuracy(t *testing.T) {
	tests := []struct {
		run, est sim.Time
		want     float64
	}{
		{30, 120, 0.25},
		{0, 3600, 0},  // ran no time at all: the worst estimate
		{100, 100, 1}, // exact, or killed at its estimate
		{150, 100, 1}, // ran past its estimate (overrun): capped
		{0, 0, 1},     // asked for nothing and used nothing
		{5, 0, 1},
	}
	for _, tc := range tests {
		if got := Accuracy(tc.run, tc.est); got != tc.want {
			t.Errorf("Accuracy(%d, %d): got %v; want %v", tc.run, tc.est, got, tc.want)
		}
	}
}

func TestMeanClass(t *testing.T) {
	tests := []struct {
		jobs []Ended
		want int
	}{
		{[]Ended{{0, 1}, {0, 1}, {3, 5}}, 2},                               // 0.2; float64: 0.1999…
		{[]Ended{{1, 5}, {0, 20}, {20, 5}}, 3},                             // 0.4 (an overrun counts 1); float64: 0.3999…
		{[]Ended{{7, 10}, {7, 10}, {7, 10}, {3, 10}}, 4},                   // 0.6; float64: 0.5999…
		{[]Ended{{1, 1}, {1, 1}, {2, 5}}, 5},                               // 0.8; float64: 0.7999…
		{[]Ended{{1, 5}, {0, 20}, {999_999_999, 1e9}}, 2},                  // just under 0.4, inside the margin
		{[]Ended{{3, 5}, {0, 1}, {0, 1}}, 2},                               // order does not matter
		{[]Ended{{0, 10}}, 1}, {[]Ended{{0, 0}}, 5}, {[]Ended{{7, 10}}, 4}, // no sum
		{[]Ended{{1, 3}, {2, 3}}, 3}, // 0.5, nowhere near a boundary
	}
	for _, tc := range tests {
		if got := MeanClass(tc.jobs); got != tc.want {
			t.Errorf("MeanClass(%v): got %d; want %d", tc.jobs, got, tc.want)
		}
	}
}

// TestMean checks that a mean on a class boundary reads as the boundary,
// and that Class of it agrees with MeanClass.
func TestMean(t *testing.T) {
	tests := []struct {
		jobs []Ended
		want float64
	}{
		{[]Ended{{0, 1}, {0, 1}, {3, 5}}, 0.2},
		{[]Ended{{1, 5}, {0, 20}, {20, 5}}, 0.4},
		{[]Ended{{7, 10}, {7, 10}, {7, 10}, {3, 10}}, 0.6},
		{[]Ended{{1, 1}, {1, 1}, {2, 5}}, 0.8},
		{[]Ended{{1, 3}, {2, 3}}, 0.5},
		{[]Ended{{1, 4}}, 0.25},
	}
	for _, tc := range tests {
		got := Mean(tc.jobs)
		if got != tc.want {
			t.Errorf("Mean(%v): got %v; want %v", tc.jobs, got, tc.want)
		}
		if Class(got) != MeanClass(tc.jobs) {
			t.Errorf("Mean(%v) = %v: Class %d; MeanClass %d", tc.jobs, got, Class(got), MeanClass(tc.jobs))
		}
	}
}
