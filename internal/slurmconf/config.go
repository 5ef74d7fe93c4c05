package slurmconf

// This file turns the lines of a slurm.conf into its options, node lines
// and partition lines, with NodeName=DEFAULT and PartitionName=DEFAULT
// applied as src/common/read_config.c applies them (_parse_nodename,
// _parse_partitionname).

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/internal/hostlist"
)

// maxNodes bounds the nodes a file may declare, so that a typo such as
// node[1-99999999] is an error rather than a huge allocation.
const maxNodes = 1 << 20

// Config is a slurm.conf as read: its options, node lines and partition
// lines in file order, includes followed.
type Config struct {
	// Path is the file read ("" for Parse's name).
	Path string
	// Options holds the last value of each simple option (neither
	// NodeName nor PartitionName), by its spelling in Slurm.
	Options map[string]Pair
	// Repeated lists the options given more than once; Slurm takes the
	// last value.
	Repeated []Pair
	// Other holds the lines of DownNodes, NodeSet, FrontendName and
	// SlurmctldHost.
	Other      []Line
	Nodes      []Node
	Partitions []Partition
}

// Node is a NodeName line (not DEFAULT), with the keys of the
// NodeName=DEFAULT lines above it that it does not set itself.
type Node struct {
	Pos Pos
	// Expr is the NodeName value; Names its hosts, in the order written.
	Expr  string
	Names []string
	// CPUs as Slurm derives them: CPUs= (or Procs=) if it agrees with the
	// sockets, cores and threads, else Sockets × CoresPerSocket ×
	// ThreadsPerCore, Sockets being Boards × SocketsPerBoard when that is
	// given.
	CPUs int64
	// RealMemory in megabytes (MiB); Slurm's default is 1.
	RealMemory int64
	// GPUs from Gres (gpu:N, gpu:TYPE:N); OtherGres names the other
	// generic resources.
	GPUs      int64
	OtherGres []string
	Features  []string
	// Weight orders the nodes for allocation (lowest first); Slurm's
	// default is 1.
	Weight int64
	// State is the State= value ("" when not given).
	State string
	// Keys are every key that applies to the line, its own or a
	// default's, sorted.
	Keys []Pair
	// Fixed notes what Slurm corrected (CPUs that match no product of
	// sockets, cores and threads).
	Fixed []string
}

// Partition is a PartitionName line (not DEFAULT), with the keys of the
// PartitionName=DEFAULT lines above it that it does not set itself.
type Partition struct {
	Pos  Pos
	Name string
	// Nodes is the Nodes= hostlist ("" for none); AllNodes is Nodes=ALL.
	Nodes    string
	AllNodes bool
	// MaxTime and DefaultTime in seconds, whole minutes as Slurm keeps
	// them; 0: UNLIMITED or not given.
	MaxTime, DefaultTime int64
	// MaxNodes is the most nodes of a job; 0: UNLIMITED or not given.
	MaxNodes int64
	// PriorityJobFactor and PriorityTier, 1 by default (Priority= sets
	// both, as in Slurm).
	PriorityJobFactor, PriorityTier int64
	Default                         bool
	// State is UP, DOWN, DRAIN or INACTIVE.
	State string
	Keys  []Pair
}

// Read reads the slurm.conf at path, following Include lines (relative
// paths from the including file's folder, %c for ClusterName).
func Read(path string) (*Config, error) {
	lines, err := readLines(path)
	if err != nil {
		return nil, err
	}
	return decode(path, lines)
}

// ReadFS is Read of a file in fsys (an experiment embedded in the
// binary names its slurm.conf by a path relative to its own folder).
func ReadFS(fsys fs.FS, path string) (*Config, error) {
	lines, err := readLinesFS(fsys, path)
	if err != nil {
		return nil, err
	}
	return decode(path, lines)
}

// Parse reads the text of a slurm.conf named name; an Include line is an
// error wrapping ErrNoInclude.
func Parse(name string, data []byte) (*Config, error) {
	lines, err := parseLines(name, data)
	if err != nil {
		return nil, err
	}
	return decode(name, lines)
}

