package workloads

// This file holds the per-process CPU usage model of the MEASY paper for
// its two-tier (foreground/background VM) policies. [CPUUsage] cites the
// paper and lists every constant and assumption.

import (
	"math/rand/v2"

	"github.com/schedsweep/schedsweep/sim"
)

// CPUUsageParams are the parameters of the CPU usage model: usages are
// fractions of a processor in (0, 1].
type CPUUsageParams struct {
	Single   float64 `hcl:"single,optional" doc:"CPU usage of a one-process job"`
	MultiMin float64 `hcl:"multi_min,optional" doc:"lowest mean per-process CPU usage of a multi-process job"`
	MultiMax float64 `hcl:"multi_max,optional" doc:"highest mean per-process CPU usage of a multi-process job"`
}

// DefaultCPUUsageParams returns the paper's model of section 3.1: 100 % for
// one process, uniform in 40–100 % for more.
func DefaultCPUUsageParams() CPUUsageParams {
	return CPUUsageParams{Single: 1, MultiMin: 0.40, MultiMax: 1}
}

// FullCPUUsageParams returns the variant of section 3.5.2, where every
// process uses 100 % of its processor.
func FullCPUUsageParams() CPUUsageParams {
	return CPUUsageParams{Single: 1, MultiMin: 1, MultiMax: 1}
}

// CPUUsage sets Record.CPUUsage, the mean per-process CPU usage of a job,
// for the two-tier policies (KEASY, REASY, MEASY) of the MEASY paper,
// "migration- and consolidation-based EASY for parallel jobs in the cloud"
// (our copy names neither authors nor venue), section 3.1: the generated
// workloads carry no CPU usage, so "(1) If a job has only one process, the
// process is assigned a CPU usage of 100%. (2) If a job has more than one
// processes, the average CPU usage of each process is a random number
// between 40% to 100%." Section 3.5.2 reruns with every usage at 100 %
// (FullCPUUsageParams).
//
// A job's number of processes is Need[sim.Procs]; a job with at most one
// processor gets Single. Assumed here: the paper's "random number" is
// uniform in [multi_min, multi_max), and it is drawn once per job (a
// Record has one usage, the mean over the job's processes; the paper's
// wording could also mean one draw per process). The draws come from
// stream StreamCPUUsage, one per multi-process job. The other constants of
// section 2.1 belong to the policies, not the workload: foreground loss
// uniform in 0.5–4 %, a background process's share of the idle cycles
// uniform in 80–92 % (one process) or normal within 19.8–76.6 % (more; our
// copy lost the mean and deviation), and no background VM behind a
// foreground usage above 96 %.
type CPUUsage struct {
	src sim.Source
	p   CPUUsageParams
	rng *rand.Rand
}

var _ sim.Source = (*CPUUsage)(nil)

// NewCPUUsage returns src with CPU usages from the model with parameters p,
// seeded with seed. A bad parameter is an error naming it and quoting its
// value.
func NewCPUUsage(src sim.Source, p CPUUsageParams, seed uint64) (*CPUUsage, error) {
	switch {
	case !(p.Single > 0 && p.Single <= 1):
		return nil, paramError("cpuusage", "single", p.Single, "must be in (0, 1]")
	case !(p.MultiMin > 0 && p.MultiMin <= 1):
		return nil, paramError("cpuusage", "multi_min", p.MultiMin, "must be in (0, 1]")
	case !(p.MultiMax >= p.MultiMin && p.MultiMax <= 1):
		return nil, paramError("cpuusage", "multi_max", p.MultiMax, "must be in [multi_min, 1]")
	}
	return &CPUUsage{src: src, p: p, rng: NewStream(seed, StreamCPUUsage)}, nil
}

// WithCPUUsage returns src with CPU usages from the paper's model,
// DefaultCPUUsageParams.
func WithCPUUsage(src sim.Source, seed uint64) sim.Source {
	c, err := NewCPUUsage(src, DefaultCPUUsageParams(), seed)
	if err != nil {
		panic(err) // the defaults are valid
	}
	return c
}

// Next returns src's next record with CPUUsage set.
func (c *CPUUsage) Next() (sim.Record, error) {
	rec, err := c.src.Next()
	if err != nil {
		return rec, err
	}
	if rec.Need[sim.Procs] <= 1 {
		rec.CPUUsage = c.p.Single
	} else {
		rec.CPUUsage = c.p.MultiMin + (c.p.MultiMax-c.p.MultiMin)*c.rng.Float64()
	}
	return rec, nil
}
