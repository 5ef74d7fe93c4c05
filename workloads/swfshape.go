package workloads

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// shapes reports whether the options give jobs shapes at all; when not,
// every record keeps the zero shape, the pool's request.
func (o SWFOptions) shapes() bool { return o.Shape != (ShapeMode{}) || o.AleaFields }

// shape sets rec's sim.Shape as the options say, from its processors and
// memory as record read them and, with AleaFields, from rest, the line's
// tokens after field 18 (fields 19 to 21). A request in field 21 replaces
// the mapping of processors (Need[Procs] becomes nodes × ppn); one that
// does not parse is kept as Where.Invalid, for a machine of nodes to
// reject and count, and listed by Warnings. Errors lack file and line.
func (r *SWFReader) shape(rec *sim.Record, rest []byte) *ParseError {
	var queue, request string
	if r.opt.AleaFields {
		f := strings.Fields(string(rest))
		if len(f) > 3 {
			return &ParseError{Err: fmt.Errorf("has %d fields, want at most 21", NumFields+len(f))}
		}
		if len(f) > 1 && f[1] != "-1" {
			queue = f[1]
		}
		if len(f) > 2 && f[2] != "-1" {
			request = f[2]
		}
	}
	if request != "" {
		return r.requestShape(rec, request, queue)
	}
	procs := rec.Need[sim.Procs]
	if procs < 1 {
		return nil // the engine rejects it: no processors
	}
	s, err := r.opt.Shape.Shape(procs)
	if err != nil {
		return fieldError(fieldAllocProcs, err)
	}
	sh := sim.Shape{Exclusive: s.Exclusive, MemPerNode: rec.Need[sim.Memory], GPUsPerNode: int32(rec.Need[sim.GPUs])}
	if s.Nodes > 0 {
		rec.Need[sim.Procs] = s.Procs()
		sh.Nodes, sh.PerNode, sh.MemPerNode = int32(s.Nodes), int32(s.PerNode), MemPerNode(rec.Need[sim.Memory], s.Nodes)
	}
	if queue != "" {
		sh.Where = r.where(queue, "", func() *sim.Where { return &sim.Where{Partition: queue} })
	}
	if sh == (sim.Shape{MemPerNode: rec.Need[sim.Memory], GPUsPerNode: int32(rec.Need[sim.GPUs])}) {
		sh = sim.Shape{} // tasks, unrestricted: the pool's request
	}
	rec.Shape = sh
	return nil
}

// requestShape sets rec's shape from field 21's request, in partition
// queue (field 20; empty: none).
func (r *SWFReader) requestShape(rec *sim.Record, request, queue string) *ParseError {
	req, err := ParseRequest(request)
	var s Shape
	if err == nil {
		s, err = RequestShape(req)
	}
	if err != nil {
		perr := &ParseError{File: r.name, Line: r.jobLine, Field: FieldRequest, Name: aleaFieldNames[FieldRequest], Err: err}
		r.warnings = append(r.warnings, &ParseError{File: r.name, Line: r.jobLine, Field: FieldRequest,
			Name: aleaFieldNames[FieldRequest], Err: fmt.Errorf("%w: the job is rejected on nodes (bad-request)", err)})
		rec.Shape = sim.Shape{Where: r.where(queue, request, func() *sim.Where {
			return &sim.Where{Partition: queue, Invalid: perr.Error()}
		})}
		return nil
	}
	if s.Nodes > 1<<31-1 || s.PerNode > 1<<31-1 {
		return &ParseError{Field: FieldRequest, Name: aleaFieldNames[FieldRequest], Err: fmt.Errorf("request %q asks for more than 2³¹ nodes or processors per node", request)}
	}
	rec.Need[sim.Procs] = s.Procs()
	sh := sim.Shape{Nodes: int32(s.Nodes), PerNode: int32(s.PerNode), Exclusive: s.Exclusive}
	if s.GPUsPerNode > 0 {
		// ParseRequest keeps both at most MaxProcs (2^30): no overflow.
		sh.GPUsPerNode = int32(s.GPUsPerNode)
		rec.Need[sim.GPUs] = s.GPUsPerNode * s.Nodes
	}
	switch {
	case r.opt.Memory == NoMemory:
	case s.MemPerNode > 0:
		sh.MemPerNode = s.MemPerNode
		if m, ok := mulNonNeg(s.MemPerNode, s.Nodes); ok {
			rec.Need[sim.Memory] = m
		} else {
			return &ParseError{Field: FieldRequest, Name: aleaFieldNames[FieldRequest], Err: fmt.Errorf("request %q: memory overflows int64 bytes", request)}
		}
	default:
		sh.MemPerNode = MemPerNode(rec.Need[sim.Memory], s.Nodes)
	}
	if queue != "" || len(s.Groups)+len(s.NotGroups)+len(s.Features)+len(s.NotFeatures) > 0 {
		sh.Where = r.where(queue, request, func() *sim.Where {
			return &sim.Where{Partition: queue, Groups: s.Groups, NotGroups: s.NotGroups, Features: s.Features, NotFeatures: s.NotFeatures}
		})
	}
	rec.Shape = sh
	return nil
}

// where returns the reader's one Where for (queue, request), made by mk on
// first use, so that jobs asking the same share it.
func (r *SWFReader) where(queue, request string, mk func() *sim.Where) *sim.Where {
	key := queue + "\x00" + request
	if w, ok := r.wheres[key]; ok {
		return w
	}
	if r.wheres == nil {
		r.wheres = map[string]*sim.Where{}
	}
	w := mk()
	r.wheres[key] = w
	return w
}

// restAfter returns the tokens of b after offset end, trimmed.
func restAfter(b []byte, end int) []byte { return bytes.TrimSpace(b[end:]) }