// decode builds the Config of lines.
func decode(path string, lines []Line) (*Config, error) {
	c := &Config{Path: path, Options: map[string]Pair{}}
	var nodeDefault, partDefault map[string]Pair
	seenHost := map[string]Pos{}
	seenPart := map[string]Pos{}
	total := 0
	for _, l := range lines {
		switch l.Key {
		case "NodeName":
			own, err := subKeys(l, nodeCanon, nodeKeys)
			if err != nil {
				return nil, err
			}
			if strings.EqualFold(l.Value, "DEFAULT") {
				nodeDefault = merge(nodeDefault, own)
				continue
			}
			if strings.EqualFold(l.Value, "ALL") {
				return nil, &Error{Pos: l.Pos, Key: l.Key, Value: l.Value, Err: errors.New("ALL is a reserved word, not a node name")}
			}
			n, err := node(l, own, nodeDefault, maxNodes-total)
			if err != nil {
				return nil, err
			}
			for _, h := range n.Names {
				if p, dup := seenHost[h]; dup {
					return nil, &Error{Pos: l.Pos, Key: l.Key, Value: l.Value, Err: fmt.Errorf("node %s is declared already at %s", h, p)}
				}
				seenHost[h] = l.Pos
			}
			total += len(n.Names)
			c.Nodes = append(c.Nodes, n)
		case "PartitionName":
			own, err := subKeys(l, partitionCanon, partitionKeys)
			if err != nil {
				return nil, err
			}
			if strings.EqualFold(l.Value, "DEFAULT") {
				partDefault = merge(partDefault, own)
				continue
			}
			if p, dup := seenPart[l.Value]; dup {
				return nil, &Error{Pos: l.Pos, Key: l.Key, Value: l.Value, Err: fmt.Errorf("partition %s is declared already at %s", l.Value, p)}
			}
			seenPart[l.Value] = l.Pos
			p, err := partition(l, merge(partDefault, own))
			if err != nil {
				return nil, err
			}
			c.Partitions = append(c.Partitions, p)
		default:
			if lineKeys[l.Key] {
				c.Other = append(c.Other, l)
				continue
			}
			if _, dup := c.Options[l.Key]; dup {
				c.Repeated = append(c.Repeated, l.Pair)
			}
			c.Options[l.Key] = l.Pair
		}
	}
	return c, nil
}

// subKeys returns the pairs after a line's first, by their spelling in
// Slurm; an unknown or repeated key is an error.
func subKeys(l Line, canon map[string]string, known []string) (map[string]Pair, error) {
	m := make(map[string]Pair, len(l.More))
	for _, p := range l.More {
		k, ok := canon[lower(p.Key)]
		if !ok {
			return nil, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value,
				Err: fmt.Errorf("%s lines have no key %s%s", l.Key, p.Key, didYouMean(p.Key, known))}
		}
		if _, dup := m[k]; dup {
			return nil, &Error{Pos: p.Pos, Key: k, Value: p.Value, Err: fmt.Errorf("%s is given twice on this line", k)}
		}
		p.Key = k
		m[k] = p
	}
	return m, nil
}

// merge returns the defaults d with the pairs of own over them.
func merge(d, own map[string]Pair) map[string]Pair {
	m := make(map[string]Pair, len(d)+len(own))
	for k, v := range d {
		m[k] = v
	}
	for k, v := range own {
		m[k] = v
	}
	return m
}

