package slurmconf

// This file lists what a slurm.conf says that schedsweep does not model:
// values that would change schedules, each with what is assumed instead,
// and one list of every other option that is read and ignored.

import (
	"fmt"
	"slices"
	"strings"
)

// modelled are the options Cluster and Params read, or warn of by value
// when their value is not the one schedsweep assumes.
var modelled = map[string]bool{
	"NodeName": true, "PartitionName": true, "DownNodes": true, "NodeSet": true,
	"PriorityType": true, "PriorityWeightAge": true, "PriorityWeightFairshare": true, "PriorityWeightJobSize": true,
	"PriorityWeightPartition": true, "PriorityWeightQOS": true, "PriorityMaxAge": true, "PriorityDecayHalfLife": true,
	"PriorityCalcPeriod": true, "PriorityFavorSmall": true, "PriorityFlags": true, "SchedulerType": true,
	"SchedulerParameters": true, "PriorityWeightAssoc": true, "PriorityWeightTRES": true,
	"PriorityUsageResetPeriod": true, "FairShareDampeningFactor": true, "PrioritySiteFactorPlugin": true,
	"SelectType": true, "SelectTypeParameters": true, "PreemptType": true,
}

// modelledNode are the NodeName keys Cluster reads or warns of.
var modelledNode = map[string]bool{
	"CPUs": true, "Procs": true, "Boards": true, "Sockets": true, "SocketsPerBoard": true, "CoresPerSocket": true,
	"ThreadsPerCore": true, "RealMemory": true, "Gres": true, "Feature": true, "Features": true, "Weight": true,
	"State": true, "CoreSpecCount": true, "CPUSpecList": true, "MemSpecLimit": true,
}

// modelledPartition are the PartitionName keys Cluster and Params read or
// warn of.
var modelledPartition = map[string]bool{
	"Nodes": true, "MaxTime": true, "MaxNodes": true, "PriorityJobFactor": true, "PriorityTier": true,
	"Priority": true, "Default": true, "State": true, "OverSubscribe": true, "Shared": true,
}

// Unmodelled returns the warnings about the whole file that neither
// Cluster nor Params gives: options given twice; values that would change
// schedules but are not modelled (SelectType other than
// select/cons_tres or select/cons_res, SelectTypeParameters, PreemptType,
// reserved cores or memory, OverSubscribe), each saying what is assumed;
// and, last, one warning naming every other option schedsweep reads and
// ignores, sorted: top-level options by name, NodeName and
// PartitionName keys as "NodeName:KEY", SchedulerParameters options as
// "SchedulerParameters:name", other generic resources as "Gres:name".
func (c *Config) Unmodelled() []Warning {
	var warns []Warning
	warn := func(pos Pos, format string, args ...any) {
		warns = append(warns, Warning{pos, fmt.Sprintf(format, args...)})
	}
	for _, p := range c.Repeated {
		warn(p.Pos, "%s is given more than once: Slurm takes the last value, %q", p.Key, c.Options[p.Key].Value)
	}
	file := Pos{File: c.Path}
	sel, ok := c.Options["SelectType"]
	switch {
	case !ok:
		warn(file, "no SelectType: Slurm's default select/linear gives each job whole nodes; schedsweep places jobs as the workload's shape says (shape = \"whole-nodes\" matches it)")
	case lower(sel.Value) == "select/linear":
		warn(sel.Pos, "SelectType=select/linear gives each job whole nodes; schedsweep places jobs as the workload's shape says (shape = \"whole-nodes\" matches it)")
	case lower(sel.Value) != "select/cons_tres" && lower(sel.Value) != "select/cons_res":
		warn(sel.Pos, "SelectType=%s: not modelled; schedsweep assumes select/cons_tres", sel.Value)
	}
	if p, ok := c.Options["SelectTypeParameters"]; ok {
		var other []string
		memory := false
		for _, f := range strings.Split(p.Value, ",") {
			switch f = strings.ToUpper(strings.TrimSpace(f)); f {
			case "CR_CORE", "CR_CPU":
			case "CR_CORE_MEMORY", "CR_CPU_MEMORY":
				memory = true
			case "":
			default:
				other = append(other, f)
			}
		}
		if len(other) > 0 {
			warn(p.Pos, "SelectTypeParameters %s: not modelled; schedsweep allocates cores (and memory, when jobs have it) as CR_Core_Memory", strings.Join(other, ", "))
		} else if !memory {
			warn(p.Pos, "SelectTypeParameters=%s does not count memory; schedsweep counts a job's memory when the workload gives it (memory_field = \"none\" matches Slurm)", p.Value)
		}
	}
	if p, ok := c.Options["PreemptType"]; ok && lower(p.Value) != "preempt/none" {
		warn(p.Pos, "PreemptType=%s: preemption is not modelled; schedsweep assumes preempt/none", p.Value)
	}
	for _, n := range c.Nodes {
		for _, k := range []string{"CoreSpecCount", "CPUSpecList", "MemSpecLimit"} {
			if p := pairOf(n.Keys, k); p.Key != "" {
				warn(n.Pos, "NodeName=%s %s=%s: resources kept for the system are not modelled; jobs may use every CPU and all RealMemory", n.Expr, k, p.Value)
			}
		}
	}
	for _, p := range c.Partitions {
		for _, k := range []string{"OverSubscribe", "Shared"} {
			if v := pairOf(p.Keys, k); v.Key != "" && !strings.EqualFold(v.Value, "NO") {
				warn(p.Pos, "partition %s %s=%s: not modelled; schedsweep assumes NO (jobs share a node's free cores, never a core)", p.Name, k, v.Value)
			}
		}
	}
	if list := c.ignored(); len(list) > 0 {
		warn(file, "not modelled, so ignored: %s", strings.Join(list, ", "))
	}
	return warns
}

// pairOf returns the pair of key in pairs, or a zero Pair.
func pairOf(pairs []Pair, key string) Pair {
	for _, p := range pairs {
		if p.Key == key {
			return p
		}
	}
	return Pair{}
}

// ignored returns the sorted names of every option read and ignored.
func (c *Config) ignored() []string {
	seen := map[string]bool{}
	for k := range c.Options {
		if !modelled[k] {
			seen[k] = true
		}
	}
	for _, l := range c.Other {
		if !modelled[l.Key] {
			seen[l.Key] = true
		}
	}
	for _, n := range c.Nodes {
		for _, p := range n.Keys {
			if !modelledNode[p.Key] {
				seen["NodeName:"+p.Key] = true
			}
		}
		for _, g := range n.OtherGres {
			seen["Gres:"+g] = true
		}
	}
	for _, p := range c.Partitions {
		for _, v := range p.Keys {
			if !modelledPartition[v.Key] {
				seen["PartitionName:"+v.Key] = true
			}
		}
	}
	items, _ := c.schedulerItems()
	for _, it := range items {
		if schedulerIndex(it[0]) < 0 {
			seen["SchedulerParameters:"+it[0]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
