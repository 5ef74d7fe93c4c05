package workloads

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schedsweep/schedsweep/sim"
)

// This file reads the accounting dumps of Slurm's sacct (Slurm 22.05): the
// output of
//
//	sacct --allusers --duplicates --parsable2 --format=JobIDRaw,JobID,...
//
// one line per job or step, fields separated by '|', the first line naming
// the columns. What each column becomes, and why, is in docs/experiments.md
// ("sacct dumps"); the values' forms follow src/sacct/print.c (print_fields,
// PRINT_* cases) and src/common/parse_time.c (slurm_make_time_str) at tag
// slurm-22-05-8-1. sacctfields.go parses the values, sacctswf.go writes the
// jobs as SWF.

// SacctOptions says how a sacct dump becomes records.
type SacctOptions struct {
	// Location is the time zone sacct printed its times in, that of the
	// host that ran it (its TZ): sacct writes local times without a zone.
	// nil reads them as UTC. In a zone with summer time, the repeated
	// hour each autumn is ambiguous and read as time.Date reads it; run
	// sacct with TZ=UTC to avoid that.
	Location *time.Location
	// Memory gives records the memory their jobs held (Need[sim.Memory]
	// and Shape.MemPerNode). Off, as SWFOptions.Memory's default, jobs ask
	// none, and a machine without memory can run them.
	Memory bool
	// PartitionLimits gives the time limit, in seconds, of each partition
	// named here, for jobs whose limit is "Partition_Limit"; for a
	// partition not in it such a job's estimate is missing.
	PartitionLimits map[string]sim.Time
}

// SacctSkip is why a sacct line gives no job.
type SacctSkip uint8

// The reasons a sacct line gives no job, in the order SacctReader.Skipped
// lists them.
const (
	// SkipStep is a job step (123.batch, 123.extern, 123.0): its job's
	// line describes the allocation.
	SkipStep SacctSkip = iota
	// SkipPendingArray is the record of an array's tasks that had not
	// started at the dump (123_[5-9]).
	SkipPendingArray
	// SkipDuplicate is an earlier record of a job that --duplicates
	// lists more than once (requeued): the last record is the job.
	SkipDuplicate
	// SkipCancelledBeforeStart is a job cancelled while it waited. It used
	// no resources and has no run time; SWF would list it with status 5
	// and no run time, which the engine rejects (no-runtime), so it is
	// counted here instead.
	SkipCancelledBeforeStart
	// SkipNeverStarted is a job in another final state (NODE_FAIL,
	// BOOT_FAIL, FAILED, DEADLINE, ...) that never started.
	SkipNeverStarted
	// SkipPending is a job still waiting at the dump (PENDING,
	// RESV_DEL_HOLD).
	SkipPending
	// SkipRunning is a job still running at the dump (RUNNING, SUSPENDED,
	// COMPLETING, CONFIGURING, STAGE_OUT, SIGNALING, RESIZING, STOPPED):
	// its run time is not known.
	SkipRunning
	// SkipRequeued is a job whose last record is REQUEUED, REQUEUE_HOLD,
	// REQUEUE_FED or SPECIAL_EXIT: it went back to the queue and the dump
	// has no later run.
	SkipRequeued
	// SkipRevoked is a federated job's sibling that another cluster ran
	// (REVOKED).
	SkipRevoked
	// SkipNoEnd is a job that ran but has neither an end time nor an
	// ElapsedRaw column.
	SkipNoEnd
	// SkipNoCPUs is a job that ran on no CPUs as the dump gives them.
	SkipNoCPUs
	numSacctSkips
)

var sacctSkipNames = [numSacctSkips]string{
	SkipStep:                 "job step",
	SkipPendingArray:         "array tasks still pending",
	SkipDuplicate:            "earlier record of a requeued job",
	SkipCancelledBeforeStart: "cancelled before it started",
	SkipNeverStarted:         "ended without starting",
	SkipPending:              "still pending at the dump",
	SkipRunning:              "still running at the dump",
	SkipRequeued:             "requeued, no later run",
	SkipRevoked:              "revoked (ran on another cluster)",
	SkipNoEnd:                "no end time",
	SkipNoCPUs:               "no CPUs",
}

// String names the reason as the import command prints it.
func (s SacctSkip) String() string {
	if s < numSacctSkips {
		return sacctSkipNames[s]
	}
	return fmt.Sprintf("SacctSkip(%d)", s)
}

