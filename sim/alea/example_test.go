package alea_test

import (
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// Three jobs of a wagap-style data set on two clusters, under Alea's FCFS:
// job 2 asks 16 processors per node, which refuses zegox, and waits for
// job 1's zewura node; job 3 asks zegox by name and, FCFS being strict,
// waits behind job 2 although zegox is idle.
func Example() {
	swf := `1 0 0 100 12 1 1024 12 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 1:ppn=12:cl_zewura
2 5 0 50 16 1 1024 16 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 1:ppn=16
3 6 0 50 8 1 1024 8 3600 1073741824 1 1 1 1 -1 1 1 1 {1} q_1d 1:ppn=8:x86_64:cl_zegox
`
	tr, err := alea.Read(strings.NewReader(swf), "example.swf", alea.ReadOptions{DataSet: "wagap-example.swf"})
	if err != nil {
		fmt.Println(err)
		return
	}
	groups := []alea.Group{
		{Name: "zegox", Nodes: 2, CPUs: 12, Memory: 90 << 30},
		{Name: "zewura", Nodes: 1, CPUs: 20, Memory: 500 << 30}, // 20 processors: tried after zegox's 24
	}
	m, err := alea.New(groups, alea.Options{Props: tr.Props})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sim.Run(m, policies.NewFCFS(), sim.NewSliceSource(tr.Jobs), sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("clusters in order:", m.Clusters())
	for i, o := range res.Jobs {
		cl, nodes, _ := m.Where(i)
		fmt.Printf("job %d: %s, start %d, end %d, %s %v\n", o.ID, tr.Props[o.ID], o.Start, o.End, cl, nodes)
	}
	// Output:
	// clusters in order: [zegox zewura]
	// job 1: 1:ppn=12:cl_zewura:^cl_zigur, start 0, end 101, zewura [0]
	// job 2: 1:ppn=16:^cl_zigur:^cl_zegox, start 101, end 152, zewura [0]
	// job 3: 1:ppn=8:x86_64:cl_zegox, start 101, end 152, zegox [0]
}
