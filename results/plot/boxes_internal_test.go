package plot

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/plotter"
)

// TestTukeyHinges checks the boxes' quartiles against Tukey's hinges, the
// medians of the lower and upper halves of the sorted values, each half
// holding the median when n is odd. gonum's BoxPlot leaves the median
// out of the lower half only, so for an odd n its lower quartile is too
// low and its whiskers and outliers follow from the wrong spread.
func TestTukeyHinges(t *testing.T) {
	for _, tc := range []struct {
		name        string
		values      plotter.Values
		q1, med, q3 float64
		low, high   float64
		outside     []int
	}{
		{"odd", plotter.Values{5, 1, 4, 2, 3}, 2, 3, 4, 1, 5, nil},
		{"even", plotter.Values{1, 2, 3, 4, 5, 6}, 2, 3.5, 5, 1, 6, nil},
		{"one", plotter.Values{7}, 7, 7, 7, 7, 7, nil},
		// Hinges 10 and 12: 0 lies beyond 1.5 IQRs below (7).
		{"outlier", plotter.Values{12, 0, 11, 13, 10}, 10, 11, 12, 10, 13, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := newBoxPlot(0, tc.values)
			if err != nil {
				t.Fatal(err)
			}
			got := []float64{b.Quartile1, b.Median, b.Quartile3, b.AdjLow, b.AdjHigh}
			want := []float64{tc.q1, tc.med, tc.q3, tc.low, tc.high}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%v: quartile 1, median, quartile 3, whisker ends (-want +got):\n%s", tc.values, diff)
			}
			if diff := cmp.Diff(tc.outside, b.Outside); diff != "" {
				t.Errorf("%v: outliers (-want +got):\n%s", tc.values, diff)
			}
		})
	}
}
