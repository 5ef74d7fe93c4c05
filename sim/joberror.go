package sim

import (
	"errors"
	"fmt"
)

// JobError is an error a policy returns about one job: a reservation it
// cannot place, say. The engine passes it on wrapped, so that whoever read
// the job (the SWF reader knows its line) can say where it came from
// (FaultyJob).
type JobError struct {
	Job JobID
	Err error
}

func (e *JobError) Error() string { return fmt.Sprintf("job %d %v", e.Job, e.Err) }

func (e *JobError) Unwrap() error { return e.Err }

// FaultyJob returns the job an error of a run is about: that of a
// *JobError or of a *DecisionError that names one, anywhere in err's chain.
func FaultyJob(err error) (JobID, bool) {
	var je *JobError
	if errors.As(err, &je) {
		return je.Job, true
	}
	var de *DecisionError
	if errors.As(err, &de) && de.Job != Missing {
		return de.Job, true
	}
	return 0, false
}
