package workloads

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/sim"
)

// modelShare is the maximum's share with a full head: 89% less the sizes
// of popularity ranks 2 to 20.
var modelShare = (tsafrirHeadSum - headSizeSum(tsafrirTop)) / 100

func TestTsafrirModelShare(t *testing.T) {
	if math.Abs(modelShare-0.2173) > 0.00005 {
		t.Errorf("share at the maximum: got %.5f; want 0.2173 (workload-models.md (d))", modelShare)
	}
}

func TestTsafrirBinCount(t *testing.T) {
	for _, tc := range []struct{ jobs, want int }{
		{1, 1}, {20, 10}, {110, 15}, {200, 20}, {1000, 35}, {5000, 59}, {10000, 90},
		{70000, 340}, {100000, 378}, {250000, 565}, {1000000, 565},
	} {
		if got := tsafrirBinCount(tc.jobs); got != tc.want {
			t.Errorf("tsafrirBinCount(%d): got %d; want %d", tc.jobs, got, tc.want)
		}
	}
}

func TestTsafrirHeadValues(t *testing.T) {
	m, h := minute, hour
	for _, tc := range []struct {
		max  sim.Time
		want []sim.Time
	}{
		{10 * h, []sim.Time{10 * h, 5 * m, 10 * m, 15 * m, 20 * m, 30 * m, 1 * h, 2 * h, 3 * h, 4 * h, 5 * h, 6 * h, 7 * h,
			7*h + 40*m, 8 * h, 8*h + 20*m, 8*h + 40*m, 9 * h, 9*h + 20*m, 9*h + 40*m}},
		{1 * h, []sim.Time{1 * h, 5 * m, 10 * m, 15 * m, 20 * m, 25 * m, 30 * m, 35 * m, 40 * m, 45 * m, 50 * m, 55 * m}},
		{5760, []sim.Time{5760, 5 * m, 10 * m, 15 * m, 20 * m, 25 * m, 30 * m, 35 * m, 40 * m, 45 * m, 50 * m, 55 * m, 1 * h,
			1*h + 5*m, 1*h + 10*m, 1*h + 15*m, 1*h + 20*m, 1*h + 25*m, 1*h + 30*m, 1*h + 35*m}},
		{1000 * h, []sim.Time{1000 * h, 5 * m, 10 * m, 15 * m, 20 * m, 30 * m, 1 * h, 2 * h, 3 * h, 4 * h, 5 * h, 6 * h, 8 * h,
			10 * h, 12 * h, 18 * h, 200 * h, 400 * h, 600 * h, 800 * h}},
	} {
		if diff := cmp.Diff(tc.want, tsafrirHeadValues(tc.max)); diff != "" {
			t.Errorf("head values for maximum %d s (-want +got):\n%s", tc.max, diff)
		}
	}
}

// TestTsafrirHeadRanks checks that the drawn popularity ranks are a
// permutation with the maximum's rank first; that, with a full head, a time
// rank takes the most popular rank that is due (no later time rank shows it
// in any log) whenever one is; and that time rank 1 (5 minutes, ranks 1, 3,
// 4 and 6 in the logs) tends to be popular.
func TestTsafrirHeadRanks(t *testing.T) {
	var last [tsafrirTop + 1]int
	for tr, row := range tsafrirTimeToPop {
		for _, pr := range row {
			last[pr] = max(last[pr], tr)
		}
	}
	for _, tc := range []struct{ maxRank, n int }{{1, 20}, {3, 20}, {1, 12}, {4, 12}, {2, 19}} {
		t.Run(fmt.Sprintf("rank=%d,n=%d", tc.maxRank, tc.n), func(t *testing.T) {
			r := NewStream(9, StreamExtra)
			first := 0.0 // mean popularity rank of time rank 1
			for range 2000 {
				ranks := tsafrirHeadRanks(r, tc.maxRank, tc.n)
				sorted := slices.Sorted(slices.Values(ranks))
				if ranks[0] != tc.maxRank || len(ranks) != tc.n || sorted[0] != 1 || sorted[tc.n-1] != tc.n || len(slices.Compact(sorted)) != tc.n {
					t.Fatalf("got ranks %v; want a permutation of 1…%d starting with %d", ranks, tc.n, tc.maxRank)
				}
				if tc.n == tsafrirTop {
					checkDueRanks(t, ranks, &last)
				}
				first += float64(ranks[1]) / 2000
			}
			if first > float64(tc.n)/3 {
				t.Errorf("mean popularity rank of time rank 1: got %.1f; want a popular one, below %d", first, tc.n/3)
			}
		})
	}
}

