package workloads

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

var allPSPScenarios = []PSPScenario{PSPBE, PSPGE, PSPCF, PSPCFG, PSPDI, PSPHDI}

// pspJobs generates the jobs of a PSP workload with the default parameters
// changed by edit.
func pspJobs(t testing.TB, seed uint64, edit func(*PSPParams)) (*PSP, []sim.Record) {
	t.Helper()
	p := DefaultPSPParams()
	if edit != nil {
		edit(&p)
	}
	g, err := NewPSP(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sim.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	return g, recs
}

func TestParsePSPScenario(t *testing.T) {
	tests := []struct {
		in   string
		want PSPScenario
	}{
		{"be", PSPBE}, {"ge", PSPGE}, {"cf", PSPCF}, {"cfg", PSPCFG}, {"di", PSPDI}, {"hdi", PSPHDI},
		{"HDI", PSPHDI}, {"Cfg", PSPCFG},
	}
	for _, tc := range tests {
		got, err := ParsePSPScenario(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParsePSPScenario(%q): got %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, sc := range allPSPScenarios {
		if got, err := ParsePSPScenario(sc.String()); err != nil || got != sc {
			t.Errorf("ParsePSPScenario(%q): got %v, %v; want %v", sc.String(), got, err, sc)
		}
	}
	for _, in := range []string{"", "bad", "c f", "a1"} {
		_, err := ParsePSPScenario(in)
		want := `unknown PSP scenario "` + in + `"; known: be, ge, cf, cfg, di, hdi`
		if err == nil || err.Error() != want {
			t.Errorf("ParsePSPScenario(%q): got error %v; want %q", in, err, want)
		}
	}
	if got := PSPScenario(9).String(); got != "PSPScenario(9)" {
		t.Errorf("PSPScenario(9).String(): got %q; want %q", got, "PSPScenario(9)")
	}
}

// TestPSPLearn works the rule by hand: ≤ 0.5 grows by (1 − a) × 0.1, above
// by a × 0.1, capped at 1.
func TestPSPLearn(t *testing.T) {
	tests := []struct {
		start float64
		want  []float64 // after 1, 2, 3 steps
	}{
		{0.1, []float64{0.19, 0.271, 0.3439}},
		{0, []float64{0.1, 0.19, 0.271}},
		{0.5, []float64{0.55, 0.605, 0.6655}},
		{0.6, []float64{0.66, 0.726, 0.7986}},
		{0.95, []float64{1, 1, 1}},
		{1, []float64{1, 1, 1}},
	}
	for _, tc := range tests {
		a := tc.start
		for i, want := range tc.want {
			a = PSPLearn(a)
			if math.Abs(a-want) > 1e-12 {
				t.Errorf("PSPLearn applied %d times to %v: got %v; want %v", i+1, tc.start, a, want)
			}
		}
	}
}

// TestPSPLearningSchedule: a learner's jobs 1–5 use its initial accuracy,
// jobs 6–10 one step, 11–15 two steps, 16 three (hand-worked for 0.1 and
// run time 1000 s: ⌈1000/0.1⌉, ⌈1000/0.19⌉, ⌈1000/0.271⌉, ⌈1000/0.3439⌉).
func TestPSPLearningSchedule(t *testing.T) {
	pop := newPSPPopulation(PSPDI, 20, 864000, 1)
	u := &pspUser{learns: true, initial: 0.1, acc: 0.1}
	var got []sim.Time
	var accs []float64
	for range 16 {
		got = append(got, pop.estimate(u, 1000))
		accs = append(accs, u.acc)
	}
	want := []sim.Time{10000, 10000, 10000, 10000, 10000, 5264, 5264, 5264, 5264, 5264, 3691, 3691, 3691, 3691, 3691, 2908}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("estimates of 16 jobs of 1000 s from accuracy 0.1 (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		jobs int
		want float64
	}{{4, 0.1}, {5, 0.19}, {10, 0.271}, {15, 0.3439}, {16, 0.3439}} {
		if math.Abs(accs[c.jobs-1]-c.want) > 1e-12 {
			t.Errorf("accuracy after %d jobs from 0.1: got %v; want %v", c.jobs, accs[c.jobs-1], c.want)
		}
	}

	still := &pspUser{initial: 0.1, acc: 0.1}
	for range 16 {
		pop.estimate(still, 1000)
	}
	if still.acc != 0.1 {
		t.Errorf("accuracy of a non-learner after 16 jobs from 0.1: got %v; want 0.1", still.acc)
	}
}

func TestPSPEstimateRounding(t *testing.T) {
	tests := []struct {
		run  sim.Time
		acc  float64
		want sim.Time
	}{
		{1000, 0.3, 3334}, {1000, 1, 1000}, {1000, 0, 864000}, {600000, 0.5, 864000},
		{900000, 0.5, 900000}, // a run longer than the cap keeps its run time
		{0, 0.5, 0},
	}
	for _, tc := range tests {
		if got := pspEstimate(tc.run, tc.acc, 864000); got != tc.want {
			t.Errorf("pspEstimate(%d, %v, 864000): got %d; want %d", tc.run, tc.acc, got, tc.want)
		}
	}
}

func TestPSPQuota(t *testing.T) {
	tests := []struct {
		name   string
		groups []pspGroup
		n      int
		want   []int
	}{
		{"cf/20", pspCF, 20, []int{4, 4, 4, 3, 4, 1}},
		{"cfg/20", pspCFG, 20, []int{2, 2, 2, 2, 2, 10}},
		{"cf/100", pspCF, 100, []int{21, 21, 18, 17, 19, 4}},
		{"cf/1", pspCF, 1, []int{1, 0, 0, 0, 0, 0}},
		{"be/7", pspBE, 7, []int{7}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, pspQuota(tc.groups, tc.n)); diff != "" {
			t.Errorf("pspQuota(%s) (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestPSPGroupShares checks each scenario's groups: every user's accuracy
// in its group's interval, and the group counts the scenario's shares of
// the users within rounding, over several seeds.
func TestPSPGroupShares(t *testing.T) {
	for _, sc := range allPSPScenarios {
		t.Run(sc.String(), func(t *testing.T) {
			groups := sc.groups()
			for _, users := range []int{20, 100, 7} {
				for seed := uint64(1); seed <= 5; seed++ {
					g, _ := pspJobs(t, seed, func(p *PSPParams) { p.Scenario = sc.String(); p.Users = users; p.Jobs = 1 })
					count := make([]int, len(groups))
					for _, u := range g.Users() {
						grp := groups[u.Group-1]
						if u.Initial < grp.lo || u.Initial >= grp.hi {
							t.Errorf("seed %d, %d users, user %d: initial accuracy %v; want in group %d [%v, %v)", seed, users, u.ID, u.Initial, u.Group, grp.lo, grp.hi)
						}
						count[u.Group-1]++
					}
					for i, grp := range groups {
						if share := float64(count[i]) / float64(users); math.Abs(share-float64(grp.pct)/100) >= 1/float64(users) {
							t.Errorf("seed %d, %d users: group %d has %d users (%.3f); want share %.2f within %.3f", seed, users, i+1, count[i], share, float64(grp.pct)/100, 1/float64(users))
						}
					}
				}
			}
		})
	}
}

// TestPSPLearners checks who learns and that each user's accuracy after
// its jobs is its initial accuracy after ⌊jobs/5⌋ steps (learners) or
// unchanged, and that every estimate used the accuracy of its time.
func TestPSPLearners(t *testing.T) {
	tests := []struct {
		sc       PSPScenario
		learners int // of 20
	}{
		{PSPBE, 0}, {PSPGE, 0}, {PSPCF, 0}, {PSPCFG, 0}, {PSPDI, 20}, {PSPHDI, 10},
	}
	for _, tc := range tests {
		t.Run(tc.sc.String(), func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				g, recs := pspJobs(t, seed, func(q *PSPParams) { q.Scenario = tc.sc.String() })
				users := g.Users()
				if learners := checkPSPFinalAccuracy(t, seed, users); learners != tc.learners {
					t.Errorf("seed %d: %d learners; want %d", seed, learners, tc.learners)
				}
				checkPSPEstimatesInTime(t, seed, users, recs)
			}
		})
	}
}

// checkPSPFinalAccuracy checks that each user's accuracy after its jobs
// is its initial accuracy after ⌊jobs/5⌋ steps (learners) or unchanged,
// and returns the number of learners.
func checkPSPFinalAccuracy(t *testing.T, seed uint64, users []PSPUser) (learners int) {
	t.Helper()
	for _, u := range users {
		want := u.Initial
		if u.Learns {
			learners++
			for range u.Jobs / PSPLearnEvery {
				want = PSPLearn(want)
			}
		}
		if u.Accuracy != want {
			t.Errorf("seed %d, user %d (learns %v, %d jobs, initial %v): final accuracy %v; want %v", seed, u.ID, u.Learns, u.Jobs, u.Initial, u.Accuracy, want)
		}
	}
	return learners
}

// checkPSPEstimatesInTime checks that every estimate of recs used its
// user's accuracy at the time: the initial one, stepped after every
// PSPLearnEvery jobs of a learner.
func checkPSPEstimatesInTime(t *testing.T, seed uint64, users []PSPUser, recs []sim.Record) {
	t.Helper()
	p := DefaultPSPParams()
	acc := map[int32]float64{}
	jobs := map[int32]int{}
	for _, u := range users {
		acc[u.ID] = u.Initial
	}
	for _, r := range recs {
		if want := pspEstimate(r.Runtime, acc[r.User], p.MaxEstimate); r.Estimate != want {
			t.Fatalf("seed %d, job %d of user %d (accuracy %v, run %d): estimate %d; want %d", seed, r.ID, r.User, acc[r.User], r.Runtime, r.Estimate, want)
		}
		jobs[r.User]++
		if users[r.User-1].Learns && jobs[r.User]%PSPLearnEvery == 0 {
			acc[r.User] = PSPLearn(acc[r.User])
		}
	}
}

// checkPSPJob checks job i of recs, generated by PSP with seed, against
// the paper's ranges.
func checkPSPJob(t *testing.T, seed uint64, i int, recs []sim.Record, maxEstimate sim.Time) {
	t.Helper()
	r := recs[i]
	if r.ID != sim.JobID(i+1) {
		t.Fatalf("seed %d, job %d: ID %d; want %d", seed, i+1, r.ID, i+1)
	}
	if i > 0 && r.Submit < recs[i-1].Submit {
		t.Errorf("seed %d, job %d: submit %d before %d", seed, r.ID, r.Submit, recs[i-1].Submit)
	}
	procs := r.Need[sim.Procs]
	if procs < 1 || procs > 16 || procs&(procs-1) != 0 || r.Need[sim.Memory] != 0 || r.Need[sim.GPUs] != 0 {
		t.Errorf("seed %d, job %d: need %v; want a power of two in 1..16 processors", seed, r.ID, r.Need)
	}
	if r.Runtime < 1 || r.Runtime > 10*24*3600 {
		t.Errorf("seed %d, job %d: run time %d; want in 1..864000", seed, r.ID, r.Runtime)
	}
	if r.Estimate < r.Runtime || r.Estimate > maxEstimate {
		t.Errorf("seed %d, job %d: estimate %d; want in run time %d..%d", seed, r.ID, r.Estimate, r.Runtime, maxEstimate)
	}
	if r.User < 1 || r.User > 20 {
		t.Errorf("seed %d, job %d: user %d; want in 1..20", seed, r.ID, r.User)
	}
	want := sim.Record{Job: sim.Job{ID: r.ID, User: r.User, Group: -1, Queue: -1, Partition: -1, Submit: r.Submit, Estimate: r.Estimate, Need: r.Need}, Runtime: r.Runtime, Status: 1, Preceding: -1, Think: -1}
	if r != want {
		t.Errorf("seed %d, job %d: got %+v; want %+v", seed, r.ID, r, want)
	}
}

// TestPSPJobs checks the fields of every job against the paper's ranges.
func TestPSPJobs(t *testing.T) {
	var serial, short, n int
	for seed := uint64(1); seed <= 10; seed++ {
		p := DefaultPSPParams()
		_, recs := pspJobs(t, seed, nil)
		if len(recs) != 1000 {
			t.Fatalf("seed %d: %d jobs; want 1000", seed, len(recs))
		}
		users := map[int32]bool{}
		for i, r := range recs {
			checkPSPJob(t, seed, i, recs, p.MaxEstimate)
			users[r.User] = true
			if r.Need[sim.Procs] == 1 {
				serial++
			}
			if r.Runtime < 60 {
				short++
			}
			n++
		}
		if len(users) < 15 {
			t.Errorf("seed %d: %d users submitted; want most of 20", seed, len(users))
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"one-processor jobs", float64(serial) / float64(n), 0.872}, {"jobs under a minute", float64(short) / float64(n), 0.493}} {
		if math.Abs(c.got-c.want) > 0.02 {
			t.Errorf("share of %s over 10 seeds: got %.3f; want %.3f ± 0.02", c.name, c.got, c.want)
		}
	}
}

func TestPSPEnd(t *testing.T) {
	g, err := NewPSP(DefaultPSPParams(), 1)
	if err != nil {
		t.Fatal(err)
	}
	src := Take(g, 2000)
	n := 0
	for {
		_, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1000 {
		t.Errorf("jobs before io.EOF: got %d; want 1000", n)
	}
	if _, err := g.Next(); err != io.EOF {
		t.Errorf("Next after the end: got %v; want io.EOF", err)
	}
}

func TestPSPDeterminism(t *testing.T) {
	for _, sc := range allPSPScenarios {
		edit := func(p *PSPParams) { p.Scenario = sc.String() }
		_, a := pspJobs(t, 7, edit)
		_, b := pspJobs(t, 7, edit)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%v, seed 7 twice (-first +second):\n%s", sc, diff)
		}
		_, c := pspJobs(t, 8, edit)
		if cmp.Equal(a, c) {
			t.Errorf("%v: seeds 7 and 8 gave the same jobs", sc)
		}
	}
}

func TestPSPBadParams(t *testing.T) {
	tests := []struct {
		name string
		edit func(*PSPParams)
		want string
	}{
		{"scenario", func(p *PSPParams) { p.Scenario = "good" }, `psp: parameter "scenario": unknown PSP scenario "good"; known: be, ge, cf, cfg, di, hdi`},
		{"jobs", func(p *PSPParams) { p.Jobs = 0 }, `psp: parameter "jobs": "0" must be at least 1`},
		{"users", func(p *PSPParams) { p.Users = -3 }, `psp: parameter "users": "-3" must be in 1..2147483647`},
		{"user_zipf", func(p *PSPParams) { p.UserZipf = math.NaN() }, `psp: parameter "user_zipf": "NaN" must be a finite number ≥ 0`},
		{"mean_interarrival", func(p *PSPParams) { p.MeanInterarrival = -1 }, `psp: parameter "mean_interarrival": "-1" must not be negative`},
		{"max_procs", func(p *PSPParams) { p.MaxProcs = 12 }, `psp: parameter "max_procs": "12" must be a power of two in 1..2^30`},
		{"serial_fraction", func(p *PSPParams) { p.SerialFraction = 1.5 }, `psp: parameter "serial_fraction": "1.5" must be in [0, 1]`},
		{"short_fraction", func(p *PSPParams) { p.ShortFraction = -0.1 }, `psp: parameter "short_fraction": "-0.1" must be in [0, 1]`},
		{"max_runtime", func(p *PSPParams) { p.MaxRuntime = 59 }, `psp: parameter "max_runtime": "59" must be at least 60 s`},
		{"max_estimate", func(p *PSPParams) { p.MaxEstimate = 3600 }, `psp: parameter "max_estimate": "3600" must be at least max_runtime`},
	}
	for _, tc := range tests {
		p := DefaultPSPParams()
		tc.edit(&p)
		_, err := NewPSP(p, 1)
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewPSP with bad %s: got error %v; want %q", tc.name, err, tc.want)
		}
	}
}

// TestPSPEstimates checks the transform on a hand-built trace: the first
// 20 users by appearance get the scenario's exact quota, the next 20 a new
// quota, user -1 is one user, every estimate is ⌈run/accuracy⌉ capped, and
// a job without run time keeps its estimate.
func TestPSPEstimates(t *testing.T) {
	var recs []sim.Record
	for i := range 100 {
		user := int32(i%45) + 1 // users 1..45, user 45 is -1
		if user == 45 {
			user = -1
		}
		r := sim.Record{Job: sim.Job{ID: sim.JobID(i + 1), User: user, Submit: sim.Time(i), Estimate: 77}, Runtime: sim.Time(100 * (i + 1))}
		if i == 50 {
			r.Runtime = -1
		}
		recs = append(recs, r)
	}
	for _, sc := range allPSPScenarios {
		t.Run(sc.String(), func(t *testing.T) {
			src := PSPEstimates(sim.NewSliceSource(recs), sc, 3)
			got, err := sim.ReadAll(src)
			if err != nil {
				t.Fatal(err)
			}
			e := src.(*pspEstimates)
			checkPSPEstimateBounds(t, recs, got, e)
			if len(e.users) != 45 {
				t.Errorf("users: got %d; want 45 (44 and the unknown user -1)", len(e.users))
			}
			checkPSPQuotas(t, sc, e)
			// Static scenarios: every estimate of a user comes from one accuracy.
			if sc != PSPDI && sc != PSPHDI {
				for i, r := range got {
					if recs[i].Runtime < 0 {
						continue
					}
					if want := pspEstimate(r.Runtime, e.users[r.User].initial, 864000); r.Estimate != want {
						t.Errorf("job %d of user %d: estimate %d; want %d", r.ID, r.User, r.Estimate, want)
					}
				}
			}
		})
	}
}

// checkPSPEstimateBounds checks the estimates got that PSPEstimates e gave
// recs: each user has an accuracy, a job without run time keeps its
// estimate of 77, and every other estimate lies between the run time and
// ten days.
func checkPSPEstimateBounds(t *testing.T, recs, got []sim.Record, e *pspEstimates) {
	t.Helper()
	for i, r := range got {
		u := e.users[r.User]
		if u == nil {
			t.Fatalf("job %d: user %d has no accuracy", r.ID, r.User)
		}
		switch {
		case recs[i].Runtime < 0 && r.Estimate != 77:
			t.Errorf("job %d without run time: estimate %d; want 77 kept", r.ID, r.Estimate)
		case recs[i].Runtime >= 0 && (r.Estimate < r.Runtime || r.Estimate > 864000):
			t.Errorf("job %d (run %d): estimate %d; want in run..864000", r.ID, r.Runtime, r.Estimate)
		}
	}
}

// checkPSPQuotas checks that users 1–20 and 21–40 of e each fall into the
// groups of scenario sc by its exact quota, with 20 learners under DI, 10
// under HDI and none otherwise.
func checkPSPQuotas(t *testing.T, sc PSPScenario, e *pspEstimates) {
	t.Helper()
	quota := pspQuota(sc.groups(), 20)
	for block := range 2 {
		count := make([]int, len(quota))
		learners := 0
		for id := int32(20*block + 1); id <= int32(20*block+20); id++ {
			count[e.users[id].group]++
			if e.users[id].learns {
				learners++
			}
		}
		if diff := cmp.Diff(quota, count); diff != "" {
			t.Errorf("users %d–%d by group (-want +got):\n%s", 20*block+1, 20*block+20, diff)
		}
		want := map[PSPScenario]int{PSPDI: 20, PSPHDI: 10}[sc]
		if learners != want {
			t.Errorf("users %d–%d: %d learners; want %d", 20*block+1, 20*block+20, learners, want)
		}
	}
}

func TestPSPEstimatesPassesErrors(t *testing.T) {
	bad := errors.New("broken trace")
	src := PSPEstimates(errSource{bad}, PSPCF, 1)
	if _, err := src.Next(); !errors.Is(err, bad) {
		t.Errorf("Next over a failing source: got %v; want %v", err, bad)
	}
}

func TestPSPEstimatesPanicsOnBadScenario(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "PSPScenario(42)") {
			t.Errorf("PSPEstimates(PSPScenario(42)): got panic %v; want one naming the scenario", r)
		}
	}()
	PSPEstimates(sim.NewSliceSource(nil), PSPScenario(42), 1)
}

// errSource fails on every call.
type errSource struct{ err error }

func (s errSource) Next() (sim.Record, error) { return sim.Record{}, s.err }

// TestPSPOfferedWork checks the figures PSP's comment gives for the
// defaults: mean run time ≈ 45,700 s, mean processors ≈ 1.83, and so
// about 140 processors busy on average (work over the submission span).
func TestPSPOfferedWork(t *testing.T) {
	const seeds = 200
	var jobs, procs, run, work, span float64
	for seed := uint64(1); seed <= seeds; seed++ {
		_, recs := pspJobs(t, seed, nil)
		for _, r := range recs {
			jobs++
			procs += float64(r.Need[sim.Procs])
			run += float64(r.Runtime)
			work += float64(r.Need[sim.Procs]) * float64(r.Runtime)
		}
		span += float64(recs[len(recs)-1].Submit)
	}
	for _, c := range []struct {
		what      string
		got, want float64
		tol       float64
	}{
		{"mean processors", procs / jobs, 1.83, 0.01},
		{"mean run time (s)", run / jobs, 45700, 0.02},
		{"busy processors", work / span, 140, 0.03},
	} {
		if math.Abs(c.got/c.want-1) > c.tol {
			t.Errorf("%s over %d seeds: got %.4g; want %.4g ± %.0f%%", c.what, seeds, c.got, c.want, 100*c.tol)
		}
	}
}
