package nodes

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestRefuseRemembered asks Refuse about random jobs on random clusters,
// with and without partitions that limit time and nodes, drawing shapes,
// restrictions and estimates from few values so that a job often asks
// what the one before asked: every answer must be refuse's own for the
// job, so the answer Refuse keeps from the last job stands only for the
// same request (and, under a partition, the same estimate).
func TestRefuseRemembered(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 41))
		cfg := Config{Groups: []Group{
			{Name: "a", Count: 1 + rng.IntN(4), Cores: 1 + rng.Int64N(8), Memory: 10 + rng.Int64N(10), Features: []string{"x"}},
			{Name: "b", Count: 1 + rng.IntN(4), Cores: 1 + rng.Int64N(16), Memory: 10 + rng.Int64N(30), GPUs: rng.Int64N(2)},
		}, Fit: Fit(seed % 2)}
		if seed%3 > 0 {
			cfg.Partitions = []Partition{
				{Name: "short", MaxTime: 5 + sim.Time(rng.IntN(10)), MaxNodes: rng.IntN(3)},
				{Name: "long", Groups: []string{"b"}, MaxNodes: rng.IntN(4)},
			}
		}
		c, err := NewConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wheres := []*sim.Where{nil, {Partition: "long"}, {Partition: "short"}, {Features: []string{"x"}}, {Partition: "none"}}
		var last sim.Outcome
		for i := range 400 {
			o := &sim.Outcome{}
			o.Seq, o.Estimate = i, sim.Time(rng.IntN(20))
			o.Need[sim.Procs] = 1 + rng.Int64N(20)
			switch rng.IntN(4) {
			case 0: // the last job's request again, mostly with another estimate
				o.Need, o.Shape = last.Need, last.Shape
			case 1: // the last job's request but for one thing
				o.Need, o.Shape = last.Need, last.Shape
				switch rng.IntN(4) {
				case 0:
					o.Shape.GPUsPerNode = 1 - o.Shape.GPUsPerNode
				case 1:
					o.Shape.MemPerNode += 15
				case 2:
					o.Shape.Where = wheres[rng.IntN(len(wheres))]
				default:
					o.Shape.Exclusive = !o.Shape.Exclusive
				}
			case 2:
				n, per := 1+rng.Int32N(4), 1+rng.Int32N(10)
				o.Need[sim.Procs] = int64(n * per)
				o.Shape = sim.Shape{Nodes: n, PerNode: per, MemPerNode: rng.Int64N(30), GPUsPerNode: rng.Int32N(2),
					Where: wheres[rng.IntN(len(wheres))]}
			}
			last = *o
			want := c.refuse(reqOf(&o.Job), o.Estimate)
			if got := c.Refuse(o); got != want {
				t.Fatalf("seed %d job %d (%+v, estimate %d): Refuse %v; want %v", seed, i, o.Shape, o.Estimate, got, want)
			}
		}
	}
}
