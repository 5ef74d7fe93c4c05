package slurmprio_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/policies/slurmprio"
	"github.com/schedsweep/schedsweep/sim"
)

// Two users of account 1 each wait with a job; user 7 also ran 4 CPUs for
// 300 s. Priorities move every PriorityCalcPeriod (300 s): the calculation
// at 300 ran when the job ended, and Update at 400 sets the waiting jobs'
// priorities as they were then. At 600 Fair Tree ranks user 8 (no usage)
// first: factor 2/2 · 1000, against user 7's 1/2 · 1000; age adds
// 600/3600 · 1000 = 166.67.
func ExampleCalculator() {
	p := slurmprio.Defaults()
	p.WeightFairshare, p.MaxAge = 1000, 3600
	c, err := slurmprio.New(p, slurmprio.Machine{Procs: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	mk := func(seq int, user int32, procs int64) *sim.Job {
		j := &sim.Job{ID: sim.JobID(seq + 1), Seq: seq, User: user, Group: 1, Queue: -1, Partition: -1, Estimate: 600}
		j.Need[sim.Procs] = procs
		return j
	}
	a, b, ran := mk(0, 7, 1), mk(1, 8, 1), mk(2, 7, 4)
	for _, j := range []*sim.Job{a, b, ran} {
		c.Submitted(0, j)
	}
	c.Started(0, ran)
	c.Finished(300, ran, 300)
	fmt.Println("at submission:", c.Priority(a), c.Priority(b))
	fmt.Println("recomputed at 400:", c.Update(400, nil, []*sim.Job{a, b}), "next:", c.Next())
	c.Update(600, nil, []*sim.Job{a, b})
	fmt.Println("at 600:", c.Priority(a), c.Priority(b))
	// Output:
	// at submission: 1 1
	// recomputed at 400: true next: 600
	// at 600: 666 1166
}
