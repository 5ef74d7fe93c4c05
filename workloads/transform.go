package workloads

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// Transformations wrap a sim.Source and yield a changed stream. They read
// one job at a time and hold nothing but their own state, so they compose
// freely: Take(LoadFactor(Window(src, a, b), 1.2), 1000).

// ErrBadFactor is wrapped by the error for a load factor that is not a
// positive number.
var ErrBadFactor = errors.New("load factor must be a positive number")

// LoadFactor rescales inter-arrival times so that the offered load becomes f
// times the original: every submit time t becomes t0 + (t − t0)/f, t0 being
// the first job's submit time, rounded to the nearest second. Sizes and run
// times are unchanged. This is the convention of the MEASY paper (section
// 3.3) and of Feitelson's load studies: a factor of 2 halves every gap.
// Rounding the scaled time, not each gap, keeps the error below a second
// over the whole trace.
func LoadFactor(src sim.Source, f float64) (sim.Source, error) {
	if !(f > 0) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%w: got %v", ErrBadFactor, f)
	}
	return &loadFactor{src: src, f: f, inv: 1 / f, first: -1}, nil
}

type loadFactor struct {
	src   sim.Source
	f     float64
	inv   float64
	first sim.Time
}

func (l *loadFactor) Next() (sim.Record, error) {
	r, err := l.src.Next()
	if err != nil {
		return r, err
	}
	if l.first < 0 {
		l.first = r.Submit
	}
	t := math.Round(float64(r.Submit-l.first) * l.inv)
	if t > maxScaled-float64(l.first) {
		return sim.Record{}, fmt.Errorf("job %d: load factor %v moves its submit time %d s after the first job's to %.3g s, past the %d s (MaxTime) times may reach",
			r.ID, l.f, r.Submit-l.first, t, int64(maxScaled))
	}
	r.Submit = l.first + sim.Time(t)
	return r, nil
}

// maxScaled is the latest submit time LoadFactor yields: MaxTime, the bound
// of every time (bounds.go), so that a tiny factor is an error naming it
// rather than a time past what the engine's sums are proven for.
const maxScaled = MaxTime

// FactorForLoad returns the load factor that takes a workload of offered load
// current to target.
func FactorForLoad(current, target float64) (float64, error) {
	if !(current > 0) || !(target > 0) {
		return 0, fmt.Errorf("%w: cannot take a load of %v to %v", ErrBadFactor, current, target)
	}
	return target / current, nil
}

// Load is what a job stream offers a machine, as the runs table's
// offered_load counts it (results/README.md): the work of the jobs the
// machine admits over the time their submits span.
type Load struct {
	// Work is Σ processors × run time over the jobs the machine admits
	// (sim.Admit), in processor-seconds, a job's run time cut to its
	// estimate when it runs past it, as the engine kills it there
	// (sim.Outcome.Work).
	Work float64
	// Span is the latest submit minus the earliest, over every job,
	// rejected ones included.
	Span sim.Time
	// Jobs counts every job; Admitted those the machine admits.
	Jobs, Admitted int
}

// Offered returns the offered load on procs processors, Work / (procs ×
// Span), or 0 when either is 0.
func (l Load) Offered(procs int64) float64 {
	if procs <= 0 || l.Span <= 0 {
		return 0
	}
	return l.Work / (float64(procs) * float64(l.Span))
}

// MeasureLoad reads src to its end and returns its Load on a machine of the
// given capacity, admitting jobs as the runner's engine does: a missing
// estimate becomes the run time (sim.EstimateFromRuntime) and a job is
// killed at its estimate. It is one pass and O(1) in memory.
func MeasureLoad(src sim.Source, capacity sim.Resources) (Load, error) {
	var l Load
	var first, last sim.Time
	for {
		r, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return l, err
		}
		if l.Jobs == 0 || r.Submit < first {
			first = r.Submit
		}
		last = max(last, r.Submit)
		l.Jobs++
		o := sim.Outcome{Record: r}
		if sim.Admit(&o, capacity, sim.EstimateFromRuntime) != sim.NoReason {
			continue
		}
		l.Admitted++
		l.Work += float64(o.Need[sim.Procs]) * float64(min(o.Runtime, o.Estimate))
	}
	if l.Jobs > 0 {
		l.Span = last - first
	}
	return l, nil
}

// ErrUnreachableLoad is wrapped by the error for a target offered load that
// no load factor reaches within 1 %.
var ErrUnreachableLoad = errors.New("target offered load cannot be reached")

