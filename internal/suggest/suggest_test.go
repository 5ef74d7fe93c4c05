package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"fcfs", "sjf", "easy", "conservative"}
	tests := []struct{ in, want string }{
		{"esay", "easy"},
		{"EASY", "easy"},
		{"conservativ", "conservative"},
		{"fifo", "fcfs"}, // two letters off: worth suggesting
		{"backfill", ""},
		{"conservative-backfilling", "conservative"}, // contains a name
		{"", ""},
	}
	for _, tc := range tests {
		if got := Closest(tc.in, names); got != tc.want {
			t.Errorf("Closest(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestClosestSynonyms checks the abbreviations a user types for the words
// metric names spell out.
func TestClosestSynonyms(t *testing.T) {
	names := []string{"wait_median", "wait_p95", "wait_mean", "bounded_slowdown_mean", "utilization"}
	tests := []struct{ in, want string }{
		{"wait_avg", "wait_mean"},
		{"wait_average", "wait_mean"},
		{"bsld_avg", "bounded_slowdown_mean"},
		{"util", "utilization"},
		{"queue_avg", ""},
	}
	for _, tc := range tests {
		if got := Closest(tc.in, names); got != tc.want {
			t.Errorf("Closest(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
