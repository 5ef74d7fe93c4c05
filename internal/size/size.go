// Package size reads memory sizes as people write them on the command line
// and in experiment files: "512", "64KiB", "8 MiB", "504GB", "2T". Every unit
// is binary (K = KiB = KB = 1024 bytes), as batch systems such as Slurm and
// PBS read them. It is shared by the command line and runner/spec.
package size

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// units are the suffixes a size may carry, longest first.
var units = []struct {
	suffix string
	mult   int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// Parse reads a whole number of bytes with an optional unit.
func Parse(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 || strings.HasPrefix(num, "+") {
		return 0, fmt.Errorf("%q is not a size such as \"64GiB\" or \"512MB\"", s)
	}
	if v > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is more bytes than fit in 63 bits", s)
	}
	return v * mult, nil
}
