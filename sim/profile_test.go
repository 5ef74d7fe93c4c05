package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

func TestProfileFit(t *testing.T) {
	J := simtest.J
	// Running at now=10 on 8 processors: a ends at 20 (4 procs), b at 30 (2).
	a, b := J(1, 0, 10, 10, 4).Job, J(2, 0, 20, 20, 2).Job
	running := []sim.Allocation{{Job: &a, Start: 10}, {Job: &b, Start: 10}}
	var p sim.Profile
	p.Reset(10, simtest.Cluster(2, 0), running)
	need := func(n int64) sim.Resources { return simtest.Cluster(n, 0) }
	tests := []struct {
		name      string
		from, dur sim.Time
		need      int64
		want      sim.Time
	}{
		{"fits now", 10, 100, 2, 10},
		{"waits for the first end", 10, 5, 6, 20},
		{"waits for all", 10, 5, 8, 30},
		{"from the middle of a step", 25, 5, 6, 25},
		{"zero duration still needs an instant", 10, 0, 3, 20},
		{"never", 10, 1, 9, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := p.Fit(tc.from, tc.dur, need(tc.need)); got != tc.want {
				t.Errorf("Fit(%d, %d, %d) = %d; want %d", tc.from, tc.dur, tc.need, got, tc.want)
			}
		})
	}
	// A reservation of 6 processors on [20, 40) leaves a hole of 2 before it:
	// a 4-processor job of 15 s no longer fits at 20, only after 40.
	p.Reserve(20, 20, need(6))
	if got := p.Fit(10, 15, need(4)); got != 40 {
		t.Errorf("after a reservation: Fit = %d; want 40", got)
	}
	p.Unreserve(20, 20, need(6))
	if got := p.Fit(10, 15, need(4)); got != 20 {
		t.Errorf("after unreserving: Fit = %d; want 20", got)
	}
	p.Compact()
	if p.Len() != 3 {
		t.Errorf("after reserve, unreserve and compact: %d steps; want the original 3", p.Len())
	}
}

// cellProfile is the reference a Profile is checked against: free
// processors kept as one cell per second up to a horizon.
type cellProfile []int64

// add adds n processors to the cells a job of dur from start holds.
func (c cellProfile) add(start, dur sim.Time, n int64) {
	for x := start; x < start+sim.Span(dur); x++ {
		c[x] += n
	}
}

// fit returns the earliest start from from at which n processors are free
// for dur, or -1 before the horizon.
func (c cellProfile) fit(from, dur sim.Time, n int64) sim.Time {
	horizon := sim.Time(len(c))
	for s := from; s < horizon; s++ {
		ok := true
		for x := s; x < min(s+sim.Span(dur), horizon); x++ {
			if c[x] < n {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return -1
}

// profileResv is a reservation the test holds in both profiles.
type profileResv struct {
	start, dur sim.Time
	n          int64
}

// checkFitLifted fails t unless FitLifted for r agrees with lifting r,
// fitting and laying it back.
func checkFitLifted(t *testing.T, seed uint64, p *sim.Profile, r profileResv, from sim.Time) {
	t.Helper()
	got := p.FitLifted(from, r.dur, simtest.Cluster(r.n, 0), r.start)
	p.Unreserve(r.start, r.dur, simtest.Cluster(r.n, 0))
	want := p.Fit(from, r.dur, simtest.Cluster(r.n, 0))
	p.Reserve(r.start, r.dur, simtest.Cluster(r.n, 0))
	if got != want || got > r.start {
		t.Fatalf("seed %d: FitLifted(%d, %d, %d, own %d) = %d; lifting and fitting gives %d",
			seed, from, r.dur, r.n, r.start, got, want)
	}
}

// checkFit fails t unless Fit and Fits of n processors for dur from from
// agree with the cells, and returns Fit's answer.
func checkFit(t *testing.T, seed uint64, p *sim.Profile, cells cellProfile, from, dur sim.Time, n int64) sim.Time {
	t.Helper()
	got := p.Fit(from, dur, simtest.Cluster(n, 0))
	want := cells.fit(from, dur, n)
	if got != want {
		t.Fatalf("seed %d: Fit(%d, %d, %d) = %d; the array says %d", seed, from, dur, n, got, want)
	}
	fits, until := p.Fits(from, dur, simtest.Cluster(n, 0))
	if fits != (want == from) {
		t.Fatalf("seed %d: Fits(%d, %d, %d) = %v; the array's earliest fit is %d", seed, from, dur, n, fits, want)
	}
	if !fits && (until <= from || want >= 0 && want < until) {
		t.Fatalf("seed %d: Fits(%d, %d, %d) fails until %d; the array's earliest fit is %d", seed, from, dur, n, until, want)
	}
	return got
}

// TestProfileAgainstArray checks random reservations against a profile kept
// as one cell per second.
func TestProfileAgainstArray(t *testing.T) {
	const horizon, capacity = 2000, 16 // 60 reservations of < 30 s end before 2000
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 1))
		var p sim.Profile
		p.Reset(0, simtest.Cluster(capacity, 0), nil)
		cells := make(cellProfile, horizon)
		for i := range cells {
			cells[i] = capacity
		}
		var held []profileResv
		for range 60 {
			if len(held) > 0 && rng.IntN(4) == 0 {
				r := held[rng.IntN(len(held))]
				checkFitLifted(t, seed, &p, r, sim.Time(rng.IntN(int(r.start)+1)))
			}
			if len(held) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(held))
				r := held[k]
				held = append(held[:k], held[k+1:]...)
				p.Unreserve(r.start, r.dur, simtest.Cluster(r.n, 0))
				cells.add(r.start, r.dur, r.n)
				continue
			}
			from := sim.Time(rng.IntN(50))
			dur := sim.Time(rng.IntN(30))
			n := int64(1 + rng.IntN(capacity))
			if got := checkFit(t, seed, &p, cells, from, dur, n); got >= 0 {
				p.Reserve(got, dur, simtest.Cluster(n, 0))
				cells.add(got, dur, -n)
				held = append(held, profileResv{got, dur, n})
			}
			if rng.IntN(4) == 0 {
				p.Compact()
			}
			for c := sim.Time(0); c < horizon; c++ {
				if f := p.FreeAt(c)[sim.Procs]; f != cells[c] {
					t.Fatalf("seed %d: FreeAt(%d) = %d; the array says %d", seed, c, f, cells[c])
				}
			}
		}
	}
}
