package workloads

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/schedsweep/schedsweep/sim"
)

// JobLine returns the line number of the job line Next or NextLine last
// returned, 0 before the first.
func (r *SWFReader) JobLine() int { return r.jobLine }

// LocateJob returns the line of the first job line numbered id in the SWF
// trace at path (read with opt, as a run read it), or 0 if it has none.
// It reads the file again from the start, so it serves error messages
// (a policy's fault about job id), not the simulation.
func LocateJob(path string, opt SWFOptions, id sim.JobID) (int, error) {
	f, err := OpenTrace(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := NewSWFReader(f, filepath.Base(path), opt)
	for {
		l, err := r.NextLine()
		switch {
		case err == io.EOF:
			return 0, nil
		case err != nil:
			return 0, err
		case sim.JobID(l.JobID) == id:
			return r.JobLine(), nil
		}
	}
}

// WhereIs adds to err, a run's error about one job (sim.FaultyJob), the
// file and line of that job in the SWF trace at path: "…: job 5 is
// KTH.swf:1042". Other errors, and a job the file does not hold, come back
// as they are.
func WhereIs(err error, path string, opt SWFOptions) error {
	id, ok := sim.FaultyJob(err)
	if !ok {
		return err
	}
	line, lerr := LocateJob(path, opt, id)
	if lerr != nil || line == 0 {
		return err
	}
	return fmt.Errorf("%w (job %d is %s:%d)", err, id, filepath.Base(path), line)
}
