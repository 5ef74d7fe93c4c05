package workloads_test

import (
	"fmt"
	"log"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

func ExampleNewJobMix() {
	m, err := workloads.NewJobMix(workloads.DefaultJobMixParams(), 1)
	if err != nil {
		log.Fatal(err)
	}
	recs, err := sim.ReadAll(m)
	if err != nil {
		log.Fatal(err)
	}
	count := map[workloads.MixClass]int{}
	for _, r := range recs {
		count[m.Class(r.ID)]++
	}
	fmt.Printf("%d jobs from %d draws, last submitted at %d s\n", len(recs), m.Drawn(), recs[len(recs)-1].Submit)
	for c := workloads.MixLarge; c <= workloads.MixFailed; c++ {
		fmt.Printf("%s %d\n", c, count[c])
	}
	fmt.Printf("theoretical minimum %.1f h, sequential maximum %.1f h\n",
		float64(workloads.TheoreticalMinimum(recs, 64))/3600, float64(workloads.SequentialMaximum(recs))/3600)
	// Output:
	// 76 jobs from 448 draws, last submitted at 10771 s
	// large 22
	// medium 30
	// small 16
	// debug 4
	// failed 4
	// theoretical minimum 41.6 h, sequential maximum 97.7 h
}

func ExampleNewPSP() {
	p := workloads.DefaultPSPParams()
	p.Scenario = "hdi"
	g, err := workloads.NewPSP(p, 1)
	if err != nil {
		log.Fatal(err)
	}
	recs, err := sim.ReadAll(g)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs[:3] {
		fmt.Printf("job %d: user %d, %d procs, run %d s, estimate %d s\n", r.ID, r.User, r.Need[sim.Procs], r.Runtime, r.Estimate)
	}
	for _, u := range g.Users()[:4] {
		fmt.Printf("user %d: group g%d, learns %v, %d jobs, accuracy %.2f → %.2f (class a%d)\n",
			u.ID, u.Group, u.Learns, u.Jobs, u.Initial, u.Accuracy, workloads.PSPAccuracyClass(u.Accuracy))
	}
	// Output:
	// job 1: user 1, 1 procs, run 91 s, estimate 2002 s
	// job 2: user 6, 1 procs, run 1730 s, estimate 35316 s
	// job 3: user 15, 1 procs, run 54553 s, estimate 232765 s
	// user 1: group g1, learns true, 266 jobs, accuracy 0.05 → 1.00 (class a5)
	// user 2: group g4, learns false, 149 jobs, accuracy 0.29 → 0.29 (class a2)
	// user 3: group g2, learns false, 93 jobs, accuracy 0.08 → 0.08 (class a1)
	// user 4: group g2, learns true, 95 jobs, accuracy 0.13 → 1.00 (class a5)
}

func ExampleWithCPUUsage() {
	var recs []sim.Record
	for _, procs := range []int64{1, 8, 32} {
		var r sim.Record
		r.Need[sim.Procs] = procs
		recs = append(recs, r)
	}
	src := workloads.WithCPUUsage(sim.NewSliceSource(recs), 1)
	out, err := sim.ReadAll(src)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range out {
		fmt.Printf("%d procs: CPU usage %.3f\n", r.Need[sim.Procs], r.CPUUsage)
	}
	// Output:
	// 1 procs: CPU usage 1.000
	// 8 procs: CPU usage 0.485
	// 32 procs: CPU usage 0.969
}
