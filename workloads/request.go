package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/size"
)

// Request is a job's node request in the PBS "nodes" syntax, as Alea's data
// sets (wagap-2013, zewura) carry it in SWF field 21:
// "1:ppn=64:x86_64:cl_zewura#excl", "8:ppn=8:x86_64:cl_zegox",
// "1:ppn=1+3:ppn=2". The request is one or more chunks joined by '+'; each
// chunk is a node count (or a host name standing for one node) followed by
// ':'-separated tokens; "#excl" at the end asks for the nodes exclusively.
//
// Tokens are read as follows: "ppn=P" sets the chunk's processors per node;
// "mem=S" its memory per node (a size such as "3gb", binary units);
// "gpus=G" its GPUs per node, as in Torque's nodes syntax (no data set of
// Alea's has one; schedsweep's sacct import writes it); "cl_X"
// asks for a node of cluster (node group) X and "^cl_X" for one not of X,
// for the whole job; any other token, "^" kept, is a property of the chunk
// ("x86_64", "brno", "nfs4", "nodecpus80", "host=zewura10",
// "^zewura12.cerit-sc.cz"), which a machine model may match against node
// features or ignore.
type Request struct {
	Chunks      []Chunk
	Clusters    []string // from "cl_X": the job may run only on these node groups; distinct, in order
	NotClusters []string // from "^cl_X": the job may not run on these; distinct, in order
	Exclusive   bool     // "#excl": whole nodes
}

// Chunk is one '+'-separated part of a Request: Nodes nodes with PPN
// processors and Mem bytes of memory each.
type Chunk struct {
	Nodes      int64    // node count; 1 when the chunk starts with a host name
	PPN        int64    // processors per node; 1 when no "ppn=" is given, as in PBS
	Mem        int64    // bytes per node from "mem="; 0 when not given
	GPUs       int64    // GPUs per node from "gpus="; 0 when not given
	Host       string   // the host name a chunk starts with instead of a count
	Properties []string // every other token, in order, duplicates kept
}

// Procs returns the processors r asks for, Σ nodes × ppn over its chunks.
// ParseRequest keeps it below MaxProcs.
func (r Request) Procs() int64 {
	var n int64
	for _, c := range r.Chunks {
		n += c.Nodes * c.PPN
	}
	return n
}

// Nodes returns the nodes r asks for, Σ nodes over its chunks.
func (r Request) Nodes() int64 {
	var n int64
	for _, c := range r.Chunks {
		n += c.Nodes
	}
	return n
}

// ParseRequest parses an Alea field-21 node request. Its errors quote the
// request and the token at fault, for the caller to wrap with the file,
// line and field (see ParseAleaFields). A count or ppn must be a positive
// integer (wagap-2013 has 20 jobs asking for "ppn=1.5", an error here), and
// the processors asked for at most MaxProcs.
func ParseRequest(s string) (Request, error) {
	var r Request
	body, excl := strings.CutSuffix(s, "#excl")
	r.Exclusive = excl
	if body == "" {
		return r, fmt.Errorf("request %q is empty", s)
	}
	if i := strings.IndexByte(body, '#'); i >= 0 {
		return r, fmt.Errorf("request %q: %q is not \"#excl\"", s, body[i:])
	}
	var procs int64
	for _, cs := range strings.Split(body, "+") {
		c, err := r.parseChunk(cs)
		if err != nil {
			return r, fmt.Errorf("request %q: %w", s, err)
		}
		if c.Nodes > MaxProcs || c.PPN > MaxProcs || c.Nodes*c.PPN > MaxProcs-procs {
			return r, fmt.Errorf("request %q asks for more than %d processors", s, int64(MaxProcs))
		}
		procs += c.Nodes * c.PPN
		r.Chunks = append(r.Chunks, c)
	}
	return r, nil
}

// parseChunk parses one chunk, adding its cluster tokens to r.
func (r *Request) parseChunk(cs string) (Chunk, error) {
	c := Chunk{Nodes: 1, PPN: 1}
	toks := strings.Split(cs, ":")
	if n, err := strconv.ParseInt(toks[0], 10, 64); err == nil {
		if n < 1 {
			return c, fmt.Errorf("node count %q is not positive", toks[0])
		}
		c.Nodes = n
	} else if isHostName(toks[0]) {
		c.Host = toks[0]
	} else {
		return c, fmt.Errorf("chunk %q starts with %q, neither a node count nor a host name", cs, toks[0])
	}
	for _, t := range toks[1:] {
		if err := r.token(&c, t); err != nil {
			return c, err
		}
	}
	return c, nil
}

// token reads one token after a chunk's count.
func (r *Request) token(c *Chunk, t string) error {
	switch {
	case t == "":
		return fmt.Errorf("empty token")
	case strings.HasPrefix(t, "ppn="):
		v, err := strconv.ParseInt(t[4:], 10, 64)
		if err != nil || v < 1 {
			return fmt.Errorf("%q: processors per node %q is not a positive integer", t, t[4:])
		}
		c.PPN = v
	case strings.HasPrefix(t, "mem="):
		v, err := size.Parse(strings.ToUpper(t[4:]))
		if err != nil {
			return fmt.Errorf("%q: %w", t, err)
		}
		c.Mem = v
	case strings.HasPrefix(t, "gpus="):
		v, err := strconv.ParseInt(t[5:], 10, 64)
		if err != nil || v < 0 || v > MaxProcs {
			return fmt.Errorf("%q: GPUs per node %q is not an integer from 0 to %d", t, t[5:], int64(MaxProcs))
		}
		c.GPUs = v
	case strings.HasPrefix(t, "cl_") && len(t) > 3:
		r.Clusters = appendNew(r.Clusters, t[3:])
	case strings.HasPrefix(t, "^cl_") && len(t) > 4:
		r.NotClusters = appendNew(r.NotClusters, t[4:])
	default:
		c.Properties = append(c.Properties, t)
	}
	return nil
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// isHostName reports whether t can be a host name: letters, digits, '-'
// and '.', starting with a letter.
func isHostName(t string) bool {
	if t == "" || !('a' <= t[0] && t[0] <= 'z' || 'A' <= t[0] && t[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(t); i++ {
		ch := t[i]
		if !('a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '-' || ch == '.') {
			return false
		}
	}
	return true
}
