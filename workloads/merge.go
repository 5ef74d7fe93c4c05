package workloads

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/schedsweep/schedsweep/sim"
)

// Named is a workload with the name its messages use (a trace's file name).
type Named struct {
	Name   string
	Source sim.Source
}

// UserOffset separates the users of merged workloads: input k's user and
// group ids are shifted by k × UserOffset, so user 7 of two traces stays
// two users.
const UserOffset = 1_000_000

// Merged interleaves several workloads on one machine; see Merge.
type Merged struct {
	procs  int64
	inputs []Named
	heads  []sim.Record
	live   []bool
	shift  []sim.Time
	seen   []int // jobs taken from each input
	fit    []int // of those, jobs that fit the target machine unscaled
	next   sim.JobID
	scaled int
	begun  bool
}

// Merge interleaves workloads by submit time after aligning their starts:
// each input is shifted so that its first job is submitted at time 0, the
// "mixed" workload of the IBB paper (Liu et al. 2016, section 4), which runs
// LANL-CM5 and MetaCentrum together. Jobs are renumbered 1, 2, … in merged
// order; equal submit times keep input order. User and group ids are kept
// apart with UserOffset; an id of UserOffset or more, which would collide
// with another input's, is an error naming the input and job. Preceding job and think time are cleared, since
// they would name ids that no longer exist.
//
// A job needing more processors than the target machine's procs is scaled
// to fit, conserving its work: it gets procs processors and its run time
// and estimate grow by need/procs, rounded up; its memory shrinks by the
// same factor. Scaled counts such jobs.
//
// Merge fails if procs is not positive or no input is given; an input with
// no jobs is an error on the first call to Next, and an input none of whose
// jobs fits the target machine (their machines do not overlap: every job
// would be reshaped) an error when it ends, both naming the input.
func Merge(procs int64, inputs ...Named) (*Merged, error) {
	if procs < 1 {
		return nil, fmt.Errorf("merge: the target machine needs at least one processor, got %d", procs)
	}
	if len(inputs) == 0 {
		return nil, errors.New("merge: no workloads to merge")
	}
	if len(inputs) > math.MaxInt32/UserOffset {
		return nil, fmt.Errorf("merge: %d workloads is more than the %d whose user ids fit apart in int32", len(inputs), math.MaxInt32/UserOffset)
	}
	return &Merged{procs: procs, inputs: inputs, heads: make([]sim.Record, len(inputs)),
		live: make([]bool, len(inputs)), shift: make([]sim.Time, len(inputs)),
		seen: make([]int, len(inputs)), fit: make([]int, len(inputs))}, nil
}

// Scaled returns how many jobs so far needed more processors than the
// target machine and were scaled to fit.
func (m *Merged) Scaled() int { return m.scaled }

// Next returns the earliest pending job of all inputs.
func (m *Merged) Next() (sim.Record, error) {
	if !m.begun {
		m.begun = true
		for k, in := range m.inputs {
			r, err := in.Source.Next()
			if err == io.EOF {
				return sim.Record{}, fmt.Errorf("merge: %s has no jobs", in.Name)
			}
			if err != nil {
				return sim.Record{}, fmt.Errorf("merge: %s: %w", in.Name, err)
			}
			m.shift[k] = r.Submit
			m.heads[k], m.live[k] = r, true
		}
	}
	best := -1
	for k := range m.inputs {
		if m.live[k] && (best < 0 || m.heads[k].Submit-m.shift[k] < m.heads[best].Submit-m.shift[best]) {
			best = k
		}
	}
	if best < 0 {
		return sim.Record{}, io.EOF
	}
	r := m.heads[best]
	for _, id := range [...]struct {
		what string
		v    int32
	}{{"user", r.User}, {"group", r.Group}} {
		if id.v >= UserOffset {
			return sim.Record{}, fmt.Errorf("merge: %s: job %d: %s id %d is not below %d, the id range each merged workload keeps to itself",
				m.inputs[best].Name, r.ID, id.what, id.v, UserOffset)
		}
	}
	m.seen[best]++
	if r.Need[sim.Procs] <= m.procs {
		m.fit[best]++
	}
	next, err := m.inputs[best].Source.Next()
	switch {
	case err == io.EOF:
		m.live[best] = false
		if m.fit[best] == 0 {
			return sim.Record{}, fmt.Errorf("merge: every one of the %d jobs of %s needs more than the %d-processor target machine: the two machines do not overlap; merge onto the larger machine",
				m.seen[best], m.inputs[best].Name, m.procs)
		}
	case err != nil:
		return sim.Record{}, fmt.Errorf("merge: %s: %w", m.inputs[best].Name, err)
	default:
		m.heads[best] = next
	}
	m.next++
	r.ID = m.next
	r.Submit -= m.shift[best]
	r.Preceding, r.Think = sim.Missing, sim.Missing // would name old ids
	offset := int32(best) * UserOffset
	if r.User >= 0 {
		r.User += offset
	}
	if r.Group >= 0 {
		r.Group += offset
	}
	if need := r.Need[sim.Procs]; need > m.procs {
		m.scaled++
		grow := float64(need) / float64(m.procs)
		r.Need[sim.Procs] = m.procs
		for _, t := range [...]*sim.Time{&r.Runtime, &r.Estimate} {
			if *t <= 0 {
				continue
			}
			v := math.Ceil(float64(*t) * grow)
			if v > MaxTime {
				return sim.Record{}, fmt.Errorf("merge: %s: job %d: scaling %d processors onto %d stretches a time of %d s to %.3g s, over the bound of %d s (MaxTime)",
					m.inputs[best].Name, r.ID, need, m.procs, *t, v, int64(MaxTime))
			}
			*t = sim.Time(v)
		}
		r.Need[sim.Memory] = int64(math.Ceil(float64(r.Need[sim.Memory]) / grow))
	}
	return r, nil
}
