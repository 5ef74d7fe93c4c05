package results_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

func ExampleSummarize() {
	res := &sim.Result{
		Capacity: sim.Resources{sim.Procs: 4},
		Jobs: []sim.Outcome{
			outcome(1, 0, 0, 100, 4, sim.Finished),
			outcome(2, 0, 100, 150, 2, sim.Finished),
		},
		Finished: 2,
	}
	s := results.Summarize(res, results.DefaultTau)
	fmt.Printf("mean wait %.0f s, mean bounded slowdown %.2f, utilization %.0f%%, makespan %d s\n",
		s.MeanWait, s.MeanBoundedSlowdown, 100*s.Utilization[sim.Procs], s.Makespan)
	// Output:
	// mean wait 50 s, mean bounded slowdown 2.00, utilization 83%, makespan 150 s
}
