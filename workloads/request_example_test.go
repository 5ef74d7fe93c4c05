package workloads_test

import (
	"fmt"

	"github.com/schedsweep/schedsweep/workloads"
)

func ExampleParseRequest() {
	r, err := workloads.ParseRequest("1:ppn=64:x86_64:cl_zewura#excl")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := workloads.RequestShape(r)
	fmt.Printf("%d node × %d processors, exclusive %v, groups %q, features %q\n",
		s.Nodes, s.PerNode, s.Exclusive, s.Groups, s.Features)
	_, err = workloads.ParseRequest("1:ppn=1.5:brno")
	fmt.Println(err)
	// Output:
	// 1 node × 64 processors, exclusive true, groups ["zewura"], features ["x86_64"]
	// request "1:ppn=1.5:brno": "ppn=1.5": processors per node "1.5" is not a positive integer
}

func ExampleShapeMode() {
	m, _ := workloads.ParseShapeMode("per-node:8")
	s, _ := m.Shape(20)
	fmt.Printf("%s: 20 processors → %d nodes × %d\n", m, s.Nodes, s.PerNode)
	// Output: per-node:8: 20 processors → 3 nodes × 8
}