// SacctCount is how many lines one reason skipped, and the first of them.
type SacctCount struct {
	Reason SacctSkip
	Lines  int
	// First is the number of the first line counted for the reason. A
	// requeued job's earlier record moves from its state's reason to
	// SkipDuplicate when the later one comes; First may then still name
	// it.
	First int
}

// SacctNames are the names a dump's jobs gave, each list indexed by number
// − 1: user 1 is Users[0]. Numbers are given by first appearance in the
// file, from 1.
type SacctNames struct {
	Users      []string // SWF field 12
	Accounts   []string // SWF field 13 (group)
	QOS        []string // SWF field 15 (queue)
	Partitions []string // SWF field 16
}

// SacctReader reads a sacct dump, plain or gzip-compressed, as a
// sim.Source. The first call to Read, Next, Skipped, Names or Start reads
// the whole stream line by line (a line at most MaxLineLen bytes), keeping
// each job's record, for a dump is in job-number order, not submit order,
// and a requeued job's last record decides it. Next then gives the jobs by
// submit time (ties by job number). After an error every call returns it.
type SacctReader struct {
	src  io.Reader
	name string
	opt  SacctOptions

	lines
	fields [][]byte

	cols    sacctCols
	blocks  [][]sacctJob      // every job line kept, in file order, jobBlock a block
	kept    int               // jobs in blocks
	order   []int32           // the live jobs' indexes in blocks, by submit time
	seen    map[int64]seenJob // job number → its last record
	skipped [numSacctSkips]SacctCount
	het     int
	names   [4]nameTable
	wheres  map[int32]*sim.Where
	base    int64 // the first submit time, Unix seconds
	next    int
	read    bool
	err     error
}

// seenJob is the last record of a job number: its index in blocks, or −1 −
// the reason it was skipped for, and its line.
type seenJob struct{ at, line int32 }

// sacctJob is a job as its line gives it; times are Unix seconds.
type sacctJob struct {
	id        int64
	line      int
	submit    int64
	start     int64
	runtime   int64
	limit     int64 // seconds; −1 missing
	status    int8
	dead      bool // a later record of the same job replaced it
	het       bool // a component of a heterogeneous job
	user      int32
	account   int32
	qos       int32
	partition int32
	procs     int64 // allocated CPUs
	reqProcs  int64 // requested CPUs; −1 unknown
	nodes     int64 // 0 unknown
	mem       int64 // bytes, whole job
	gpus      int64 // whole job
}

var _ sim.Source = (*SacctReader)(nil)

// NewSacctReader returns a reader of the sacct dump r. name, usually the
// file's base name, prefixes every error. It does no I/O.
func NewSacctReader(r io.Reader, name string, opt SacctOptions) *SacctReader {
	return &SacctReader{src: r, name: name, opt: opt, lines: lines{maxLine: MaxLineLen}}
}

// Read reads the dump if no call has yet. Errors are *ParseError values
// naming the line and, for a field, its column, or I/O errors.
func (r *SacctReader) Read() error {
	if !r.read {
		r.read = true
		r.err = r.readAll()
	}
	return r.err
}

// Next returns the next job by submit time, or io.EOF after the last. Its
// ID is the job's JobIDRaw; Submit is seconds after the first job's
// submit (Start gives that instant); Runtime End − Start; Estimate the
// time limit, or −1; Status 1 for COMPLETED, 0 for FAILED, TIMEOUT,
// NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL and DEADLINE, 5 for CANCELLED and
// PREEMPTED; User, Group, Queue and Partition the numbers of its user,
// account, QOS and partition (Names). Need[sim.Procs] is its allocated
// CPUs; its Shape is Nodes × PerNode when the CPUs divide evenly over its
// nodes, else CPUs anywhere, with GPUs and (with SacctOptions.Memory)
// memory per node, and Where.Partition its partition.
func (r *SacctReader) Next() (sim.Record, error) {
	if err := r.Read(); err != nil {
		return sim.Record{}, err
	}
	if r.next < len(r.order) {
		r.next++
		return r.record(r.ordered(r.next - 1)), nil
	}
	return sim.Record{}, io.EOF
}

// Skipped returns, for each reason that skipped a line, how many and the
// first, in the order of the SacctSkip constants.
func (r *SacctReader) Skipped() ([]SacctCount, error) {
	if err := r.Read(); err != nil {
		return nil, err
	}
	var out []SacctCount
	for _, c := range r.skipped {
		if c.Lines > 0 {
			out = append(out, c)
		}
	}
	return out, nil
}

