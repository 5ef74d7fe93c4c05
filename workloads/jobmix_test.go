package workloads

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// mixJobs generates a job mix with the default parameters changed by edit.
func mixJobs(t testing.TB, seed uint64, edit func(*JobMixParams)) (*JobMix, []sim.Record) {
	t.Helper()
	p := DefaultJobMixParams()
	if edit != nil {
		edit(&p)
	}
	m, err := NewJobMix(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sim.ReadAll(m)
	if err != nil {
		t.Fatal(err)
	}
	return m, recs
}

func TestClassifyMixJob(t *testing.T) {
	tests := []struct {
		name          string
		procs         int64
		work, request sim.Time
		want          MixClass
	}{
		{"large, 33 of 64", 33, 70, 100, MixLarge},
		{"large, all nodes, 100 %", 64, 100, 100, MixLarge},
		{"medium, 32 of 64 is 50 %", 32, 70, 100, MixMedium},
		{"medium, 10 of 64 is 15.6 %", 10, 99, 100, MixMedium},
		{"small, 9 of 64 is 14.1 %", 9, 70, 100, MixSmall},
		{"small beats debug, 1 node at 80 %", 1, 80, 100, MixSmall},
		{"debug, 6 of 64 at 69 %", 6, 69, 100, MixDebug},
		{"debug, 1 node at 41 %", 1, 41, 100, MixDebug},
		{"not debug, 40 % exactly", 1, 40, 100, MixUndefined},
		{"not debug, 7 of 64 is 10.9 %", 7, 50, 100, MixUndefined},
		{"not large, 69 %", 64, 69, 100, MixUndefined},
		{"failed, 19 %", 64, 19, 100, MixFailed},
		{"failed, no work", 1, 0, 100, MixFailed},
		{"not failed, 20 % exactly", 20, 20, 100, MixUndefined},
		{"work over request", 8, 101, 100, MixUndefined},
		{"no processors", 0, 80, 100, MixUndefined},
		{"more than the machine", 65, 80, 100, MixUndefined},
		{"negative work", 8, -1, 100, MixUndefined},
		{"70 % of 3 s is 2.1 s: 2 s is not enough", 40, 2, 3, MixUndefined},
	}
	for _, tc := range tests {
		if got := ClassifyMixJob(64, tc.procs, tc.work, tc.request); got != tc.want {
			t.Errorf("%s: ClassifyMixJob(64, %d, %d, %d): got %v; want %v", tc.name, tc.procs, tc.work, tc.request, got, tc.want)
		}
	}
}

// mixNodeRange is the nodes a job of each class of the job mix may use.
var mixNodeRange = map[MixClass][2]int64{MixLarge: {33, 64}, MixMedium: {10, 32}, MixSmall: {1, 9}, MixDebug: {1, 6}, MixFailed: {1, 64}}

// checkMixJob checks job i of recs, which mix m of seed generated, against
// the paper's rules.
func checkMixJob(t *testing.T, seed uint64, m *JobMix, recs []sim.Record, i int) {
	t.Helper()
	r := recs[i]
	c := m.Class(r.ID)
	if r.ID != sim.JobID(i+1) {
		t.Fatalf("seed %d, job %d: ID %d; want %d", seed, i+1, r.ID, i+1)
	}
	if got := ClassifyMixJob(64, r.Need[sim.Procs], r.Runtime, r.Estimate); got != c || c == MixUndefined {
		t.Errorf("seed %d, job %d (%v): classifies as %v; want %v, not undefined", seed, r.ID, r.Need, got, c)
	}
	if nr := mixNodeRange[c]; r.Need[sim.Procs] < nr[0] || r.Need[sim.Procs] > nr[1] {
		t.Errorf("seed %d, job %d (%v): %d nodes; want %d..%d", seed, r.ID, c, r.Need[sim.Procs], nr[0], nr[1])
	}
	if r.Submit < 0 || r.Submit > 180*60 || (i > 0 && r.Submit < recs[i-1].Submit) {
		t.Errorf("seed %d, job %d: submit %d; want non-decreasing in 0..10800", seed, r.ID, r.Submit)
	}
	if r.Estimate < 60 || r.Estimate > 3*3600 || r.Runtime < 0 || r.Runtime > r.Estimate {
		t.Errorf("seed %d, job %d: run %d, estimate %d; want 0 ≤ run ≤ estimate in 60..10800", seed, r.ID, r.Runtime, r.Estimate)
	}
	wantStatus := sim.Status(1)
	if c == MixFailed {
		wantStatus = 0
		if 5*r.Runtime >= r.Estimate {
			t.Errorf("seed %d, failed job %d: run %d of %d; want under 20 %%", seed, r.ID, r.Runtime, r.Estimate)
		}
	}
	want := sim.Record{Job: sim.Job{ID: r.ID, User: -1, Group: -1, Queue: -1, Partition: -1, Submit: r.Submit, Estimate: r.Estimate, Need: r.Need}, Runtime: r.Runtime, Status: wantStatus, Preceding: -1, Think: -1}
	if r != want {
		t.Errorf("seed %d, job %d: got %+v; want %+v", seed, r.ID, r, want)
	}
}

// TestJobMix checks the paper's rules on every job of several mixes: each
// job of its class (none undefined), node ranges per class, submits within
// 180 minutes, IDs in submit order, failed jobs ending early.
func TestJobMix(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m, recs := mixJobs(t, seed, nil)
		if len(recs) != 76 {
			t.Fatalf("seed %d: %d jobs; want 76", seed, len(recs))
		}
		if m.Drawn() <= 76 {
			t.Errorf("seed %d: drew %d jobs for 76; want rejections", seed, m.Drawn())
		}
		for i := range recs {
			checkMixJob(t, seed, m, recs, i)
		}
		if got := m.Class(0); got != MixUndefined {
			t.Errorf("Class(0): got %v; want undefined", got)
		}
		if got := m.Class(77); got != MixUndefined {
			t.Errorf("Class(77): got %v; want undefined", got)
		}
	}
}

