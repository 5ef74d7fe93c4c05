package workloads

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// ExactEstimates sets every job's estimate to its run time: users who know
// exactly how long their jobs run. A job without a run time keeps its
// estimate.
func ExactEstimates(src sim.Source) sim.Source {
	return Map(src, func(r *sim.Record) error {
		if r.Runtime >= 0 {
			r.Estimate = r.Runtime
		}
		return nil
	})
}

// BadnessEstimates draws every job's estimate uniformly from
// [r, (f+1)·r], r being its run time, the "badness factor" model of
// Mu'alem & Feitelson (IEEE TPDS 12(6), 2001, section 5): f = 0 gives exact
// estimates, larger f worse ones. Estimates are whole seconds, rounded up
// so that none falls below the run time. The draws come from the
// estimates stream of seed. An estimate over MaxTime is an error naming
// the job and the factor.
func BadnessEstimates(src sim.Source, f float64, seed uint64) (sim.Source, error) {
	if !(f >= 0) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("badness factor must be a number ≥ 0, got %v", f)
	}
	rng := NewStream(seed, StreamEstimates)
	return Map(src, func(r *sim.Record) error {
		if r.Runtime < 0 {
			return nil
		}
		run := float64(r.Runtime)
		e := math.Ceil(run + rng.Float64()*f*run)
		if e > MaxTime {
			return fmt.Errorf("job %d: badness factor %v makes its estimate %.3g s, over the bound of %d s (MaxTime)", r.ID, f, e, int64(MaxTime))
		}
		r.Estimate = sim.Time(e)
		return nil
	}), nil
}

// EstimateModels lists the forms ApplyEstimates accepts, for help texts.
const EstimateModels = "keep, exact, badness:F, tsafrir[:MAX[:SHARE]], psp:SCENARIO"

// ApplyEstimates replaces the estimates of src as spec names:
//
//	keep        the workload's own estimates
//	exact       the run time (ExactEstimates)
//	badness:F   uniform in [r, (F+1)·r] (BadnessEstimates)
//	tsafrir     Tsafrir, Etsion & Feitelson 2005 with its defaults
//	tsafrir:M   the same with maximum estimate M seconds (TsafrirEstimates;
//	            it holds the whole workload once)
//	tsafrir:M:S the same with a share S of the jobs at M (max_share), for
//	            workloads whose run times the default share cannot cover
//	psp:S       per-user accuracy of PSP scenario S (PSPEstimates)
//
// Models that draw use seed.
func ApplyEstimates(src sim.Source, spec string, seed uint64) (sim.Source, error) {
	kind, arg, hasArg := strings.Cut(spec, ":")
	noArg := func() error {
		if hasArg {
			return fmt.Errorf("estimates %q: %s takes no argument", spec, kind)
		}
		return nil
	}
	switch kind {
	case "keep":
		return src, noArg()
	case "exact":
		return ExactEstimates(src), noArg()
	case "badness":
		f, err := strconv.ParseFloat(arg, 64)
		if !hasArg || err != nil {
			return nil, fmt.Errorf("estimates %q: want badness:F with F a number ≥ 0, e.g. badness:2", spec)
		}
		return BadnessEstimates(src, f, seed)
	case "tsafrir":
		p := DefaultTsafrirParams()
		if hasArg {
			top, share, hasShare := strings.Cut(arg, ":")
			m, err := strconv.ParseInt(top, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("estimates %q: want tsafrir:M with M the maximum estimate in seconds, e.g. tsafrir:36000", spec)
			}
			p.MaxEstimate = sim.Time(m)
			if hasShare {
				if p.MaxShare, err = strconv.ParseFloat(share, 64); err != nil {
					return nil, fmt.Errorf("estimates %q: want tsafrir:M:S with S the share of jobs whose estimate is M, e.g. tsafrir:129600:0.56", spec)
				}
			}
		}
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("estimates %q: %w", spec, err)
		}
		return TsafrirEstimates(src, p, seed), nil
	case "psp":
		sc, err := ParsePSPScenario(arg)
		if !hasArg || err != nil {
			return nil, fmt.Errorf("estimates %q: want psp:SCENARIO with a scenario of %s", spec, strings.Join(pspScenarioNames[:], ", "))
		}
		return PSPEstimates(src, sc, seed), nil
	}
	return nil, fmt.Errorf("unknown estimate model %q; known: %s", spec, EstimateModels)
}
