package workloads

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/bits"

	"github.com/schedsweep/schedsweep/sim"
)

// ProcsField selects the SWF field that gives a job's processors.
type ProcsField uint8

const (
	// RequestedProcs takes field 8 (requested processors) if it is positive,
	// else field 5 (allocated processors) if that is positive, else 0. This
	// is the default, and what a scheduler would have seen.
	RequestedProcs ProcsField = iota
	// AllocatedProcs takes field 5 if it is positive, else 0.
	AllocatedProcs
)

// MemoryField selects the SWF field that gives a job's memory.
type MemoryField uint8

const (
	// NoMemory leaves Need[sim.Memory] at 0. Default.
	NoMemory MemoryField = iota
	// RequestedMemory takes field 10 (requested memory).
	RequestedMemory
	// UsedMemory takes field 7 (used memory), rounded up to whole bytes.
	UsedMemory
)

// MemoryUnit says what the number in a memory field means.
type MemoryUnit uint8

const (
	// KBPerProc is the SWF standard: kilobytes per processor, so a job needs
	// value × 1024 × processors bytes (processors as ProcsField gives them).
	// Default.
	KBPerProc MemoryUnit = iota
	// BytesPerJob is the unit of Alea's data sets (wagap, zewura): bytes for
	// the whole job.
	BytesPerJob
	// KBPerJob is kilobytes for the whole job. METACENTRUM-2009-2's used
	// memory (field 7) reads best as this: the PWA page lists the original
	// log's field as "Memory used (KB)", one record per job, and read per
	// processor the SWF's 16-processor jobs would have used up to 939 GiB
	// each, while read per job they use at most 59 GiB, a 16-core node's
	// worth; mean use grows with width (0.25 GB serial, 1.8 GB at 8-31
	// processors) as totals do (TestMetacentrumMemoryPerJob). An inference
	// from the data, not the converter's word.
	KBPerJob
)

// ProcsFieldNames returns the names experiment files and the command line
// give the ProcsField values, indexed by value: ProcsField(i) is called
// ProcsFieldNames()[i].
func ProcsFieldNames() []string {
	return []string{RequestedProcs: "requested", AllocatedProcs: "allocated"}
}

// MemoryFieldNames returns the names of the MemoryField values, indexed by
// value.
func MemoryFieldNames() []string {
	return []string{NoMemory: "none", RequestedMemory: "requested", UsedMemory: "used"}
}

// MemoryUnitNames returns the names of the MemoryUnit values, indexed by
// value.
func MemoryUnitNames() []string {
	return []string{KBPerProc: "kb-per-proc", BytesPerJob: "bytes-per-job", KBPerJob: "kb-per-job"}
}

// SWFOptions says how SWF fields map to a job's needs. The zero value is
// the standard reading: requested processors, no memory.
type SWFOptions struct {
	Procs      ProcsField
	Memory     MemoryField
	MemoryUnit MemoryUnit // ignored when Memory is NoMemory
	// NegativeAsMissing reads a negative value other than -1 in any field
	// but the submit time as -1, missing, instead of failing with a
	// *ParseError; SWFReader.Repaired lists each such value. Off by default.
	// wagap-2013 needs it: two of its jobs (lines 4186 and 4200) have run
	// time −(submit time + 1). Such a job then has no run time, and the
	// engine rejects and counts it.
	NegativeAsMissing bool
	// Shape maps a job's processors to its sim.Shape for a machine of
	// nodes: tasks (the zero value: the pool's request), whole nodes or
	// K per node (ShapeMode.Shape); under per-node:K, Need[Procs] becomes
	// the processors the nodes hold. Models without nodes ignore shapes.
	Shape ShapeMode
	// AleaFields reads fields 20 (queue: the job's partition) and 21
	// (node request) of Alea's data sets where a line has them: a request
	// replaces Shape's mapping for its job (see swfshape.go).
	AleaFields bool
}

