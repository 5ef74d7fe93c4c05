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
// exact span; it returns the reservation's end. A copy of j with the
// rounded span as its estimate carries the shorter or longer hold.
func (s *Slurm) reserveNodes(j *sim.Job, t, to sim.Time) sim.Time {
	end := t + sim.Span(j.Estimate)
	if to != end {
		jj := *j
		jj.Estimate = to - t
		if ok, _ := s.np.Fits(t, &jj); ok {
			s.np.Reserve(&jj, t)
			return to
		}
		// The search for the copy overwrote what Fit found for j.
		if ok, _ := s.np.Fits(t, j); !ok {
			panic("policies: slurm: a job does not fit where the node profile placed it") // broken invariant
		}
	}
	s.np.Reserve(j, t)
	return end
}
