package workloads

import (
	"fmt"
	"math"
	"sort"
	"testing"
)

// TestGammaDist checks the sampler against the gamma's mean kθ, variance kθ²
// and CDF, for the shapes the Lublin model uses and a few around them
// (k < 1 takes the boost path, k = 1 is the exponential).
func TestGammaDist(t *testing.T) {
	const n = 200000
	for _, tc := range []struct{ shape, scale float64 }{
		{0.3, 2}, {1, 1}, {3.8351, 0.6605}, {6.57, 0.823}, {10.4605, 0.4871}, {639.1, 0.0156},
	} {
		t.Run(fmt.Sprintf("k=%g,θ=%g", tc.shape, tc.scale), func(t *testing.T) {
			g := newGammaDist(tc.shape, tc.scale)
			r := NewStream(7, StreamExtra)
			xs := make([]float64, n)
			var sum, sum2 float64
			for i := range xs {
				x := g.draw(r)
				if !(x >= 0) {
					t.Fatalf("draw %d: got %v; want a non-negative number", i, x)
				}
				xs[i] = x
				sum += x
				sum2 += x * x
			}
			mean := sum / n
			variance := sum2/n - mean*mean
			wantMean, wantVar := tc.shape*tc.scale, tc.shape*tc.scale*tc.scale
			// Five standard errors; the mean's is √(kθ²/n), the variance's
			// about kθ²·√((2 + 6/k)/n).
			if se := math.Sqrt(wantVar / n); math.Abs(mean-wantMean) > 5*se {
				t.Errorf("mean: got %.5g; want %.5g ± %.2g", mean, wantMean, 5*se)
			}
			if se := wantVar * math.Sqrt((2+6/tc.shape)/n); math.Abs(variance-wantVar) > 5*se {
				t.Errorf("variance: got %.5g; want %.5g ± %.2g", variance, wantVar, 5*se)
			}
			// Kolmogorov–Smirnov distance at the deciles; 1.95/√n is the
			// 0.1% critical value.
			sort.Float64s(xs)
			for q := 1; q < 10; q++ {
				x := xs[q*n/10]
				if d := math.Abs(g.cdf(x) - float64(q)/10); d > 1.95/math.Sqrt(n) {
					t.Errorf("CDF at the empirical %d0th percentile %.5g: got %.4f; want %.1f", q, x, g.cdf(x), float64(q)/10)
				}
			}
		})
	}
}

// nrGammaP is the regularized lower incomplete gamma function as
// m_lublin99.c computes it for the daily cycle, after Numerical Recipes'
// gammp: the series for x < a+1, else the continued fraction, each with at
// most 1000 iterations and relative tolerance 1e-10.
func nrGammaP(a, x float64) float64 {
	const itmax, eps, fpmin = 1000, 1e-10, 1e-30
	lg, _ := math.Lgamma(a)
	if x <= 0 {
		return 0
	}
	if x < a+1 {
		ap, del := a, 1/a
		sum := del
		for range itmax {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*eps {
				break
			}
		}
		return sum * math.Exp(-x+a*math.Log(x)-lg)
	}
	b := x + 1 - a
	c, d := 1/fpmin, 1/b
	h := d
	for i := 1; i <= itmax; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < fpmin {
			d = fpmin
		}
		c = b + an/c
		if math.Abs(c) < fpmin {
			c = fpmin
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return 1 - math.Exp(-x+a*math.Log(x)-lg)*h
}

// TestGammaCDFMatchesProgram checks deviation 2 on Lublin: gonum's
// regularized incomplete gamma and the program's Numerical Recipes method
// agree to about 1e-10 at every bucket edge of the three daily cycles.
func TestGammaCDFMatchesProgram(t *testing.T) {
	for _, c := range []LublinClass{LublinInteractive(), LublinBatch(), LublinTypeless()} {
		g := newGammaDist(c.ANum, c.BNum)
		worst := 0.0
		for i := lublinCycleStart; i <= lublinCycleStart+lublinBuckets; i++ {
			x := float64(i) - 0.5
			worst = max(worst, math.Abs(g.cdf(x)-nrGammaP(c.ANum, x/c.BNum)))
		}
		if worst > 1e-10 {
			t.Errorf("daily cycle gamma (ANum %g, BNum %g): CDFs differ by up to %.2g; want ≤ 1e-10", c.ANum, c.BNum, worst)
		}
	}
}
