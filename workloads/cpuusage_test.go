package workloads

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// sizedJobs returns n jobs cycling through the given processor counts.
func sizedJobs(n int, procs ...int64) []sim.Record {
	recs := make([]sim.Record, n)
	for i := range recs {
		recs[i].ID = sim.JobID(i + 1)
		recs[i].Runtime = 100
		recs[i].Need[sim.Procs] = procs[i%len(procs)]
	}
	return recs
}

func TestCPUUsage(t *testing.T) {
	tests := []struct {
		name     string
		p        CPUUsageParams
		lo, hi   float64 // range of multi-process usages
		meanWant float64
	}{
		{"paper", DefaultCPUUsageParams(), 0.40, 1, 0.70},
		{"full", FullCPUUsageParams(), 1, 1, 1},
		{"narrow", CPUUsageParams{Single: 0.9, MultiMin: 0.5, MultiMax: 0.6}, 0.5, 0.6, 0.55},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs := sizedJobs(20000, 1, 2, 64, 0)
			src, err := NewCPUUsage(sim.NewSliceSource(recs), tc.p, 1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := sim.ReadAll(src)
			if err != nil {
				t.Fatal(err)
			}
			sum, n := 0.0, 0
			for i, r := range got {
				want := recs[i]
				want.CPUUsage = r.CPUUsage
				if r != want {
					t.Fatalf("job %d: got %+v; want only CPUUsage changed from %+v", r.ID, r, recs[i])
				}
				switch procs := r.Need[sim.Procs]; {
				case procs <= 1 && r.CPUUsage != tc.p.Single:
					t.Errorf("job %d with %d processors: usage %v; want %v", r.ID, procs, r.CPUUsage, tc.p.Single)
				case procs > 1 && (r.CPUUsage < tc.lo || r.CPUUsage > tc.hi || (tc.lo < tc.hi && r.CPUUsage == tc.hi)):
					t.Errorf("job %d with %d processors: usage %v; want in [%v, %v)", r.ID, procs, r.CPUUsage, tc.lo, tc.hi)
				case procs > 1:
					sum += r.CPUUsage
					n++
				}
			}
			if mean := sum / float64(n); math.Abs(mean-tc.meanWant) > 0.01 {
				t.Errorf("mean usage of %d multi-process jobs: got %.4f; want %.2f ± 0.01", n, mean, tc.meanWant)
			}
		})
	}
}

func TestWithCPUUsageDeterminism(t *testing.T) {
	run := func(seed uint64) []sim.Record {
		got, err := sim.ReadAll(WithCPUUsage(sim.NewSliceSource(sizedJobs(100, 4, 1)), seed))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	a, b, c := run(3), run(3), run(4)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("seed 3 twice (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, c) {
		t.Error("seeds 3 and 4 gave the same usages")
	}
}

func TestCPUUsagePassesErrors(t *testing.T) {
	bad := errors.New("broken trace")
	if _, err := WithCPUUsage(errSource{bad}, 1).Next(); !errors.Is(err, bad) {
		t.Errorf("Next over a failing source: got %v; want %v", err, bad)
	}
}

func TestCPUUsageBadParams(t *testing.T) {
	tests := []struct {
		name string
		p    CPUUsageParams
		want string
	}{
		{"single", CPUUsageParams{Single: 0, MultiMin: 0.4, MultiMax: 1}, `cpuusage: parameter "single": "0" must be in (0, 1]`},
		{"multi_min", CPUUsageParams{Single: 1, MultiMin: 1.2, MultiMax: 1}, `cpuusage: parameter "multi_min": "1.2" must be in (0, 1]`},
		{"multi_max below min", CPUUsageParams{Single: 1, MultiMin: 0.4, MultiMax: 0.3}, `cpuusage: parameter "multi_max": "0.3" must be in [multi_min, 1]`},
		{"multi_max NaN", CPUUsageParams{Single: 1, MultiMin: 0.4, MultiMax: math.NaN()}, `cpuusage: parameter "multi_max": "NaN" must be in [multi_min, 1]`},
	}
	for _, tc := range tests {
		_, err := NewCPUUsage(sim.NewSliceSource(nil), tc.p, 1)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewCPUUsage with bad %s: got error %v; want %q", tc.name, err, tc.want)
		}
	}
}
