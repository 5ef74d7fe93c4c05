package workloads

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// NodeGroup is one cluster of identical nodes from an Alea ".machines" file.
type NodeGroup struct {
	ID          int
	Name        string
	Nodes       int64   // number of nodes
	CPUsPerNode int64   // processors per node
	Speed       float64 // relative processor speed (Alea's PE rating)
	MemPerNode  int64   // memory per node in bytes
}

var machineFields = [...]string{"", "id", "name", "nodes", "cpus per node", "speed", "memory per node"}

// ReadMachines reads an Alea ".machines" file: one node group per line,
// "id name nodes cpus_per_node speed ram_per_node_KB", separated by tabs or
// spaces. Empty lines and lines starting with '#' or ';' are ignored. The id
// and name must be unique; nodes and processors per node must be positive,
// speed positive and memory not negative. name, usually the file's base
// name, prefixes every error; format errors are *ParseError values.
//
// ReadMachines checks that memory in bytes, and the totals Capacity
// computes, fit in int64.
func ReadMachines(r io.Reader, name string) ([]NodeGroup, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var groups []NodeGroup
	var procs, mem int64
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0][0] == '#' || f[0][0] == ';' {
			continue
		}
		fail := func(field int, format string, args ...any) error {
			pe := &ParseError{File: name, Line: n, Field: field, Err: fmt.Errorf(format, args...)}
			if field > 0 {
				pe.Name = machineFields[field]
			}
			return pe
		}
		if len(f) != 6 {
			return nil, fail(0, "has %d fields, want 6 (id name nodes cpus_per_node speed ram_per_node_KB)", len(f))
		}
		var ints [7]int64
		for _, k := range []int{1, 3, 4, 6} {
			v, err := strconv.ParseInt(f[k-1], 10, 64)
			switch {
			case err != nil:
				return nil, fail(k, "%q is not an integer", f[k-1])
			case v < 0:
				return nil, fail(k, "%q is negative", f[k-1])
			case v == 0 && (k == 3 || k == 4):
				return nil, fail(k, "%q is not positive", f[k-1])
			case k == 1 && v > math.MaxInt32:
				return nil, fail(k, "%q is out of range", f[k-1])
			}
			ints[k] = v
		}
		speed, err := strconv.ParseFloat(f[4], 64)
		if err != nil || !(speed > 0) || math.IsInf(speed, 0) {
			return nil, fail(5, "%q is not a positive number", f[4])
		}
		g := NodeGroup{ID: int(ints[1]), Name: f[1], Nodes: ints[3], CPUsPerNode: ints[4], Speed: speed}
		var ok bool
		if g.MemPerNode, ok = mulNonNeg(ints[6], 1024); !ok {
			return nil, fail(6, "%q KB overflows int64 bytes", f[5])
		}
		for _, o := range groups {
			if o.ID == g.ID || o.Name == g.Name {
				return nil, fail(0, "node group %d %q repeats node group %d %q", g.ID, g.Name, o.ID, o.Name)
			}
		}
		p, ok1 := mulNonNeg(g.Nodes, g.CPUsPerNode)
		m, ok2 := mulNonNeg(g.Nodes, g.MemPerNode)
		if !ok1 || !ok2 || p > math.MaxInt64-procs || m > math.MaxInt64-mem {
			return nil, fail(0, "total processors or memory overflow int64")
		}
		procs, mem = procs+p, mem+m
		groups = append(groups, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return groups, nil
}

// Capacity returns the total resources of the node groups: processors
// Σ nodes × CPUs per node and memory Σ nodes × memory per node, in bytes.
// It does not check for overflow; groups from ReadMachines cannot overflow.
func Capacity(groups []NodeGroup) sim.Resources {
	var r sim.Resources
	for _, g := range groups {
		r[sim.Procs] += g.Nodes * g.CPUsPerNode
		r[sim.Memory] += g.Nodes * g.MemPerNode
	}
	return r
}
