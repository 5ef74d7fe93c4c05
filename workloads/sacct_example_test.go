package workloads_test

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// A sacct dump of a two-node job, its batch step, and a job cancelled
// while it waited: one job, two lines skipped.
func ExampleNewSacctReader() {
	dump := `JobIDRaw|JobID|User|Account|Partition|QOS|Submit|Start|End|TimelimitRaw|State|AllocTRES
41|41|ann|phys|batch|normal|2024-05-02T09:00:00|2024-05-02T09:01:00|2024-05-02T10:01:00|120|COMPLETED|billing=64,cpu=64,gres/gpu=4,mem=256G,node=2
41.batch|41.batch||phys|||2024-05-02T09:01:00|2024-05-02T09:01:00|2024-05-02T10:01:00||COMPLETED|cpu=32,mem=128G,node=1
42|42|bob|chem|batch|normal|2024-05-02T09:30:00|2024-05-02T09:40:00|2024-05-02T09:40:00|60|CANCELLED by 1001|
`
	r := workloads.NewSacctReader(strings.NewReader(dump), "dump.txt", workloads.SacctOptions{Memory: true})
	recs, err := sim.ReadAll(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range recs {
		s := j.Shape
		fmt.Printf("job %d: %d × %d CPUs, %d GPUs and %d GiB per node in %s; ran %d s of %d\n",
			j.ID, s.Nodes, s.PerNode, s.GPUsPerNode, s.MemPerNode>>30, s.Where.Partition, j.Runtime, j.Estimate)
	}
	skipped, _ := r.Skipped()
	for _, c := range skipped {
		fmt.Printf("skipped %d: %s (line %d)\n", c.Lines, c.Reason, c.First)
	}
	// Output:
	// job 41: 2 × 32 CPUs, 2 GPUs and 128 GiB per node in batch; ran 3600 s of 7200
	// skipped 1: job step (line 3)
	// skipped 1: cancelled before it started (line 4)
}