// Jobs returns how many jobs the dump gives.
func (r *SacctReader) Jobs() (int, error) {
	if err := r.Read(); err != nil {
		return 0, err
	}
	return len(r.order), nil
}

// Heterogeneous returns, once Read has read the dump, how many kept jobs
// are components of heterogeneous jobs (123+0, 123+1): each is kept as a job of its own, with its own
// JobIDRaw, resources and partition; that Slurm starts a heterogeneous
// job's components together is not kept.
func (r *SacctReader) Heterogeneous() int { return r.het }

// Names returns the names behind the numbers of users, accounts, QOS and
// partitions.
func (r *SacctReader) Names() (SacctNames, error) {
	if err := r.Read(); err != nil {
		return SacctNames{}, err
	}
	return SacctNames{Users: r.names[nameUser].list, Accounts: r.names[nameAccount].list,
		QOS: r.names[nameQOS].list, Partitions: r.names[namePartition].list}, nil
}

// Start returns the submit time of the first job, submit time 0 of the
// records, or the zero time when there are none.
func (r *SacctReader) Start() (time.Time, error) {
	if err := r.Read(); err != nil {
		return time.Time{}, err
	}
	if len(r.order) == 0 {
		return time.Time{}, nil
	}
	return time.Unix(r.base, 0).In(r.location()), nil
}

func (r *SacctReader) location() *time.Location {
	if r.opt.Location == nil {
		return time.UTC
	}
	return r.opt.Location
}

// Names' kinds, indexes of SacctReader.names.
const (
	nameUser = iota
	nameAccount
	nameQOS
	namePartition
)

// nameTable numbers names by first appearance, from 1.
type nameTable struct {
	ids  map[string]int32
	list []string
}

// id returns b's number, −1 for the empty name.
func (t *nameTable) id(b []byte) int32 {
	if len(b) == 0 {
		return -1
	}
	if v, ok := t.ids[string(b)]; ok {
		return v
	}
	if t.ids == nil {
		t.ids = map[string]int32{}
	}
	s := string(b)
	t.list = append(t.list, s)
	v := int32(len(t.list))
	t.ids[s] = v
	return v
}

func (r *SacctReader) readAll() error {
	if err := r.start(); err != nil {
		return err
	}
	if err := r.readHeader(); err != nil {
		return err
	}
	r.seen = map[int64]seenJob{}
	for {
		b, err := r.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		b = bytes.TrimRight(b, "\r\n")
		if len(b) == 0 {
			continue
		}
		if err := r.parse(b); err != nil {
			return err
		}
	}
	return r.finish()
}

// finish drops replaced records, sorts the jobs by submit time and makes
// the times relative.
func (r *SacctReader) finish() error {
	if r.kept-r.skipped[SkipDuplicate].Lines > MaxJobs {
		return &ParseError{File: r.name, Err: fmt.Errorf("more than %d jobs (MaxJobs)", MaxJobs)}
	}
	r.order = make([]int32, 0, r.kept)
	for i := range r.kept {
		if j := r.job(int32(i)); !j.dead {
			r.order = append(r.order, int32(i))
			if j.het {
				r.het++
			}
		}
	}
	// Job numbers are distinct among the live jobs: the order is total.
	slices.SortFunc(r.order, func(a, b int32) int {
		x, y := r.job(a), r.job(b)
		if x.submit != y.submit {
			return cmpInt(x.submit, y.submit)
		}
		return cmpInt(x.id, y.id)
	})
	if len(r.order) == 0 {
		return nil
	}
	r.base = r.ordered(0).submit
	if j := r.ordered(len(r.order) - 1); j.submit-r.base > MaxTime {
		return &ParseError{File: r.name, Line: j.line, Field: r.cols.submit + 1, Name: r.cols.names[r.cols.submit],
			Err: fmt.Errorf("is %d s after the first job's submit, %w of %d s", j.submit-r.base, ErrOverBound, int64(MaxTime))}
	}
	return nil
}

// jobBlock is the number of jobs in a block of SacctReader.blocks: the
// jobs are kept in blocks so that none is copied as they grow.
const jobBlock = 1 << 12

// job returns the job at index i of the blocks.
func (r *SacctReader) job(i int32) *sacctJob { return &r.blocks[i/jobBlock][i%jobBlock] }

// ordered returns the k-th job by submit time.
func (r *SacctReader) ordered(k int) *sacctJob { return r.job(r.order[k]) }

