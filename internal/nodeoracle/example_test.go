package nodeoracle_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/internal/nodeoracle"
)

// Two nodes of 4 cores: the first two jobs leave one core on each, so the
// third, needing two on one node, waits for the first to end.
func ExampleSimulate() {
	nodes := []nodeoracle.Node{{Cores: 4}, {Cores: 4}}
	jobs := []nodeoracle.Job{
		{Submit: 0, Run: 10, Estimate: 10, Nodes: 1, PerNode: 3},
		{Submit: 0, Run: 20, Estimate: 20, Nodes: 1, PerNode: 3},
		{Submit: 1, Run: 5, Estimate: 5, Nodes: 1, PerNode: 2},
	}
	out, _ := nodeoracle.Simulate(nodes, jobs, nodeoracle.EASY)
	for i, o := range out {
		fmt.Printf("job %d: [%d, %d) on nodes %v\n", i, o.Start, o.End, o.Nodes)
	}
	// Output:
	// job 0: [0, 10) on nodes [0]
	// job 1: [0, 20) on nodes [1]
	// job 2: [10, 15) on nodes [0]
}
