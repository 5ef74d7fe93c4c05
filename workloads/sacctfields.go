package workloads

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/schedsweep/schedsweep/sim"
)

// sacctCols locates the columns the reader uses in a dump's header line,
// each a 0-based index or −1 when absent.
type sacctCols struct {
	jobIDRaw, jobID, user, account, partition, qos        int
	submit, start, end, elapsedRaw, timelimitRaw, timeLim int
	state, nnodes, ncpus, reqCPUs, reqNodes, reqMem       int
	reqTRES, allocTRES, nodeList                          int

	names    []string // every column, as the header spells it
	trailing bool     // --parsable: every line ends with a '|'
}

// sacctRequired are the columns a dump must have; it must also have one of
// sacctCPUColumns.
var (
	sacctRequired   = []string{"JobIDRaw", "JobID", "State", "Submit", "Start", "End"}
	sacctCPUColumns = []string{"AllocTRES", "NCPUS", "ReqTRES", "ReqCPUS"}
)

// readHeader reads the first non-empty line as the column names.
func (r *SacctReader) readHeader() error {
	for {
		b, err := r.readLine()
		if err == io.EOF {
			return &ParseError{File: r.name, Err: errors.New("the dump is empty: want a header line naming the columns (run sacct without --noheader)")}
		}
		if err != nil {
			return err
		}
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		return r.header(string(b))
	}
}

// header locates the columns in the header line h.
func (r *SacctReader) header(h string) error {
	c := &r.cols
	if strings.HasSuffix(h, "|") {
		c.trailing = true
		h = h[:len(h)-1]
	}
	c.names = strings.Split(h, "|")
	at := map[string]*int{
		"jobidraw": &c.jobIDRaw, "jobid": &c.jobID, "user": &c.user, "account": &c.account,
		"partition": &c.partition, "qos": &c.qos, "submit": &c.submit, "start": &c.start, "end": &c.end,
		"elapsedraw": &c.elapsedRaw, "timelimitraw": &c.timelimitRaw, "timelimit": &c.timeLim,
		"state": &c.state, "nnodes": &c.nnodes, "ncpus": &c.ncpus, "reqcpus": &c.reqCPUs,
		"reqnodes": &c.reqNodes, "reqmem": &c.reqMem, "reqtres": &c.reqTRES, "alloctres": &c.allocTRES,
		"nodelist": &c.nodeList,
	}
	for _, p := range at {
		*p = -1
	}
	for i, n := range c.names {
		if p, ok := at[strings.ToLower(strings.TrimSpace(n))]; ok && *p < 0 {
			*p = i
		}
	}
	var missing []string
	for _, n := range sacctRequired {
		if *at[strings.ToLower(n)] < 0 {
			missing = append(missing, n)
		}
	}
	if c.allocTRES < 0 && c.ncpus < 0 && c.reqTRES < 0 && c.reqCPUs < 0 {
		missing = append(missing, "one of "+columnList(sacctCPUColumns))
	}
	if len(missing) > 0 {
		return &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("the header lacks %s (a sacct dump needs %s and one of %s; is this sacct --parsable2 output?)",
			columnList(missing), columnList(sacctRequired), columnList(sacctCPUColumns))}
	}
	return nil
}

// fail is the error of column k's value on the current line.
func (r *SacctReader) fail(k int, err error) *ParseError {
	return &ParseError{File: r.name, Line: r.line, Field: k + 1, Name: r.cols.names[k], Err: err}
}

