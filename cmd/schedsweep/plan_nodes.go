package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// printNodes writes what plan shows of a cluster of nodes: its node
// groups, then its partitions, each with its nodes, cores, memory and
// GPUs; nothing for the aggregate pool.
func printNodes(w io.Writer, c *spec.Cluster) error {
	if c == nil || c.Nodes == nil {
		return nil
	}
	cfg := c.Nodes
	fit := "first fit"
	if cfg.Fit == nodes.BestFit {
		fit = "best fit"
	}
	var count int64
	for _, g := range cfg.Groups {
		count += int64(g.Count)
	}
	fmt.Fprintf(w, "cluster %q: %s, %d cores, %s of memory, %d GPUs; %s\n", c.Name, nouns(int(count), "node"),
		c.Capacity[sim.Procs], bytesText(c.Capacity[sim.Memory]), c.Capacity[sim.GPUs], fit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "node group\tnodes\tcores\tmemory\tgpus\tper node\tfeatures\n")
	for _, g := range cfg.Groups {
		n := int64(g.Count)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d cores, %s, %d GPUs\t%s\n", g.Name, n, n*g.Cores, bytesText(n*g.Memory), n*g.GPUs,
			g.Cores, bytesText(g.Memory), g.GPUs, listText(g.Features))
	}
	if len(cfg.Partitions) > 0 {
		fmt.Fprintln(tw) // a line without cells: the partitions align on their own
		fmt.Fprintf(tw, "partition\tnodes\tcores\tmemory\tgpus\tlimits\tnode groups\n")
		for i, p := range cfg.Partitions {
			var n, cores, mem, gpus int64
			var held []string
			for _, g := range cfg.Groups {
				if len(p.Groups)+len(p.Features) == 0 || slices.Contains(p.Groups, g.Name) || containsAny(g.Features, p.Features) {
					k := int64(g.Count)
					n, cores, mem, gpus = n+k, cores+k*g.Cores, mem+k*g.Memory, gpus+k*g.GPUs
					held = append(held, g.Name)
				}
			}
			name := p.Name
			if i == 0 {
				name += " (default)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\t%s\n", name, n, cores, bytesText(mem), gpus, limitsText(p), strings.Join(held, ", "))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// bytesText writes a memory size in binary units, "505 GiB", "1.5 TiB";
// "0" for none.
func bytesText(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(b), 0
	for v >= 1024 && u < len(units)-1 {
		v, u = v/1024, u+1
	}
	if b == 0 {
		return "0"
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + units[u]
}

func listText(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, ", ")
}

func limitsText(p nodes.Partition) string {
	var l []string
	if p.MaxTime > 0 {
		l = append(l, fmt.Sprintf("max_time %d s", p.MaxTime))
	}
	if p.MaxNodes > 0 {
		l = append(l, fmt.Sprintf("max_nodes %d", p.MaxNodes))
	}
	return listText(l)
}

func containsAny(have, want []string) bool {
	return slices.ContainsFunc(want, func(w string) bool { return slices.Contains(have, w) })
}
