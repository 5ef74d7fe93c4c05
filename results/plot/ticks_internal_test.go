package plot

import "testing"

func TestPowerOfTen(t *testing.T) {
	for k, want := range map[int]string{-2: "0.01", 0: "1", 3: "1000", 4: "10k", 6: "1M", 9: "1G", 11: "100G", 18: "1E", 19: "10E"} {
		if got := powerOfTen(k); got != want {
			t.Errorf("powerOfTen(%d) = %q; want %q", k, got, want)
		}
	}
}
