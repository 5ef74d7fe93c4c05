package policies

import (
	"errors"

	"github.com/schedsweep/schedsweep/sim"
)

// Slurm on a cluster of nodes (package sim/nodes): the backfill's plan is
// the cluster's node profile, laid from scratch (Clear) at each backfill
// pass that plans, from the cluster's running jobs, as Slurm's backfill
// builds its node_space map anew at each cycle. Reservations pin nodes:
// each is a placement by the cluster's fit rule on the nodes free for the
// job's whole time limit around the running jobs and the reservations
// laid before it. The main scheduler asks View.Trial; when the backfill
// plans in the same pass, the main scheduler's jobs are first placed on
// the profile at now, which, holding no reservation yet, places each as
// the trial did, and every job of the pass then starts on the nodes the
// profile chose (sim.Action.Place); otherwise they go in Decision.Start.

// baseNodes lays the node profile anew at now from the running jobs,
// lifting the reservations of the last backfill pass, and places the jobs
// the main scheduler started in this pass.
func (s *Slurm) baseNodes(now sim.Time) error {
	s.np.Clear(now, s.reserved)
	s.based = true
	for _, j := range s.start {
		if ok, _ := s.np.Fits(now, j); !ok {
			return &sim.JobError{Job: j.ID, Err: errors.New("the trial placed it now, the node profile cannot")}
		}
		s.startNow(now, j)
	}
	return nil
}

// reserveNodes lays j's reservation at t on the node profile up to to,
// its rounded end, if j can be placed there for that span, else over its
// exact span (nodes.Profile.ReserveTo); it returns the reservation's end.
func (s *Slurm) reserveNodes(j *sim.Job, t, to sim.Time) sim.Time {
	return s.np.ReserveTo(j, t, to)
}