// parse reads one line after the header.
func (r *SacctReader) parse(b []byte) error {
	c := &r.cols
	if c.trailing {
		if b[len(b)-1] != '|' {
			return &ParseError{File: r.name, Line: r.line, Err: errors.New("does not end with '|' as the header does")}
		}
		b = b[:len(b)-1]
	}
	f := r.split(b)
	if len(f) != len(c.names) {
		return &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("has %d fields, the header %d", len(f), len(c.names))}
	}
	jobID := f[c.jobID]
	switch {
	case bytes.IndexByte(jobID, '.') >= 0:
		r.skip(SkipStep, -1)
		return nil
	case bytes.Contains(jobID, []byte("_[")):
		r.skip(SkipPendingArray, -1)
		return nil
	case len(jobID) == 0:
		return r.fail(c.jobID, errors.New("is empty"))
	}
	id, err := parseUint(f[c.jobIDRaw])
	if err != nil {
		return r.fail(c.jobIDRaw, err)
	}
	state, status, err := parseState(f[c.state])
	if err != nil {
		return r.fail(c.state, err)
	}
	if prev, ok := r.seen[id]; ok {
		// --duplicates: an earlier record of this job, replaced by this one.
		if prev.at >= 0 {
			r.job(prev.at).dead = true
		} else if c := &r.skipped[-1-prev.at]; c.Lines > 1 {
			c.Lines--
		} else {
			*c = SacctCount{}
		}
		r.count(SkipDuplicate, int(prev.line))
	}
	if state != sacctRan {
		r.skip(SacctSkip(state), id)
		return nil
	}
	j := sacctJob{id: id, line: r.line, status: status, reqProcs: -1, limit: -1}
	if j.submit, err = r.time(f, c.submit, true); err != nil {
		return err
	}
	if j.start, err = r.time(f, c.start, false); err != nil {
		return err
	}
	end, err := r.time(f, c.end, false)
	if err != nil {
		return err
	}
	if j.start < 0 || c.allocTRES >= 0 && len(f[c.allocTRES]) == 0 ||
		c.nodeList >= 0 && string(f[c.nodeList]) == "None assigned" {
		if bytes.HasPrefix(f[c.state], []byte("CANCELLED")) {
			r.skip(SkipCancelledBeforeStart, id)
		} else {
			r.skip(SkipNeverStarted, id)
		}
		return nil
	}
	switch {
	case end >= 0 && end < j.start:
		return r.fail(c.end, fmt.Errorf("%q is before the start %q", f[c.end], f[c.start]))
	case end >= 0:
		j.runtime = end - j.start
	case c.elapsedRaw >= 0:
		if j.runtime, err = parseUint(f[c.elapsedRaw]); err != nil {
			return r.fail(c.elapsedRaw, err)
		}
	default:
		r.skip(SkipNoEnd, id)
		return nil
	}
	if j.runtime > MaxTime {
		return r.fail(c.end, fmt.Errorf("run time %d s is %w of %d s", j.runtime, ErrOverBound, int64(MaxTime)))
	}
	if err := r.resources(f, &j); err != nil {
		return err
	}
	if j.procs < 1 {
		r.skip(SkipNoCPUs, id)
		return nil
	}
	part := r.opt.PartitionLimits
	var partName []byte
	if c.partition >= 0 {
		partName = f[c.partition]
	}
	if j.limit, err = r.limit(f, partName, part); err != nil {
		return err
	}
	for _, x := range [...]struct {
		col  int
		kind int
		dst  *int32
	}{{c.user, nameUser, &j.user}, {c.account, nameAccount, &j.account}, {c.qos, nameQOS, &j.qos}, {c.partition, namePartition, &j.partition}} {
		*x.dst = -1
		if x.col >= 0 {
			if i := bytes.IndexFunc(f[x.col], unicode.IsControl); i >= 0 {
				return r.fail(x.col, fmt.Errorf("%q has a control character", clipValue(string(f[x.col]))))
			}
			*x.dst = r.names[x.kind].id(f[x.col])
		}
	}
	j.het = bytes.IndexByte(jobID, '+') >= 0
	if r.kept >= math.MaxInt32 {
		return &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("more than %d job lines", math.MaxInt32)}
	}
	r.seen[id] = seenJob{at: r.add(&j), line: int32(r.line)}
	return nil
}

// skip counts the current line as skipped for reason s; id ≥ 0 is the job
// it belongs to, for a later record of the same job to replace.
func (r *SacctReader) skip(s SacctSkip, id int64) {
	r.count(s, r.line)
	if id >= 0 {
		r.seen[id] = seenJob{at: -1 - int32(s), line: int32(r.line)}
	}
}

// count counts line as skipped for reason s.
func (r *SacctReader) count(s SacctSkip, line int) {
	c := &r.skipped[s]
	c.Reason = s
	if c.First == 0 || line < c.First {
		c.First = line
	}
	c.Lines++
}

// sacctRan is parseState's kind for a job in a final state after which it
// may have run; the other kinds are SacctSkip reasons.
const sacctRan = SacctSkip(255)

// parseState reads a State value: the kind of record and, for one that
// ran, its SWF status. "CANCELLED by 1234" names who cancelled.
func parseState(b []byte) (SacctSkip, int8, error) {
	s := string(b)
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	switch s {
	case "COMPLETED":
		return sacctRan, 1, nil
	case "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE":
		return sacctRan, 0, nil
	case "CANCELLED", "PREEMPTED":
		return sacctRan, 5, nil
	case "PENDING", "RESV_DEL_HOLD":
		return SkipPending, 0, nil
	case "RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING", "STAGE_OUT", "SIGNALING", "RESIZING", "STOPPED":
		return SkipRunning, 0, nil
	case "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "SPECIAL_EXIT":
		return SkipRequeued, 0, nil
	case "REVOKED":
		return SkipRevoked, 0, nil
	}
	return 0, 0, fmt.Errorf("%q is not a Slurm job state", clipValue(string(b)))
}

