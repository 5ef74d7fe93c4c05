package workloads

import (
	"io"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
	"gonum.org/v1/gonum/stat"
)

// TraceInfo summarises a workload, as `schedsweep trace info` prints it.
type TraceInfo struct {
	Jobs int
	// Users counts distinct user ids; UnknownUser counts jobs whose user is
	// not given (-1).
	Users, UnknownUser int
	// First and Last are the earliest and latest submit times; Span =
	// Last − First.
	First, Last, Span sim.Time
	// LargestJob is the largest processor need; MaxRuntime the longest run.
	LargestJob int64
	MaxRuntime sim.Time
	// Work is Σ run time × processors over the jobs with a run time, in
	// processor-seconds.
	Work float64
	// WithEstimate is how many jobs give an estimate (requested time).
	WithEstimate int
	// Accuracy holds the quartiles (25%, 50%, 75%) of run time / estimate
	// over the jobs with a positive estimate and a run time; all zero if
	// there are none.
	Accuracy [3]float64
}

// OfferedLoad is Work / (procs × Span): the share of a machine of procs
// processors the workload would keep busy if every job started at once.
// It is 0 when either is zero.
func (t *TraceInfo) OfferedLoad(procs int64) float64 {
	if procs <= 0 || t.Span <= 0 {
		return 0
	}
	return t.Work / (float64(procs) * float64(t.Span))
}

// Describe reads src to the end and summarises it. It is one pass and
// O(n log n) only for the accuracy quartiles.
func Describe(src sim.Source) (TraceInfo, error) {
	var t TraceInfo
	users := make(map[int32]struct{})
	var acc []float64
	for {
		r, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return t, err
		}
		if t.Jobs == 0 || r.Submit < t.First {
			t.First = r.Submit
		}
		t.Last = max(t.Last, r.Submit)
		t.Jobs++
		if r.User >= 0 {
			users[r.User] = struct{}{}
		} else {
			t.UnknownUser++
		}
		t.LargestJob = max(t.LargestJob, r.Need[sim.Procs])
		if r.Runtime >= 0 {
			t.MaxRuntime = max(t.MaxRuntime, r.Runtime)
			t.Work += float64(r.Runtime) * float64(r.Need[sim.Procs])
		}
		if r.Estimate >= 0 {
			t.WithEstimate++
			if r.Estimate > 0 && r.Runtime >= 0 {
				acc = append(acc, float64(r.Runtime)/float64(r.Estimate))
			}
		}
	}
	t.Users = len(users)
	t.Span = t.Last - t.First
	if len(acc) > 0 {
		slices.Sort(acc)
		for i, q := range []float64{0.25, 0.5, 0.75} {
			t.Accuracy[i] = stat.Quantile(q, stat.Empirical, acc, nil)
		}
	}
	return t, nil
}
