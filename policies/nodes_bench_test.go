package policies_test

import (
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// metacentrumNodes is the machine of METACENTRUM-2009-2 as the Parallel
// Workloads Archive's page of the log describes it: 14 clusters, 806
// processors (cluster: nodes × processors per node). The page gives
// cluster 6 as 36 nodes with 148 processors in all, not a multiple; it is
// taken here as 37 nodes of 4, keeping its processors.
var metacentrumNodes = []nodes.Group{
	{Name: "c0-", Count: 8, Cores: 1}, {Name: "c1-", Count: 16, Cores: 1}, {Name: "c2-", Count: 10, Cores: 1},
	{Name: "c3-", Count: 5, Cores: 16}, {Name: "c4-", Count: 16, Cores: 2}, {Name: "c5-", Count: 32, Cores: 2},
	{Name: "c6-", Count: 37, Cores: 4}, {Name: "c7-", Count: 35, Cores: 2}, {Name: "c8-", Count: 10, Cores: 2},
	{Name: "c9-", Count: 3, Cores: 2}, {Name: "c10-", Count: 23, Cores: 4}, {Name: "c11-", Count: 19, Cores: 8},
	{Name: "c12-", Count: 8, Cores: 8}, {Name: "c13-", Count: 11, Cores: 4},
}

// BenchmarkNodesEASY runs EASY over a whole trace on its nodes and on the
// pool of the same processors: wagap-2013 on its .machines nodes with its
// field-21 shapes, and METACENTRUM-2009-2 on its 14 clusters' nodes with
// shape tasks (processors anywhere, as PBS placed them there).
func BenchmarkNodesEASY(b *testing.B) {
	type machine struct {
		name   string
		groups []nodes.Group
		recs   func(b *testing.B) []sim.Record
	}
	ms := []machine{
		{"wagap-2013", nil, func(b *testing.B) []sim.Record { return wagapShaped(b, 1<<30) }},
		{"METACENTRUM-2009-2", metacentrumNodes, func(b *testing.B) []sim.Record {
			return readTrace(b, "METACENTRUM-2009-2.swf.gz", workloads.SWFOptions{})
		}},
	}
	for _, m := range ms {
		b.Run(m.name, func(b *testing.B) {
			if testing.Short() {
				b.Skip("reads a whole trace")
			}
			groups := m.groups
			if groups == nil {
				groups = wagapNodes(b)
			}
			recs := m.recs(b)
			var capacity sim.Resources
			for _, g := range groups {
				capacity[sim.Procs] += int64(g.Count) * g.Cores
			}
			for _, model := range []string{"pool", "nodes"} {
				b.Run(model, func(b *testing.B) {
					cpu, _ := simtest.CPUTime()
					n := 0
					for b.Loop() {
						n++
						var mod sim.Model = sim.NewPool(capacity)
						if model == "nodes" {
							cl, err := nodes.New(groups, nodes.FirstFit)
							if err != nil {
								b.Fatal(err)
							}
							mod = cl
						}
						if _, err := sim.Run(mod, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{}); err != nil {
							b.Fatal(err)
						}
					}
					simtest.ReportCPU(b, cpu, n)
					b.ReportMetric(float64(len(recs)*n)/b.Elapsed().Seconds(), "jobs/s")
				})
			}
		})
	}
}

// BenchmarkNodesSlurm runs the slurm policy with its defaults and EASY
// over METACENTRUM-2009-2 on its 14 clusters' nodes and on the pool of the
// same processors (issue 16's target: slurm on nodes within 3× of EASY).
//
// Fourth session of 27 Nov 2026 (the same counting): EASY 455.1 M on
// nodes after its fourth round, slurm 1,346.1 M, 2.96×: close to the bar,
// since most of that round (the classes' revival, the heap of running
// keys) is EASY's alone.
//
// Third session of 27 Nov 2026 (the same counting): EASY 489.9 M on
// nodes after its own round (sim/README.md), slurm 1,363.6 M, 2.78×.
// Slurm gained less from that round (1,767.8 M → 1,603.0 M, 3.27×)
// until Resources.FitsIn and sim.Profile's apply wrote the three kinds
// out instead of looping (470 M of slurm's cost was the sum over the
// nodes' fit and apply).
//
// Instructions (callgrind inside sim.(*engine).run, one run each, one
// binary, 27 Nov 2026, main after this session's merges): EASY 664.0 M
// on nodes; slurm 1,767.8 M on nodes, 2.66× (1,973.1 M, 2.97×, before
// the queue's order and partitions were kept beside it, the main
// scheduler skipped failed partitions by number, the backfill's last
// candidate was found in one sweep and the priority calculator kept the
// accuracy record only when its factor has a weight). On the slurm
// helper's first branch alone: EASY 1,025 M and 688 M
// on the pool; slurm 2,300 M on nodes (2.24×) and 1,780 M on the pool
// (2.59×), in 91,851 passes against EASY's 85,466; the engine's cheaper
// removal of started jobs from the waiting queue (sim/engine.go) then
// took about a third from EASY and about 330 M from slurm, so the ratio
// rose. Before this session slurm took 3,917 M on nodes (3.8×) and
// 2,235 M on the pool.
// The backfill's placement searches had 5.7 M node visits, nearly all of
// nodes full at the time tried: a node now skips them with one comparison
// (nodes.Profile keeps when each node's first free core comes). A rounded
// reservation inside the job's exact span is placed without the test on
// the sum over the nodes and without a copy of the job; a job's search
// starts at the fit of a smaller, shorter job of the same pass; the queue
// drops started jobs by index (a DeleteFunc sweep took 9 %); the node
// profile's base lays the running jobs without searching the steps. What
// remains is mostly the backfill's searches and reservations on the node
// profile (Profile.Fit 352 M, ReserveTo 303 M, the sum over the nodes in
// sim.Profile fit and apply within them) and the main scheduler (252 M).
// Before that, with the multifactor priority in, slurm took 10,759 M on
// nodes until the calculator stopped charging usage that no factor reads (the fairshare
// weight is 0 by default), and laying the sum over the nodes one running
// job at a time cost 2,600 M more than the one sweep of
// sim.Profile.ResetEnds.
func BenchmarkNodesSlurm(b *testing.B) {
	if testing.Short() {
		b.Skip("reads a whole trace")
	}
	recs := readTrace(b, "METACENTRUM-2009-2.swf.gz", workloads.SWFOptions{})
	var capacity sim.Resources
	for _, g := range metacentrumNodes {
		capacity[sim.Procs] += int64(g.Count) * g.Cores
	}
	for _, name := range []string{"easy", "slurm"} {
		for _, model := range []string{"pool", "nodes"} {
			b.Run(name+"/"+model, func(b *testing.B) {
				cpu, _ := simtest.CPUTime()
				n, passes := 0, 0
				for b.Loop() {
					n++
					var mod sim.Model = sim.NewPool(capacity)
					if model == "nodes" {
						cl, err := nodes.New(metacentrumNodes, nodes.FirstFit)
						if err != nil {
							b.Fatal(err)
						}
						mod = cl
					}
					pol, err := policies.New(name)
					if err != nil {
						b.Fatal(err)
					}
					res, err := sim.Run(mod, pol, sim.NewSliceSource(recs), sim.Options{})
					if err != nil {
						b.Fatal(err)
					}
					passes = res.Passes
				}
				simtest.ReportCPU(b, cpu, n)
				b.ReportMetric(float64(len(recs)*n)/b.Elapsed().Seconds(), "jobs/s")
				b.ReportMetric(float64(passes), "passes")
			})
		}
	}
}
