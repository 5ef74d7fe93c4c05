package sim

import "io"

// Source yields a workload's jobs in non-decreasing submit order, then io.EOF.
// Any other error ends the run and is returned wrapped.
type Source interface {
	Next() (Record, error)
}

// SliceSource serves records from memory, in order.
type SliceSource struct {
	recs []Record
	i    int
}

// NewSliceSource returns a Source over recs. It does not copy recs.
func NewSliceSource(recs []Record) *SliceSource { return &SliceSource{recs: recs} }

// Remaining returns how many records Next has yet to give; the engine uses
// it to size its job store.
func (s *SliceSource) Remaining() int { return len(s.recs) - s.i }

// Next returns the next record or io.EOF.
func (s *SliceSource) Next() (Record, error) {
	if s.i >= len(s.recs) {
		return Record{}, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

// ReadAll drains src into a slice, for callers that need a workload in
// memory (benchmarks, repeated runs); the engine itself streams.
func ReadAll(src Source) ([]Record, error) {
	var recs []Record
	for {
		rec, err := src.Next()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}