// add keeps j, returning its index.
func (r *SacctReader) add(j *sacctJob) int32 {
	if r.kept%jobBlock == 0 {
		r.blocks = append(r.blocks, make([]sacctJob, 0, jobBlock))
	}
	b := &r.blocks[len(r.blocks)-1]
	*b = append(*b, *j)
	r.kept++
	return int32(r.kept - 1)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// start sets up the buffered, and for gzip decompressing, reader.
func (r *SacctReader) start() error {
	raw := bufio.NewReaderSize(r.src, bufSize)
	magic, err := raw.Peek(2)
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	r.br = raw
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.br = bufio.NewReaderSize(zr, bufSize)
	}
	if b, _ := r.br.Peek(len(utf8BOM)); bytes.Equal(b, utf8BOM) {
		_, _ = r.br.Discard(len(utf8BOM))
	}
	return nil
}

// readLine is lines.readLine, with at most MaxInt32 lines: a job keeps
// its line number in 32 bits.
func (r *SacctReader) readLine() ([]byte, error) {
	b, err := r.lines.readLine(r.name)
	if err != nil {
		return nil, err
	}
	if r.line > math.MaxInt32 {
		return nil, &ParseError{File: r.name, Line: r.line, Err: fmt.Errorf("more than %d lines", math.MaxInt32)}
	}
	return b, nil
}

// split cuts b at each '|' into r.fields, reusing its backing array.
func (r *SacctReader) split(b []byte) [][]byte {
	f := r.fields[:0]
	for {
		i := bytes.IndexByte(b, '|')
		if i < 0 {
			f = append(f, b)
			break
		}
		f = append(f, b[:i])
		b = b[i+1:]
	}
	r.fields = f
	return f
}

// record maps a kept job to its sim.Record.
func (r *SacctReader) record(j *sacctJob) sim.Record {
	rec := sim.Record{
		Job: sim.Job{
			ID: sim.JobID(j.id), User: j.user, Group: j.account, Queue: j.qos, Partition: j.partition,
			Submit: sim.Time(j.submit - r.base), Estimate: sim.Time(j.limit),
		},
		Runtime: sim.Time(j.runtime), Status: sim.Status(j.status), Preceding: -1, Think: -1,
	}
	rec.Need[sim.Procs] = j.procs
	s := j.shape(r.opt.Memory)
	rec.Need[sim.GPUs] = s.GPUsPerNode
	rec.Need[sim.Memory] = s.MemPerNode
	sh := sim.Shape{MemPerNode: s.MemPerNode, GPUsPerNode: int32(s.GPUsPerNode)}
	if s.Nodes > 0 {
		sh.Nodes, sh.PerNode = int32(s.Nodes), int32(s.PerNode)
		rec.Need[sim.GPUs] *= s.Nodes
		rec.Need[sim.Memory] *= s.Nodes
	}
	if j.partition > 0 {
		sh.Where = r.where(j.partition)
	}
	if sh.Nodes > 0 || sh.Where != nil {
		rec.Shape = sh
	}
	return rec
}

// where returns the reader's one Where for partition number p.
func (r *SacctReader) where(p int32) *sim.Where {
	if w, ok := r.wheres[p]; ok {
		return w
	}
	if r.wheres == nil {
		r.wheres = map[int32]*sim.Where{}
	}
	w := &sim.Where{Partition: r.names[namePartition].list[p-1]}
	r.wheres[p] = w
	return w
}

// shape returns j's node shape: Nodes × PerNode when its CPUs divide
// evenly over its nodes (Tasks otherwise), with its GPUs and, when mem is
// set, its memory spread over the nodes (rounded up), or, for a Tasks
// shape, the whole job's on any node it uses, as the SWF reader asks.
func (j *sacctJob) shape(mem bool) Shape {
	var s Shape
	if j.nodes > 0 && j.procs%j.nodes == 0 {
		s.Nodes, s.PerNode = j.nodes, j.procs/j.nodes
		s.GPUsPerNode = ceilDiv(j.gpus, j.nodes)
		if mem {
			s.MemPerNode = MemPerNode(j.mem, j.nodes)
		}
		return s
	}
	s.Tasks, s.GPUsPerNode = j.procs, j.gpus
	if mem {
		s.MemPerNode = j.mem
	}
	return s
}

// columnList names the columns of names, for an error.
func columnList(names []string) string { return strings.Join(names, ", ") }
