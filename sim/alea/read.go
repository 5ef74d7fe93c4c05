package alea

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// ReadOptions says how Read turns a data set's lines into jobs.
type ReadOptions struct {
	// DataSet is the data set's name as Alea is given it
	// ("wagap-2013.swf"). Alea keys rules on substrings of it: "wagap"
	// adds the cluster exclusions for large ppn; "zewura", "wagap",
	// "meta" and "ncbr" read field 10 in bytes and field 20 as the
	// queue; "wagap", "meta", "ncbr" and "fairshare" read field 21 for
	// ppn. Read accepts only names that select that field-21 reading.
	DataSet string
	// MaxPE is the processor count of the largest cluster: a job asking
	// more has its processor count cut to it, as Alea does (counted in
	// Trace.Capped). 0 cuts nothing.
	MaxPE int64
}

// Trace is a data set read as Alea reads it.
type Trace struct {
	// Jobs are the records in file order; see Read for each field.
	Jobs []sim.Record
	// Props is each job's request string as Alea keeps it (field 21 with
	// the data set's added exclusions), by job id: Options.Props of New.
	Props map[sim.JobID]string
	// Dropped lists the lines Alea skips (fewer than 5 fields, or a
	// literal -1 in field 2, 4 or 5), by line number from 1.
	Dropped []int
	// Capped counts the jobs whose processor count was cut to MaxPE;
	// Raised the jobs whose field 5 was below ppn and raised to it;
	// BadProcs the jobs whose field 5 is not an integer, which Alea
	// reads as 1 processor; ShortTimes the jobs whose run time or limit
	// was below 1 s and raised to it; NoMemory the jobs whose field 10 is
	// -1, which Alea reads as 1 KB.
	Capped, Raised, BadProcs, ShortTimes, NoMemory int
}

