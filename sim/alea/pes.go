package alea

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// peBook is the per-processor bookkeeping Alea's EASY plans with
// (ResourceInfo.predictFirstFreeSlots and its helpers at a3315f0). It is
// not the machine's placement: a running job is given "planned"
// processors the first time the book is computed after it started,
// chosen among the processors that look earliest free then, and keeps
// them; the planned processors of different jobs may overlap, and an
// overlapped processor is counted busy for the sum of their remaining
// times while others look free. On that first computation the job's
// planned processors but the last hold a sentinel of −999 s plus the
// remaining time, which makes them look free long ago until the next
// computation. Times are in ticks.
type peBook struct {
	f       [][]int64 // by cluster: each processor's finish time
	planned [][]int32 // by Seq: planned processors, nil until first computed
	expFin  []int64   // by Seq: expected finish (GridletInfo.expectedFinishTime)
	scratch []int64
}

const (
	sentinel  = -999 * Ticks // Alea's −999 marker
	sentinelT = -998 * Ticks // values above it are times
)

// admit sets a new job's expected finish: arrival + limit.
func (b *peBook) admit(o *sim.Outcome) {
	for len(b.expFin) <= o.Seq {
		b.expFin = append(b.expFin, 0)
		b.planned = append(b.planned, nil)
	}
	b.expFin[o.Seq] = int64(o.Submit+o.Estimate) * Ticks
}

// predict recomputes cluster c's book at now (predictFirstFreeSlots).
func (m *Machine) predict(c int) []int64 {
	b := &m.pes
	for len(b.f) < len(m.cl) {
		b.f = append(b.f, nil)
	}
	cl := &m.cl[c]
	if b.f[c] == nil {
		b.f[c] = make([]int64, int64(cl.Nodes)*cl.CPUs)
	}
	f := b.f[c]
	now := m.tau
	for i := range f {
		f[i] = now
	}
	if c >= len(m.onCl) {
		return f
	}
	for _, s := range m.onCl[c] {
		rem := max(0, m.rt[s]-(now-m.at[s]))
		if b.planned[s] == nil {
			b.planned[s] = planPEs(f, m.procs[s])
		}
		for _, p := range b.planned[s] {
			f[p] += rem
		}
		b.expFin[s] = f[b.planned[s][0]]
	}
	return f
}

// planPEs picks n processors, earliest free first, lowest index on ties,
// marking all but the last with the sentinel (predictPEs).
func planPEs(f []int64, n int64) []int32 {
	pes := make([]int32, 0, n)
	idx := 0
	for i := int64(0); i < n; i++ {
		idx = earliest(f)
		if i != n-1 {
			pes = append(pes, int32(idx))
			f[idx] = sentinel
		}
	}
	return append(pes, int32(idx))
}

// earliest returns the index of the smallest time in f, the first on
// ties, skipping sentinels (0 if all are).
func earliest(f []int64) int {
	idx, best := 0, int64(1<<62)
	for j, v := range f {
		if v < best && v > sentinelT {
			best, idx = v, j
		}
	}
	return idx
}

// refresh recomputes the book of every cluster holding a job whose
// expected finish is at most 0.1 s away, as Alea's scheduler does before
// each pass (Scheduler.scheduleGridlets, ResourceInfo.forceUpdate).
func (m *Machine) refresh() {
	for c := range m.cl {
		if c >= len(m.onCl) {
			break
		}
		for _, s := range m.onCl[c] {
			if m.pes.expFin[s] <= m.tau+Ticks/10 {
				m.predict(c)
				break
			}
		}
	}
}

// earliestStart returns, for a head of n processors on cluster c, the
// time its n-th processor frees by the book and how many more free at
// exactly that time (getEarliestStartTime, findFirstFreeSlot,
// findUsablePEs). Alea picks the n earliest one by one; the n-th
// smallest time and the count of times up to it give the same answer.
func (m *Machine) earliestStart(c int, n int64) (est, usable int64) {
	f := m.predict(c)
	v := m.pes.scratch[:0]
	for _, x := range f {
		if x > sentinelT {
			v = append(v, x)
		}
	}
	m.pes.scratch = v
	if int64(len(v)) < n { // Alea's loop then falls back on processor 0
		return m.earliestSlow(f, n)
	}
	slices.Sort(v)
	est = v[n-1]
	le := n
	for le < int64(len(v)) && v[le] == est {
		le++
	}
	return est, le - n
}

// earliestSlow is Alea's loop, for a book with fewer than n times.
func (m *Machine) earliestSlow(f []int64, n int64) (est, usable int64) {
	idx := 0
	for i := int64(0); i < n; i++ {
		idx = earliest(f)
		if i != n-1 {
			f[idx] = sentinel
		}
	}
	est = f[idx]
	f[idx] = sentinel
	for _, v := range f {
		if v == est {
			usable++
		}
	}
	return est, usable
}
