package workloads

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
)

// Bounds on what a workload may say. The SWF reader checks them on every job
// line, LoadFactor on every rescaled submit time, BadnessEstimates and
// Merge on the times they stretch, and Bounded on every job of a stream
// (the runner wraps each run's workload in it, so models and transforms are
// checked too); a value beyond one is an error naming the file and line, or
// the workload and job, never a wrapped-around number.
//
// Why these bounds. They are far beyond any real workload and small enough
// that no sum or product the simulator and the metrics form can overflow
// int64 (2^63 − 1 ≈ 9.2 × 10^18):
//
//   - Times (submit, wait, run and requested time, think time, average CPU
//     time) are at most MaxTime = 2^32 − 1 s, some 136 years: a century of
//     trace, and submit times given as Unix time (wagap-2013 does) up to the
//     year 2106. The longest run time in the shared traces is 62 days, the
//     latest submit 1.4 × 10^9.
//   - Processors (fields 5 and 8, and every resource kind but memory of a
//     generated job) are at most MaxProcs = 2^30, a hundred times the
//     largest machine of 2025 (about 10^7 cores).
//   - Memory is bounded by int64 bytes per job: the reader's conversion of
//     field 7 or 10 to bytes checks its products, and the engine only adds
//     and subtracts memory within the machine's capacity, itself an int64.
//   - A workload has at most MaxJobs = 2^30 jobs. An engine keeps an outcome
//     of some 200 bytes per job in memory, so more would need over 200 GiB;
//     the SWF reader and the models still count.
//
// The argument. Write T = 2^32 for a bound on every time, P = 2^30, N = 2^30.
// A job runs for at most min(run time, estimate) ≤ T. Every policy starts a
// job by the profile of estimates, and the engine fails a run that idles
// with work waiting and no timer, so the clock never passes the last submit
// plus one estimate per job: start and end times stay at most
// T + N·T = 2^62 + 2^32, which leaves over 4 × 10^18 for the sums formed on
// top of a time: start + estimate in the profiles, a wake time, submit +
// wait + run time, EET = submit + work, the two-tier engine's spans
// (estimate × 10^6 / rate ≤ 2^52 s).
// Per job, processors × time ≤ P·T = 2^62 fits, and the two-tier engine's
// work in micro-seconds of progress, run time × 10^6 ≤ 2^52, too. Sums over
// all jobs (utilization's area, mean wait and response) are float64, and
// the EET metrics use 128-bit products and report overflow as an error.
// (TheoreticalMinimum and SequentialMaximum, the job-mix paper's bounds for
// a few dozen jobs, add in int64 and are not meant for jobs at the bounds.)
// TestSimulateAtBounds (package policies) runs jobs at every bound through
// every registered policy.
const (
	// MaxTime is the largest time in seconds.
	MaxTime = 1<<32 - 1
	// MaxProcs is the most processors (or GPUs) a job may need.
	MaxProcs = 1 << 30
	// MaxJobs is the most jobs a workload may have.
	MaxJobs = 1 << 30
)

// CheckRecord returns an error, naming the job, if a generated or
// transformed record exceeds the bounds above: a submit time, run time,
// estimate or think time over MaxTime, or a need over MaxProcs (memory,
// in bytes, may take any int64). Values below zero are left to the
// engine, which rejects and counts such jobs.
func CheckRecord(r *sim.Record) error {
	for _, t := range [...]struct {
		name string
		v    sim.Time
	}{{"submit time", r.Submit}, {"run time", r.Runtime}, {"estimate", r.Estimate}, {"think time", r.Think}} {
		if t.v > MaxTime {
			return fmt.Errorf("job %d: %s %d s is over the bound of %d s (2^32 − 1, some 136 years)", r.ID, t.name, t.v, int64(MaxTime))
		}
	}
	for k, v := range r.Need {
		if sim.Kind(k) != sim.Memory && v > MaxProcs {
			return fmt.Errorf("job %d: %d %s is over the bound of %d (2^30)", r.ID, v, sim.Kind(k), MaxProcs)
		}
	}
	return nil
}

// Bounded checks every record of src with CheckRecord and counts them: an
// error names what, as in "model lublin: job 7: ...", and ends the stream,
// as does a job beyond MaxJobs.
func Bounded(src sim.Source, what string) sim.Source {
	return &bounded{src: src, what: what}
}

type bounded struct {
	src  sim.Source
	what string
	n    int64
}

func (b *bounded) Next() (sim.Record, error) {
	r, err := b.src.Next()
	if err != nil {
		return r, err
	}
	if b.n++; b.n > MaxJobs {
		return sim.Record{}, fmt.Errorf("%s: more than %d jobs (2^30)", b.what, MaxJobs)
	}
	if err := CheckRecord(&r); err != nil {
		return sim.Record{}, fmt.Errorf("%s: %w", b.what, err)
	}
	return r, nil
}
