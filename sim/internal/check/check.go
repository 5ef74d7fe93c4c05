// Package check holds what the verifiers of the two machine models share:
// simtest.Verify for runs on the pool and tier.Verify for runs on the
// two-tier machine. It sits apart because tier cannot import simtest, which imports
// tier to verify two-tier runs.
package check

import (
	"errors"
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
)

// MaxReported is how many violations a verifier reports at most.
const MaxReported = 20

// Errors collects a verifier's violations, keeping the first MaxReported.
type Errors []error

// Fail records a violation.
func (e *Errors) Fail(format string, args ...any) {
	if len(*e) < MaxReported {
		*e = append(*e, fmt.Errorf(format, args...))
	}
}

// Err returns the violations joined, or nil.
func (e Errors) Err() error { return errors.Join(e...) }

// Accounting checks the contract of sim.Result that every engine keeps,
// whatever its jobs' speed: the result holds jobs jobs (unless jobs < 0), in
// arrival order; each is rejected with a reason and no times, or ran,
// without a reason, from no earlier than its submission to no earlier than
// its start, with an estimate that is not negative; it is killed exactly
// when it needed more than its estimate and overruns are not allowed; and
// the result's counts agree with the jobs. How long a job ran is the
// engine's to check.
func Accounting(errs *Errors, res *sim.Result, jobs int, allowOverrun bool) {
	if jobs >= 0 && len(res.Jobs) != jobs {
		errs.Fail("result holds %d jobs; the source gave %d", len(res.Jobs), jobs)
	}
	var counts [4]int
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.Seq != i {
			errs.Fail("job %d: at position %d has Seq %d", o.ID, i, o.Seq)
		}
		if int(o.State) < len(counts) {
			counts[o.State]++
		}
		switch o.State {
		case sim.Rejected:
			if o.Reason == sim.NoReason || o.Start != -1 || o.End != -1 {
				errs.Fail("job %d: rejected without a reason or with times (reason %q, start %d, end %d)",
					o.ID, o.Reason, o.Start, o.End)
			}
			continue
		case sim.Finished:
			if !allowOverrun && o.Runtime > o.Estimate {
				errs.Fail("job %d: ran %d s past its estimate %d s without being killed", o.ID, o.Runtime, o.Estimate)
			}
		case sim.Killed:
			if allowOverrun || o.Runtime <= o.Estimate {
				errs.Fail("job %d: killed (estimate %d s, run time %d s, overruns allowed %v)", o.ID, o.Estimate, o.Runtime, allowOverrun)
			}
		default:
			errs.Fail("job %d: unknown state %v", o.ID, o.State)
			continue
		}
		if o.Reason != sim.NoReason {
			errs.Fail("job %d: ran but has rejection reason %q", o.ID, o.Reason)
		}
		if o.Start < o.Submit {
			errs.Fail("job %d: starts at %d before its submission at %d", o.ID, o.Start, o.Submit)
		}
		if o.End < o.Start {
			errs.Fail("job %d: ends at %d before it starts at %d", o.ID, o.End, o.Start)
		}
		if o.Estimate < 0 {
			errs.Fail("job %d: ran with negative estimate %d", o.ID, o.Estimate)
		}
	}
	if counts[sim.Finished] != res.Finished || counts[sim.Killed] != res.Killed || counts[sim.Rejected] != res.Rejected {
		errs.Fail("counts finished/killed/rejected are %d/%d/%d; the jobs say %d/%d/%d",
			res.Finished, res.Killed, res.Rejected, counts[sim.Finished], counts[sim.Killed], counts[sim.Rejected])
	}
}
