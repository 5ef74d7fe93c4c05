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
	// unknown policy "esay" (did you mean "easy"?); known: fcfs, sjf, easy, conservative, psp, backfill-balanced, improved-backfill-balanced, pbs-fifo, maui, slurm, keasy, reasy, measy, fairshare-measy
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

func ExampleNewAccuracy() {
	o, err := policies.NewAccuracy(policies.DefaultAccuracyConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	// User 1's first job asks for 100 s and runs 10: accuracy 0.1, the
	// lowest priority. While it runs, user 1 and then user 2 (new, so
	// priority 5) queue a job each for the whole machine.
	recs := []sim.Record{
		simtest.J(1, 0, 10, 100, 4, simtest.User(1)),
		simtest.J(2, 1, 10, 10, 4, simtest.User(1)),
		simtest.J(3, 2, 10, 10, 4, simtest.User(2)),
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
	// At the end user 1's mean accuracy is (0.1 + 1)/2 = 0.55: priority 3.
	fmt.Printf("priorities: user 1 %d, user 2 %d\n", o.Priority(1), o.Priority(2))
	// Output:
	// easy/accuracy
	// job 1 of user 1 starts at 0
	// job 2 of user 1 starts at 20
	// job 3 of user 2 starts at 10
	// priorities: user 1 3, user 2 5
}
