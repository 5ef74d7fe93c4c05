package workloads

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// SacctSWFOptions says how WriteSacctSWF writes a sacct dump.
type SacctSWFOptions struct {
	// Source is the dump's name, for the header.
	Source string
	// Anonymise leaves the names of users and accounts out of the header:
	// the job lines give numbers only, so user 3 is "u3" to whoever reads
	// the file, the same in every job. QOS and partition names stay, for a
	// cluster's partitions match them.
	Anonymise bool
}

// WriteSacctSWF writes the jobs of r as SWF to w: a header saying where
// they came from, what was skipped and why, and, with their numbers, the
// names of the QOS ("Queue:"), partitions ("Partition:"), and, unless
// anonymised, users ("User:") and accounts ("Account:"); then a line per
// job with the 18 standard fields and Alea's fields 19 (−1), 20 (the
// partition's name, −1 when none) and 21 (the node request "N:ppn=P",
// with ":mem=S" and ":gpus=G" per node, −1 for a job whose CPUs do not
// divide evenly over its nodes). SWFReader with SWFOptions{Procs:
// AllocatedProcs, Memory: RequestedMemory, AleaFields: true} reads back
// the records r gives with SacctOptions.Memory; for the jobs whose field
// 21 is −1, memory passes through field 10, rounded up to whole KB per
// processor, and GPUs are lost.
//
// Field by field: 1 JobIDRaw; 2 submit, seconds after the first job's;
// 3 Start − Submit; 4 End − Start; 5 the allocated CPUs; 6, 7 −1; 8 the
// requested CPUs (ReqTRES cpu=, else ReqCPUS), −1 if unknown; 9 the time
// limit in seconds, −1 if UNLIMITED or unknown; 10 memory in KB per
// allocated CPU, rounded up, −1 if none; 11 status; 12 user; 13 account;
// 14 −1; 15 QOS; 16 partition; 17, 18 −1.
func WriteSacctSWF(w io.Writer, r *SacctReader, opt SacctSWFOptions) error {
	if err := r.Read(); err != nil {
		return err
	}
	h, err := r.swfHeader(opt)
	if err != nil {
		return err
	}
	sw := NewSWFWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	var b []byte
	for k := range r.order {
		j := r.ordered(k)
		l := Line{
			JobID: j.id, Submit: j.submit - r.base, Wait: j.start - j.submit, Runtime: j.runtime,
			AllocProcs: j.procs, AvgCPUTime: -1, UsedMemory: -1, ReqProcs: j.reqProcs,
			ReqTime: j.limit, ReqMemory: -1, Status: int64(j.status),
			User: int64(j.user), Group: int64(j.account), App: -1, Queue: int64(j.qos),
			Partition: int64(j.partition), Preceding: -1, Think: -1,
		}
		if l.Wait < 0 || l.Wait > MaxTime {
			l.Wait = -1 // started before its submit (Slurm's clock), or absurdly late
		}
		if j.reqProcs > MaxProcs {
			l.ReqProcs = -1
		}
		if j.mem > 0 {
			l.ReqMemory = ceilDiv(ceilDiv(j.mem, 1024), j.procs)
		}
		if perr := checkLine(&l); perr != nil {
			perr.File, perr.Line = r.name, j.line
			return fmt.Errorf("writing job %d: %w", j.id, perr)
		}
		b = AppendLine(b[:0], l)
		b = append(b, " -1 "...)
		if j.partition > 0 {
			p := r.names[namePartition].list[j.partition-1]
			if p == "-1" || strings.ContainsFunc(p, unicode.IsSpace) {
				return &ParseError{File: r.name, Line: j.line, Err: fmt.Errorf("partition %q cannot be written as SWF field 20, a token other than -1", p)}
			}
			b = append(b, p...)
		} else {
			b = append(b, "-1"...)
		}
		b = append(b, ' ')
		b = appendRequest(b, j.shape(true))
		b = append(b, '\n')
		if _, err := sw.w.Write(b); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// appendRequest appends s as an Alea field-21 request, or −1 for a Tasks
// shape.
func appendRequest(b []byte, s Shape) []byte {
	if s.Nodes == 0 {
		return append(b, "-1"...)
	}
	b = strconv.AppendInt(b, s.Nodes, 10)
	b = append(b, ":ppn="...)
	b = strconv.AppendInt(b, s.PerNode, 10)
	if s.MemPerNode > 0 {
		b = append(b, ":mem="...)
		b = appendSize(b, s.MemPerNode)
	}
	if s.GPUsPerNode > 0 {
		b = append(b, ":gpus="...)
		b = strconv.AppendInt(b, s.GPUsPerNode, 10)
	}
	return b
}

// appendSize appends n bytes in the largest unit that holds it exactly,
// as ParseRequest reads "mem=": "16gb", "4000mb", "17b".
func appendSize(b []byte, n int64) []byte {
	for _, u := range [...]struct {
		s string
		m int64
	}{{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}} {
		if n%u.m == 0 {
			return append(strconv.AppendInt(b, n/u.m, 10), u.s...)
		}
	}
	return append(strconv.AppendInt(b, n, 10), 'b')
}

// swfHeader is the header WriteSacctSWF writes.
func (r *SacctReader) swfHeader(opt SacctSWFOptions) (*Header, error) {
	h := &Header{}
	add := func(k, v string) { h.Entries = append(h.Entries, HeaderEntry{Key: k, Value: v}) }
	add("Version", "2.2")
	src := opt.Source
	if src == "" {
		src = r.name
	}
	add("Conversion", "schedsweep trace import sacct, from the sacct dump "+src)
	add("MaxJobs", strconv.Itoa(len(r.order)))
	add("MaxRecords", strconv.Itoa(len(r.order)))
	if len(r.order) > 0 {
		start := time.Unix(r.base, 0).In(r.location())
		add("UnixStartTime", strconv.FormatInt(r.base, 10))
		add("TimeZoneString", r.location().String())
		add("StartTime", start.Format("Mon Jan 2 15:04:05 MST 2006"))
	}
	names := r.names
	add("MaxQueues", strconv.Itoa(len(names[nameQOS].list)))
	add("MaxPartitions", strconv.Itoa(len(names[namePartition].list)))
	notes := []string{
		"Fields 19 to 21 are Alea's: 20 is the partition's name, 21 the node request N:ppn=P[:mem=S][:gpus=G] per node (read with alea_fields).",
		"Queue numbers (field 15) are QOS; group numbers (field 13) accounts; job numbers JobIDRaw.",
	}
	if r.het > 0 {
		notes = append(notes, fmt.Sprintf("%d components of heterogeneous jobs are kept as jobs of their own.", r.het))
	}
	var skips []string
	for _, c := range r.skipped {
		if c.Lines > 0 {
			skips = append(skips, fmt.Sprintf("%s: %d (first: line %d)", c.Reason, c.Lines, c.First))
		}
	}
	if len(skips) > 0 {
		notes = append(notes, "Lines skipped: "+strings.Join(skips, "; ")+".")
	}
	if opt.Anonymise {
		notes = append(notes, "User and account names are left out (--anonymise).")
	}
	for _, n := range notes {
		add("Note", n)
	}
	for _, x := range [...]struct {
		key  string
		kind int
		hide bool
	}{{"Queue", nameQOS, false}, {"Partition", namePartition, false}, {"User", nameUser, opt.Anonymise}, {"Account", nameAccount, opt.Anonymise}} {
		if x.hide {
			continue
		}
		for i, n := range names[x.kind].list {
			add(x.key, strconv.Itoa(i+1)+" "+n)
		}
	}
	if err := h.derive(); err != nil {
		return nil, err
	}
	return h, nil
}
