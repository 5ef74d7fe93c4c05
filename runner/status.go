package runner

import (
	"github.com/schedsweep/schedsweep/runner/spec"
)

// FolderStatus is what a results folder holds of a sweep, as Status finds
// it: what Execute would do there.
type FolderStatus struct {
	// Dir is the results folder.
	Dir string
	// Complete counts the selected runs whose results the folder holds
	// whole; ToSimulate the others, new, unfinished or damaged.
	Complete, ToSimulate int
	// Outside counts the folder's finished runs that the grid does not
	// have: Execute keeps them unless Options.Prune.
	Outside int
	// Refused is why Execute would refuse the folder (another experiment,
	// another seed, files of the user's own), without Options.Force; nil
	// if it would not. Complete and Outside are then 0.
	Refused error
}

// Status reports what the results folder of opt (opt.Out, else
// e.Output.Dir) holds of the runs of grid that opt's shard selects,
// verifying finished runs' files as Execute does. It writes nothing, takes
// no lock, and reads the folder as it is: a sweep writing it at the same
// time may have finished more runs by the time Status returns. A folder
// that does not exist holds nothing.
func Status(e *spec.Experiment, grid []Run, opt Options) (FolderStatus, error) {
	sel := SelectShard(grid, opt.Shard, opt.Shards)
	dir := opt.Out
	if dir == "" {
		dir = e.Output.Dir
	}
	st := FolderStatus{Dir: dir, ToSimulate: len(sel)}
	m, found, lost, err := readManifest(dir)
	if err != nil {
		return st, err
	}
	o := &output{dir: dir, jobs: e.Output.Jobs, journal: map[string]bool{}}
	switch {
	case lost == "":
		st.Refused = m.conflict(e, dir)
	case found == nil && !hasJournal(dir):
		st.Refused = foreign(dir)
		return st, nil
	default:
		o.lost = lost
	}
	if st.Refused != nil {
		return st, nil
	}
	if err := o.loadJournal(e, sel); err != nil {
		return st, err
	}
	if st.Refused = o.adopt(e, grid); st.Refused != nil {
		return st, nil
	}
	o.outsideGrid(grid)
	for _, r := range sel {
		if o.journal[r.Key] {
			st.Complete++
		}
	}
	st.ToSimulate, st.Outside = len(sel)-st.Complete, len(o.outside)
	return st, nil
}