const (
	bufSize = 64 << 10
	// MaxLineLen is the longest line an SWF file may have, in bytes; a
	// longer one is a *ParseError naming its line. The longest line of the
	// shared traces is 1,375 bytes, a wagap-2013 job line whose Alea
	// extension lists the job's processors one by one; a job on 40,000
	// processors written so takes 200 KB (TestReaderFraming reads one). A
	// MiB is five times that and reads in about a millisecond, so a file
	// with no line breaks fails at once instead of filling memory.
	MaxLineLen = 1 << 20
	// sniffLen is how much of the start of a stream the reader checks for
	// binary content.
	sniffLen = 512
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte-order mark some
// editors put at the start of a text file.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// SWFReader reads an SWF stream, plain or gzip-compressed, as a sim.Source.
// It reads lazily: nothing happens until the first call to Header, Next or
// NextLine. After an error every later call returns the same error.
// An SWFReader is not safe for concurrent use.
type SWFReader struct {
	src  io.Reader
	name string
	opt  SWFOptions

	lines

	hdr     *Header
	held    []byte // the first job line, read while reading the header
	heldAt  int    // its line number
	hasHeld bool
	jobLine int // line number of the job line last parsed
	// lastSubmit and lastLine are the submit time and line of the job Next
	// returned last; lastLine is 0 before the first.
	lastSubmit int64
	lastLine   int
	err        error // sticky
	repairs    []*ParseError
	warnings   []*ParseError
	jobs       int // job lines read
	maxJobs    int
	gz         bool                  // the stream is gzip-compressed
	empty      bool                  // the stream, decompressed, has no bytes
	extraSeen  bool                  // a job line with more than NumFields fields was seen
	rest       []byte                // the last job line's tokens after field 18
	wheres     map[string]*sim.Where // one per (queue, request), for shape
}

var _ sim.Source = (*SWFReader)(nil)

// NewSWFReader returns a reader of the SWF stream r. name, usually the file's
// base name, prefixes every error. The constructor does no I/O: the stream
// is read, and gzip compression detected by its magic bytes, on first use.
func NewSWFReader(r io.Reader, name string, opt SWFOptions) *SWFReader {
	return &SWFReader{src: r, name: name, opt: opt, lines: lines{maxLine: MaxLineLen}, maxJobs: MaxJobs}
}

// Header returns the header: the comment lines before the first job line,
// reading them if no call has done so yet. The first job line is kept for
// Next. The header is empty, not nil, for a file without one (such as
// METACENTRUM-2009-2 or wagap-2013). A malformed numeric value is a
// *ParseError naming its line.
//
// Header also checks that the stream is SWF text, so that a wrong file
// fails here with what is wrong rather than later for a missing MaxProcs:
// a control character other than white space in the first 512 bytes
// (binary data, such as a sparse file, /dev/zero or a gzip stream of
// garbage) is a *ParseError naming line and column; and in a file with no
// header, a first job line that Next would reject is that *ParseError
// already. A UTF-8 byte-order mark at the very start of the stream is
// skipped (editors on Windows write one); anywhere else it is a token
// error naming it. An empty stream gives an empty header: see Empty.
func (r *SWFReader) Header() (*Header, error) {
	if r.hdr == nil {
		if err := r.readHeader(); err != nil {
			return nil, err
		}
	}
	return r.hdr, nil
}

// Next returns the next job as a sim.Record, or io.EOF after the last one.
// Empty lines and ';' comment lines are skipped. The mapping is: ID field
// 1, Submit 2, Runtime 4, Need[sim.Procs] and Need[sim.Memory] as the
// options say, Estimate 9, Status 11, User 12, Group 13, Queue 15, Partition
// 16, Preceding 17, Think 18. Missing values stay -1 (the engine rejects a
// job without run time and fills a missing estimate); Seq is left 0 for the
// engine. A user, group, queue or partition beyond int32, or memory beyond
// int64 bytes, is a *ParseError. So is a job submitted before the job Next
// returned before it, since SWF lists jobs by submit time and a sim.Source
// must give them in that order; that error wraps sim.ErrSourceOrder. Next
// does not allocate per line.
func (r *SWFReader) Next() (sim.Record, error) {
	l, err := r.NextLine()
	if err != nil {
		return sim.Record{}, err
	}
	if r.lastLine > 0 && l.Submit < r.lastSubmit {
		perr := fieldError(fieldSubmit, fmt.Errorf("\"%d\" is before the previous job's %d (line %d): %w",
			l.Submit, r.lastSubmit, r.lastLine, sim.ErrSourceOrder))
		perr.File, perr.Line = r.name, r.jobLine
		r.err = perr
		return sim.Record{}, perr
	}
	r.lastSubmit, r.lastLine = l.Submit, r.jobLine
	rec, perr := r.record(&l)
	if perr != nil {
		perr.File, perr.Line = r.name, r.jobLine
		r.err = perr
		return sim.Record{}, perr
	}
	return rec, nil
}

// NextLine returns the next job line as the file gives it, or io.EOF after
// the last one. It is Next without the mapping to a record; the two may be
// mixed, each consuming one job line.
func (r *SWFReader) NextLine() (Line, error) {
	if r.err != nil {
		return Line{}, r.err
	}
	if r.hdr == nil {
		if err := r.readHeader(); err != nil {
			return Line{}, err
		}
	}
	for {
		var b []byte
		if r.hasHeld {
			b, r.jobLine, r.hasHeld = r.held, r.heldAt, false
		} else {
			var err error
			if b, err = r.readLine(r.name); err != nil {
				if err != io.EOF {
					r.err = err
				}
				return Line{}, err
			}
			r.jobLine = r.line
		}
		b = trimLeftSpace(b)
		if len(b) == 0 || b[0] == ';' {
			continue
		}
		var repairs *[]*ParseError
		if r.opt.NegativeAsMissing {
			repairs = &r.repairs
		}
		n := len(r.repairs)
		l, end, perr := parseLineEnd(b, repairs)
		for _, pe := range r.repairs[n:] {
			pe.File, pe.Line = r.name, r.jobLine
		}
		if perr == nil {
			if r.jobs++; r.jobs > r.maxJobs {
				perr = &ParseError{Err: fmt.Errorf("more than %d job lines (MaxJobs)", r.maxJobs)}
			}
		}
		if perr != nil {
			perr.File, perr.Line = r.name, r.jobLine
			r.err = perr
			return Line{}, perr
		}
		r.rest = restAfter(b, end)
		if !r.extraSeen && !r.opt.AleaFields {
			if rest := trimLeftSpace(b[end:]); len(rest) > 0 {
				r.extraSeen = true
				r.warnings = append(r.warnings, &ParseError{File: r.name, Line: r.jobLine,
					Err: fmt.Errorf("has %d fields; fields after %d are ignored (warned once per file)", NumFields+countFields(rest), NumFields)})
			}
		}
		return l, nil
	}
}

// Empty reports whether the stream held no bytes at all, after
// decompression. It is false until Header, Next or NextLine has read the
// start of the stream. An empty file reads as one without jobs; callers
// that need jobs use Empty to say why there are none.
func (r *SWFReader) Empty() bool { return r.empty }

// Warnings returns what the reader read past but a person may want to
// know, in file order, each naming file and line: so far, the first job
// line with more than NumFields fields (the fields after 18 are ignored;
// Alea's data sets, wagap-2013 among them, add three). A warning is given
// once per file. The slice belongs to the reader.
func (r *SWFReader) Warnings() []*ParseError { return r.warnings }

// Repaired returns the errors that SWFOptions.NegativeAsMissing turned into
// missing values so far, in file order. Their messages name file, line and
// field as the errors would have. The slice belongs to the reader.
func (r *SWFReader) Repaired() []*ParseError { return r.repairs }

// start sets up the buffered (and, for gzip, decompressing) reader.
func (r *SWFReader) start() error {
	switch {
	case r.opt.Procs > AllocatedProcs:
		return fmt.Errorf("%s: invalid SWFOptions.Procs %d", r.name, r.opt.Procs)
	case r.opt.Memory > UsedMemory:
		return fmt.Errorf("%s: invalid SWFOptions.Memory %d", r.name, r.opt.Memory)
	case r.opt.MemoryUnit > KBPerJob:
		return fmt.Errorf("%s: invalid SWFOptions.MemoryUnit %d", r.name, r.opt.MemoryUnit)
	case r.opt.Shape.Kind > ShapePerNode || r.opt.Shape.Kind == ShapePerNode && (r.opt.Shape.K < 1 || r.opt.Shape.K > 1<<31-1):
		return fmt.Errorf("%s: invalid SWFOptions.Shape %v", r.name, r.opt.Shape)
	}
	raw := bufio.NewReaderSize(r.src, bufSize)
	magic, err := raw.Peek(2)
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.br = bufio.NewReaderSize(zr, bufSize)
		r.gz = true
	} else {
		r.br = raw
	}
	return r.sniff()
}

