package results

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/schedsweep/schedsweep/sim"
)

// Time series of a run, in buckets of a fixed length (60 s makes the
// paper's minutes). Bucket b holds [origin + b·bucket, origin +
// (b+1)·bucket), where origin is the run's first submit time: the same
// for every policy's run of a workload, so that their series align.

// HeatCell is one cell of a run's EET heatmap (Tóth & Klusáček 2014,
// section 3.3): how many of a user's violated EETs fall in a bucket.
type HeatCell struct {
	User   int32 // sim.Missing for the unknown user
	Bucket int64
	Count  int64
}

// origin returns the first submit time of res, the start of bucket 0; res
// must have jobs.
func origin(res *sim.Result) sim.Time {
	t := res.Jobs[0].Submit
	for i := range res.Jobs {
		t = min(t, res.Jobs[i].Submit)
	}
	return t
}

// Violations returns the run's EET heatmap: per user and bucket, the number
// of violated EETs, as section 3.3 of the paper plots them. A job late by
// T seconds (its Tardiness) adds 1 to ⌈T/bucket⌉ consecutive buckets,
// starting at the bucket that holds EET − run (run = Outcome.Work), "the
// latest possible job start time that enables us to meet the job EET".
// The paper's example counts whole minutes (T = 2 minutes, 2 cells); with
// tardiness in seconds we round up, so that every violated EET shows in at
// least one cell, and a job late by 1 s to 60 s fills one minute.
//
// The heatmap is sparse: only cells with a positive count, sorted by user
// (the unknown user first) and bucket. e must be ComputeEET's result for
// res. It takes O(v log v + c) time for v violated EETs and c cells.
// bucket must be positive; Violations panics otherwise.
func Violations(res *sim.Result, e *EET, bucket sim.Time) []HeatCell {
	if bucket <= 0 {
		panic(fmt.Sprintf("results: Violations with bucket %d s", bucket))
	}
	if len(e.Jobs) != len(res.Jobs) {
		panic(fmt.Sprintf("results: EET of %d jobs for a run of %d", len(e.Jobs), len(res.Jobs)))
	}
	type edge struct {
		user   int32
		bucket int64
		delta  int64
	}
	var edges []edge
	var t0 sim.Time
	if len(res.Jobs) > 0 {
		t0 = origin(res)
	}
	for i := range res.Jobs {
		o, je := &res.Jobs[i], &e.Jobs[i]
		if o.State == sim.Rejected || je.Tardiness <= 0 {
			continue
		}
		from := int64(je.EET-o.Work()-t0) / int64(bucket)
		n := (int64(je.Tardiness) + int64(bucket) - 1) / int64(bucket)
		edges = append(edges, edge{o.User, from, 1}, edge{o.User, from + n, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.user, b.user), cmp.Compare(a.bucket, b.bucket))
	})
	// spans calls f for each run of buckets [from, to) over which a user's
	// count holds and is positive, in order. It runs twice: to size cells,
	// which can run to hundreds of thousands, then to fill them.
	spans := func(f func(user int32, from, to, count int64)) {
		var count int64
		for i := 0; i < len(edges); {
			at := edges[i]
			for ; i < len(edges) && edges[i].user == at.user && edges[i].bucket == at.bucket; i++ {
				count += edges[i].delta
			}
			if count == 0 {
				continue // the user's edges end here, or the next starts at once
			}
			// count holds from at.bucket to the next edge, which is the
			// same user's: a user's count returns to 0 at its last edge.
			f(at.user, at.bucket, edges[i].bucket, count)
		}
	}
	n := 0
	spans(func(_ int32, from, to, _ int64) { n += int(to - from) })
	if n == 0 {
		return nil
	}
	cells := make([]HeatCell, 0, n)
	spans(func(user int32, from, to, count int64) {
		for b := from; b < to; b++ {
			cells = append(cells, HeatCell{user, b, count})
		}
	})
	return cells
}

// UtilPoint is the machine's use over one bucket: the mean share of its
// processors and of its memory that jobs held, in [0, 1].
type UtilPoint struct {
	Bucket        int64
	Procs, Memory float64 // Memory is 0 on a machine without memory
}

