package size

import "testing"

func TestParse(t *testing.T) {
	good := map[string]int64{"512": 512, "64KiB": 64 << 10, "8 MiB": 8 << 20, "504GiB": 504 << 30,
		"504GB": 504 << 30, "3528G": 3528 << 30, "2T": 2 << 40, "1TB": 1 << 40, "7B": 7}
	for in, want := range good {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1G", "+5", "1.5GiB", "9000000TiB", "G"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q): got no error", in)
		}
	}
}
