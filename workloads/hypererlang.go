package workloads

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// maxErlangOrder bounds HyperErlang.Order: sampling costs one exponential
// draw per stage. Jann et al. (1997) needed at most 7 stages.
const maxErlangOrder = 100

// HyperErlang is a two-branch hyper-Erlang distribution of common order,
// the family Jann et al. (JSSPP 1997) fitted to interarrival and service
// times: X is Erlang(Order, Rate1) with probability P and Erlang(Order,
// Rate2) otherwise, where Erlang(n, λ) is the sum of n independent
// exponentials of rate λ. Order 1 gives the hyperexponential, P = 1 (or 0)
// the Erlang, both together the exponential. Rates are per second when X is
// in seconds.
type HyperErlang struct {
	Order        int     // stages per branch, 1 to 100
	Rate1, Rate2 float64 // rate of each stage in branch 1 and branch 2
	P            float64 // probability of branch 1, in [0, 1]
}

// Validate reports the first parameter that makes h unusable. A branch's
// rate must be positive and finite when the branch can be taken; the rate
// of a branch of probability zero is ignored.
func (h HyperErlang) Validate() error {
	if h.Order < 1 || h.Order > maxErlangOrder {
		return fmt.Errorf("order %d is outside 1..%d", h.Order, maxErlangOrder)
	}
	if !(h.P >= 0 && h.P <= 1) {
		return fmt.Errorf("branch probability %v is outside [0, 1]", h.P)
	}
	if h.P > 0 && !positiveFinite(h.Rate1) {
		return fmt.Errorf("rate1 %v is not a positive finite number", h.Rate1)
	}
	if h.P < 1 && !positiveFinite(h.Rate2) {
		return fmt.Errorf("rate2 %v is not a positive finite number", h.Rate2)
	}
	return nil
}

// Sample draws one value: one uniform picks the branch, then Order
// exponential draws (math/rand/v2's ziggurat) are summed. It does not
// allocate. h must be valid.
func (h HyperErlang) Sample(r *rand.Rand) float64 {
	rate := h.Rate2
	if r.Float64() < h.P {
		rate = h.Rate1
	}
	s := r.ExpFloat64()
	for i := 1; i < h.Order; i++ {
		s += r.ExpFloat64()
	}
	return s / rate
}

// Moment returns the k-th raw moment E[X^k] in closed form:
// P·n(n+1)…(n+k−1)/Rate1^k + (1−P)·n(n+1)…(n+k−1)/Rate2^k, n = Order.
// Moment(0) is 1. h must be valid and k ≥ 0.
func (h HyperErlang) Moment(k int) float64 {
	rising := 1.0 // n(n+1)…(n+k−1)
	for i := range k {
		rising *= float64(h.Order + i)
	}
	var m float64
	if h.P > 0 {
		m += h.P * rising / math.Pow(h.Rate1, float64(k))
	}
	if h.P < 1 {
		m += (1 - h.P) * rising / math.Pow(h.Rate2, float64(k))
	}
	return m
}

// Mean returns E[X] = Order·(P/Rate1 + (1−P)/Rate2).
func (h HyperErlang) Mean() float64 { return h.Moment(1) }

// CV returns the coefficient of variation, standard deviation over mean.
func (h HyperErlang) CV() float64 {
	m := h.Moment(1)
	return math.Sqrt(max(h.Moment(2)-m*m, 0)) / m
}

// FitHyperErlang returns the hyper-Erlang of the given order with the given
// mean and coefficient of variation whose two branches contribute equally
// to the mean (P/Rate1 = (1−P)/Rate2, the "balanced means" choice that
// fixes the third moment). An order-n hyper-Erlang cannot have a CV below
// 1/√n (its Erlang limit); asking for one is an error, as are a mean or CV
// that is not positive and finite.
//
// Derivation: with branch means μ1 = n/Rate1 and μ2 = n/Rate2, E[X] = m
// and E[X²] = (n+1)/n·(P·μ1² + (1−P)·μ2²) = m²(1+cv²). Balanced means set
// μ1 = m/(2P), μ2 = m/(2(1−P)), so 1/(4P(1−P)) = n(1+cv²)/(n+1) =: s and
// P = (1 − √(1 − 1/s))/2.
func FitHyperErlang(mean, cv float64, order int) (HyperErlang, error) {
	if !positiveFinite(mean) {
		return HyperErlang{}, fmt.Errorf("mean %v is not a positive finite number", mean)
	}
	if !positiveFinite(cv) {
		return HyperErlang{}, fmt.Errorf("cv %v is not a positive finite number", cv)
	}
	if order < 1 || order > maxErlangOrder {
		return HyperErlang{}, fmt.Errorf("order %d is outside 1..%d", order, maxErlangOrder)
	}
	n := float64(order)
	s := n * (1 + cv*cv) / (n + 1)
	if s < 1-1e-12 {
		return HyperErlang{}, fmt.Errorf("cv %v is below 1/√%d = %.4g, the least an order-%d hyper-Erlang can have",
			cv, order, 1/math.Sqrt(n), order)
	}
	p := (1 - math.Sqrt(max(0, 1-1/s))) / 2
	return HyperErlang{
		Order: order,
		Rate1: n * 2 * p / mean,
		Rate2: n * 2 * (1 - p) / mean,
		P:     p,
	}, nil
}

func positiveFinite(x float64) bool { return x > 0 && !math.IsInf(x, 1) }
