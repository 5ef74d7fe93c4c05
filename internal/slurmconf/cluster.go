package slurmconf

// This file turns a slurm.conf's nodes and partitions into a cluster of
// node groups (sim/nodes.Config).

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/internal/hostlist"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// Warning is something in a slurm.conf that schedsweep reads otherwise
// than Slurm would, or does not model: what it is, and what is assumed
// instead. Pos is the line it is about; a warning about the whole file has
// Line 0.
type Warning struct {
	Pos  Pos
	Text string
}

func (w Warning) String() string { return fmt.Sprintf("%s: %s", w.Pos, w.Text) }

// host is one node of the file, in file order.
type host struct {
	name string
	line int    // index in Config.Nodes
	in   []bool // by partition (of the ones kept): does it hold the node
}

// Cluster returns the cluster the file's NodeName and PartitionName lines
// describe, placed by first fit in node order, and the warnings of that
// translation.
//
// Nodes: every NodeName line's hosts in file order, then stably sorted by
// Weight (Slurm allocates the lowest weight first); a node with
// State=FUTURE is left out. A node group is a run of consecutive nodes of
// one NodeName line held by the same partitions, so that every partition
// is a union of groups; the group is named by its hosts in hostlist
// notation ("node[001-096]") and names its nodes as the file does
// (nodes.Group.Hosts). Cores are CPUs as Slurm derives them, memory is
// RealMemory MiB, GPUs the Gres gpu count, features Features.
//
// Partitions: Nodes (a hostlist, NodeSet names, or ALL), MaxTime, MaxNodes.
// The default partition (the last with Default=YES, as in Slurm) comes
// first, as sim/nodes takes the first for jobs that name none; the others
// follow in file order. A partition without nodes is left out (its jobs
// are rejected). A file without nodes, or a partition naming a node the
// file does not declare, is an error.
func (c *Config) Cluster() (*nodes.Config, []Warning, error) {
	var warns []Warning
	warn := func(pos Pos, format string, args ...any) {
		warns = append(warns, Warning{pos, fmt.Sprintf(format, args...)})
	}
	if len(c.Nodes) == 0 {
		return nil, nil, &Error{Pos: Pos{File: c.Path}, Err: errors.New("no NodeName line: the file describes no node")}
	}
	var hosts []host
	index := map[string]int{}
	var future []string
	var futurePos Pos
	for i, n := range c.Nodes {
		st := strings.ToUpper(n.State)
		switch {
		case st == "FUTURE":
			if future == nil {
				futurePos = n.Pos
			}
			future = append(future, n.Names...)
			continue
		case st != "" && st != "UNKNOWN" && st != "IDLE":
			warn(n.Pos, "NodeName=%s State=%s: schedsweep assumes every node up", n.Expr, n.State)
		}
		for _, f := range n.Fixed {
			warn(n.Pos, "NodeName=%s: %s", n.Expr, f)
		}
		for _, h := range n.Names {
			index[h] = len(hosts)
			hosts = append(hosts, host{name: h, line: i})
		}
	}
	if len(future) > 0 {
		warn(futurePos, "nodes with State=FUTURE are left out: %s", formatHosts(future))
	}
	if len(hosts) == 0 {
		return nil, warns, &Error{Pos: Pos{File: c.Path}, Err: errors.New("every node has State=FUTURE: the cluster has no node")}
	}
	for _, l := range c.Other {
		if l.Key == "DownNodes" {
			warn(l.Pos, "DownNodes=%s: schedsweep assumes every node up", l.Value)
		}
	}
	parts, pw, err := c.partitionHosts(hosts, index)
	warns = append(warns, pw...)
	if err != nil {
		return nil, warns, err
	}
	slices.SortStableFunc(hosts, func(a, b host) int { return cmp.Compare(c.Nodes[a.line].Weight, c.Nodes[b.line].Weight) })
	cfg := &nodes.Config{Fit: nodes.FirstFit}
	groupOf := make([]string, len(hosts))
	for i := 0; i < len(hosts); {
		j := i + 1
		for j < len(hosts) && hosts[j].line == hosts[i].line && slices.Equal(hosts[j].in, hosts[i].in) {
			j++
		}
		names := make([]string, j-i)
		for k := i; k < j; k++ {
			names[k-i] = hosts[k].name
		}
		n := c.Nodes[hosts[i].line]
		name := formatHosts(names)
		cfg.Groups = append(cfg.Groups, nodes.Group{Name: name, Count: len(names), Cores: n.CPUs,
			Memory: n.RealMemory << 20, GPUs: n.GPUs, Features: n.Features, Hosts: names})
		for k := i; k < j; k++ {
			groupOf[k] = name
		}
		i = j
	}
	for pi, p := range parts {
		np := nodes.Partition{Name: p.Name, MaxTime: sim.Time(p.MaxTime), MaxNodes: int(p.MaxNodes)}
		for k, h := range hosts {
			if h.in[pi] && (len(np.Groups) == 0 || np.Groups[len(np.Groups)-1] != groupOf[k]) {
				np.Groups = append(np.Groups, groupOf[k])
			}
		}
		cfg.Partitions = append(cfg.Partitions, np)
	}
	if _, err := nodes.NewConfig(*cfg); err != nil {
		return nil, warns, &Error{Pos: Pos{File: c.Path}, Err: err}
	}
	return cfg, warns, nil
}