// sniff looks at the start of the (decompressed) stream: it notes an
// empty stream, skips a UTF-8 byte-order mark, and fails on binary data.
func (r *SWFReader) sniff() error {
	b, err := r.br.Peek(sniffLen)
	if err != nil && err != io.EOF {
		if len(b) == 0 {
			if r.gz {
				return fmt.Errorf("%s: corrupt gzip stream: %w", r.name, err)
			}
			return fmt.Errorf("%s: %w", r.name, err)
		}
		// Check what arrived; the error comes again on the next read.
	}
	if len(b) == 0 {
		r.empty = true
		return nil
	}
	if bytes.HasPrefix(b, utf8BOM) {
		_, _ = r.br.Discard(len(utf8BOM)) // peeked, so it cannot fail
		b = b[len(utf8BOM):]
	}
	line, col := 1, 1
	for _, c := range b {
		if c < ' ' && !isSpace(c) || c == 0x7f {
			what := "file"
			if r.gz {
				what = "gzip stream's content"
			}
			return &ParseError{File: r.name, Line: line,
				Err: fmt.Errorf("byte %#02x at column %d is a control character: the %s is binary data, not SWF text", c, col, what)}
		}
		col++
		if c == '\n' {
			line, col = line+1, 1
		}
	}
	return nil
}

