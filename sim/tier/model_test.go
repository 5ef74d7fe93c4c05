package tier_test

import (
	"math"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// admitted returns n admitted jobs, alternately of one and of four
// processes, with usage 0.5.
func admitted(n int) []sim.Job {
	jobs := make([]sim.Job, n)
	for i := range jobs {
		r := simtest.J(int64(i+1), 0, 10, 10, int64(1+3*(i%2)), simtest.Usage(0.5))
		r.Seq = i
		jobs[i] = r.Job
	}
	return jobs
}

// TestPaperModelDraws checks the ranges and the mean of the draws, and
// that a seed fixes them.
func TestPaperModelDraws(t *testing.T) {
	p := tier.DefaultPaperParams()
	p.Progress = tier.Normalised // the background rate alone is then α
	jobs := admitted(20000)
	m, again, other := tier.NewPaperModel(p, 7), tier.NewPaperModel(p, 7), tier.NewPaperModel(p, 8)
	var sumMulti float64
	differ := false
	for i := range jobs {
		j := &jobs[i]
		m.Admit(j)
		again.Admit(j)
		other.Admit(j)
		loss := 1 - m.Rate(j, tier.Foreground, nil)
		alpha := m.Rate(j, tier.Background, nil)
		if loss < p.LossMin-1e-12 || loss > p.LossMax+1e-12 {
			t.Fatalf("job %d: loss %v outside [%v, %v]", j.ID, loss, p.LossMin, p.LossMax)
		}
		lo, hi := p.AlphaSingleMin, p.AlphaSingleMax
		if j.Need[sim.Procs] > 1 {
			lo, hi = p.AlphaMultiMin, p.AlphaMultiMax
			sumMulti += alpha
		}
		if alpha < lo || alpha > hi {
			t.Fatalf("job %d of %d processes: alpha %v outside [%v, %v]", j.ID, j.Need[sim.Procs], alpha, lo, hi)
		}
		if again.Rate(j, tier.Background, nil) != alpha || again.Rate(j, tier.Foreground, nil) != 1-loss {
			t.Fatalf("job %d: the same seed drew differently", j.ID)
		}
		differ = differ || other.Rate(j, tier.Background, nil) != alpha
	}
	if !differ {
		t.Error("seeds 7 and 8 drew the same")
	}
	// Truncating a symmetric normal at ±3σ keeps its mean; the standard
	// error of 10,000 draws of σ ≈ 0.095 is about 0.001.
	if mean := sumMulti / float64(len(jobs)/2); math.Abs(mean-p.AlphaMultiMean) > 0.005 {
		t.Errorf("mean alpha of multi-process jobs %v; want about %v", mean, p.AlphaMultiMean)
	}
	if got := m.MinForeground(); got != 1-p.LossMax {
		t.Errorf("MinForeground %v; want %v", got, 1-p.LossMax)
	}
}

// TestPaperModelRates checks both readings of the background formula on
// one job whose α is fixed at 0.5 (min = max).
func TestPaperModelRates(t *testing.T) {
	p := tier.DefaultPaperParams()
	p.AlphaSingleMin, p.AlphaSingleMax, p.LossMin, p.LossMax = 0.5, 0.5, 0.02, 0.02
	j := simtest.J(1, 0, 10, 10, 1, simtest.Usage(0.5)).Job
	busy := simtest.J(2, 0, 10, 10, 1, simtest.Usage(0.7)).Job
	tests := []struct {
		progress string
		other    *sim.Job
		want     float64
	}{
		{tier.Literal, nil, 0.5 * 0.5},              // α·min(u, 1)
		{tier.Literal, &busy, 0.5 * 0.3},            // α·min(0.5, 1 − 0.7)
		{tier.Normalised, nil, 0.5},                 // α·min(1, 1/u)
		{tier.Normalised, &busy, 0.5 * (0.3 / 0.5)}, // α·min(1, 0.3/0.5)
	}
	for _, tc := range tests {
		p.Progress = tc.progress
		m := tier.NewPaperModel(p, 1)
		m.Admit(&j)
		if got := m.Rate(&j, tier.Background, tc.other); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s behind %v: got %v; want %v", tc.progress, tc.other != nil, got, tc.want)
		}
		if got := m.Rate(&j, tier.Foreground, tc.other); math.Abs(got-0.98) > 1e-12 {
			t.Errorf("%s foreground: got %v; want 0.98", tc.progress, got)
		}
	}
}

func TestPaperParamsValidate(t *testing.T) {
	tests := []struct {
		set  func(*tier.PaperParams)
		want string
	}{
		{func(p *tier.PaperParams) { p.LossMax = 0.001 }, `"loss_max": 0.001 is below loss_min 0.005`},
		{func(p *tier.PaperParams) { p.LossMin = -1 }, `"loss_min": -1 is not in [0, 1]`},
		{func(p *tier.PaperParams) { p.AlphaMultiSD = math.NaN() }, `"alpha_multi_sd": NaN`},
		{func(p *tier.PaperParams) { p.AlphaSingleMax = 0.1 }, `"alpha_single_max": 0.1 is below`},
		{func(p *tier.PaperParams) { p.Progress = "exact" }, `"progress": "exact" is not literal or normalised`},
	}
	for _, tc := range tests {
		p := tier.DefaultPaperParams()
		tc.set(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v; want an error containing %q", err, tc.want)
		}
	}
	if err := tier.DefaultPaperParams().Validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}

func TestRateOf(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want tier.Rate
	}{{0.5, 500000}, {1, tier.FullRate}, {1.2, tier.FullRate}, {-0.1, 0}, {math.NaN(), 0}, {1.0 / 3, 333333}} {
		if got := tier.RateOf(tc.x); got != tc.want {
			t.Errorf("RateOf(%v) = %d; want %d", tc.x, got, tc.want)
		}
	}
}
