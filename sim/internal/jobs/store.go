package jobs

// ChunkSize is the size of every chunk of a Store but the first.
const ChunkSize = 1024

// Store keeps, per job in arrival order, an outcome O and the engine's own
// record X of it, in chunks that are allocated once and never moved, so
// pointers into the store stay valid as the workload grows. The first chunk
// holds as many jobs as the hint given to NewStore (ChunkSize without one),
// the others ChunkSize each; when the first chunk holds every job, Outcomes
// hands it over without copying. The outcomes sit apart from the records
// for that hand-over.
//
// The zero Store is empty and has no hint.
type Store[O, X any] struct {
	outs [][]O
	recs [][]X
	hint int
	n    int
}

// NewStore returns an empty store that expects hint jobs, or, when hint is
// 0 and src has a Remaining() int method (sim.SliceSource), as many as that
// says. A wrong hint costs only memory, or a copy in Outcomes.
func NewStore[O, X any](hint int, src any) Store[O, X] {
	if h, ok := src.(interface{ Remaining() int }); ok && hint == 0 {
		hint = h.Remaining()
	}
	return Store[O, X]{hint: hint}
}

// Len returns how many jobs the store holds.
func (s *Store[O, X]) Len() int { return s.n }

// At returns the outcome and the record of job i, 0 <= i < Len().
func (s *Store[O, X]) At(i int) (*O, *X) {
	c, k := s.locate(i)
	return &s.outs[c][k], &s.recs[c][k]
}

// Rec returns the record of job i, 0 <= i < Len(): At without the
// outcome, for the loops that look at records only.
func (s *Store[O, X]) Rec(i int) *X {
	c, k := s.locate(i)
	return &s.recs[c][k]
}

// Add appends a job and returns its index, its outcome and its record, both
// zero values.
func (s *Store[O, X]) Add() (int, *O, *X) {
	if s.n == s.stored() {
		size := ChunkSize
		if len(s.outs) == 0 && s.hint > 0 {
			size = s.hint
		}
		s.outs = append(s.outs, make([]O, size))
		s.recs = append(s.recs, make([]X, size))
	}
	i := s.n
	s.n++
	o, x := s.At(i)
	return i, o, x
}

// Outcomes returns every job's outcome in arrival order: the first chunk
// itself when it holds them all, else a copy of the chunks. The store must
// not be used afterwards.
func (s *Store[O, X]) Outcomes() []O {
	if len(s.outs) == 1 {
		return s.outs[0][:s.n:s.n]
	}
	all := make([]O, 0, s.n)
	for _, c := range s.outs {
		all = append(all, c[:min(len(c), s.n-len(all))]...)
	}
	return all
}

// locate returns the chunk and index of job i.
func (s *Store[O, X]) locate(i int) (int, int) {
	first := len(s.outs[0])
	if i < first {
		return 0, i
	}
	i -= first
	return 1 + i/ChunkSize, i % ChunkSize
}

// stored returns how many jobs the chunks have room for.
func (s *Store[O, X]) stored() int {
	if len(s.outs) == 0 {
		return 0
	}
	return len(s.outs[0]) + (len(s.outs)-1)*ChunkSize
}