// checkDueRanks checks that each time rank of a full head of ranks takes
// the most popular rank that is due, if one is: a rank no later time rank
// shows in any log (last[pr] is the last time rank that shows rank pr).
func checkDueRanks(t *testing.T, ranks []int, last *[tsafrirTop + 1]int) {
	t.Helper()
	for tr := 1; tr < len(ranks); tr++ {
		due := 0
		for pr := 1; pr <= tsafrirTop && due == 0; pr++ {
			if last[pr] <= tr && !slices.Contains(ranks[:tr], pr) {
				due = pr
			}
		}
		if due != 0 && ranks[tr] != due {
			t.Fatalf("time rank %d: got popularity rank %d; want %d, the most popular due one (ranks %v)", tr, ranks[tr], due, ranks)
		}
	}
}

// TestTsafrirHistogram checks the oracles of workload-models.md (d): 90
// values for 10,000 jobs and 35 for 1,000, counts summing to the jobs, about
// 89% of jobs in the 20 most used values, and the maximum the most used with
// about 21.7%.
func TestTsafrirHistogram(t *testing.T) {
	for _, tc := range []struct {
		jobs, bins int
		max        sim.Time
		tol        float64 // of the top-20 share; rounding to whole jobs weighs more for fewer jobs
	}{{10000, 90, 10 * hour, 0.005}, {1000, 35, 10 * hour, 0.01}, {10000, 90, 18 * hour, 0.005}, {100000, 378, 36 * hour, 0.005}} {
		for seed := uint64(1); seed <= 5; seed++ {
			t.Run(fmt.Sprintf("jobs=%d,max=%d,seed=%d", tc.jobs, tc.max, seed), func(t *testing.T) {
				bins := tsafrirHistogram(tc.jobs, TsafrirParams{MaxEstimate: tc.max}, NewStream(seed, StreamEstimates))
				checkHistogram(t, bins, tc.jobs, tc.max)
				if len(bins) != tc.bins {
					t.Errorf("distinct estimates: got %d; want %d", len(bins), tc.bins)
				}
				counts := make([]int, len(bins))
				for i, b := range bins {
					counts[i] = b.jobs
				}
				slices.Sort(counts)
				slices.Reverse(counts)
				top := 0
				for _, c := range counts[:tsafrirTop] {
					top += c
				}
				if got := float64(top) / float64(tc.jobs); math.Abs(got-0.89) > tc.tol {
					t.Errorf("share of the 20 most used estimates: got %.4f; want 0.89 ± %g", got, tc.tol)
				}
				maxJobs := bins[len(bins)-1].jobs
				if maxJobs != counts[0] {
					t.Errorf("jobs at the maximum: got %d; want the most, %d", maxJobs, counts[0])
				}
				if got := float64(maxJobs) / float64(tc.jobs); math.Abs(got-modelShare) > 0.001 {
					t.Errorf("share at the maximum: got %.4f; want %.4f ± 0.001", got, modelShare)
				}
			})
		}
	}
}

// checkHistogram checks what every histogram must satisfy: ascending
// distinct values in (0, maximum], the maximum present, every head value
// present, counts summing to jobs.
func checkHistogram(t *testing.T, bins []estBin, jobs int, maxEst sim.Time) {
	t.Helper()
	sum := 0
	for i, b := range bins {
		if b.est <= 0 || b.est > maxEst || i > 0 && b.est <= bins[i-1].est || b.jobs < 0 {
			t.Fatalf("bin %d: got %+v after %+v; want ascending values in (0, %d] and a count ≥ 0", i, b, bins[max(i-1, 0)], maxEst)
		}
		sum += b.jobs
	}
	if sum != jobs {
		t.Errorf("counts: got sum %d; want %d", sum, jobs)
	}
	if bins[len(bins)-1].est != maxEst {
		t.Errorf("largest value: got %d; want the maximum %d", bins[len(bins)-1].est, maxEst)
	}
	for _, e := range tsafrirHeadValues(maxEst) {
		if _, ok := slices.BinarySearchFunc(bins, e, func(b estBin, e sim.Time) int { return int(b.est - e) }); !ok {
			t.Errorf("head value %d s: missing from the histogram", e)
		}
	}
}

