package results

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/schedsweep/schedsweep/sim"
)

// dictString is the Arrow type of the jobs file's string columns: few
// distinct values, handed to the Parquet writer as dictionary indices so it
// need not hash every row's string. In the file they are plain
// dictionary-encoded UTF-8 strings.
var dictString = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// Columns of a jobs file, in order. Times are integer seconds from the
// start of the trace; memory is in bytes.
const (
	jRunKey = iota
	jJobID
	jUser
	jSubmit
	jStart
	jEnd
	jRuntime
	jRequested
	jFilled
	jProcs
	jMemory
	jWait
	jResponse
	jSlowdown
	jBoundedSlowdown
	jStatus
	jReason
	jEET
	jTardiness
	numJobColumns
)

var jobsFields = [numJobColumns]arrow.Field{
	jRunKey:          {Name: "run_key", Type: dictString},
	jJobID:           {Name: "job_id", Type: arrow.PrimitiveTypes.Int64},
	jUser:            {Name: "user", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jSubmit:          {Name: "submit", Type: arrow.PrimitiveTypes.Int64},
	jStart:           {Name: "start", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jEnd:             {Name: "end", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jRuntime:         {Name: "runtime", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jRequested:       {Name: "requested_time", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jFilled:          {Name: "estimate_filled", Type: arrow.FixedWidthTypes.Boolean},
	jProcs:           {Name: "procs", Type: arrow.PrimitiveTypes.Int64},
	jMemory:          {Name: "memory", Type: arrow.PrimitiveTypes.Int64},
	jWait:            {Name: "wait", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jResponse:        {Name: "response", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jSlowdown:        {Name: "slowdown", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	jBoundedSlowdown: {Name: "bounded_slowdown", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	jStatus:          {Name: "status", Type: dictString},
	jReason:          {Name: "reason", Type: dictString, Nullable: true},
	jEET:             {Name: "eet", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	jTardiness:       {Name: "tardiness", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}

// WriteJobs writes one run's jobs to path as Parquet, one row per job in
// arrival order (results/README.md lists the columns). A rejected job has
// NULL start, end, wait, response, slowdown and bounded_slowdown; user,
// runtime and requested_time are NULL where the trace gives none
// (sim.Missing); reason is NULL unless the job was rejected. eet and
// tardiness are e's (ComputeEET's result for res), NULL for rejected jobs,
// and NULL throughout when e is nil.
//
// The jobs go out in record batches of 64k rows, one Parquet row group
// each, built in buffers reused from batch to batch: the writer holds about
// 8 MB however long the run, never a copy of it. The file is written to a
// temporary name beside path and renamed into place; missing parent
// directories are created. Errors name path.
func WriteJobs(path string, runKey string, res *sim.Result, e *EET, meta Metadata) error {
	return writeJobs(path, runKey, res, e, nil, meta)
}

// writeJobs is WriteJobs, with the nodes column when nc is not nil.
func writeJobs(path string, runKey string, res *sim.Result, e *EET, nc *nodesColumn, meta Metadata) error {
	if e != nil && len(e.Jobs) != len(res.Jobs) {
		panic(fmt.Sprintf("results: WriteJobs given the EET of %d jobs for a run of %d", len(e.Jobs), len(res.Jobs)))
	}
	md, err := meta.arrow()
	if err != nil {
		return errorFor(path, err)
	}
	fields := jobsFields[:]
	// Statistics of status and reason would cost a tenth of the write
	// (arrow-go recomputes them from the dictionary per row group) and let
	// a reader skip almost nothing: they hold a handful of values.
	noStats := []string{"status", "reason"}
	if nc != nil {
		fields = append(fields[:len(fields):len(fields)], nodesField, partitionField)
		noStats = append(noStats, nodesField.Name)
	}
	sc := arrow.NewSchema(fields, &md)
	return writeParquet(path, sc, noStats, func(fw *parquetFile) error {
		b := newJobsBatch(runKey, min(len(res.Jobs), batchRows), reasonsOf(res))
		defer b.release()
		for lo := 0; lo < len(res.Jobs); lo += batchRows {
			hi := min(lo+batchRows, len(res.Jobs))
			var eets []JobEET
			if e != nil {
				eets = e.Jobs[lo:hi]
			}
			rec, err := b.fill(sc, res.Jobs[lo:hi], eets, nc)
			if err != nil {
				return err
			}
			err = fw.Write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// jobsBatch holds the column buffers of up to its capacity in rows. The Arrow arrays
// fill makes share them, so a batch must be written before the next fill.
type jobsBatch struct {
	ints   [numJobColumns][]int64   // the int64 columns
	floats [numJobColumns][]float64 // the float64 columns
	idx    [numJobColumns][]int32   // dictionary indices of the string columns
	filled []byte                   // estimate_filled's values, a bitmap
	// Validity bitmaps: ran for the six columns NULL on rejected jobs (and
	// eet and tardiness when there are EETs), known[c] for user, runtime
	// and requested_time, rejected for reason, none (all clear) for eet and
	// tardiness without EETs.
	ran, rejected, none []byte
	known               [numJobColumns][]byte
	// dicts holds each string column's dictionary.
	dicts [numJobColumns]arrow.Array
}

var (
	jobInts   = []int{jJobID, jUser, jSubmit, jStart, jEnd, jRuntime, jRequested, jProcs, jMemory, jWait, jResponse, jEET, jTardiness}
	jobFloats = []int{jSlowdown, jBoundedSlowdown}
	jobDicts  = []int{jRunKey, jStatus, jReason}
	jobKnown  = []int{jUser, jRuntime, jRequested}
)

// statusNames is status's dictionary, indexed by sim.State − 1; reasonNames
// is reason's, indexed by sim.Reason, up to the first reason sim does not
// name.
var statusNames, reasonNames = func() (st, rs []string) {
	for s := sim.Finished; s <= sim.Rejected; s++ {
		st = append(st, s.String())
	}
	for r := sim.NoReason; !strings.HasPrefix(r.String(), "reason("); r++ {
		rs = append(rs, r.String())
	}
	return st, rs
}()

// reasonsOf returns the reason dictionary of res's jobs file: the reasons
// up to negative-request, as every jobs file had before the node model's
// reasons came, and further only as far as res's rejections reach, so that
// a run that meets none of the newer reasons writes the bytes it wrote
// before.
func reasonsOf(res *sim.Result) []string {
	n := int(sim.NegativeRequest) + 1
	for r, k := range res.RejectedBy {
		if k > 0 {
			n = max(n, r+1)
		}
	}
	return reasonNames[:min(n, len(reasonNames))]
}

func newJobsBatch(runKey string, capacity int, reasons []string) *jobsBatch {
	b := &jobsBatch{}
	for _, c := range jobInts {
		b.ints[c] = make([]int64, capacity)
	}
	for _, c := range jobFloats {
		b.floats[c] = make([]float64, capacity)
	}
	for _, c := range jobDicts {
		b.idx[c] = make([]int32, capacity)
	}
	nb := int(bitutil.BytesForBits(int64(capacity)))
	b.filled, b.ran, b.rejected, b.none = make([]byte, nb), make([]byte, nb), make([]byte, nb), make([]byte, nb)
	for _, c := range jobKnown {
		b.known[c] = make([]byte, nb)
	}
	b.dicts[jRunKey] = stringArray([]string{runKey})
	b.dicts[jStatus] = stringArray(statusNames)
	b.dicts[jReason] = stringArray(reasons)
	return b
}

func (b *jobsBatch) release() {
	for _, d := range b.dicts {
		if d != nil {
			d.Release()
		}
	}
}

// fill loads jobs (at most the batch's capacity) and their EETs (aligned
// with jobs, or nil) into the buffers and returns them as a record batch of
// schema sc, with the nodes column nc builds when it is not nil. A job
// whose state or reason sim does not name is an error: the Result is
// corrupt.
func (b *jobsBatch) fill(sc *arrow.Schema, jobs []sim.Outcome, eets []JobEET, nc *nodesColumn) (arrow.RecordBatch, error) {
	n := len(jobs)
	nb := int(bitutil.BytesForBits(int64(n)))
	for _, bm := range [][]byte{b.filled, b.ran, b.rejected, b.known[jUser], b.known[jRuntime], b.known[jRequested]} {
		clear(bm[:nb])
	}
	var nRejected int
	var nUnknown [numJobColumns]int
	in, fl, ix := &b.ints, &b.floats, &b.idx
	for i := range jobs {
		o := &jobs[i]
		in[jJobID][i] = int64(o.ID)
		in[jSubmit][i] = int64(o.Submit)
		in[jProcs][i] = o.Need[sim.Procs]
		in[jMemory][i] = o.Need[sim.Memory]
		nUnknown[jUser] += b.setKnown(jUser, i, int64(o.User))
		nUnknown[jRuntime] += b.setKnown(jRuntime, i, int64(o.Runtime))
		nUnknown[jRequested] += b.setKnown(jRequested, i, int64(o.Estimate))
		if o.EstimateFilled {
			bitutil.SetBit(b.filled, i)
		}
		if o.State < sim.Finished || o.State > sim.Rejected || int(o.Reason) >= b.dicts[jReason].Len() {
			return nil, fmt.Errorf("job %d: invalid %v or %v", o.ID, o.State, o.Reason)
		}
		ix[jStatus][i] = int32(o.State) - 1 // ix[jRunKey] stays all 0
		ix[jReason][i] = int32(o.Reason)
		if o.State == sim.Rejected {
			nRejected++
			bitutil.SetBit(b.rejected, i)
			in[jStart][i], in[jEnd][i], in[jWait][i], in[jResponse][i] = 0, 0, 0, 0
			in[jEET][i], in[jTardiness][i] = 0, 0
			fl[jSlowdown][i], fl[jBoundedSlowdown][i] = 0, 0
			continue
		}
		bitutil.SetBit(b.ran, i)
		run, r := o.Work(), o.End-o.Submit
		in[jStart][i], in[jEnd][i] = int64(o.Start), int64(o.End)
		in[jWait][i], in[jResponse][i] = int64(o.Start-o.Submit), int64(r)
		fl[jSlowdown][i] = Slowdown(r, run)
		fl[jBoundedSlowdown][i] = BoundedSlowdown(r, run, DefaultTau)
		in[jEET][i], in[jTardiness][i] = 0, 0
		if eets != nil {
			in[jEET][i], in[jTardiness][i] = int64(eets[i].EET), int64(eets[i].Tardiness)
		}
	}

	cols := make([]arrow.Array, numJobColumns, numJobColumns+2)
	if nc != nil {
		a, err := nc.build(jobs)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a, nc.buildPartitions(jobs))
	}
	for _, c := range jobInts {
		var valid []byte
		nulls := 0
		switch c {
		case jUser, jRuntime, jRequested:
			valid, nulls = b.known[c], nUnknown[c]
		case jStart, jEnd, jWait, jResponse:
			valid, nulls = b.ran, nRejected
		case jEET, jTardiness:
			valid, nulls = b.ran, nRejected
			if eets == nil {
				valid, nulls = b.none, n
			}
		}
		cols[c] = primitive(arrow.PrimitiveTypes.Int64, n, arrow.Int64Traits.CastToBytes(in[c][:n]), valid, nulls)
	}
	for _, c := range jobFloats {
		cols[c] = primitive(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(fl[c][:n]), b.ran, nRejected)
	}
	cols[jFilled] = primitive(arrow.FixedWidthTypes.Boolean, n, b.filled[:nb], nil, 0)
	for _, c := range jobDicts {
		var valid []byte
		nulls := 0
		if c == jReason {
			valid, nulls = b.rejected, n-nRejected
		}
		indices := primitive(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(ix[c][:n]), valid, nulls)
		cols[c] = array.NewDictionaryArray(dictString, indices, b.dicts[c])
		indices.Release()
	}
	rec := array.NewRecordBatch(sc, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// setKnown stores v in row i of int64 column c and marks it valid unless it
// is sim.Missing; it returns 1 for a NULL, else 0.
func (b *jobsBatch) setKnown(c, i int, v int64) int {
	b.ints[c][i] = v
	if v == sim.Missing {
		return 1
	}
	bitutil.SetBit(b.known[c], i)
	return 0
}

// primitive wraps values (and the validity bitmap valid, nil when nulls is
// 0) as an Arrow array of n elements of type dt, without copying.
func primitive(dt arrow.DataType, n int, values, valid []byte, nulls int) arrow.Array {
	var bitmap *memory.Buffer
	if nulls > 0 {
		bitmap = memory.NewBufferBytes(valid[:bitutil.BytesForBits(int64(n))])
	}
	data := array.NewData(dt, n, []*memory.Buffer{bitmap, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// stringArray returns a string array of vals.
func stringArray(vals []string) arrow.Array {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer sb.Release()
	sb.AppendValues(vals, nil)
	return sb.NewArray()
}