// sortedPairs returns the pairs of m by key.
func sortedPairs(m map[string]Pair) []Pair {
	out := make([]Pair, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Pair) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// uintKey reads key of m as a whole number up to max; def when absent.
// UNLIMITED is an error unless unlimitedOK.
func uintKey(m map[string]Pair, key string, def, max int64, unlimitedOK bool) (int64, error) {
	p, ok := m[key]
	if !ok {
		return def, nil
	}
	v, err := parseUint(p.Value, max)
	if err == nil && v == unlimitedNum && !unlimitedOK {
		err = errors.New("must be a number, not unlimited")
	}
	if err != nil {
		return 0, &Error{Pos: p.Pos, Key: key, Value: p.Value, Err: err}
	}
	return v, nil
}

// node decodes a NodeName line of keys own under the defaults dflt; at
// most room hosts.
func node(l Line, own, dflt map[string]Pair, room int) (Node, error) {
	m := merge(dflt, own)
	n := Node{Pos: l.Pos, Expr: l.Value, Keys: sortedPairs(m)}
	names, err := hostlist.Expand(l.Value, room)
	if err != nil {
		return n, &Error{Pos: l.Pos, Key: l.Key, Value: l.Value, Err: err}
	}
	if len(names) == 0 {
		return n, &Error{Pos: l.Pos, Key: l.Key, Value: l.Value, Err: errors.New("names no node")}
	}
	n.Names = names
	const u16 = math.MaxUint16
	get := func(key string, def int64) (int64, bool, error) {
		_, given := m[key]
		v, err := uintKey(m, key, def, u16, false)
		return v, given, err
	}
	boards, _, err1 := get("Boards", 1)
	cores, _, err2 := get("CoresPerSocket", 1)
	threads, _, err3 := get("ThreadsPerCore", 1)
	sockets, haveSockets, err4 := get("Sockets", 1)
	perBoard, havePerBoard, err5 := get("SocketsPerBoard", 1)
	key := "CPUs"
	if _, ok := m[key]; !ok {
		key = "Procs"
	}
	cpus, haveCPUs, err6 := get(key, 1)
	if err := errors.Join(err1, err2, err3, err4, err5, err6); err != nil {
		return n, firstError(err1, err2, err3, err4, err5, err6)
	}
	// read_config.c resets each zero to 1, with an error message.
	boards, cores, threads, sockets, perBoard, cpus = max(boards, 1), max(cores, 1), max(threads, 1), max(sockets, 1), max(perBoard, 1), max(cpus, 1)
	switch {
	case havePerBoard:
		sockets = boards * perBoard // SocketsPerBoard wins over Sockets
	case haveSockets:
	case haveCPUs && cpus%(cores*threads) == 0 && cpus/(cores*threads) > 0:
		sockets = cpus / (cores * threads)
	default:
		sockets = boards
	}
	if !haveCPUs {
		cpus = sockets * cores * threads
	}
	if cpus != sockets && cpus != sockets*cores && cpus != sockets*cores*threads {
		n.Fixed = append(n.Fixed, fmt.Sprintf("CPUs=%d matches no Sockets (%d), Sockets×CoresPerSocket (%d) or ×ThreadsPerCore (%d): Slurm uses %d",
			cpus, sockets, sockets*cores, sockets*cores*threads, sockets*cores*threads))
		cpus = sockets * cores * threads
	}
	n.CPUs = cpus
	if n.RealMemory, err = uintKey(m, "RealMemory", 1, math.MaxInt64>>20, false); err != nil {
		return n, err
	}
	if n.Weight, err = uintKey(m, "Weight", 1, math.MaxUint32, true); err != nil {
		return n, err
	}
	if n.Weight == unlimitedNum {
		n.Weight = math.MaxUint32 - 1 // as read_config.c keeps INFINITE
	}
	if p, ok := m["Gres"]; ok {
		if n.GPUs, n.OtherGres, err = gpusOf(p.Value); err != nil {
			return n, &Error{Pos: p.Pos, Key: p.Key, Value: p.Value, Err: err}
		}
	}
	var feat Pair
	ok := false
	for _, src := range []map[string]Pair{own, dflt} { // Feature, then Features, own before default, as read_config.c
		for _, k := range []string{"Feature", "Features"} {
			if f, has := src[k]; has && !ok {
				feat, ok = f, true
			}
		}
	}
	if ok {
		for _, f := range strings.Split(feat.Value, ",") {
			if f = strings.TrimSpace(f); f != "" && !slices.Contains(n.Features, f) {
				n.Features = append(n.Features, f)
			}
		}
	}
	n.State = m["State"].Value
	return n, nil
}

func firstError(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// partition decodes a PartitionName line whose keys, defaults applied,
// are m.
func partition(l Line, m map[string]Pair) (Partition, error) {
	p := Partition{Pos: l.Pos, Name: l.Value, Keys: sortedPairs(m), PriorityJobFactor: 1, PriorityTier: 1, State: "UP"}
	var err error
	if v, ok := m["Nodes"]; ok {
		p.Nodes = v.Value
		p.AllNodes = strings.EqualFold(v.Value, "ALL")
	}
	for _, t := range []struct {
		key string
		to  *int64
	}{{"MaxTime", &p.MaxTime}, {"DefaultTime", &p.DefaultTime}} {
		v, ok := m[t.key]
		if !ok {
			continue
		}
		secs, _, err := parseMinutes(v.Value)
		if err != nil {
			return p, &Error{Pos: v.Pos, Key: t.key, Value: v.Value, Err: err}
		}
		*t.to = secs
	}
	if p.MaxNodes, err = uintKey(m, "MaxNodes", 0, math.MaxInt32, true); err != nil {
		return p, err
	}
	if p.MaxNodes == unlimitedNum {
		p.MaxNodes = 0
	}
	// 65534 and 65535 are Slurm's NO_VAL16 and INFINITE16, not factors.
	const maxFactor = math.MaxUint16 - 2
	if p.PriorityJobFactor, err = uintKey(m, "PriorityJobFactor", 1, maxFactor, false); err != nil {
		return p, err
	}
	if p.PriorityTier, err = uintKey(m, "PriorityTier", 1, maxFactor, false); err != nil {
		return p, err
	}
	if _, ok := m["Priority"]; ok { // the old key sets both
		n, err := uintKey(m, "Priority", 1, maxFactor, false)
		if err != nil {
			return p, err
		}
		p.PriorityJobFactor, p.PriorityTier = n, n
	}
	if v, ok := m["Default"]; ok {
		if p.Default, err = parseBool(v.Value); err != nil {
			return p, &Error{Pos: v.Pos, Key: v.Key, Value: v.Value, Err: err}
		}
	}
	if v, ok := m["State"]; ok {
		s := strings.ToUpper(v.Value)
		switch {
		case strings.HasPrefix(s, "DOWN"):
			p.State = "DOWN"
		case strings.HasPrefix(s, "UP"):
			p.State = "UP"
		case strings.HasPrefix(s, "DRAIN"):
			p.State = "DRAIN"
		case strings.HasPrefix(s, "INACTIVE"):
			p.State = "INACTIVE"
		default:
			return p, &Error{Pos: v.Pos, Key: v.Key, Value: v.Value, Err: errors.New("not a partition state (UP, DOWN, DRAIN or INACTIVE)")}
		}
	}
	return p, nil
}