// TestJobMixShares checks the class counts against the running limits:
// count(c) ≤ share(c) × (jobs − 1) + 1 in every mix, and the mean shares
// over many mixes within 1.5 points of the targets.
func TestJobMixShares(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*JobMixParams)
		jobs   int
		shares map[MixClass]float64
	}{
		{"paper", nil, 76, map[MixClass]float64{MixLarge: 0.30, MixMedium: 0.40, MixSmall: 0.20, MixDebug: 0.05, MixFailed: 0.05}},
		{"1000 jobs", func(p *JobMixParams) { p.Jobs = 1000 }, 1000, map[MixClass]float64{MixLarge: 0.30, MixMedium: 0.40, MixSmall: 0.20, MixDebug: 0.05, MixFailed: 0.05}},
		{"no failed, half debug", func(p *JobMixParams) {
			p.Jobs, p.LargeShare, p.MediumShare, p.SmallShare, p.DebugShare, p.FailedShare = 100, 0.2, 0.2, 0.1, 0.5, 0
		}, 100, map[MixClass]float64{MixLarge: 0.2, MixMedium: 0.2, MixSmall: 0.1, MixDebug: 0.5, MixFailed: 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			total := map[MixClass]int{}
			const seeds = 30
			for seed := uint64(1); seed <= seeds; seed++ {
				m, recs := mixJobs(t, seed, tc.edit)
				count := map[MixClass]int{}
				for _, r := range recs {
					count[m.Class(r.ID)]++
				}
				for c, s := range tc.shares {
					if limit := s*float64(tc.jobs-1) + 1; float64(count[c]) > limit || (s == 0 && count[c] > 0) {
						t.Errorf("seed %d: %d %v jobs of %d; want at most %.2f", seed, count[c], c, tc.jobs, limit)
					}
					total[c] += count[c]
				}
			}
			for c, s := range tc.shares {
				if got := float64(total[c]) / float64(seeds*tc.jobs); math.Abs(got-s) > 0.015 {
					t.Errorf("share of %v over %d seeds: got %.4f; want %.2f ± 0.015", c, seeds, got, s)
				}
			}
		})
	}
}

