package sim_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// Run simulates a policy over a workload. Here EASY backfills job 3 beside
// job 1 while job 2, which needs the whole machine, waits for its
// reservation; job 4 is larger than the machine and is rejected.
func ExampleRun() {
	jobs := []sim.Record{
		simtest.J(1, 0, 100, 100, 2), // id, submit, run time, estimate, processors
		simtest.J(2, 10, 50, 60, 4),
		simtest.J(3, 20, 70, 80, 2),
		simtest.J(4, 30, 10, 10, 8),
	}
	res, err := sim.Run(sim.NewPool(sim.Resources{sim.Procs: 4}), policies.NewEASY(policies.Arrival{}),
		sim.NewSliceSource(jobs), sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Jobs {
		fmt.Printf("job %d: %v", o.ID, o.State)
		if o.State == sim.Rejected {
			fmt.Printf(" (%v)\n", o.Reason)
			continue
		}
		fmt.Printf(" from %d to %d\n", o.Start, o.End)
	}
	// Output:
	// job 1: finished from 0 to 100
	// job 2: finished from 100 to 150
	// job 3: finished from 20 to 90
	// job 4: rejected (too-large)
}

// A profile answers "when does this fit?" for backfilling policies.
func ExampleProfile() {
	running := simtest.J(1, 0, 100, 100, 3).Job // 3 of 4 processors until t=100
	var p sim.Profile
	p.Reset(0, sim.Resources{sim.Procs: 1}, []sim.Allocation{{Job: &running, Start: 0}})
	fmt.Println(p.Fit(0, 50, sim.Resources{sim.Procs: 1}))
	fmt.Println(p.Fit(0, 50, sim.Resources{sim.Procs: 2}))
	p.Reserve(100, 50, sim.Resources{sim.Procs: 4})
	fmt.Println(p.Fit(0, 50, sim.Resources{sim.Procs: 2}))
	// Output:
	// 0
	// 100
	// 150
}
