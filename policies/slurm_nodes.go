package policies

import (
	"github.com/schedsweep/schedsweep/sim"
)

// Slurm on a cluster of nodes (package sim/nodes): the backfill's plan is
// the cluster's node profile, laid from scratch (Clear) at each backfill
// pass from the cluster's running jobs, as Slurm's backfill builds its
// node_space map anew at each cycle. Reservations pin nodes: each is a
// placement by the cluster's fit rule on the nodes free for the job's
// whole time limit around the running jobs and the reservations laid
// before it. At a backfill pass the main scheduler places its jobs on the
// same profile at now, which, holding no reservation yet, gives each the
// placement the cluster's trial would; jobs placed on the profile start
// there (sim.Action.Place). At a pass without backfill the main
// scheduler asks View.Trial and its jobs go in Decision.Start.

// baseNodes lays the node profile anew at now from the running jobs,
// lifting the reservations of the last backfill pass; once a pass.
func (s *Slurm) baseNodes(now sim.Time) {
	if s.based {
		return
	}
	s.np.Clear(now, s.reserved)
	s.based = true
}

// startOnProfile starts j now on the node profile if it fits there.
func (s *Slurm) startOnProfile(now sim.Time, j *sim.Job) bool {
	if ok, _ := s.np.Fits(now, j); !ok {
		return false
	}
	s.startNow(now, j)
	return true
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
