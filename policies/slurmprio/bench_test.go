package slurmprio

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// BenchmarkUpdate times one calculation period's Update: 10,000 waiting
// jobs of 1,000 users in 20 accounts, 500 running jobs, every weight set.
func BenchmarkUpdate(b *testing.B) {
	for _, fs := range []string{"fair_tree", "classic"} {
		b.Run(fs, func(b *testing.B) {
			p := Defaults()
			p.WeightFairshare, p.WeightJobSize, p.WeightPartition = 10000, 1000, 1000
			p.WeightQOS, p.WeightAccuracy, p.Fairshare = 1000, 1000, fs
			p.PartitionFactor, p.QOSPriority = "0:2,1:1", "1:10,2:20"
			c, err := New(p, Machine{Procs: 100000, Nodes: 1000})
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			const waitingJobs, runningJobs, users = 10000, 500, 1000
			var waiting []*sim.Job
			for i := range waitingJobs + runningJobs {
				u := int32(r.IntN(users))
				j := job(i, 0, 1+r.Int64N(64), u, u%20)
				j.Queue, j.Partition = int32(r.IntN(3)), int32(r.IntN(2))
				c.Submitted(0, j)
				if i < runningJobs {
					c.Started(0, j)
					continue
				}
				waiting = append(waiting, j)
			}
			now := sim.Time(0)
			b.ReportAllocs()
			for b.Loop() {
				now = c.Next()
				if !c.Update(now, nil, waiting) {
					b.Fatal("no recalculation at the boundary")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/waitingJobs, "ns/job")
		})
	}
}
