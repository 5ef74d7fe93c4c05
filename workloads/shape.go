package workloads

import (
	"fmt"
	"strconv"
	"strings"
)

// Shape is what a job asks of a machine made of nodes. It is either Tasks
// processors anywhere (Nodes 0), packed onto as few nodes as hold them, as
// Slurm places "-n N" by default; or Nodes nodes with PerNode processors
// each, as PBS's "nodes=N:ppn=P" and Slurm's "-N N --ntasks-per-node=P".
// Either may ask for whole nodes (Exclusive), memory and GPUs on every node
// it uses, and restrict the nodes to some node groups or features.
type Shape struct {
	Tasks       int64 // processors anywhere, when Nodes is 0
	Nodes       int64 // node count; 0 for a Tasks shape
	PerNode     int64 // processors on each node, when Nodes > 0
	Exclusive   bool  // no other job on the nodes used
	MemPerNode  int64 // bytes on each node used; 0: none asked
	GPUsPerNode int64 // GPUs on each node used; 0: none asked

	Groups      []string // node groups the job may use; empty: any
	NotGroups   []string // node groups the job may not use
	Features    []string // features every node used must have
	NotFeatures []string // features no node used may have
}

// Procs returns the processors s holds: Tasks, or Nodes × PerNode.
func (s Shape) Procs() int64 {
	if s.Nodes > 0 {
		return s.Nodes * s.PerNode
	}
	return s.Tasks
}

// ShapeKind names how a workload option maps a job's processors to a Shape.
type ShapeKind uint8

const (
	// ShapeTasks maps P processors to P tasks anywhere. Default.
	ShapeTasks ShapeKind = iota
	// ShapeWholeNodes maps P processors to P tasks on whole nodes: packed
	// onto as few nodes as hold them, each node used taken exclusively, as
	// Slurm's "-n P --exclusive", for traces of machines that allocated
	// whole nodes.
	ShapeWholeNodes
	// ShapePerNode maps P processors to ⌈P/K⌉ nodes of K processors each
	// (one node of P when P < K), as PBS's "nodes=⌈P/K⌉:ppn=K", for traces
	// of machines whose jobs took K processors on each node.
	ShapePerNode
)

// ShapeMode is a parsed workload option: a kind and, for ShapePerNode, K.
type ShapeMode struct {
	Kind ShapeKind
	K    int64
}

// String returns the option as ParseShapeMode reads it.
func (m ShapeMode) String() string {
	switch m.Kind {
	case ShapeWholeNodes:
		return "whole-nodes"
	case ShapePerNode:
		return "per-node:" + strconv.FormatInt(m.K, 10)
	}
	return "tasks"
}

// ParseShapeMode reads "tasks", "whole-nodes" or "per-node:K" with K a
// positive integer of at most MaxProcs.
func ParseShapeMode(s string) (ShapeMode, error) {
	switch s {
	case "tasks":
		return ShapeMode{Kind: ShapeTasks}, nil
	case "whole-nodes":
		return ShapeMode{Kind: ShapeWholeNodes}, nil
	}
	if k, ok := strings.CutPrefix(s, "per-node:"); ok {
		v, err := strconv.ParseInt(k, 10, 64)
		if err != nil || v < 1 || v > MaxProcs {
			return ShapeMode{}, fmt.Errorf("shape %q: processors per node %q is not an integer from 1 to %d", s, k, int64(MaxProcs))
		}
		return ShapeMode{Kind: ShapePerNode, K: v}, nil
	}
	return ShapeMode{}, fmt.Errorf("shape %q is not \"tasks\", \"whole-nodes\" or \"per-node:K\"", s)
}

// Shape maps a job of procs processors (SWF field 5 or 8, as SWFOptions
// chose) to its shape under m. procs must be positive: a job without
// processors is the engine's to reject. Under ShapePerNode with procs not
// a multiple of K, the last node is still asked for K processors, as the
// node-allocating machine charged it, so Procs() exceeds procs.
func (m ShapeMode) Shape(procs int64) (Shape, error) {
	if procs < 1 {
		return Shape{}, fmt.Errorf("%d processors cannot make a job shape", procs)
	}
	switch m.Kind {
	case ShapeWholeNodes:
		return Shape{Tasks: procs, Exclusive: true}, nil
	case ShapePerNode:
		if m.K < 1 {
			return Shape{}, fmt.Errorf("shape per-node:%d: processors per node must be positive", m.K)
		}
		if procs <= m.K {
			return Shape{Nodes: 1, PerNode: procs}, nil
		}
		return Shape{Nodes: (procs + m.K - 1) / m.K, PerNode: m.K}, nil
	}
	return Shape{Tasks: procs}, nil
}

// RequestShape maps an Alea field-21 request to a shape under this
// package's semantics (not Alea's; see docs/design/nodes.md): the chunk's
// count and ppn become Nodes × PerNode, "#excl" Exclusive, "mem=" the
// memory per node, "gpus=" the GPUs per node, cl_X and ^cl_X the node groups allowed and refused, and
// every other token a feature ("^x" a refused one). A request of several
// chunks ("1:ppn=1+3:ppn=2") is an error: a shape has one node size.
func RequestShape(r Request) (Shape, error) {
	if len(r.Chunks) != 1 {
		return Shape{}, fmt.Errorf("request has %d chunks; a job shape holds one", len(r.Chunks))
	}
	c := r.Chunks[0]
	s := Shape{
		Nodes: c.Nodes, PerNode: c.PPN, Exclusive: r.Exclusive, MemPerNode: c.Mem, GPUsPerNode: c.GPUs,
		Groups: r.Clusters, NotGroups: r.NotClusters,
	}
	for _, p := range c.Properties {
		if f, ok := strings.CutPrefix(p, "^"); ok {
			s.NotFeatures = append(s.NotFeatures, f)
		} else {
			s.Features = append(s.Features, p)
		}
	}
	if c.Host != "" {
		s.Features = append(s.Features, c.Host)
	}
	return s, nil
}

// MemPerNode spreads a job's memory, in bytes, over the nodes of its
// shape, rounding up: the default reading of SWF field 10 for a job on
// nodes (Alea instead asks the whole amount on each node).
func MemPerNode(total, nodes int64) int64 {
	if nodes < 1 || total <= 0 {
		return 0
	}
	return (total + nodes - 1) / nodes
}