func TestMixBounds(t *testing.T) {
	job := func(procs int64, run sim.Time) sim.Record {
		r := sim.Record{Runtime: run}
		r.Need[sim.Procs] = procs
		return r
	}
	tests := []struct {
		name     string
		recs     []sim.Record
		min, max sim.Time
	}{
		{"empty", nil, 0, 0},
		{"one full-machine hour", []sim.Record{job(64, 3600)}, 3600, 3600},
		// 64·3600 + 32·7200 + 1·100 = 460,900 node-seconds; /64 = 7201.56 → 7202.
		{"three jobs", []sim.Record{job(64, 3600), job(32, 7200), job(1, 100)}, 7202, 10900},
		{"unknown run time counts 0", []sim.Record{job(16, -1), job(16, 400)}, 100, 400},
	}
	// RequestedMinimum reads "node-wall hours" as nodes × requested time.
	reqJob := func(procs int64, run, request sim.Time) sim.Record {
		r := job(procs, run)
		r.Estimate = request
		return r
	}
	reqTests := []struct {
		name string
		recs []sim.Record
		want sim.Time
	}{
		{"empty", nil, 0},
		// 64·7200 + 16·3600 = 518,400 node-seconds of request; /64 = 8100.
		{"two jobs, requests twice and 1.25× their runs", []sim.Record{reqJob(64, 3600, 7200), reqJob(16, 2880, 3600)}, 8100},
		// 3·100 + 1·(−1 → 0) = 300; /64 = 4.69 → 5.
		{"unknown estimate counts 0, rounded up", []sim.Record{reqJob(3, 50, 100), reqJob(1, 10, -1)}, 5},
	}
	for _, tc := range reqTests {
		if got := RequestedMinimum(tc.recs, 64); got != tc.want {
			t.Errorf("RequestedMinimum(%s, 64): got %d; want %d", tc.name, got, tc.want)
		}
	}
	for _, tc := range tests {
		if got := TheoreticalMinimum(tc.recs, 64); got != tc.min {
			t.Errorf("TheoreticalMinimum(%s, 64): got %d; want %d", tc.name, got, tc.min)
		}
		if got := SequentialMaximum(tc.recs); got != tc.max {
			t.Errorf("SequentialMaximum(%s): got %d; want %d", tc.name, got, tc.max)
		}
	}
}

func TestJobMixDeterminism(t *testing.T) {
	_, a := mixJobs(t, 5, nil)
	_, b := mixJobs(t, 5, nil)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("seed 5 twice (-first +second):\n%s", diff)
	}
	_, c := mixJobs(t, 6, nil)
	if cmp.Equal(a, c) {
		t.Error("seeds 5 and 6 gave the same mix")
	}
}

func TestJobMixBadParams(t *testing.T) {
	tests := []struct {
		name string
		edit func(*JobMixParams)
		want string
	}{
		{"nodes", func(p *JobMixParams) { p.Nodes = 0 }, `jobmix: parameter "nodes": "0" must be in 1..2^50`},
		{"nodes for debug", func(p *JobMixParams) { p.Nodes = 10 }, `jobmix: parameter "nodes": "10" is too few for debug jobs, and debug_share is above 0`},
		{"nodes for small", func(p *JobMixParams) { p.Nodes = 6 }, `jobmix: parameter "nodes": "6" is too few for small jobs, and small_share is above 0`},
		{"jobs", func(p *JobMixParams) { p.Jobs = -1 }, `jobmix: parameter "jobs": "-1" must be at least 1`},
		{"large_share", func(p *JobMixParams) { p.LargeShare = -0.3 }, `jobmix: parameter "large_share": "-0.3" must be in [0, 1]`},
		{"failed_share", func(p *JobMixParams) { p.FailedShare = math.NaN() }, `jobmix: parameter "failed_share": "NaN" must be in [0, 1]`},
		{"sum", func(p *JobMixParams) { p.FailedShare = 0.1 }, `jobmix: parameters large_share, medium_share, small_share, debug_share and failed_share sum to "1.05"; want 1`},
		{"submit_window", func(p *JobMixParams) { p.SubmitWindow = -5 }, `jobmix: parameter "submit_window": "-5" must be in 0..2^50`},
		{"min_request", func(p *JobMixParams) { p.MinRequest = 0 }, `jobmix: parameter "min_request": "0" must be at least 1`},
		{"max_request", func(p *JobMixParams) { p.MaxRequest = 30 }, `jobmix: parameter "max_request": "30" must be in max(min_request, 2)..2^50 (Debug jobs need a request of 2 s or more)`},
	}
	for _, tc := range tests {
		p := DefaultJobMixParams()
		tc.edit(&p)
		_, err := NewJobMix(p, 1)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewJobMix with bad %s: got error %v; want %q", tc.name, err, tc.want)
		}
	}
	// Few nodes are fine when the classes that need more have no share.
	p := DefaultJobMixParams()
	p.Nodes, p.SmallShare, p.DebugShare, p.MediumShare = 4, 0, 0, 0.65
	if _, err := NewJobMix(p, 1); err != nil {
		t.Errorf("NewJobMix on 4 nodes without Small and Debug jobs: got %v; want no error", err)
	}
}