// time reads time column k as Unix seconds in the reader's zone: −1 for
// "Unknown" or "None" (or empty), which is an error when required.
func (r *SacctReader) time(f [][]byte, k int, required bool) (int64, error) {
	b := f[k]
	if len(b) == 0 || string(b) == "Unknown" || string(b) == "None" {
		if required {
			return 0, r.fail(k, fmt.Errorf("%q: the time is required", b))
		}
		return -1, nil
	}
	t, ok := parseSlurmTime(b, r.location())
	if !ok {
		return 0, r.fail(k, fmt.Errorf("%q is not a time YYYY-MM-DDTHH:MM:SS (sacct's standard SLURM_TIME_FORMAT)", clipValue(string(b))))
	}
	return t, nil
}

// parseSlurmTime reads "2023-01-15T10:20:30" (strftime "%FT%T", what
// slurm_make_time_str prints by default) in loc.
func parseSlurmTime(b []byte, loc *time.Location) (int64, bool) {
	if len(b) != 19 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	var v [6]int
	for i, span := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		for _, ch := range b[span[0]:span[1]] {
			if ch < '0' || ch > '9' {
				return 0, false
			}
			v[i] = v[i]*10 + int(ch-'0')
		}
	}
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > daysIn(v[0], v[1]) || v[3] > 23 || v[4] > 59 || v[5] > 60 {
		return 0, false
	}
	return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, loc).Unix(), true
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// limit reads the time limit in seconds: TimelimitRaw (minutes) if the dump
// has it, else Timelimit ([D-]HH:MM:SS); −1 when there is none, for
// UNLIMITED, and for Partition_Limit unless limits gives the partition's.
func (r *SacctReader) limit(f [][]byte, part []byte, limits map[string]sim.Time) (int64, error) {
	c := &r.cols
	k := c.timelimitRaw
	if k < 0 {
		k = c.timeLim
	}
	if k < 0 {
		return -1, nil
	}
	b := f[k]
	switch string(b) {
	case "", "UNLIMITED":
		return -1, nil
	case "Partition_Limit":
		if l, ok := limits[string(part)]; ok {
			return int64(l), nil
		}
		return -1, nil
	}
	var secs int64
	var err error
	if k == c.timelimitRaw {
		var m int64
		if m, err = parseUint(b); err == nil {
			if m > MaxTime/60 {
				err = fmt.Errorf("%q minutes is %w of %d s", b, ErrOverBound, int64(MaxTime))
			}
			secs = m * 60
		}
	} else {
		secs, err = parseDuration(b)
	}
	if err != nil {
		return 0, r.fail(k, err)
	}
	return secs, nil
}

// parseDuration reads a Slurm duration as mins2time_str prints it:
// [days-]hours:minutes:seconds, or minutes:seconds.
func parseDuration(b []byte) (int64, error) {
	s := string(b)
	bad := fmt.Errorf("%q is not a time limit [D-]HH:MM:SS, UNLIMITED or Partition_Limit", clipValue(s))
	var days int64
	if d, rest, ok := strings.Cut(s, "-"); ok {
		v, err := parseUint([]byte(d))
		if err != nil || v > MaxTime/86400 {
			return 0, bad
		}
		days, s = v, rest
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	var secs int64
	for i, p := range parts {
		v, err := parseUint([]byte(p))
		if err != nil || i > 0 && (len(p) > 2 || v > 59) || v > MaxTime {
			return 0, bad
		}
		secs = secs*60 + v
	}
	secs += days * 86400
	if secs > MaxTime {
		return 0, fmt.Errorf("%q is %w of %d s", s, ErrOverBound, int64(MaxTime))
	}
	return secs, nil
}

// parseUint reads a non-negative decimal integer.
func parseUint(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, errors.New("is empty")
	}
	var v int64
	for _, ch := range b {
		if ch < '0' || ch > '9' {
			return 0, fmt.Errorf("%q is not a non-negative integer", clipValue(string(b)))
		}
		if v > (math.MaxInt64-9)/10 {
			return 0, fmt.Errorf("%q is out of range", clipValue(string(b)))
		}
		v = v*10 + int64(ch-'0')
	}
	return v, nil
}
