package policies

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
)

// Maui on a cluster of nodes (package sim/nodes): the walk of Schedule
// over the cluster's node profile, whose reservations pin nodes. A
// reservation is laid at the earliest time the cluster's fit rule places
// the job on the nodes free for its whole estimate, every other
// reservation in place; a job starts now only if it can be placed now
// around every reservation; a kept reservation is re-placed with the
// others in place and, its old slot (same nodes, same interval) being
// free, never moves later and keeps its nodes unless it moves earlier; a
// lifted pending reservation is laid back only on its own nodes. A job
// whose reservation comes starts on its reserved nodes (sim.Action.Place).
// The memo of failed fits holds as on the pool: between two gains the
// profile only loses room. The walk is Schedule's, step for step; it is a
// copy so that the pool's path stays as it was, without a test of the
// model at every step.

// scheduleNodes is Schedule on the node profile.
func (m *Maui) scheduleNodes(now sim.Time, v sim.View) (sim.Decision, error) {
	q := m.rank.jobs(now, v)
	if m.nomemo {
		m.gains++
	}
	m.start, m.promise, m.withdraw = m.start[:0], m.promise[:0], m.withdraw[:0]
	running := v.Running()
	overrun := len(running) > 0 && running[0].EstimatedEnd() <= now
	if !m.built || overrun {
		m.rebuildNodes(now, overrun)
		m.built = !overrun
	} else {
		m.np.Advance(now)
	}

	m.pending = append(m.pending[:0], m.held...)
	m.next = m.next[:0]
	m.last, m.blocked, m.wake = now, false, 0
	for _, j := range q {
		if old := m.at[j.Seq]; old >= 0 {
			m.unpend(j)
			if len(m.next) < m.depth {
				m.keepNodes(now, j, old)
				continue
			}
			m.releaseNodes(j)
		}
		lifted := false
		if len(m.pending) > 0 {
			if len(m.next) >= m.depth {
				for _, p := range m.pending {
					m.releaseNodes(p)
				}
				m.pending = m.pending[:0]
			} else {
				for _, p := range m.pending {
					m.np.Suspend(p)
					m.gains++
				}
				lifted = true
			}
		}
		if err := m.placeNodes(now, j); err != nil {
			return sim.Decision{}, err
		}
		if lifted {
			m.relayNodes()
		}
		if len(m.pending) == 0 && len(m.next) >= m.depth && (m.blocked && !m.backfill || m.np.FreeAt(now)[sim.Procs] == 0) {
			break // nothing left to reserve, release or start
		}
	}
	m.held, m.next = m.next, m.held
	if m.np.Len() > 2*m.compact {
		m.np.Compact()
		m.compact = max(m.np.Len(), 16)
	}
	wake := m.wake
	if overrun {
		wake = 0 // as in Schedule
	}
	m.rank.took(now, v, m.start)
	m.actions = m.actions[:0]
	for _, j := range m.start {
		m.actions = append(m.actions, sim.Action{Move: sim.Start, Job: j, Place: m.np.Start(j)})
	}
	return sim.Decision{Actions: m.actions, Promise: m.promise, Withdraw: m.withdraw, WakeAt: wake}, nil
}

// keepNodes is keep on the node profile.
func (m *Maui) keepNodes(now sim.Time, j *sim.Job, old sim.Time) {
	t, from, memo := old, m.from(now), &m.memo[j.Seq]
	if memo.held != m.gains || from < memo.from || from > old {
		t = m.moveNodes(now, j, old, from)
		memo.held, memo.from = m.gains, from
	}
	if t == now {
		m.start = append(m.start, j)
		return
	}
	m.reserved(j, t)
}

// placeNodes is place on the node profile.
func (m *Maui) placeNodes(now sim.Time, j *sim.Job) error {
	if (m.backfill || !m.blocked) && m.fitsNodes(now, j) {
		m.np.Reserve(j, now)
		m.at[j.Seq] = now
		m.start = append(m.start, j)
		return nil
	}
	m.blocked = true
	if len(m.next) >= m.depth {
		return nil
	}
	from := m.from(now)
	t := m.np.Place(from, j)
	switch {
	case t < 0:
		return &sim.JobError{Job: j.ID, Err: fmt.Errorf("(needs %v) fits on no nodes in the profile", j.Need)}
	case t == now:
		panic("policies: Maui reserves now a job it did not start") // broken invariant
	}
	m.at[j.Seq] = t
	m.memo[j.Seq].held, m.memo[j.Seq].from = m.gains, from
	m.promise = append(m.promise, sim.Reservation{Job: j, Start: t})
	m.reserved(j, t)
	return nil
}

// fitsNodes is fits on the node profile.
func (m *Maui) fitsNodes(now sim.Time, j *sim.Job) bool {
	memo := &m.memo[j.Seq]
	if memo.failed == m.gains && now < memo.until {
		return false
	}
	ok, until := m.np.Fits(now, j)
	if !ok {
		memo.failed, memo.until = m.gains, until
	}
	return ok
}

// moveNodes is move on the node profile.
func (m *Maui) moveNodes(now sim.Time, j *sim.Job, old, from sim.Time) sim.Time {
	t := m.np.Move(from, j)
	if t == old {
		return old
	}
	m.gains++ // the old slot is free again
	if from > old {
		m.withdraw = append(m.withdraw, j)
	}
	m.at[j.Seq] = t
	if t > now {
		m.promise = append(m.promise, sim.Reservation{Job: j, Start: t})
	}
	return t
}

// releaseNodes is release on the node profile.
func (m *Maui) releaseNodes(j *sim.Job) {
	m.np.Lift(j)
	m.gains++
	m.at[j.Seq] = -1
	m.withdraw = append(m.withdraw, j)
}

// relayNodes is relay on the node profile: each lifted pending
// reservation goes back on its own nodes at its time, or is withdrawn.
func (m *Maui) relayNodes() {
	kept := m.pending[:0]
	for _, p := range m.pending {
		if !m.np.Resume(p) {
			m.at[p.Seq] = -1
			m.withdraw = append(m.withdraw, p)
			continue
		}
		kept = append(kept, p)
	}
	clear(m.pending[len(kept):])
	m.pending = kept
}

// rebuildNodes is rebuild on the node profile.
func (m *Maui) rebuildNodes(now sim.Time, overrun bool) {
	m.gains++
	ok := m.np.Reset(now, m.held)
	m.overran = m.overran || overrun
	if ok {
		return
	}
	if !m.overran {
		panic("policies: Maui's reservations do not fit though no job overran") // broken invariant
	}
	for _, j := range m.held {
		m.at[j.Seq] = -1
		m.withdraw = append(m.withdraw, j)
	}
	m.np.Clear(now, m.held)
	m.held = m.held[:0]
}
