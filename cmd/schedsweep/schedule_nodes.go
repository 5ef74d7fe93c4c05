package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// writeScheduleSWF writes the schedule res as SWF (workloads.SWFWriter's
// WriteOutcome), after h, the trace's header. A run on nodes (p not nil)
// adds field 19 to every line, as Alea's data sets (wagap-2013) give the
// nodes a job really ran on: the node of each of the job's processors,
// "{3,3,4,4}" for two cores on each of nodes 3 and 4, nodes numbered from
// 1 in node order (the cluster's groups in turn, as results.Placement
// orders them); -1 for a rejected job. A cluster that declares partitions
// adds field 20 too, the job's partition, as Alea's data sets give its
// queue (a name with a blank cannot be a field: an error). A run on the
// pool writes 18 fields as before.
func writeScheduleSWF(w io.Writer, h *workloads.Header, res *sim.Result, p results.Placement) error {
	sw := workloads.NewSWFWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	if p == nil {
		for i := range res.Jobs {
			if err := sw.WriteOutcome(&res.Jobs[i]); err != nil {
				return err
			}
		}
		return sw.Flush()
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	// Each line as WriteOutcome writes it, then field 19.
	pp := partitioned(p)
	var line bytes.Buffer
	lw := workloads.NewSWFWriter(&line)
	bw := bufio.NewWriter(w)
	var b []byte
	for i := range res.Jobs {
		o := &res.Jobs[i]
		line.Reset()
		if err := lw.WriteOutcome(o); err != nil {
			return err
		}
		if err := lw.Flush(); err != nil {
			return err
		}
		b = append(b[:0], bytes.TrimSuffix(line.Bytes(), []byte("\n"))...)
		b = appendField19(append(b, ' '), p.Where(o.Seq))
		if pp != nil {
			name := pp.PartitionOf(&o.Job)
			if strings.ContainsFunc(name, unicode.IsSpace) {
				return fmt.Errorf("job %d: partition %q cannot be an SWF field", o.ID, name)
			}
			b = append(append(b, ' '), name...)
		}
		if _, err := bw.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendField19 appends the SWF field 19 of a job placed on uses: the
// node of every processor, numbered from 1, in braces; -1 for none.
func appendField19(b []byte, uses []nodes.Use) []byte {
	if len(uses) == 0 {
		return append(b, "-1"...)
	}
	b = append(b, '{')
	first := true
	for _, u := range uses {
		for n := u.Node; n < u.Node+u.Nodes; n++ {
			for range u.Cores {
				if !first {
					b = append(b, ',')
				}
				first = false
				b = strconv.AppendInt(b, int64(n)+1, 10)
			}
		}
	}
	return append(b, '}')
}

// partitioned returns p's partitions when it is a cluster that declares
// any (a job that names none runs in its first), else nil.
func partitioned(p results.Placement) results.Partitioned {
	if pp, ok := p.(results.Partitioned); ok && pp.PartitionOf(&sim.Job{}) != "" {
		return pp
	}
	return nil
}

// groupsText describes the utilization of node groups for simulate's
// summary: "a 96.88%, b 81.25% of cores".
func groupsText(rows []results.GroupRow) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = fmt.Sprintf("%s %.2f%%", r.Group, 100*r.Utilization)
	}
	return strings.Join(parts, ", ") + " of cores"
}

// appendCSVField appends s as a CSV field: as it is, or in double quotes
// (quotes doubled) when it holds a comma, a quote or a line break, as
// encoding/csv writes it.
func appendCSVField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}