// TestTsafrirHistogramSmall covers small job counts and a short maximum
// (a head of fewer than 20 values).
func TestTsafrirHistogramSmall(t *testing.T) {
	for _, tc := range []struct {
		jobs int
		max  sim.Time
	}{{1, 10 * hour}, {5, 10 * hour}, {19, 10 * hour}, {40, 10 * hour}, {1000, hour}, {10000, hour}, {300, 5000}} {
		t.Run(fmt.Sprintf("jobs=%d,max=%d", tc.jobs, tc.max), func(t *testing.T) {
			bins := tsafrirHistogram(tc.jobs, TsafrirParams{MaxEstimate: tc.max}, NewStream(1, StreamEstimates))
			checkHistogram(t, bins, tc.jobs, tc.max)
		})
	}
}

// lublin256 returns n jobs of the Lublin model on 256 nodes, classes off.
func lublin256(t testing.TB, seed uint64, n int) []sim.Record {
	p := DefaultLublinParams()
	p.Nodes, p.Classes = 256, false
	return lublinJobs(t, p, seed, n)
}

// checkAssigned checks AssignTsafrir's result against the records before:
// order and every field kept but the estimate and cut run times, every
// estimate at least the run time, cut counted, and the estimates exactly
// the histogram drawn from the same seed.
func checkAssigned(t *testing.T, before, after []sim.Record, p TsafrirParams, seed uint64, cut int) {
	t.Helper()
	wantCut := 0
	got := map[sim.Time]int{}
	for i, a := range after {
		b := before[i]
		if b.Runtime > p.MaxEstimate {
			b.Runtime = p.MaxEstimate
			wantCut++
		}
		b.Estimate = a.Estimate
		if diff := cmp.Diff(b, a); diff != "" {
			t.Fatalf("record %d: changed beyond its estimate and cut run time (-want +got):\n%s", i, diff)
		}
		if a.Estimate < a.Runtime {
			t.Fatalf("record %d: got estimate %d below run time %d", i, a.Estimate, a.Runtime)
		}
		got[a.Estimate]++
	}
	if cut != wantCut {
		t.Errorf("cut: got %d; want %d", cut, wantCut)
	}
	want := map[sim.Time]int{}
	for _, b := range tsafrirHistogram(len(before), p, NewStream(seed, StreamEstimates)) {
		if b.jobs > 0 {
			want[b.est] = b.jobs
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("assigned estimates differ from the histogram (-want +got):\n%s", diff)
	}
}

func TestAssignTsafrir(t *testing.T) {
	for _, tc := range []struct {
		name string
		jobs int
		p    TsafrirParams
	}{
		{"defaults 10000", 10000, DefaultTsafrirParams()},
		{"defaults 1000", 1000, DefaultTsafrirParams()},
		{"18 h", 5000, TsafrirParams{MaxEstimate: 18 * hour}},
		{"45 h", 20000, TsafrirParams{MaxEstimate: 45 * hour}},
		{"share 0.3", 10000, TsafrirParams{MaxEstimate: 10 * hour, MaxShare: 0.3}},
		{"3 jobs", 3, DefaultTsafrirParams()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := lublin256(t, 7, tc.jobs)
			after := slices.Clone(before)
			cut, err := AssignTsafrir(after, tc.p, 3)
			if err != nil {
				t.Fatal(err)
			}
			checkAssigned(t, before, after, tc.p, 3, cut)
		})
	}
	if cut, err := AssignTsafrir(nil, DefaultTsafrirParams(), 1); cut != 0 || err != nil {
		t.Errorf("AssignTsafrir(nil): got %d, %v; want 0, nil", cut, err)
	}
}