// Utilization returns the run's processor and memory utilization per
// bucket, from the first submit to the last end of a job that ran: the
// resource-seconds jobs held in the bucket over capacity × the bucket's
// length. The last bucket may be cut short by the last end; its mean is
// over the part before it. There is one point per bucket, idle ones
// included; none if no job ran for a positive time. It sweeps the jobs'
// starts and ends: O(n log n + b) for n jobs and b buckets. bucket must be
// positive; Utilization panics otherwise.
func Utilization(res *sim.Result, bucket sim.Time) []UtilPoint {
	if bucket <= 0 {
		panic(fmt.Sprintf("results: Utilization with bucket %d s", bucket))
	}
	type event struct {
		at         sim.Time
		procs, mem int64 // change in use
	}
	events := make([]event, 0, 2*len(res.Jobs))
	var last sim.Time
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State == sim.Rejected || o.End <= o.Start {
			continue
		}
		p, m := o.Need[sim.Procs], o.Need[sim.Memory]
		events = append(events, event{o.Start, p, m}, event{o.End, -p, -m})
		last = max(last, o.End)
	}
	if len(events) == 0 {
		return nil
	}
	slices.SortFunc(events, func(a, b event) int { return cmp.Compare(a.at, b.at) })
	t0 := origin(res)
	n := int64(last-t0+bucket-1) / int64(bucket)
	// Resource-seconds per bucket. Each product is at most capacity ×
	// bucket, so the sums are exact in float64 up to 2⁵³ (9 PB-seconds).
	procs, mem := make([]float64, n), make([]float64, n)
	var p, m int64
	for i := 0; i < len(events); {
		at := events[i].at
		for ; i < len(events) && events[i].at == at; i++ {
			p, m = p+events[i].procs, m+events[i].mem
		}
		if i == len(events) || p == 0 && m == 0 {
			continue
		}
		next := events[i].at
		for b := int64(at-t0) / int64(bucket); b < n; b++ {
			lo, hi := max(at, t0+sim.Time(b)*bucket), min(next, t0+sim.Time(b+1)*bucket)
			if lo >= hi {
				break
			}
			procs[b] += float64(p) * float64(hi-lo)
			mem[b] += float64(m) * float64(hi-lo)
		}
	}
	pts := make([]UtilPoint, n)
	for b := range pts {
		span := float64(min(last, t0+sim.Time(b+1)*bucket) - (t0 + sim.Time(b)*bucket))
		pts[b] = UtilPoint{Bucket: int64(b)}
		if c := res.Capacity[sim.Procs]; c > 0 {
			pts[b].Procs = procs[b] / (float64(c) * span)
		}
		if c := res.Capacity[sim.Memory]; c > 0 {
			pts[b].Memory = mem[b] / (float64(c) * span)
		}
	}
	return pts
}

// MetaBucketSeconds is the key-value metadata key under which heatmap and
// utilization files record their bucket length in seconds.
const MetaBucketSeconds = "schedsweep.bucket_seconds"

// WriteHeatmap writes one run's EET heatmap, as Violations returns it, to
// path as Parquet in long form, one row per cell in the order of cells:
// run_key (string), user (int64, NULL for the unknown user, as in the
// users and jobs tables), bucket (int64, the bucket's index from the run's
// first submit) and violations (int64). The bucket length goes into the
// file's metadata under MetaBucketSeconds, after meta's three fixed keys
// and in key order with meta.Extra, which may not hold that key. The file
// has the properties of every results file (README.md) and is written to a
// temporary name beside path and renamed into place.
func WriteHeatmap(path, runKey string, bucket sim.Time, cells []HeatCell, meta Metadata) error {
	cols := []column[HeatCell]{
		stringCol("run_key", func(*HeatCell) string { return runKey }),
		userCol(func(c *HeatCell) int32 { return c.User }),
		intCol("bucket", func(c *HeatCell) int64 { return c.Bucket }),
		intCol("violations", func(c *HeatCell) int64 { return c.Count }),
	}
	return writeSeries(path, bucket, cols, cells, meta)
}

// WriteUtilization writes one run's utilization series, as Utilization
// returns it, to path as Parquet, one row per bucket: run_key (string),
// bucket (int64), procs and memory (double, shares in [0, 1]). The bucket
// length and the file's properties are as WriteHeatmap's.
func WriteUtilization(path, runKey string, bucket sim.Time, pts []UtilPoint, meta Metadata) error {
	cols := []column[UtilPoint]{
		stringCol("run_key", func(*UtilPoint) string { return runKey }),
		intCol("bucket", func(p *UtilPoint) int64 { return p.Bucket }),
		floatCol("procs", func(p *UtilPoint) float64 { return p.Procs }, nil),
		floatCol("memory", func(p *UtilPoint) float64 { return p.Memory }, nil),
	}
	return writeSeries(path, bucket, cols, pts, meta)
}

// writeSeries writes rows with the bucket length in the metadata.
func writeSeries[R any](path string, bucket sim.Time, cols []column[R], rows []R, meta Metadata) error {
	if bucket <= 0 {
		return errorFor(path, fmt.Errorf("bucket of %d s is not positive", bucket))
	}
	if _, ok := meta.Extra[MetaBucketSeconds]; ok {
		return errorFor(path, fmt.Errorf("extra metadata key %q is reserved", MetaBucketSeconds))
	}
	extra := map[string]string{MetaBucketSeconds: strconv.FormatInt(int64(bucket), 10)}
	for k, v := range meta.Extra {
		extra[k] = v
	}
	meta.Extra = extra
	return writeTable(path, cols, batchRows, rows, meta)
}
