package policies

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// The backfill scheduler of Slurm (backfill.c, _attempt_backfill): a plan
// laid from scratch at each of its passes, on the pool a sim.Profile, on
// a cluster of nodes the cluster's node profile (slurm_nodes.go).

// backfill plans the queue from scratch: the running jobs and those the
// main scheduler started in this pass, then in queue order each job the
// limits let it test at its earliest fit; a job that fits now starts, one
// that fits within bf_window is reserved and promised. Promises of jobs
// it does not reserve are withdrawn.
func (s *Slurm) backfill(now sim.Time, v sim.View) error {
	main := len(s.start)
	last := s.lastCandidate(v)
	if last < 0 {
		return nil // no job can start now: the plan would change no start
	}
	if s.np != nil {
		if err := s.baseNodes(now); err != nil {
			return err
		}
	} else {
		s.prof.Reset(now, v.Free(), v.Running())
		for _, j := range s.start {
			s.prof.Reserve(now, j.Estimate, j.Need)
		}
	}
	for _, j := range s.reserved {
		s.resv[j.Seq] = false
	}
	var pass *BackfillPass
	if s.check != nil {
		pass = &BackfillPass{Now: now, Running: v.Running(), Main: s.start[:main:main]}
	}
	s.next = s.next[:0]
	s.bounds = s.bounds[:0]
	for i, j := range s.queue[:last+1] { // s.tested: set by lastCandidate
		if !s.tested[i] {
			continue
		}
		from := s.bound(now, j)
		if s.p.BfWindow > 0 && from > now+s.p.BfWindow {
			continue // it would start later than from: too far, as below
		}
		t := s.fit(from, j)
		s.noteBound(now, j, t)
		switch {
		case t < 0:
			return &sim.JobError{Job: j.ID, Err: fmt.Errorf("(needs %v) fits nowhere in the backfill plan", j.Need)}
		case t == now:
			s.startNow(now, j)
			s.gone[j.Seq] = true
			s.start = append(s.start, j)
			s.startAt = append(s.startAt, i)
			continue
		case s.p.BfWindow > 0 && t > now+s.p.BfWindow:
			continue // "Starts too far in the future to worry about"
		}
		to := s.reserve(j, t)
		s.resv[j.Seq] = true
		s.next = append(s.next, j)
		s.promised(j, t)
		if pass != nil {
			pass.Reserved = append(pass.Reserved, Span{Job: j, From: t, To: to})
		}
	}
	for _, j := range s.reserved {
		if !s.gone[j.Seq] && !s.resv[j.Seq] {
			s.unpromised(j)
		}
	}
	s.reserved, s.next = s.next, s.reserved
	if pass != nil {
		pass.Started = s.start[main:]
		s.check(*pass)
	}
	return nil
}

// tests marks in s.tested the jobs of the queue the backfill tests, in
// order: those not started in this pass, at most bf_max_job_user of each
// user, at most bf_max_job_test in all; the limit counts the jobs tested,
// not those a user's limit skips (_job_exceeds_max_bf_param comes before
// the count, bf_last_depth_try). It lists in s.cands the indices of those
// that need at most procs cores.
func (s *Slurm) tests(procs int64) {
	s.tested = slices.Grow(s.tested[:0], len(s.queue))[:len(s.queue)]
	clear(s.tested)
	clear(s.users)
	s.cands = s.cands[:0]
	n := 0
	for i, j := range s.queue {
		if s.gone[j.Seq] {
			continue
		}
		if s.p.BfMaxJobTest > 0 && n >= s.p.BfMaxJobTest {
			break // "bf_max_job_test: limit of %d reached"
		}
		if s.p.BfMaxJobUser > 0 {
			if s.users[j.User] >= s.p.BfMaxJobUser {
				continue // "have already checked %u jobs for user %u"
			}
			s.users[j.User]++
		}
		s.tested[i] = true
		n++
		if j.Need[sim.Procs] <= procs {
			s.cands = append(s.cands, i)
		}
	}
}

