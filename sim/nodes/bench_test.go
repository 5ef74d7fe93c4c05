package nodes_test

import (
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// BenchmarkLublin runs FCFS and EASY over 100,000 Lublin jobs on 10,000
// nodes of 64 cores (shape tasks), and on the pool of the same 640,000
// processors.
func BenchmarkLublin(b *testing.B) {
	const nodeCount, cores = 10000, 64
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
	capacity := sim.Resources{sim.Procs: nodeCount * cores}
	models := []struct {
		name string
		new  func() (sim.Model, error)
	}{
		{"pool", func() (sim.Model, error) { return sim.NewPool(capacity), nil }},
		{"nodes", func() (sim.Model, error) {
			return nodes.New([]nodes.Group{{Name: "n", Count: nodeCount, Cores: cores}}, nodes.FirstFit)
		}},
	}
	pols := []struct {
		name string
		new  func() sim.Policy
	}{
		{"fcfs", func() sim.Policy { return policies.NewFCFS() }},
		{"easy", func() sim.Policy { return policies.NewEASY(policies.Arrival{}) }},
	}
	for _, p := range pols {
		for _, m := range models {
			benchLublin(b, p.name+"/"+m.name, m.new, p.new, recs)
		}
	}
}

func benchLublin(b *testing.B, name string, model func() (sim.Model, error), pol func() sim.Policy, recs []sim.Record) {
	b.Run(name, func(b *testing.B) {
		cpu, _ := simtest.CPUTime()
		n := 0
		for b.Loop() {
			n++
			mod, err := model()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sim.Run(mod, pol(), sim.NewSliceSource(recs), sim.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		simtest.ReportCPU(b, cpu, n)
	})
}

// BenchmarkLublinConservative runs conservative backfilling over 100,000
// Lublin jobs on 1,000 nodes of 64 cores (shape tasks), reservations
// pinning nodes, and on the pool of the same 64,000 processors; Maui too.
func BenchmarkLublinConservative(b *testing.B) {
	const nodeCount, cores = 1000, 64
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
	capacity := sim.Resources{sim.Procs: nodeCount * cores}
	models := []struct {
		name string
		new  func() (sim.Model, error)
	}{
		{"pool", func() (sim.Model, error) { return sim.NewPool(capacity), nil }},
		{"nodes", func() (sim.Model, error) {
			return nodes.New([]nodes.Group{{Name: "n", Count: nodeCount, Cores: cores}}, nodes.FirstFit)
		}},
	}
	pols := []struct {
		name string
		new  func() sim.Policy
	}{
		{"conservative", func() sim.Policy { return policies.NewConservative(policies.Arrival{}) }},
		{"maui", func() sim.Policy {
			m, err := policies.NewMaui(policies.DefaultMauiConfig())
			if err != nil {
				b.Fatal(err)
			}
			return m
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
