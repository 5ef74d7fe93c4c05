package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// sizeUnits are the suffixes a memory size may carry, longest first; the
// one-letter forms are the same binary units, as on the command line.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// parseSize reads a byte count with an optional binary unit: "512",
// "64KiB", "8 MiB", "504GiB", "2T".
func parseSize(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 || strings.HasPrefix(num, "+") {
		return 0, fmt.Errorf("%q is not a size such as \"64GiB\" or \"512MiB\"", s)
	}
	if v > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is more bytes than fit in 63 bits", s)
	}
	return v * mult, nil
}

// size reads a memory size: a size string or a whole number of bytes.
func (d *decoder) size(it item, what string) (int64, bool) {
	switch it.v.Type() {
	case cty.String:
		n, err := parseSize(it.v.AsString())
		if err != nil {
			d.errorf(it.rng, "Invalid memory size", "%s: %s.", what, err)
			return 0, false
		}
		return n, true
	case cty.Number:
		return d.asInt(it, what, "Invalid memory size", 0, math.MaxInt64)
	}
	d.wrongType(it, what, `a size such as "64GiB" or a number of bytes`)
	return 0, false
}
