package policies

import (
	"cmp"

	"github.com/schedsweep/schedsweep/sim"
)

// This file holds the slurm queue's order (Slurm.order): the comparison
// and the two searches over the queue it makes.

// sorted reports whether the queue is in order. It and place call before
// directly, where slices.IsSortedFunc and slices.BinarySearchFunc went
// through a function value at every comparison (order took 8 % of the
// slurm policy's instructions on METACENTRUM-2009-2).
func (s *Slurm) sorted() bool {
	for i := 1; i < len(s.queue); i++ {
		if s.before(s.queue[i], s.queue[i-1]) < 0 {
			return false
		}
	}
	return true
}

// place returns the index in the queue where j goes: after every job
// before it, before every other.
func (s *Slurm) place(j *sim.Job) int {
	lo, hi := 0, len(s.queue)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.before(s.queue[m], j) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// before orders the queue as sort_job_queue2: priority descending, then
// submit time, then job id (arrival order). The calculator's priorities
// change only in Update, after which order sorts the queue again.
func (s *Slurm) before(a, b *sim.Job) int {
	if pa, pb := s.calc.Priority(a), s.calc.Priority(b); pa != pb {
		if pa > pb {
			return -1
		}
		return 1
	}
	if a.Submit != b.Submit {
		if a.Submit < b.Submit {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.Seq, b.Seq)
}