// readHeader reads the header; it is called once, before the first job line.
func (r *SWFReader) readHeader() error {
	if r.err != nil {
		return r.err
	}
	if err := r.start(); err != nil {
		r.err = err
		return err
	}
	h := &Header{}
	for {
		b, err := r.readLine(r.name)
		if err == io.EOF {
			break
		}
		if err != nil {
			r.err = err
			return err
		}
		t := trimLeftSpace(b)
		if len(t) == 0 {
			continue
		}
		if t[0] == ';' {
			h.addComment(t[1:], r.line)
			continue
		}
		r.held = append(r.held[:0], b...)
		r.heldAt, r.hasHeld = r.line, true
		if len(h.Entries) == 0 {
			// No header: if this line is not a job line either, the
			// file is not SWF, and its first line says why.
			var repairs *[]*ParseError // as NextLine will parse it
			if r.opt.NegativeAsMissing {
				repairs = new([]*ParseError)
			}
			if _, perr := parseLine(t, repairs); perr != nil {
				perr.File, perr.Line = r.name, r.line
				r.err = perr
				return perr
			}
		}
		break
	}
	if err := h.derive(); err != nil {
		if pe, ok := err.(*ParseError); ok {
			pe.File = r.name
		}
		r.err = err
		return err
	}
	r.hdr = h
	return nil
}

// lines reads a stream line by line for the trace readers (SWF, sacct),
// with a bound on a line's length.
type lines struct {
	br      *bufio.Reader
	line    int    // number of the last line read
	eof     bool   // the stream is exhausted
	long    []byte // a line longer than br's buffer
	maxLine int
}

