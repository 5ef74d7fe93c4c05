package results

import "github.com/schedsweep/schedsweep/sim"

// DefaultTau is the run-time floor of bounded slowdown, in seconds: the
// field's usual 10 s (Feitelson et al., "Theory and practice in parallel job
// scheduling", 1997).
const DefaultTau sim.Time = 10

// Summary holds a run's headline metrics. Job metrics average over the
// measured jobs that ran (finished or killed); rejected jobs are only
// counted. Without a Trim every job is measured; with one, Finished, Killed,
// Rejected and the means cover the jobs it keeps, while Jobs,
// EstimatesFilled, Makespan, Utilization, Span and OfferedLoad still cover
// every job: they describe the schedule and the workload, not a sample.
type Summary struct {
	Jobs, Finished, Killed, Rejected int
	EstimatesFilled                  int
	// Measured counts the jobs the Trim keeps (Jobs without one); Finished,
	// Killed and Rejected partition them.
	Measured int

	MeanWait     float64 // seconds from submit to start
	MeanResponse float64 // seconds from submit to end
	// MeanSlowdown is the mean of Slowdown(response, run), run being the
	// job's work, Outcome.Work: its run time, or its estimate if it was
	// killed (End − Start on dedicated processors).
	MeanSlowdown float64
	// MeanBoundedSlowdown is the mean of max(1, response / max(run, tau)).
	MeanBoundedSlowdown float64

	// Makespan is the latest end of a job that ran minus the earliest
	// submit of any job, rejected ones included: the run's first submit,
	// the origin of its utilization series and heatmap. 0 if none ran.
	Makespan sim.Time
	// Utilization is, per resource kind, the share of capacity × makespan
	// that jobs' work took (need × Outcome.Work); 0 for kinds the cluster
	// does not have.
	Utilization [sim.MaxKinds]float64
	// Span is the latest submit minus the earliest, of any job, rejected
	// ones included.
	Span sim.Time
	// OfferedLoad is, per resource kind, the jobs' work (as Utilization
	// counts it) over capacity × Span: what the workload asks of the
	// machine, whatever the policy makes of it. 0 for kinds the cluster
	// does not have, when Span is 0, or when no job ran.
	OfferedLoad [sim.MaxKinds]float64
}

// Summarize computes the summary of res with run-time floor tau for bounded
// slowdown. It is O(n) in the number of jobs.
func Summarize(res *sim.Result, tau sim.Time) Summary {
	return summarize(res, tau, Trim{}, nil)
}

// SummarizeTrimmed is Summarize measuring only the jobs trim keeps (see
// Summary for which fields that changes).
func SummarizeTrimmed(res *sim.Result, tau sim.Time, trim Trim) Summary {
	return summarize(res, tau, trim, nil)
}

// samples holds the per-job metrics of the jobs that ran, in job order, for
// the quantiles of NewRunRow.
type samples struct {
	wait, response, slowdown, bsld []float64
}

// summarize is SummarizeTrimmed; when smp is not nil it also appends every
// measured job's metrics to it, so NewRunRow reads each job once.
func summarize(res *sim.Result, tau sim.Time, trim Trim, smp *samples) Summary {
	s := Summary{
		Jobs: len(res.Jobs), Finished: res.Finished, Killed: res.Killed, Rejected: res.Rejected,
		EstimatesFilled: res.EstimatesFilled, Measured: len(res.Jobs),
	}
	lo, hi := trim.Kept(len(res.Jobs))
	if !trim.IsZero() {
		s.Measured, s.Finished, s.Killed, s.Rejected = hi-lo, 0, 0, 0
		for i := lo; i < hi; i++ {
			switch res.Jobs[i].State {
			case sim.Finished:
				s.Finished++
			case sim.Killed:
				s.Killed++
			case sim.Rejected:
				s.Rejected++
			}
		}
	}
	var wait, resp, sld, bsld float64
	var work [sim.MaxKinds]float64
	var first, last sim.Time // the earliest submit of any job, the latest end
	var lastSubmit sim.Time  // the latest submit of any job
	n := 0                   // measured jobs that ran
	anyRan := false
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if i == 0 || o.Submit < first {
			first = o.Submit
		}
		if i == 0 || o.Submit > lastSubmit {
			lastSubmit = o.Submit
		}
		if o.State == sim.Rejected {
			continue
		}
		last = max(last, o.End)
		anyRan = true
		run := o.Work()
		for k, v := range o.Need {
			work[k] += float64(v) * float64(run)
		}
		if i < lo || i >= hi {
			continue
		}
		n++
		r := o.End - o.Submit
		w := float64(o.Start - o.Submit)
		sd, bd := Slowdown(r, run), BoundedSlowdown(r, run, tau)
		wait += w
		resp += float64(r)
		sld += sd
		bsld += bd
		if smp != nil {
			smp.wait = append(smp.wait, w)
			smp.response = append(smp.response, float64(r))
			smp.slowdown = append(smp.slowdown, sd)
			smp.bsld = append(smp.bsld, bd)
		}
	}
	if n > 0 {
		s.MeanWait, s.MeanResponse = wait/float64(n), resp/float64(n)
		s.MeanSlowdown, s.MeanBoundedSlowdown = sld/float64(n), bsld/float64(n)
	}
	if !anyRan {
		return s
	}
	s.Makespan = last - first
	s.Span = lastSubmit - first
	for k, c := range res.Capacity {
		if c > 0 && s.Makespan > 0 {
			s.Utilization[k] = work[k] / (float64(c) * float64(s.Makespan))
		}
		if c > 0 && s.Span > 0 {
			s.OfferedLoad[k] = work[k] / (float64(c) * float64(s.Span))
		}
	}
	return s
}

// Slowdown returns response / max(run, 1): response over the job's run on
// dedicated processors (Outcome.Work), with run floored at one second so
// that a zero-length job does not divide by zero. A zero-length job's
// slowdown is therefore its response in seconds, which is 0 when it started
// at once; every other job's is at least 1.
func Slowdown(response, run sim.Time) float64 {
	return float64(response) / float64(max(run, 1))
}

// BoundedSlowdown returns max(1, response / max(run, tau)).
func BoundedSlowdown(response, run, tau sim.Time) float64 {
	return max(1, float64(response)/float64(max(run, tau)))
}
