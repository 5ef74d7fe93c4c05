package alea

import (
	"errors"

	"github.com/schedsweep/schedsweep/sim"
)

// EASY is Alea's EASY backfilling (multi_queue/EASY_Backfilling.java at
// a3315f0, with its configuration's exact run times, estimate=false, and
// one queue). It runs on a Machine only. Like Alea's scheduler it starts
// one job at a time, each the cluster's message delay after the last, and
// at each such moment:
//
//   - the head of the queue starts on the first cluster that allows it and
//     can start it now (the node test of the package comment);
//   - otherwise, with more than one job waiting, the head is given a
//     reservation on one cluster, chosen by processor counts only: among
//     the clusters with at least as many processors as the head asks,
//     whatever its request allows, the one where the head's processor
//     count frees earliest by Alea's per-processor book (the last such
//     cluster on ties);
//   - then the first later job, in queue order, that asks no more
//     processors than are free in all clusters together and that some
//     cluster with a free processor allows and can start now starts on the
//     first such cluster, in order; on the head's reserved cluster only if
//     it would end, by its planned run time (min(run time, limit)), before
//     the reservation, or the processors of the book that free exactly at
//     the reservation time, beyond those the head needs, are at least as
//     many as it asks. No count of nodes, ppn, memory or "excl" enters the
//     reservation.
//
// The book (peBook) is Alea's, quirks included: each running job is
// planned on processors of its own choosing, which need not be those it
// runs on and may overlap another job's. Before each pick Alea recomputes
// the book of every cluster holding a job expected to end within 0.1 s,
// and the reservation recomputes the book of every cluster it weighs;
// EASY does the same at the same moments, so that on wagap-2013 it starts
// every job when and where Alea's own run does.
//
// EASY sees the jobs' true run times through the machine, as Alea's exact
// mode does; it is a compatibility profile, not a policy for studies of
// estimates. Backfilled and OnReserved count the jobs it started past the
// head, and those of them on the head's reserved cluster, as Alea's
// backfilled and backfilledCONS do.
type EASY struct {
	Backfilled, OnReserved int
	start                  []*sim.Job
}

var _ sim.Policy = (*EASY)(nil)

// ErrNotAlea is returned by EASY when the run's machine is not a Machine.
var ErrNotAlea = errors.New("alea's easy runs on the alea machine only")

// NewEASY returns Alea's EASY backfilling.
func NewEASY() *EASY { return &EASY{} }

// Name returns "alea-easy".
func (e *EASY) Name() string { return "alea-easy" }

// Schedule starts, one at a time, the jobs Alea's EASY would start within
// the loop's current second.
func (e *EASY) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	m, ok := v.Model().(*Machine)
	if !ok {
		return sim.Decision{}, ErrNotAlea
	}
	tr := v.Trial().(*trial)
	queue := append([]*sim.Job(nil), v.Waiting()...)
	e.start = e.start[:0]
	for len(queue) > 0 {
		if !m.fresh { // Alea picks only at its events
		} else if i, c := m.easyPick(queue); i >= 0 {
			if i > 0 {
				e.Backfilled++
				if c == m.rsv {
					e.OnReserved++
				}
			}
			tr.takeOn(queue[i], c)
			e.start = append(e.start, queue[i])
			queue = append(queue[:i], queue[i+1:]...)
			continue
		}
		if m.release.Len() == 0 || int64(m.release.Min().At) >= int64(m.sec+1)*Ticks {
			break
		}
		m.freeUpTo(int64(m.release.Min().At))
		m.fresh = true
	}
	return sim.Decision{Start: e.start}, nil
}

// easyPick returns the index in queue of the job Alea's EASY starts at
// the machine's clock and its cluster, or -1.
func (m *Machine) easyPick(queue []*sim.Job) (int, int) {
	m.refresh()
	var free int64
	for _, c := range m.cl {
		free += c.free
	}
	if free == 0 {
		return -1, -1
	}
	head := queue[0]
	if c := m.choose(head, reqOf(head)); c >= 0 {
		return 0, c
	}
	if len(queue) == 1 {
		return -1, -1
	}
	rc, est, usable := m.reserve(head.Need[sim.Procs])
	m.rsv = rc
	for i, j := range queue[1:] {
		n := j.Need[sim.Procs]
		if n > free {
			continue
		}
		r := reqOf(j)
		mask := m.suit[j.Seq]
		for c := range m.cl {
			if m.cl[c].free == 0 || mask&(1<<c) == 0 || !m.canStart(c, r) {
				continue
			}
			if c != rc || m.tau+m.rt[j.Seq] < est || usable >= n {
				return i + 1, c
			}
		}
	}
	return -1, -1
}

// reserve returns the cluster Alea's findReservedResource gives a head of
// n processors: among the clusters of at least n processors, the one
// whose book frees n earliest, the last on ties; with that time and the
// processors that free at exactly that time beyond the head's. rc is -1
// if no cluster has n.
func (m *Machine) reserve(n int64) (rc int, est, usable int64) {
	rc = -1
	for c := range m.cl {
		if int64(m.cl[c].Nodes)*m.cl[c].CPUs < n {
			continue
		}
		e, u := m.earliestStart(c, n)
		if rc < 0 || e <= est {
			rc, est, usable = c, e, u
		}
	}
	return rc, est, usable
}