// SolveLoadFactor returns the load factor f that takes a stream of Load l
// to offered load target on procs processors, and the offered load the
// stream has after LoadFactor(src, f): LoadFactor leaves the work alone and
// turns the span S into round(S / f), so the best span is the whole number
// of seconds nearest Work / (procs × target), and f is S over it. The
// offered load it gives is within 1 % of target whenever that span is 50 s
// or more; an error wrapping ErrUnreachableLoad is returned when it is not
// within 1 % (a stream whose submits all fall in one second, no work, or a
// target so high that its span is under a minute).
func SolveLoadFactor(l Load, procs int64, target float64) (f, achieved float64, err error) {
	if !(target > 0) || math.IsInf(target, 0) {
		return 0, 0, fmt.Errorf("%w: target %v is not a positive number", ErrUnreachableLoad, target)
	}
	if l.Span <= 0 || !(l.Work > 0) || procs <= 0 {
		return 0, 0, fmt.Errorf("%w: the workload's %d jobs offer %.4g processor-seconds over %d s of submits, and no load factor changes that",
			ErrUnreachableLoad, l.Jobs, l.Work, l.Span)
	}
	span := math.Max(1, math.Round(l.Work/(float64(procs)*target)))
	f = float64(l.Span) / span
	// The span LoadFactor gives, computed as it computes it.
	got := math.Round(float64(l.Span) * (1 / f))
	achieved = l.Work / (float64(procs) * got)
	if math.Abs(achieved/target-1) > 0.01 {
		return 0, 0, fmt.Errorf("%w within 1 %%: %v would need the workload's submits to span %.3g s, and whole seconds give %.4g at best",
			ErrUnreachableLoad, target, l.Work/(float64(procs)*target), achieved)
	}
	return f, achieved, nil
}

// Window yields the jobs submitted in [from, to) and stops reading its
// source at the first job submitted at or after to.
func Window(src sim.Source, from, to sim.Time) sim.Source {
	return &window{src: src, from: from, to: to}
}

type window struct {
	src      sim.Source
	from, to sim.Time
	done     bool
}

func (w *window) Next() (sim.Record, error) {
	for !w.done {
		r, err := w.src.Next()
		if err != nil {
			return r, err
		}
		if r.Submit >= w.to {
			w.done = true
			break
		}
		if r.Submit >= w.from {
			return r, nil
		}
	}
	return sim.Record{}, io.EOF
}

// Filter yields the jobs for which keep returns true.
func Filter(src sim.Source, keep func(*sim.Record) bool) sim.Source {
	return &filter{src: src, keep: keep}
}

type filter struct {
	src  sim.Source
	keep func(*sim.Record) bool
}

func (f *filter) Next() (sim.Record, error) {
	for {
		r, err := f.src.Next()
		if err != nil || f.keep(&r) {
			return r, err
		}
	}
}

// Users returns a Filter predicate keeping the jobs of the given users.
func Users(ids ...int32) func(*sim.Record) bool {
	return func(r *sim.Record) bool { return slices.Contains(ids, r.User) }
}

// Queues returns a Filter predicate keeping the jobs of the given queues.
func Queues(ids ...int32) func(*sim.Record) bool {
	return func(r *sim.Record) bool { return slices.Contains(ids, r.Queue) }
}

// Partitions returns a Filter predicate keeping the jobs of the given
// partitions.
func Partitions(ids ...int32) func(*sim.Record) bool {
	return func(r *sim.Record) bool { return slices.Contains(ids, r.Partition) }
}

// NodesToProcs converts a workload that counts nodes into one that counts
// processors: every job's processor need is multiplied by perNode (a trace
// whose size fields give nodes of perNode cores each).
func NodesToProcs(src sim.Source, perNode int64) (sim.Source, error) {
	if perNode < 1 {
		return nil, fmt.Errorf("processors per node must be at least 1, got %d", perNode)
	}
	return Map(src, func(r *sim.Record) error {
		if r.Need[sim.Procs] > math.MaxInt64/perNode {
			return fmt.Errorf("job %d: %d nodes × %d processors overflows", r.ID, r.Need[sim.Procs], perNode)
		}
		r.Need[sim.Procs] *= perNode
		return nil
	}), nil
}

// Map applies change to every job; an error from change ends the stream.
// change must not keep its argument: the same record is reused for every
// job.
func Map(src sim.Source, change func(*sim.Record) error) sim.Source {
	return &mapped{src: src, change: change}
}

type mapped struct {
	src    sim.Source
	change func(*sim.Record) error
	// cur is the job being changed: change takes a pointer, and a pointer
	// to a local would move every job to the heap.
	cur sim.Record
}

func (m *mapped) Next() (sim.Record, error) {
	var err error
	if m.cur, err = m.src.Next(); err != nil {
		return m.cur, err
	}
	if err := m.change(&m.cur); err != nil {
		return sim.Record{}, err
	}
	return m.cur, nil
}
