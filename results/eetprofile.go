package results

import (
	"errors"
	"math"
	"math/bits"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// userProfile is one user's remaining expected capacity of one resource
// kind over time, Algorithm 1's capacity_time array of Tóth & Klusáček
// (2014) kept as a step function: steps[i].left is what is left on
// [steps[i].at, steps[i+1].at), the last step lasts forever. Amounts are in
// units of 1/den of the kind's unit (den is the denominator of the user's
// Ratio), so that a fractional share stays exact.
//
// Jobs are laid in by consume in arrival order. What lies before the
// latest arrival can no longer be used, so the profile forgets it: steps[0]
// starts at the latest arrival. Adjacent steps never hold the same amount.
type userProfile struct {
	steps   []capStep
	scratch []capStep
}

type capStep struct {
	at   sim.Time
	left int64 // capacity left, in 1/den units
}

// errOverflow reports an EET or an amount of work beyond int64 seconds or
// 128-bit work; only absurd capacities or run times reach it.
var errOverflow = errors.New("EET arithmetic overflows")

// reset empties the profile to a capacity of capacity units from the start
// of time.
func (p *userProfile) reset(capacity int64) {
	p.steps = append(p.steps[:0], capStep{at: math.MinInt64, left: capacity})
}

// consume lays in a job that arrives at a, may take at most need units per
// second and must take work units in all, and returns the job's EET: the
// end of the last second in which it takes anything. Each second from a on
// it takes min(left, need, what it still needs); Algorithm 1 takes
// min(left, need) even in its last second, more than the job needs when
// earlier seconds were short of capacity (see ComputeEET). Arrivals must not
// decrease from call to call.
//
// It costs O(s) for the s steps between a and the EET, plus moving the
// steps after the EET when their number changes.
func (p *userProfile) consume(a sim.Time, need int64, work u128) (sim.Time, error) {
	i := 0
	for i+1 < len(p.steps) && p.steps[i+1].at <= a {
		i++
	}
	p.steps = p.steps[i:]
	p.steps[0].at = a
	if work.isZero() {
		return a, nil
	}
	for j := 0; ; j++ {
		s := &p.steps[j]
		m := min(s.left, need)
		last := j+1 == len(p.steps)
		var span int64
		if !last {
			span = int64(p.steps[j+1].at - s.at)
		}
		if m == 0 {
			if last {
				// Cannot happen: the last step holds the full capacity, which
				// is positive, and need is positive.
				panic("results: EET profile ends with no capacity")
			}
			continue
		}
		if taken := mul64(uint64(m), uint64(span)); !last && taken.less(work) {
			s.left -= m
			work = work.sub(taken)
			continue
		}
		// The job ends in this step, k seconds after its start: k−1 seconds
		// at m and a last one that takes what is left of the work.
		k, ok := work.divCeil(uint64(m))
		if !ok || k > uint64(math.MaxInt64-int64(s.at)) {
			return 0, errOverflow
		}
		end := s.at + sim.Time(k)
		rest := int64(work.sub(mul64(uint64(m), k-1)).lo)
		p.replace(j, end, m, rest)
		return end, nil
	}
}

// replace rewrites steps[0..j] once a job has taken m per second from
// steps[j].at to end−1 and rest in the second before end (steps before j
// are already reduced), merging neighbours that hold the same amount.
func (p *userProfile) replace(j int, end sim.Time, m, rest int64) {
	s := p.steps[j]
	out := p.scratch[:0]
	push := func(at sim.Time, left int64) {
		if n := len(out); n == 0 || out[n-1].left != left {
			out = append(out, capStep{at, left})
		}
	}
	for _, t := range p.steps[:j] {
		push(t.at, t.left)
	}
	if end-1 > s.at {
		push(s.at, s.left-m)
	}
	push(end-1, s.left-rest)
	hi := j + 1
	if hi == len(p.steps) || end < p.steps[hi].at {
		push(end, s.left)
	} else if out[len(out)-1].left == p.steps[hi].left {
		hi++ // the next step continues the last piece
	}
	p.scratch = out
	p.steps = slices.Replace(p.steps, 0, hi, out...)
}

// u128 is an unsigned 128-bit integer: work in 1/den units × seconds can
// exceed 64 bits (a 500 GB job for 30 days is 1.3·10¹⁸ byte-seconds before
// any scaling).
type u128 struct{ hi, lo uint64 }

func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// mul returns x·b and whether it fits in 128 bits.
func (x u128) mul(b uint64) (u128, bool) {
	hh, hl := bits.Mul64(x.hi, b)
	lh, ll := bits.Mul64(x.lo, b)
	hi, carry := bits.Add64(hl, lh, 0)
	return u128{hi, ll}, hh == 0 && carry == 0
}

func (x u128) isZero() bool { return x.hi == 0 && x.lo == 0 }

func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// sub returns x − y; y must not exceed x.
func (x u128) sub(y u128) u128 {
	lo, borrow := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, borrow)
	return u128{hi, lo}
}

// divCeil returns ⌈x/m⌉ and whether it fits in 64 bits; m > 0.
func (x u128) divCeil(m uint64) (uint64, bool) {
	if x.hi >= m {
		return 0, false
	}
	q, r := bits.Div64(x.hi, x.lo, m)
	if r != 0 {
		if q == math.MaxUint64 {
			return 0, false
		}
		q++
	}
	return q, true
}
