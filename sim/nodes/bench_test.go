package nodes_test

import (
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// namedPolicy makes a fresh policy for each run of a benchmark.
type namedPolicy struct {
	name string
	new  func() sim.Policy
}

// BenchmarkLublin runs FCFS and EASY over 100,000 Lublin jobs on 10,000
// nodes of 64 cores (shape tasks), and on the pool of the same 640,000
// processors.
func BenchmarkLublin(b *testing.B) {
	benchLublin(b, 10000, 64, []namedPolicy{
		{"fcfs", func() sim.Policy { return policies.NewFCFS() }},
		{"easy", func() sim.Policy { return policies.NewEASY(policies.Arrival{}) }},
	})
}

// BenchmarkLublinConservative runs conservative backfilling over 100,000
// Lublin jobs on 1,000 nodes of 64 cores (shape tasks), reservations
// pinning nodes, and on the pool of the same 64,000 processors; Maui too.
func BenchmarkLublinConservative(b *testing.B) {
	benchLublin(b, 1000, 64, []namedPolicy{
		{"conservative", func() sim.Policy { return policies.NewConservative(policies.Arrival{}) }},
		{"maui", func() sim.Policy {
			m, err := policies.NewMaui(policies.DefaultMauiConfig())
			if err != nil {
				b.Fatal(err)
			}
			return m
		}},
	})
}

// benchLublin runs each policy over 100,000 Lublin jobs sized for
// nodeCount × cores processors, on the pool of those processors and on
// nodeCount nodes of cores each (first fit), as sub-benchmarks
// POLICY/pool and POLICY/nodes reporting processor time per run.
func benchLublin(b *testing.B, nodeCount, cores int64, pols []namedPolicy) {
	p := workloads.DefaultLublinParams()
	p.Nodes = nodeCount * cores
	l, err := workloads.NewLublin(p, 1)
	if err != nil {
		b.Fatal(err)
	}
	recs, err := sim.ReadAll(workloads.Take(l, 100000))
	if err != nil {
		b.Fatal(err)
	}
	models := []struct {
		name string
		new  func() (sim.Model, error)
	}{
		{"pool", func() (sim.Model, error) { return sim.NewPool(sim.Resources{sim.Procs: nodeCount * cores}), nil }},
		{"nodes", func() (sim.Model, error) {
			return nodes.New([]nodes.Group{{Name: "n", Count: int(nodeCount), Cores: cores}}, nodes.FirstFit)
		}},
	}
	for _, pol := range pols {
		for _, m := range models {
			b.Run(pol.name+"/"+m.name, func(b *testing.B) {
				cpu, _ := simtest.CPUTime()
				n := 0
				for b.Loop() {
					n++
					mod, err := m.new()
					if err != nil {
						b.Fatal(err)
					}
					if _, err := sim.Run(mod, pol.new(), sim.NewSliceSource(recs), sim.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				simtest.ReportCPU(b, cpu, n)
			})
		}
	}
}
