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
