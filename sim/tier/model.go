package tier

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedsweep/schedsweep/sim"
)

// Rate is a progress speed in millionths of a dedicated-processor second
// per second: FullRate is the speed of a process alone on its processor.
// The engine counts work in the same unit, in integers, so that completions
// are exact and a run's arithmetic does not depend on the order of floating
// point operations.
type Rate int64

// FullRate is one dedicated-processor second per second.
const FullRate Rate = 1_000_000

// RateOf converts a speed in dedicated-processor seconds per second to a
// Rate, rounding down, and clamps it to [0, FullRate]; NaN gives 0.
func RateOf(x float64) Rate {
	if !(x > 0) {
		return 0
	}
	if x >= 1 {
		return FullRate
	}
	return Rate(x * float64(FullRate))
}

// Model gives the speed of a job's processes. The engine calls Admit once
// per admitted job, in arrival order, before the job can run; then Rate
// whenever the job or its neighbours move. A job progresses at the rate of
// its slowest process. Models must be deterministic.
type Model interface {
	// Admit draws what the model needs to know about j.
	Admit(j *sim.Job)
	// Rate returns the progress per second, in [0, 1] dedicated-processor
	// seconds, of a process of j running in tier t of a processor whose
	// other VM runs a process of other (nil if that VM is empty).
	Rate(j *sim.Job, t Tier, other *sim.Job) float64
	// MinForeground is a lower bound of every foreground rate: the engine
	// divides estimates by it to believe when a foreground job ends at the
	// latest.
	MinForeground() float64
}

// Background-progress readings of the paper's formula (PaperParams.Progress).
const (
	// Literal reads section 3.2's formula as written: a background process
	// progresses at α × min(u, idle) per second, u being its own CPU usage
	// and idle the share of cycles its foreground VM leaves.
	Literal = "literal"
	// Normalised divides that by u: α × min(1, idle / u). A process that
	// needs u of a processor to progress at full speed gets all it needs
	// when idle ≥ u, so alone in the background it progresses at α, not
	// α × u.
	Normalised = "normalised"
)

// PaperParams are the constants of the paper's progress model (sections
// 2.1 and 3.2), with their registry names.
type PaperParams struct {
	// LossMin and LossMax bound the uniform draw of a job's foreground
	// loss: a foreground process progresses at 1 − loss (0.5–4 %).
	LossMin float64 `hcl:"loss_min,optional" doc:"lowest foreground loss: a foreground process progresses at 1 - loss, loss uniform per job"`
	LossMax float64 `hcl:"loss_max,optional" doc:"highest foreground loss"`
	// AlphaSingleMin and AlphaSingleMax bound the uniform draw of α for a
	// one-process job (0.80–0.92).
	AlphaSingleMin float64 `hcl:"alpha_single_min,optional" doc:"lowest share alpha of the idle cycles a one-process background job turns into progress (uniform per job)"`
	AlphaSingleMax float64 `hcl:"alpha_single_max,optional" doc:"highest alpha of a one-process job"`
	// AlphaMultiMean and AlphaMultiSD are the normal draw of α for a job of
	// several processes, kept within [AlphaMultiMin, AlphaMultiMax] (the
	// paper's range, 0.198–0.766) by drawing again. The paper's mean and
	// deviation are lost from our copy: the defaults are the middle of the
	// range and a sixth of its width, so the range spans ±3 deviations.
	AlphaMultiMean float64 `hcl:"alpha_multi_mean,optional" doc:"mean of the normal alpha of a multi-process job (the paper's value is lost: the middle of its range)"`
	AlphaMultiSD   float64 `hcl:"alpha_multi_sd,optional" doc:"deviation of the normal alpha of a multi-process job (lost: a sixth of the range)"`
	AlphaMultiMin  float64 `hcl:"alpha_multi_min,optional" doc:"lowest alpha of a multi-process job; draws outside [min, max] are drawn again"`
	AlphaMultiMax  float64 `hcl:"alpha_multi_max,optional" doc:"highest alpha of a multi-process job"`
	// Progress is Literal or Normalised.
	Progress string `hcl:"progress,optional" doc:"background progress per second: literal, alpha * min(usage, idle share) as the paper writes it, or normalised, alpha * min(1, idle share / usage)"`
}

