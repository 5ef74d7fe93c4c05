package workloads

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// gammaDist draws from the gamma distribution with a given shape k and scale
// θ (mean kθ, variance kθ²), the convention of the Lublin model. It uses
// Marsaglia and Tsang's squeeze-and-reject method ("A simple method for
// generating gamma variables", ACM TOMS 26(3), 2000), with the constants
// worked out once, so a draw costs about one normal and one uniform variate
// and never allocates. For k < 1 it draws Gamma(k+1) and multiplies by
// U^(1/k), as that paper suggests.
//
// gonum's distuv.Gamma implements the same method, but builds a rand.Rand
// on every draw; the models draw millions of variates per second.
type gammaDist struct {
	shape, scale float64
	d, c         float64 // Marsaglia–Tsang: d = k' − 1/3, c = 1/√(9d), k' = max(k, k+1 if k < 1)
	invShape     float64 // 1/k when k < 1 (the boost), else 0
}

// newGammaDist returns the sampler for shape k > 0 and scale θ > 0; callers
// validate both.
func newGammaDist(shape, scale float64) gammaDist {
	g := gammaDist{shape: shape, scale: scale}
	k := shape
	if k < 1 {
		g.invShape = 1 / k
		k++
	}
	g.d = k - 1.0/3
	g.c = 1 / math.Sqrt(9*g.d)
	return g
}

// draw returns one variate from r.
func (g *gammaDist) draw(r *rand.Rand) float64 {
	for {
		x := r.NormFloat64()
		v := 1 + g.c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+g.d*(1-v+math.Log(v)) {
			y := g.d * v * g.scale
			if g.invShape != 0 {
				y *= math.Pow(r.Float64(), g.invShape)
			}
			return y
		}
	}
}

// cdf returns P(X ≤ x), the regularized lower incomplete gamma function of
// x/θ.
func (g *gammaDist) cdf(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return mathext.GammaIncReg(g.shape, x/g.scale)
}
