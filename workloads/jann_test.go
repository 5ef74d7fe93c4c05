package workloads

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

func TestJannCalibration(t *testing.T) {
	p := DefaultJannParams()
	var got []workloadStats
	for seed := range uint64(calibrationSeeds) {
		j, err := NewJann(p, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, measure(t, j, 100_000, p.Procs))
	}
	checkCalibration(t, "jann", got, workloadStats{meanSize: 10.5, serial: 0.408, meanRuntime: 11267.0, load: 0.70})
}

func TestJannExpectation(t *testing.T) {
	size, serial, runtime, load := jannExpect(DefaultJannParams(), JannRanges())
	tests := []struct {
		name      string
		got, want float64
	}{
		{"mean size", size, 10.5},
		{"serial share", serial, 0.408},
		{"mean runtime", runtime, 11267.0},
		{"offered load", load, 0.70},
	}
	for _, tc := range tests {
		if math.Abs(tc.got/tc.want-1) > 0.001 {
			t.Errorf("default table's %s: got %.5g; want %.5g ± 0.1%%", tc.name, tc.got, tc.want)
		}
	}
}

// TestJannRanges checks each range's share of jobs, its sizes and its mean
// runtime against the table.
func TestJannRanges(t *testing.T) {
	ranges := JannRanges()
	var rate float64
	for _, r := range ranges {
		rate += 1 / r.Interarrival.Mean()
	}
	j, err := NewJann(DefaultJannParams(), 5)
	if err != nil {
		t.Fatal(err)
	}
	const n = 400_000
	jobs := make([]float64, len(ranges))
	runtime := make([]float64, len(ranges))
	seen := make([]map[int64]bool, len(ranges))
	for i := range seen {
		seen[i] = map[int64]bool{}
	}
	for range n {
		rec, err := j.Next()
		if err != nil {
			t.Fatal(err)
		}
		size := rec.Need[sim.Procs]
		i := 0
		for int64(ranges[i].Hi) < size {
			i++
		}
		jobs[i]++
		runtime[i] += float64(rec.Runtime)
		seen[i][size] = true
	}
	for i, r := range ranges {
		share := 1 / r.Interarrival.Mean() / rate
		// Hyper-Erlang gaps of CV 2 make counts about five times as
		// variable as Poisson ones.
		tol := 5 * math.Sqrt(5*share*(1-share)/n)
		if got := jobs[i] / n; math.Abs(got-share) > tol {
			t.Errorf("range %d..%d: got %.4f of jobs; want %.4f ± %.4f", r.Lo, r.Hi, got, share, tol)
		}
		if want := min(r.Hi-r.Lo+1, 64); len(seen[i]) < want {
			t.Errorf("range %d..%d: got %d distinct sizes; want at least %d", r.Lo, r.Hi, len(seen[i]), want)
		}
		want := r.Runtime.Mean() + 0.5
		sd := math.Sqrt(r.Runtime.Moment(2) - r.Runtime.Mean()*r.Runtime.Mean())
		tol = 5 * sd / math.Sqrt(jobs[i])
		if got := runtime[i] / jobs[i]; math.Abs(got-want) > tol {
			t.Errorf("range %d..%d: got mean runtime %.0f; want %.0f ± %.0f", r.Lo, r.Hi, got, want, tol)
		}
	}
}

func TestJannSmallMachine(t *testing.T) {
	p := DefaultJannParams()
	p.Procs = 100
	j, err := NewJann(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	var largest int64
	for range 100_000 {
		rec, err := j.Next()
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, rec.Need[sim.Procs])
	}
	if largest != 100 {
		t.Errorf("100 processors: got largest size %d; want 100 (range 65..128 cut at the machine)", largest)
	}
}

func TestJannCustomRanges(t *testing.T) {
	// One range, exponential gaps of mean 10 s and a fixed-shape runtime:
	// Poisson arrivals of 4..4-processor jobs.
	ranges := []JannRange{{Lo: 4, Hi: 4,
		Interarrival: HyperErlang{Order: 1, Rate1: 0.1, P: 1},
		Runtime:      HyperErlang{Order: 5, Rate1: 5.0 / 300, P: 1}}}
	j, err := NewJannRanges(JannParams{Procs: 8, InterarrivalScale: 2}, ranges, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := measure(t, j, 50_000, 8)
	if g.meanSize != 4 {
		t.Errorf("got mean size %v; want 4", g.meanSize)
	}
	// Scale 2 doubles the 10 s gaps: load = 4·300.5/(8·20).
	if want := 4 * 300.5 / (8 * 20.0); math.Abs(g.load/want-1) > 0.02 {
		t.Errorf("got load %.4f; want %.4f ± 2%%", g.load, want)
	}
}

func TestJannBadParams(t *testing.T) {
	good := JannRanges()
	bad := func(edit func(r *JannRange)) []JannRange {
		rs := JannRanges()
		edit(&rs[2])
		return rs
	}
	tests := []struct {
		name   string
		p      JannParams
		ranges []JannRange
		want   string
	}{
		{"zero procs", JannParams{Procs: 0, InterarrivalScale: 1}, good, `jann: parameter "procs": "0" is outside 1..1048576`},
		{"zero scale", JannParams{Procs: 320, InterarrivalScale: 0}, good, `parameter "interarrival_scale": "0" is outside (0, 1e6]`},
		{"NaN scale", JannParams{Procs: 320, InterarrivalScale: math.NaN()}, good, `parameter "interarrival_scale": "NaN" is outside`},
		{"inverted range", DefaultJannParams(), bad(func(r *JannRange) { r.Lo, r.Hi = 8, 5 }),
			"jann: range 2: sizes 8..5 are not 1 ≤ lo ≤ hi"},
		{"bad interarrival", DefaultJannParams(), bad(func(r *JannRange) { r.Interarrival.Order = 0 }),
			"jann: range 2 (3..4): interarrival: order 0 is outside 1..100"},
		{"bad runtime", DefaultJannParams(), bad(func(r *JannRange) { r.Runtime.P = -0.5 }),
			"jann: range 2 (3..4): runtime: branch probability -0.5 is outside [0, 1]"},
		{"no range fits", DefaultJannParams(), []JannRange{{Lo: 500, Hi: 600, Interarrival: good[0].Interarrival, Runtime: good[0].Runtime}},
			"jann: no size range starts at or below procs 320"},
		{"empty table", DefaultJannParams(), nil, "jann: no size range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewJannRanges(tc.p, tc.ranges, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewJannRanges(%+v) = %v; want an error containing %q", tc.p, err, tc.want)
			}
		})
	}
}

func TestJannDeterminism(t *testing.T) {
	take := func(seed uint64) []sim.Record {
		j, err := NewJann(DefaultJannParams(), seed)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := sim.ReadAll(Take(j, 5000))
		if err != nil {
			t.Fatal(err)
		}
		return recs
	}
	if diff := cmp.Diff(take(21), take(21)); diff != "" {
		t.Errorf("seed 21 twice: records differ (-first +second):\n%s", diff)
	}
	if cmp.Equal(take(21), take(22)) {
		t.Errorf("seeds 21 and 22: got identical records; want different")
	}
}

func TestJannAllocs(t *testing.T) {
	j, err := NewJann(DefaultJannParams(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(10_000, func() { j.Next() }); got != 0 {
		t.Errorf("Next allocates %v times per job; want 0", got)
	}
}

func TestJannRangesIsACopy(t *testing.T) {
	a := JannRanges()
	a[0].Lo = 99
	if b := JannRanges(); b[0].Lo != 1 {
		t.Errorf("after changing a returned table: got range 0 from %d; want 1", b[0].Lo)
	}
}
