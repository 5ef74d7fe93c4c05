package workloads

import (
	"errors"
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// TestSolveLoadFactorOnEveryTrace checks that SolveLoadFactor reaches each
// target offered load within 1 % on every shared trace and on the Lublin
// model, measured again after LoadFactor, on a machine that admits every
// job and on one that rejects the largest (the offered load counts only
// admitted jobs' work), and that the load it promises is the load
// measured.
func TestSolveLoadFactorOnEveryTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every shared trace")
	}
	type workload struct {
		name string
		recs func(t *testing.T) []sim.Record
	}
	var cases []workload
	for _, tc := range traces {
		cases = append(cases, workload{tc.file, func(t *testing.T) []sim.Record { return readShared(t, tc) }})
	}
	cases = append(cases, workload{"lublin model, 5000 jobs", func(t *testing.T) []sim.Record {
		p := DefaultLublinParams()
		p.Nodes, p.Users = 256, 30
		return lublinJobs(t, p, 3, 5000)
	}})
	for _, wc := range cases {
		t.Run(wc.name, func(t *testing.T) {
			recs := wc.recs(t)
			info, err := Describe(sim.NewSliceSource(recs))
			if err != nil {
				t.Fatal(err)
			}
			for _, procs := range []int64{info.LargestJob, max(1, info.LargestJob/2)} {
				capacity := sim.Resources{sim.Procs: procs, sim.Memory: math.MaxInt64, sim.GPUs: math.MaxInt64}
				base, err := MeasureLoad(sim.NewSliceSource(recs), capacity)
				if err != nil {
					t.Fatal(err)
				}
				for _, target := range []float64{0.5, 0.7, 0.85, 0.95, 1.2} {
					checkSolvedLoad(t, recs, base, capacity, target)
				}
			}
		})
	}
}

// checkSolvedLoad checks that the factor SolveLoadFactor finds for recs,
// whose load on capacity is base, gives the target offered load within 1 %,
// exactly the load it promised, with the same work and admitted jobs.
func checkSolvedLoad(t *testing.T, recs []sim.Record, base Load, capacity sim.Resources, target float64) {
	t.Helper()
	procs := capacity[sim.Procs]
	f, promised, err := SolveLoadFactor(base, procs, target)
	if err != nil {
		t.Fatalf("%d processors, target %v: %v", procs, target, err)
	}
	src, err := LoadFactor(sim.NewSliceSource(recs), f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MeasureLoad(src, capacity)
	if err != nil {
		t.Fatal(err)
	}
	load := got.Offered(procs)
	if math.Abs(load/target-1) > 0.01 {
		t.Errorf("%d processors, target %v: factor %v gives %v", procs, target, f, load)
	}
	if load != promised {
		t.Errorf("%d processors, target %v: SolveLoadFactor promised %v; LoadFactor gave %v", procs, target, promised, load)
	}
	if got.Work != base.Work || got.Admitted != base.Admitted {
		t.Errorf("%d processors, target %v: work or admitted jobs changed: %v/%d, was %v/%d",
			procs, target, got.Work, got.Admitted, base.Work, base.Admitted)
	}
}

// TestMeasureLoad checks the work and span MeasureLoad counts against a
// hand computation: a rejected job's submit counts towards the span, not
// its work; a job running past its estimate counts up to it; a missing
// estimate is the run time.
func TestMeasureLoad(t *testing.T) {
	recs := []sim.Record{
		mkrec(1, 10, 100, 200, 2, 1),        // 200 processor-seconds
		mkrec(2, 20, 50, 30, 4, 1),          // killed at 30: 120
		mkrec(3, 30, 40, sim.Missing, 1, 1), // estimate from run time: 40
		mkrec(4, 110, 10, 10, 9, 1),         // too large for 8: rejected
		mkrec(5, 60, -1, 10, 1, 1),          // no run time: rejected
	}
	l, err := MeasureLoad(sim.NewSliceSource(recs), sim.Resources{sim.Procs: 8})
	if err != nil {
		t.Fatal(err)
	}
	want := Load{Work: 360, Span: 100, Jobs: 5, Admitted: 3}
	if l != want {
		t.Errorf("MeasureLoad: got %+v; want %+v", l, want)
	}
	if got, want := l.Offered(8), 360.0/800; got != want {
		t.Errorf("Offered(8): got %v; want %v", got, want)
	}
}

func TestSolveLoadFactorErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		l      Load
		target float64
	}{
		{"one submit time", Load{Work: 100, Span: 0, Jobs: 3, Admitted: 3}, 0.5},
		{"no work", Load{Work: 0, Span: 100, Jobs: 3}, 0.5},
		{"zero target", Load{Work: 100, Span: 100, Jobs: 3, Admitted: 3}, 0},
		{"NaN target", Load{Work: 100, Span: 100, Jobs: 3, Admitted: 3}, math.NaN()},
		// 100 processor-seconds on 1 processor at load 30 needs a span of
		// 3.3 s: 3 s gives 33.3, 11 % over.
		{"span of seconds", Load{Work: 100, Span: 1000, Jobs: 3, Admitted: 3}, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := SolveLoadFactor(tc.l, 1, tc.target); !errors.Is(err, ErrUnreachableLoad) {
				t.Errorf("SolveLoadFactor(%+v, 1, %v): got %v; want ErrUnreachableLoad", tc.l, tc.target, err)
			}
		})
	}
}