// lastCandidate returns the index in the queue of the last job the
// backfill tests that fits now on what the running jobs and the main
// scheduler's jobs of this pass leave, -1 if none. No job after it can
// start in this pass, whatever the plan: the plan is laid only up to it,
// and not at all without it. On nodes too a job needs at least its cores
// free in all: most jobs of a long queue fail this, and tests lists only
// the others (a second sweep of the queue took half of lastCandidate).
func (s *Slurm) lastCandidate(v sim.View) int {
	free := v.Free()
	for _, j := range s.start {
		free = free.Sub(j.Need)
	}
	if !s.anyNeeds(free[sim.Procs]) {
		return -1
	}
	s.tests(free[sim.Procs])
	if len(s.cands) == 0 {
		return -1
	}
	var fit sim.Trial
	if s.np != nil {
		fit = v.Trial()
		for _, j := range s.start {
			if fit.Fits(j) {
				fit.Take(j)
			}
		}
	}
	for k := len(s.cands) - 1; k >= 0; k-- {
		i := s.cands[k]
		j := s.queue[i]
		if fit != nil && fit.Fits(j) || fit == nil && j.Need.FitsIn(free) {
			return i
		}
	}
	return -1
}

// anyNeeds reports whether a job of the queue, tested or not, needs at
// most procs cores. Most backfill passes find none, and this sweep is
// cheaper than tests' (on METACENTRUM-2009-2's nodes lastCandidate went
// from 55.6 M instructions to 18.7 M, tests running at 2,325 of 7,861
// passes).
func (s *Slurm) anyNeeds(procs int64) bool {
	for _, j := range s.queue {
		if j.Need[sim.Procs] <= procs {
			return true
		}
	}
	return false
}

// fit returns the earliest time from from on at which j fits for its whole
// estimate in the plan, -1 if never.
func (s *Slurm) fit(from sim.Time, j *sim.Job) sim.Time {
	if s.np != nil {
		return s.np.Fit(from, j)
	}
	return s.prof.Fit(from, j.Estimate, j.Need)
}

// fitBound is the earliest fit found in this pass for a job that needed
// need for span seconds; plain: the job's shape is tasks anywhere.
type fitBound struct {
	need  sim.Resources
	span  sim.Time
	at    sim.Time
	plain bool
}

// bound returns a time before which j cannot fit in this pass's plan, from
// the fits found before it in the pass: a job of this pass that needed no
// more of any kind for no longer fitted nowhere before its answer, and
// the plan has only lost room since (reservations and starts take room,
// none is lifted in a pass), so j, which asks as much for as long, fits
// nowhere before that answer either. The search from there finds j's
// earliest fit without walking the plan before it. On nodes the rule
// holds between jobs of shape tasks anywhere (no node count, partition,
// node group or exclusivity): where such a job can be placed, one asking
// no more cores, memory per node or GPUs per node for no longer can be too.
//
// The fits are kept latest first, so the first that bounds j is the
// latest bound.
func (s *Slurm) bound(now sim.Time, j *sim.Job) sim.Time {
	span, plain := sim.Span(j.Estimate), j.Shape.IsZero()
	for i := range s.bounds {
		if b := &s.bounds[i]; b.span <= span && b.need.FitsIn(j.Need) && (s.np == nil || plain && b.plain) {
			return b.at
		}
	}
	return now
}

// noteBound keeps j's fit at t, found in this pass, for bound; a fit at now
// (or none) bounds nothing.
func (s *Slurm) noteBound(now sim.Time, j *sim.Job, t sim.Time) {
	if t <= now {
		return
	}
	i, _ := slices.BinarySearchFunc(s.bounds, t, func(b fitBound, t sim.Time) int { return cmp.Compare(t, b.at) })
	s.bounds = slices.Insert(s.bounds, i, fitBound{need: j.Need, span: sim.Span(j.Estimate), at: t, plain: j.Shape.IsZero()})
}

// startNow lays j, which fits now, in the plan from now.
func (s *Slurm) startNow(now sim.Time, j *sim.Job) {
	if s.np != nil {
		s.np.Reserve(j, now)
		s.actions = append(s.actions, sim.Action{Move: sim.Start, Job: j, Place: s.np.Start(j)})
		return
	}
	s.prof.Reserve(now, j.Estimate, j.Need)
}

// reserve lays j's reservation at t, found by fit, over its rounded span
// (rounded) if that fits, else over its exact span, and returns its end.
func (s *Slurm) reserve(j *sim.Job, t sim.Time) sim.Time {
	d := sim.Span(j.Estimate)
	to := s.rounded(t, d)
	if s.np != nil {
		return s.reserveNodes(j, t, to)
	}
	if to != t+d {
		if ok, _ := s.prof.Fits(t, to-t, j.Need); ok {
			s.prof.Reserve(t, to-t, j.Need)
			return to
		}
	}
	s.prof.Reserve(t, j.Estimate, j.Need)
	return t + d
}
