package policies

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// Conservative is conservative backfilling (Mu'alem & Feitelson 2001, section
// 2.2): every waiting job holds a reservation in an availability profile built
// from the running jobs' estimated ends and the other jobs' reservations. A
// job gets, on arrival, the earliest start at which it fits for its whole
// estimate without touching any existing reservation, and starts at once if
// that is now. When a job ends before its estimate the schedule is
// compressed: in queue order each job's reservation is lifted and the job
// placed again at its earliest fit, with all other reservations in place. Its
// old slot is still free, so a reservation never moves later. Jobs start when
// their reservation comes; a timer brings a pass at the next reservation.
//
// The profile is kept across passes and updated incrementally: time moves
// its start, an early end gives back the rest of the job's estimated span,
// and only then is the queue compressed. A pass without an early end costs
// a fit per new job and a scan of the queue, not a rebuild.
//
// All resource kinds are checked. Each new or moved reservation is reported
// as a promise. A Conservative value serves one run.
//
// Under a dynamic order (Fairshare), whose ranking changes between passes,
// existing reservations are kept: a job is never delayed because another
// now outranks it. The order decides only which of a pass's new jobs is
// placed first and the order of compression, so a higher-priority job gets
// the first pick of the room an early end frees.
//
// On a cluster of nodes (package sim/nodes) the reservations pin nodes,
// as Maui and Slurm reserve: each is a placement (which nodes, how many
// cores, the job's memory and GPUs on each) over [start, start+estimate)
// in the cluster's node profile, at the earliest time at which the
// cluster's fit rule places the job on the nodes free for that whole
// interval, with the running jobs to their estimated ends and every other
// reservation in place. Compression lifts a reservation and places the job
// again with the others in place; its old slot (the same nodes, the same
// interval) is still free, so a reservation never moves later, and it
// keeps its nodes unless it moves earlier. A job whose reservation comes
// starts on its reserved nodes, handed to the cluster in
// Decision.Actions (conservative_nodes.go). On the pool the code path is
// the one above, unchanged; on a cluster of one node holding every
// processor the schedule is the pool's, byte for byte.
//
// Deviation: when overruns are allowed (sim.Options.AllowOverrun) a running
// job past its estimate is assumed to end one second from now and the
// profile is rebuilt at every pass while one runs; if the reservations no
// longer fit because of it, all are withdrawn and laid again from scratch.
type Conservative struct {
	name string
	rank ranked
	prof sim.Profile
	at   []sim.Time // reservation (then start) by Job.Seq; -1 for none

	built    bool // prof holds the running jobs and every reservation
	compress bool // a job ended before its estimate since the last pass

	start    []*sim.Job
	promise  []sim.Reservation
	withdraw []*sim.Job

	// On a cluster of nodes (conservative_nodes.go) the reservations pin
	// nodes and live in the cluster's node profile.
	np      *nodes.Profile
	pool    bool // the model is not a cluster of nodes (known from the first pass)
	actions []sim.Action
}

var (
	_ sim.Policy   = (*Conservative)(nil)
	_ sim.Observer = (*Conservative)(nil)
)

// NewConservative returns conservative backfilling over the queue in order o.
func NewConservative(o Order) *Conservative {
	return &Conservative{name: qualified("conservative", o), rank: newRanked(o)}
}

// Name returns "conservative", or "conservative/<order>".
func (c *Conservative) Name() string { return c.name }

// Submitted makes room for the job's reservation and tells the order, if
// it observes.
func (c *Conservative) Submitted(now sim.Time, j *sim.Job) {
	for len(c.at) <= j.Seq {
		c.at = append(c.at, -1)
	}
	c.rank.submitted(now, j)
}

// Finished gives back the part of a job's estimated span it did not use and
// tells the order, if it observes.
func (c *Conservative) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	c.rank.finished(now, j, actual)
	if !c.built {
		return
	}
	if c.np != nil {
		c.compress = c.np.Ended(now, j) || c.compress
		return
	}
	start := c.at[j.Seq]
	if end := start + sim.Span(j.Estimate); now < end {
		c.prof.Unreserve(now, end-now, j.Need)
		c.compress = true
	}
}

// Schedule brings the profile to now, compresses it if a job ended early,
// places new jobs, and starts those whose reservation is now.
func (c *Conservative) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	if !c.pool { // the first pass, or a cluster of nodes
		if c.np == nil {
			c.np = nodes.ProfileOf(v)
			c.pool = c.np == nil
		}
		if c.np != nil {
			return c.scheduleNodes(now, v)
		}
	}
	q := c.rank.jobs(now, v)
	c.start, c.promise, c.withdraw = c.start[:0], c.promise[:0], c.withdraw[:0]

	running := v.Running()
	overrun := len(running) > 0 && running[0].EstimatedEnd() <= now
	if !c.built || overrun {
		c.rebuild(now, v, q)
		c.built = !overrun
	} else {
		c.prof.Advance(now)
	}
	var wake sim.Time
	for _, j := range q {
		old := c.at[j.Seq]
		if old < 0 || c.compress {
			t, err := c.place(now, j, old)
			if err != nil {
				return sim.Decision{}, err
			}
			if t != old {
				c.promise = append(c.promise, sim.Reservation{Job: j, Start: t})
			}
		}
		switch t := c.at[j.Seq]; {
		case t == now:
			c.start = append(c.start, j)
		case wake == 0 || t < wake:
			wake = t
		}
	}
	if c.compress {
		c.prof.Compact()
		c.compress = false
	}
	if overrun {
		// The reservations rest on a guess about when the overrunning job
		// ends; a timer at the guess would only bring a pass per second.
		wake = 0
	}
	c.rank.took(now, v, c.start)
	return sim.Decision{Start: c.start, Promise: c.promise, Withdraw: c.withdraw, WakeAt: wake}, nil
}

// place lays j at its earliest fit, moving its reservation if it has one.
// A job that cannot move costs a scan of the profile, no change to it.
func (c *Conservative) place(now sim.Time, j *sim.Job, old sim.Time) (sim.Time, error) {
	var t sim.Time
	if old >= 0 {
		if t = c.prof.FitLifted(now, j.Estimate, j.Need, old); t == old {
			return old, nil
		}
		c.prof.Unreserve(old, j.Estimate, j.Need)
	} else {
		t = c.prof.Fit(now, j.Estimate, j.Need)
	}
	if t < 0 {
		return -1, &sim.JobError{Job: j.ID, Err: fmt.Errorf("(needs %v) fits nowhere in the profile", j.Need)}
	}
	c.prof.Reserve(t, j.Estimate, j.Need)
	c.at[j.Seq] = t
	return t, nil
}

// rebuild lays the profile anew from the running jobs and the reservations
// of the queue, and asks for a compression. If the reservations no longer fit
// or have passed (possible only with overruns), all are withdrawn and the
// jobs placed from scratch.
func (c *Conservative) rebuild(now sim.Time, v sim.View, q []*sim.Job) {
	c.prof.Reset(now, v.Free(), v.Running())
	laid, stale := false, false
	for _, j := range q {
		switch t := c.at[j.Seq]; {
		case t >= now:
			c.prof.Reserve(t, j.Estimate, j.Need)
			laid = true
		case t >= 0:
			stale = true
		}
	}
	if stale || laid && c.prof.Negative() {
		for _, j := range q {
			if c.at[j.Seq] >= 0 {
				c.at[j.Seq] = -1
				c.withdraw = append(c.withdraw, j)
			}
		}
		c.prof.Reset(now, v.Free(), v.Running())
	}
	c.compress = true
}
