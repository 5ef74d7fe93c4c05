package policies_test

import (
	"errors"
	"fmt"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

func ExampleLookup() {
	e, err := policies.Lookup("conservative")
	fmt.Println(e.Name, err)
	_, err = policies.Lookup("EASY-backfill")
	fmt.Println(errors.Is(err, policies.ErrUnknownPolicy))
	_, err = policies.Lookup("esay")
	fmt.Println(err)
	// Output:
	// conservative <nil>
	// true
	// unknown policy "esay" (did you mean "easy"?); known: fcfs, sjf, easy, conservative, pbs-fifo, maui
}

func ExampleNewFairshare() {
	o, err := policies.NewFairshare(policies.FairshareConfig{HalfLife: policies.DefaultHalfLife})
	if err != nil {
		fmt.Println(err)
		return
	}
	// User 1 fills the 4-processor machine for 100 s; then one job of
	// user 1 and one of user 2 wait.
	recs := []sim.Record{
		simtest.J(1, 0, 100, 100, 4, simtest.User(1)),
		simtest.J(2, 10, 10, 10, 4, simtest.User(1)),
		simtest.J(3, 20, 10, 10, 4, simtest.User(2)),
	}
	res, err := sim.Run(sim.NewPool(sim.Resources{4}), policies.NewEASY(o), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Policy)
	for _, j := range res.Jobs {
		fmt.Printf("job %d of user %d starts at %d\n", j.ID, j.User, j.Start)
	}
	fmt.Printf("user 1 has used %.0f processor-seconds, decayed\n", o.Usage(1, 120))
	// Output:
	// easy/fairshare
	// job 1 of user 1 starts at 0
	// job 2 of user 1 starts at 110
	// job 3 of user 2 starts at 100
	// user 1 has used 440 processor-seconds, decayed
}