// readLine returns the next line of the stream called name, with its
// newline if it has one, or io.EOF; the slice is valid until the next
// call. A line longer than maxLine bytes is a *ParseError.
func (r *lines) readLine(name string) ([]byte, error) {
	if r.eof {
		return nil, io.EOF
	}
	b, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], b...)
		for err == bufio.ErrBufferFull && len(r.long) <= r.maxLine {
			b, err = r.br.ReadSlice('\n')
			r.long = append(r.long, b...)
		}
		b = r.long
	}
	if len(b) > r.maxLine {
		return nil, &ParseError{File: name, Line: r.line + 1, Err: fmt.Errorf("line is longer than %d bytes", r.maxLine)}
	}
	if err != nil {
		if err != io.EOF {
			return nil, fmt.Errorf("%s: line %d: %w", name, r.line+1, err)
		}
		r.eof = true
		if len(b) == 0 {
			return nil, io.EOF
		}
	}
	r.line++
	return b, nil
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// record maps a parsed line to a sim.Record as the options say. Errors lack
// file and line.
func (r *SWFReader) record(l *Line) (sim.Record, *ParseError) {
	rec := sim.Record{
		Job: sim.Job{
			ID:       sim.JobID(l.JobID),
			Submit:   sim.Time(l.Submit),
			Estimate: sim.Time(l.ReqTime),
		},
		Runtime:   sim.Time(l.Runtime),
		Status:    sim.Status(l.Status),
		Preceding: sim.JobID(l.Preceding),
		Think:     sim.Time(l.Think),
	}
	if l.AvgCPUTime > 0 && l.Runtime > 0 {
		// Field 6 is CPU seconds per processor; over the run time it is
		// the mean per-process CPU usage. Real logs can exceed 1 slightly
		// (accounting includes system time); the value is kept as is.
		rec.CPUUsage = l.AvgCPUTime / float64(l.Runtime)
	}
	for _, f := range [...]struct {
		dst *int32
		v   int64
		k   int
	}{
		{&rec.User, l.User, fieldUser},
		{&rec.Group, l.Group, fieldGroup},
		{&rec.Queue, l.Queue, fieldQueue},
		{&rec.Partition, l.Partition, fieldPartition},
	} {
		if f.v > math.MaxInt32 {
			return sim.Record{}, fieldError(f.k, fmt.Errorf("\"%d\" overflows int32", f.v))
		}
		*f.dst = int32(f.v)
	}

	var procs int64
	if r.opt.Procs == RequestedProcs && l.ReqProcs > 0 {
		procs = l.ReqProcs
	} else if l.AllocProcs > 0 {
		procs = l.AllocProcs
	}
	rec.Need[sim.Procs] = procs

	mem, perr := r.memory(l, procs)
	if perr != nil {
		return sim.Record{}, perr
	}
	rec.Need[sim.Memory] = mem
	if r.opt.shapes() {
		if perr := r.shape(&rec, r.rest); perr != nil {
			return sim.Record{}, perr
		}
	}
	return rec, nil
}

// memory returns the job's memory in bytes as the options say.
func (r *SWFReader) memory(l *Line, procs int64) (int64, *ParseError) {
	var v int64 // whole bytes per job (BytesPerJob, KBPerJob) or per processor
	k := fieldReqMemory
	switch r.opt.Memory {
	case NoMemory:
		return 0, nil
	case RequestedMemory:
		if l.ReqMemory == -1 {
			return 0, nil
		}
		v = l.ReqMemory
		if r.opt.MemoryUnit != BytesPerJob {
			var ok bool
			if v, ok = mulNonNeg(v, 1024); !ok {
				return 0, fieldError(k, fmt.Errorf("\"%d\" KB overflows int64 bytes", l.ReqMemory))
			}
		}
	case UsedMemory:
		k = fieldUsedMemory
		if l.UsedMemory == -1 {
			return 0, nil
		}
		f := l.UsedMemory
		if r.opt.MemoryUnit != BytesPerJob {
			f *= 1024
		}
		f = math.Ceil(f)
		if f >= math.MaxInt64 {
			return 0, fieldError(k, fmt.Errorf("%q overflows int64 bytes", appendFloat(nil, l.UsedMemory)))
		}
		v = int64(f)
	}
	if r.opt.MemoryUnit != KBPerProc {
		return v, nil
	}
	b, ok := mulNonNeg(v, procs)
	if !ok {
		return 0, fieldError(k, fmt.Errorf("%d bytes per processor × %d processors overflows int64", v, procs))
	}
	return b, nil
}

// mulNonNeg returns a×b for non-negative a and b, and whether it fits int64.
func mulNonNeg(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}