// TestJobMixPaperFigures pins the figures JobMix's comment gives for the
// default mix against the paper's: Small is the class hardest to fill
// (≈ 4.2 % of draws for a 20 % share); over many seeds a mix's sequential maximum is ≈ 91 h (paper
// 90.2 h), its theoretical minimum ≈ 37 h (paper 53.6 h), ≈ 23 of its jobs
// use over 90 % of their request, and it takes ≈ 455 draws (paper 480).
func TestJobMixPaperFigures(t *testing.T) {
	p := DefaultJobMixParams()
	// Per draw, with NewJobMix's distributions: procs uniform in 1..Nodes,
	// request uniform in MinRequest..MaxRequest, work uniform in 0..request.
	const draws = 1_000_000
	rng := NewStream(1, StreamExtra)
	var perDraw [MixFailed + 1]float64
	for range draws {
		procs := 1 + rng.Int64N(p.Nodes)
		req := p.MinRequest + sim.Time(rng.Int64N(int64(p.MaxRequest-p.MinRequest)+1))
		perDraw[ClassifyMixJob(p.Nodes, procs, sim.Time(rng.Int64N(int64(req)+1)), req)] += 1.0 / draws
	}
	if got := perDraw[MixSmall]; math.Abs(got-0.042) > 0.001 {
		t.Errorf("Small per draw: got %.4f; want 0.042 ± 0.001", got)
	}
	share := [...]float64{MixLarge: p.LargeShare, MixMedium: p.MediumShare, MixSmall: p.SmallShare, MixDebug: p.DebugShare, MixFailed: p.FailedShare}
	for c := MixLarge; c <= MixFailed; c++ {
		if c != MixSmall && perDraw[c]/share[c] <= perDraw[MixSmall]/share[MixSmall] {
			t.Errorf("per draw over target share: %v %.3f, small %.3f; want small the lowest",
				c, perDraw[c]/share[c], perDraw[MixSmall]/share[MixSmall])
		}
	}

	const seeds = 200
	var seq, least, drawn, efficient float64
	for seed := uint64(1); seed <= seeds; seed++ {
		m, recs := mixJobs(t, seed, nil)
		seq += float64(SequentialMaximum(recs)) / 3600 / seeds
		least += float64(TheoreticalMinimum(recs, p.Nodes)) / 3600 / seeds
		drawn += float64(m.Drawn()) / seeds
		for _, r := range recs {
			if 10*r.Runtime > 9*r.Estimate {
				efficient += 1.0 / seeds
			}
		}
	}
	for _, f := range []struct {
		what      string
		got, want float64
	}{
		{"sequential maximum (h)", seq, 91},
		{"theoretical minimum (h)", least, 37},
		{"jobs above 90 % efficiency", efficient, 23},
		{"draws", drawn, 455},
	} {
		if math.Abs(f.got/f.want-1) > 0.03 {
			t.Errorf("mean over %d seeds, %s: got %.4g; want %.4g ± 3%%", seeds, f.what, f.got, f.want)
		}
	}
}
