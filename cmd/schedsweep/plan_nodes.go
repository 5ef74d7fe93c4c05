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
// GPUs; Alea's clusters for one under Alea's rules (printAleaCluster); nothing
// for the aggregate pool.
func printNodes(w io.Writer, c *spec.Cluster) error {
	if c != nil && c.Compat == spec.CompatAlea && len(c.Alea) > 0 {
		return printAleaCluster(w, c)
	}
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

// printAleaCluster writes what plan shows of a cluster under Alea's node-level
// rules (compat = "alea"): its clusters as Alea reads them from the
// machines file, each with its nodes, cores and memory. Alea knows no
// GPUs and no partitions.
func printAleaCluster(w io.Writer, c *spec.Cluster) error {
	var count, cores, mem int64
	for _, g := range c.Alea {
		n := int64(g.Nodes)
		count, cores, mem = count+n, cores+n*g.CPUs, mem+n*g.Memory
	}
	fmt.Fprintf(w, "cluster %q: %s, %d cores, %s of memory; Alea's node-level rules (compat = %q)\n", c.Name,
		nouns(int(count), "node"), cores, bytesText(mem), spec.CompatAlea)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "alea cluster\tnodes\tcores\tmemory\tper node\n")
	for _, g := range c.Alea {
		n := int64(g.Nodes)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d cores, %s\n", g.Name, n, n*g.CPUs, bytesText(n*g.Memory), g.CPUs, bytesText(g.Memory))
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