// formatHosts writes names in hostlist notation; names a NodeName line
// expanded always format.
func formatHosts(names []string) string {
	s, err := hostlist.Format(names)
	if err != nil {
		return strings.Join(names, ",")
	}
	return s
}

// partitionHosts resolves each partition's nodes, marking hosts[i].in,
// and returns the partitions kept, the default first.
func (c *Config) partitionHosts(hosts []host, index map[string]int) ([]Partition, []Warning, error) {
	var warns []Warning
	sets := c.nodeSets()
	var kept []Partition
	var members [][]int
	def := -1
	for _, p := range c.Partitions {
		var in []int
		switch {
		case p.AllNodes:
			for i := range hosts {
				in = append(in, i)
			}
		case p.Nodes != "":
			names, err := c.expandNodes(p, sets)
			if err != nil {
				return nil, warns, err
			}
			seen := map[int]bool{}
			for _, h := range names {
				i, ok := index[h]
				if !ok {
					if c.isFuture(h) {
						continue
					}
					return nil, warns, &Error{Pos: p.Pos, Key: "Nodes", Value: p.Nodes,
						Err: fmt.Errorf("partition %s names node %s, which no NodeName line declares", p.Name, h)}
				}
				if !seen[i] {
					seen[i] = true
					in = append(in, i)
				}
			}
		}
		if len(in) == 0 {
			warns = append(warns, Warning{p.Pos, fmt.Sprintf("partition %s has no node: left out, so the jobs submitted to it are rejected", p.Name)})
			continue
		}
		if p.State != "UP" {
			warns = append(warns, Warning{p.Pos, fmt.Sprintf("partition %s State=%s: schedsweep assumes it UP", p.Name, p.State)})
		}
		if p.Default {
			def = len(kept)
		}
		kept = append(kept, p)
		members = append(members, in)
	}
	if def < 0 && len(kept) > 0 {
		warns = append(warns, Warning{kept[0].Pos, fmt.Sprintf("no partition has Default=YES: jobs that name no partition go to the first, %s (Slurm would refuse them)", kept[0].Name)})
		def = 0
	}
	if def > 0 { // the default first, the others in file order
		kept = append(append([]Partition{kept[def]}, kept[:def]...), kept[def+1:]...)
		members = append(append([][]int{members[def]}, members[:def]...), members[def+1:]...)
	}
	for i := range hosts {
		hosts[i].in = make([]bool, len(kept))
	}
	for pi, in := range members {
		for _, i := range in {
			hosts[i].in[pi] = true
		}
	}
	return kept, warns, nil
}

// nodeSets returns the hosts of each NodeSet line (Nodes= a hostlist, or
// Feature= the nodes with that feature), by name.
func (c *Config) nodeSets() map[string][]string {
	sets := map[string][]string{}
	for _, l := range c.Other {
		if l.Key != "NodeSet" {
			continue
		}
		for _, p := range l.More {
			switch lower(p.Key) {
			case "nodes":
				if names, err := hostlist.Expand(p.Value, maxNodes); err == nil {
					sets[l.Value] = append(sets[l.Value], names...)
				}
			case "feature":
				for _, n := range c.Nodes {
					if slices.Contains(n.Features, p.Value) {
						sets[l.Value] = append(sets[l.Value], n.Names...)
					}
				}
			}
		}
	}
	return sets
}

// expandNodes returns the hosts of a partition's Nodes: hostlist items,
// some of which may name node sets.
func (c *Config) expandNodes(p Partition, sets map[string][]string) ([]string, error) {
	names, err := hostlist.Expand(p.Nodes, maxNodes)
	if err != nil {
		return nil, &Error{Pos: p.Pos, Key: "Nodes", Value: p.Nodes, Err: err}
	}
	var out []string
	for _, n := range names {
		if set, ok := sets[n]; ok {
			out = append(out, set...)
		} else {
			out = append(out, n)
		}
	}
	return out, nil
}

// isFuture reports whether h is a node of a State=FUTURE line.
func (c *Config) isFuture(h string) bool {
	for _, n := range c.Nodes {
		if strings.EqualFold(n.State, "FUTURE") && slices.Contains(n.Names, h) {
			return true
		}
	}
	return false
}
