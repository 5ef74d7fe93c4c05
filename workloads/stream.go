package workloads

import (
	"io"
	"math/rand/v2"

	"github.com/schedsweep/schedsweep/sim"
)

// Stream numbers of the random streams a model draws from. Each sub-model
// has its own stream, so changing how one is drawn never shifts the draws of
// another: a model run with seed s uses rand.NewPCG(s, stream).
const (
	StreamArrivals uint64 = iota + 1
	StreamSizes
	StreamRuntimes
	StreamEstimates
	StreamUsers
	StreamCPUUsage
	StreamRepeats
	StreamExtra // for a model's own further sub-models: StreamExtra, StreamExtra+1, …
)

// NewStream returns the generator of one sub-model stream of a run seeded
// with seed (math/rand/v2's PCG).
func NewStream(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// Take yields the first n jobs of src, then io.EOF. Synthetic models are
// endless; Take is how a run gets N jobs from one.
func Take(src sim.Source, n int) sim.Source { return &take{src: src, left: n} }

type take struct {
	src  sim.Source
	left int
}

func (t *take) Next() (sim.Record, error) {
	if t.left <= 0 {
		return sim.Record{}, io.EOF
	}
	t.left--
	return t.src.Next()
}