// TestTsafrirMaxShare checks that exactly round(max_share × jobs) jobs get
// the maximum, and that the head values keep 89% of the jobs between them.
func TestTsafrirMaxShare(t *testing.T) {
	head := tsafrirHeadValues(10 * hour)
	for _, share := range []float64{0.05, 0.1, 0.3, 0.6, 0.88} {
		t.Run(fmt.Sprint(share), func(t *testing.T) {
			recs := lublin256(t, 1, 10000)
			p := TsafrirParams{MaxEstimate: 10 * hour, MaxShare: share}
			if _, err := AssignTsafrir(recs, p, 5); err != nil {
				t.Fatal(err)
			}
			count := map[sim.Time]int{}
			for _, r := range recs {
				count[r.Estimate]++
			}
			if got, want := count[p.MaxEstimate], int(math.Round(share*10000)); got != want {
				t.Errorf("jobs at the maximum with max_share %g: got %d; want %d", share, got, want)
			}
			inHead := 0
			for _, e := range head {
				inHead += count[e]
			}
			if got := float64(inHead) / 10000; math.Abs(got-0.89) > 0.005 {
				t.Errorf("share of the head values with max_share %g: got %.4f; want 0.89 ± 0.005", share, got)
			}
		})
	}
}

// maps yields the values of m.
func maps(m map[sim.Time]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func TestTsafrirImpossible(t *testing.T) {
	recs := make([]sim.Record, 1000)
	for i := range recs {
		recs[i].Runtime = 60
		if i%10 < 3 {
			recs[i].Runtime = 50000 // cut to 36,000 s: 300 jobs need the maximum
		}
	}
	before := slices.Clone(recs)
	cut, err := AssignTsafrir(recs, DefaultTsafrirParams(), 1)
	want := "tsafrir: impossible assignment: the 219 longest jobs run at least 36000 s, but only 218 of the 1000 estimates are that long; raise max_estimate (now 36000) or max_share (now 0.218)"
	if err == nil || err.Error() != want || cut != 0 {
		t.Errorf("300 of 1000 jobs over the maximum: got %d, %v; want 0, %q", cut, err, want)
	}
	if diff := cmp.Diff(before, recs); diff != "" {
		t.Errorf("records changed by a failed assignment (-before +after):\n%s", diff)
	}
	// Following the advice works.
	for _, tc := range []struct {
		p   TsafrirParams
		cut int
	}{{TsafrirParams{MaxEstimate: 36000, MaxShare: 0.3}, 300}, {TsafrirParams{MaxEstimate: 100 * hour}, 0}} {
		if cut, err := AssignTsafrir(slices.Clone(recs), tc.p, 1); err != nil || cut != tc.cut {
			t.Errorf("with %+v: got %d cut, %v; want %d, no error", tc.p, cut, err, tc.cut)
		}
	}
}

func TestTsafrirDeterminism(t *testing.T) {
	recs := lublin256(t, 2, 5000)
	a, b, c := slices.Clone(recs), slices.Clone(recs), slices.Clone(recs)
	for _, x := range []struct {
		recs []sim.Record
		seed uint64
	}{{a, 1}, {b, 1}, {c, 2}} {
		if _, err := AssignTsafrir(x.recs, DefaultTsafrirParams(), x.seed); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("seed 1 twice: estimates differ (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, c) {
		t.Errorf("seeds 1 and 2: got identical estimates; want different")
	}
}

// TestTsafrirTrace assigns estimates to lublin_256.swf.gz with the PWA's
// 10-hour maximum.
func TestTsafrirTrace(t *testing.T) {
	data := sharedTrace(t, "lublin_256.swf.gz")
	recs, err := sim.ReadAll(NewSWFReader(bytes.NewReader(data), "lublin_256.swf.gz", SWFOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(recs)
	p := DefaultTsafrirParams()
	cut, err := AssignTsafrir(recs, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkAssigned(t, before, recs, p, 1, cut)
	count := map[sim.Time]int{}
	for _, r := range recs {
		count[r.Estimate]++
	}
	if len(count) != 90 {
		t.Errorf("lublin_256: got %d distinct estimates; want 90", len(count))
	}
	if got := float64(count[p.MaxEstimate]) / float64(len(recs)); math.Abs(got-modelShare) > 0.001 || slices.Max(slices.Collect(maps(count))) != count[p.MaxEstimate] {
		t.Errorf("lublin_256: got %.4f of jobs at the maximum; want the most used, %.4f", got, modelShare)
	}
	t.Logf("lublin_256: %d of %d run times cut to %d s", cut, len(recs), p.MaxEstimate)
}

// failing yields two records, then err.
type failing struct {
	n   int
	err error
}

func (f *failing) Next() (sim.Record, error) {
	if f.n == 2 {
		return sim.Record{}, f.err
	}
	f.n++
	return sim.Record{Job: sim.Job{ID: sim.JobID(f.n)}, Runtime: 60}, nil
}

func TestTsafrirEstimates(t *testing.T) {
	recs := lublin256(t, 4, 3000)
	for i := range 10 {
		recs[i].Runtime = 40000
	}
	want := slices.Clone(recs)
	wantCut, err := AssignTsafrir(want, DefaultTsafrirParams(), 8)
	if err != nil {
		t.Fatal(err)
	}
	src := TsafrirEstimates(NewSliceSource(recs), DefaultTsafrirParams(), 8)
	got, err := sim.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("served records differ from AssignTsafrir's (-want +got):\n%s", diff)
	}
	if _, err := src.Next(); err != io.EOF {
		t.Errorf("Next after the end: got %v; want io.EOF", err)
	}
	if cut := src.(*TsafrirSource).Cut(); cut != wantCut || cut < 10 {
		t.Errorf("Cut: got %d; want %d", cut, wantCut)
	}

	disk := errors.New("disk on fire")
	for _, tc := range []struct {
		name string
		src  sim.Source
		p    TsafrirParams
		want string
	}{
		{"source error", &failing{err: disk}, DefaultTsafrirParams(), "tsafrir estimates: disk on fire"},
		{"bad parameter", NewSliceSource(recs[:10]), TsafrirParams{MaxEstimate: 60}, `tsafrir estimates: tsafrir: parameter "max_estimate": "60" is below 3600 s`},
		{"impossible", NewSliceSource(slices.Repeat([]sim.Record{{Runtime: 36000}}, 10)), DefaultTsafrirParams(), "tsafrir estimates: tsafrir: impossible assignment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := TsafrirEstimates(tc.src, tc.p, 1)
			for call := 1; call <= 2; call++ {
				_, err := s.Next()
				if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
					t.Errorf("Next call %d: got %v; want an error starting %q", call, err, tc.want)
				}
			}
			if _, err := s.Next(); tc.name == "source error" && !errors.Is(err, disk) {
				t.Errorf("Next: got %v; want it to wrap %v", err, disk)
			}
		})
	}
}

// NewSliceSource is sim's, under a shorter name for these tests.
var NewSliceSource = sim.NewSliceSource

func TestTsafrirParamErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    TsafrirParams
		want string
	}{
		{"zero", TsafrirParams{}, `tsafrir: parameter "max_estimate": "0" is below 3600 s`},
		{"3599", TsafrirParams{MaxEstimate: 3599}, `tsafrir: parameter "max_estimate": "3599" is below 3600 s`},
		{"negative share", TsafrirParams{MaxEstimate: 3600, MaxShare: -0.1}, `tsafrir: parameter "max_share": "-0.1" is outside [0, 0.89)`},
		{"share 0.89", TsafrirParams{MaxEstimate: 3600, MaxShare: 0.89}, `tsafrir: parameter "max_share": "0.89" is outside [0, 0.89)`},
		{"share NaN", TsafrirParams{MaxEstimate: 3600, MaxShare: math.NaN()}, `tsafrir: parameter "max_share": "NaN" is outside [0, 0.89)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := AssignTsafrir(make([]sim.Record, 5), tc.p, 1)
			if err == nil || err.Error() != tc.want {
				t.Errorf("AssignTsafrir with %+v: got %v; want %q", tc.p, err, tc.want)
			}
		})
	}
	p := DefaultTsafrirParams()
	if got, want := params.String(&p), "max_estimate=36000 max_share=0"; got != want {
		t.Errorf("params of DefaultTsafrirParams: got %q; want %q", got, want)
	}
}

func BenchmarkTsafrir(b *testing.B) {
	recs := lublin256(b, 1, 100000)
	work := make([]sim.Record, len(recs))
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		copy(work, recs)
		if _, err := AssignTsafrir(work, DefaultTsafrirParams(), 1); err != nil {
			b.Fatal(err)
		}
		jobs += len(work)
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}