// Read reads the SWF lines of a wagap-style data set (21 fields: SWF's
// 18, the nodes run on, the queue, the node request) and returns its
// jobs as Alea's SWFLoader (commit a3315f0, wagap/meta branch) makes
// them; name prefixes every error, which names the line and field and
// quotes the value. Blank lines and lines starting with ';' are skipped.
//
// Each record gets:
//
//   - ID field 1, Submit field 2, User field 12, Group field 13, Status
//     field 11; Queue, Partition, Preceding and Think -1: field 17 (a
//     dependency since Alea 2020) is ignored, as older Alea did.
//   - Runtime max(1, field 4) and Estimate max(1, field 9 cut at the
//     dot), field 9 below 0 replaced by field 4 first; the machine holds
//     a job's nodes for min(Runtime, Estimate) + 1 s.
//   - ppn from the last "ppn=" token of field 21 (split at ':'), cut at
//     '#' and at '.'; a token holding '+' (a request of several chunks)
//     ends the search. With a ppn, field 5 below it is raised to it and
//     the job asks field 5 ÷ ppn nodes (integer quotient) of ppn
//     processors; without, one node of field 5 processors. Need[Procs]
//     is nodes × ppn; the N: count of field 21 is never read.
//   - memory per node field 10 bytes ÷ 1024 rounded to whole KB (−1 is 1
//     KB), kept as that many KB × 1024 bytes in Shape.MemPerNode;
//     Need[Memory] is nodes × that.
//   - Shape.Exclusive when "excl" occurs anywhere in the request.
//
// A job whose fields 1, 2, 4, 9 or 10 are not integers, or whose ppn
// is not one, is an error (Alea stops there with an exception).
func Read(r io.Reader, name string, opt ReadOptions) (*Trace, error) {
	ds := opt.DataSet
	if !containsAny(ds, "wagap", "meta", "ncbr", "fairshare") || strings.Contains(ds, "2019m.") {
		return nil, fmt.Errorf("%s: data set %q: compat alea reads the wagap-style data sets only (a name containing wagap, meta, ncbr or fairshare)", name, ds)
	}
	t := &Trace{Props: map[sim.JobID]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == ';' {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 5 || f[1] == "-1" || f[3] == "-1" || f[4] == "-1" {
			t.Dropped = append(t.Dropped, n)
			continue
		}
		rec, props, err := t.job(f, opt)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if _, dup := t.Props[rec.ID]; dup {
			return nil, fmt.Errorf("%s:%d: field 1 (job id): %q repeats an earlier job's id", name, n, f[0])
		}
		t.Props[rec.ID] = props
		t.Jobs = append(t.Jobs, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}

// job turns one line's fields into a record and its request string.
func (t *Trace) job(f []string, opt ReadOptions) (sim.Record, string, error) {
	if len(f) < 21 {
		return sim.Record{}, "", fmt.Errorf("has %d fields, want 21 (SWF's 18, nodes ran on, queue, node request)", len(f))
	}
	num := func(k int, s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("field %d: %q is not an integer", k, f[k-1])
		}
		return v, nil
	}
	var v [13]int64
	for _, k := range []int{1, 2, 4, 10} {
		x, err := num(k, f[k-1])
		if err != nil {
			return sim.Record{}, "", err
		}
		v[k] = x
	}
	limit, err := num(9, strings.SplitN(f[8], ".", 2)[0])
	if err != nil {
		return sim.Record{}, "", err
	}
	procs, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil {
		procs = 1 // Alea's NumberFormatException branch
		t.BadProcs++
	}
	if opt.MaxPE > 0 && procs > opt.MaxPE {
		procs = opt.MaxPE
		t.Capped++
	}
	if limit < 0 {
		limit = v[4]
	}
	ds := opt.DataSet
	queue := f[14]
	kb := v[10]
	if kb == -1 {
		kb = 1
		t.NoMemory++
	} else if containsAny(ds, "zewura", "wagap", "meta", "ncbr") {
		kb = int64(math.Floor(float64(kb)/1024 + 0.5)) // Java's Math.round
		queue = f[19]
	}
	props := f[20]
	ppn, err := requestPPN(props)
	if err != nil {
		return sim.Record{}, "", fmt.Errorf("field 21 (node request): %q: %w", props, err)
	}
	nodes := int64(1)
	switch {
	case ppn == -1: // none found
		ppn = procs
	case ppn < 1:
		return sim.Record{}, "", fmt.Errorf("field 21 (node request): %q: ppn %d is not positive", props, ppn)
	default:
		if procs < ppn {
			procs = ppn
			t.Raised++
		}
		nodes = procs / ppn
	}
	if strings.Contains(ds, "wagap") {
		if ppn > 8 {
			props += ":^cl_zigur"
		}
		if ppn > 12 {
			props += ":^cl_zegox"
		}
		if ppn > 16 {
			props += ":^cl_zapat"
		}
	}
	switch {
	case queue == "backfill" && strings.Contains(ds, "meta"):
		props += ":^cl_manwe:^cl_mandos:^cl_skirit:^cl_ramdal:^cl_haldir:^cl_gram"
	case queue == "mikroskop" || queue == "quark":
		props += ":cl_quark"
	}
	if strings.Contains(queue, "ncbr") {
		props += ":cl_perian"
	}
	if kb < 0 || kb > math.MaxInt64/1024/max(nodes, 1) || nodes > math.MaxInt32 || ppn > math.MaxInt32 {
		return sim.Record{}, "", fmt.Errorf("field 10 (requested memory) %q or field 5 (processors) %q is out of range", f[9], f[4])
	}
	mem := kb * 1024
	if v[4] < 1 || limit < 1 {
		t.ShortTimes++
	}
	rec := sim.Record{
		Job: sim.Job{
			ID: sim.JobID(v[1]), User: intOr(f[11]), Group: intOr(f[12]), Queue: -1, Partition: -1,
			Submit: sim.Time(v[2]), Estimate: sim.Time(max(1, limit)),
			Shape: sim.Shape{Nodes: int32(nodes), PerNode: int32(ppn), Exclusive: strings.Contains(props, "excl"),
				MemPerNode: mem},
		},
		Runtime: sim.Time(max(1, v[4])), Status: sim.Status(intOr(f[10])), Preceding: -1, Think: -1,
	}
	rec.Need[sim.Procs] = nodes * ppn
	rec.Need[sim.Memory] = nodes * mem
	return rec, props, nil
}

// requestPPN returns the ppn of a field-21 request as Alea's loader finds
// it, or -1 when it finds none (a literal ppn=-1 reads as none there too).
func requestPPN(req string) (int64, error) {
	ppn := int64(-1)
	for _, tok := range strings.Split(req, ":") {
		if !strings.Contains(tok, "ppn=") {
			continue
		}
		s := strings.ReplaceAll(tok, "ppn=", "")
		s, _, _ = strings.Cut(s, "#")
		s, _, _ = strings.Cut(s, ".")
		if strings.Contains(s, "+") {
			break
		}
		if s == "1cl_zewura" {
			ppn = 1
			continue
		}
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, fmt.Errorf("ppn %q is not an integer", s)
		}
		ppn = v
	}
	return ppn, nil
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// intOr parses s as an int32, -1 if it is not one.
func intOr(s string) int32 {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return -1
	}
	return int32(v)
}