// DefaultPaperParams returns the paper's constants.
func DefaultPaperParams() PaperParams {
	return PaperParams{
		LossMin: 0.005, LossMax: 0.04,
		AlphaSingleMin: 0.80, AlphaSingleMax: 0.92,
		AlphaMultiMean: (0.198 + 0.766) / 2, AlphaMultiSD: (0.766 - 0.198) / 6,
		AlphaMultiMin: 0.198, AlphaMultiMax: 0.766,
		Progress: Literal,
	}
}

// Validate checks p; each error names the parameter by its registry name.
func (p PaperParams) Validate() error {
	in01 := func(name string, v float64) error {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("parameter %q: %v is not in [0, 1]", name, v)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		v    float64
	}{
		{"loss_min", p.LossMin}, {"loss_max", p.LossMax},
		{"alpha_single_min", p.AlphaSingleMin}, {"alpha_single_max", p.AlphaSingleMax},
		{"alpha_multi_mean", p.AlphaMultiMean}, {"alpha_multi_min", p.AlphaMultiMin}, {"alpha_multi_max", p.AlphaMultiMax},
	} {
		if err := in01(c.name, c.v); err != nil {
			return err
		}
	}
	switch {
	case p.LossMax < p.LossMin:
		return fmt.Errorf("parameter \"loss_max\": %v is below loss_min %v", p.LossMax, p.LossMin)
	case p.LossMax >= 1:
		return fmt.Errorf("parameter \"loss_max\": %v leaves the foreground no progress", p.LossMax)
	case p.AlphaSingleMax < p.AlphaSingleMin:
		return fmt.Errorf("parameter \"alpha_single_max\": %v is below alpha_single_min %v", p.AlphaSingleMax, p.AlphaSingleMin)
	case p.AlphaMultiMax < p.AlphaMultiMin:
		return fmt.Errorf("parameter \"alpha_multi_max\": %v is below alpha_multi_min %v", p.AlphaMultiMax, p.AlphaMultiMin)
	case !(p.AlphaMultiSD >= 0) || math.IsInf(p.AlphaMultiSD, 1):
		return fmt.Errorf("parameter \"alpha_multi_sd\": %v is not a finite deviation ≥ 0", p.AlphaMultiSD)
	case p.Progress != Literal && p.Progress != Normalised:
		return fmt.Errorf("parameter \"progress\": %q is not %s or %s", p.Progress, Literal, Normalised)
	}
	return nil
}

// paperModel is the progress model of the paper's section 3.2: each job
// draws a foreground loss and a background efficiency α when admitted.
type paperModel struct {
	p           PaperParams
	rng         *rand.Rand
	normalised  bool
	loss, alpha []float64 // by Job.Seq
}

// NewPaperModel returns the paper's model with constants p, drawing from a
// PCG stream seeded with seed: per admitted job, in arrival order, the loss,
// then α (a multi-process job's α may take several draws). p must be valid.
func NewPaperModel(p PaperParams, seed uint64) Model {
	return &paperModel{p: p, rng: rand.New(rand.NewPCG(seed, 0x7469657273)), normalised: p.Progress == Normalised}
}

func (m *paperModel) Admit(j *sim.Job) {
	for len(m.loss) <= j.Seq {
		m.loss = append(m.loss, 0)
		m.alpha = append(m.alpha, 0)
	}
	p := &m.p
	m.loss[j.Seq] = p.LossMin + (p.LossMax-p.LossMin)*m.rng.Float64()
	if j.Need[sim.Procs] <= 1 {
		m.alpha[j.Seq] = p.AlphaSingleMin + (p.AlphaSingleMax-p.AlphaSingleMin)*m.rng.Float64()
		return
	}
	a := p.AlphaMultiMean + p.AlphaMultiSD*m.rng.NormFloat64()
	for tries := 1; (a < p.AlphaMultiMin || a > p.AlphaMultiMax) && tries < 100; tries++ {
		a = p.AlphaMultiMean + p.AlphaMultiSD*m.rng.NormFloat64()
	}
	m.alpha[j.Seq] = min(max(a, p.AlphaMultiMin), p.AlphaMultiMax)
}

func (m *paperModel) Rate(j *sim.Job, t Tier, other *sim.Job) float64 {
	if t == Foreground {
		return 1 - m.loss[j.Seq]
	}
	idle := 1.0
	if other != nil {
		idle = 1 - Usage(other)
	}
	u := Usage(j)
	if m.normalised {
		return m.alpha[j.Seq] * min(1, idle/u)
	}
	return m.alpha[j.Seq] * min(u, idle)
}

func (m *paperModel) MinForeground() float64 { return 1 - m.p.LossMax }
