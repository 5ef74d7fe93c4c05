package spec

import (
	"math"

	"github.com/zclconf/go-cty/cty"

	"github.com/schedsweep/schedsweep/internal/size"
)

// size reads a memory size: a size string or a whole number of bytes.
func (d *decoder) size(it item, what string) (int64, bool) {
	switch it.v.Type() {
	case cty.String:
		n, err := size.Parse(it.v.AsString())
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
