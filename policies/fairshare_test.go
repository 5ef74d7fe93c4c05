package policies_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// fsJob is a waiting job of user with the given need, numbered seq.
func fsJob(seq int, user int32, procs, mem int64) *sim.Job {
	j := &sim.Job{ID: sim.JobID(seq + 1), Seq: seq, User: user}
	j.Need[sim.Procs], j.Need[sim.Memory] = procs, mem
	return j
}

func newFairshare(t *testing.T, c policies.FairshareConfig) *policies.Fairshare {
	t.Helper()
	f, err := policies.NewFairshare(c)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// runAll submits and starts js on f at start and finishes them at end.
func runAll(f *policies.Fairshare, v sim.View, start, end sim.Time, js ...*sim.Job) {
	for _, j := range js {
		f.Submitted(start, j)
	}
	f.Started(start, v, js)
	for _, j := range js {
		f.Finished(end, j, end-start)
	}
}

func near(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 1e-10*math.Max(math.Abs(got), math.Abs(want))
}

// TestFairshareDecay checks the usage arithmetic: a running job charges
// its processors for every second it has run, and a half-life halves the
// total.
func TestFairshareDecay(t *testing.T) {
	const h = 1000
	f := newFairshare(t, policies.FairshareConfig{HalfLife: h})
	v := policies.CapView{8}
	j := fsJob(0, 7, 4, 0)
	f.Submitted(0, j)
	f.Started(0, v, []*sim.Job{j})
	// While it runs: ∫₀ᵗ 4·2^(-(t-x)/h) dx = 4·h/ln2·(1 − 2^(-t/h)).
	for _, at := range []sim.Time{0, 1, 100, 1000} {
		want := 4 * h / math.Ln2 * (1 - math.Exp2(-float64(at)/h))
		if got := f.Usage(7, at); !near(got, want) {
			t.Errorf("running, at t=%d: usage %v; want %v", at, got, want)
		}
	}
	f.Finished(1000, j, 1000)
	at1000 := f.Usage(7, 1000)
	for _, n := range []sim.Time{1, 2, 5} {
		if got, want := f.Usage(7, 1000+n*h), at1000/math.Exp2(float64(n)); !near(got, want) {
			t.Errorf("%d half-lives after the end: usage %v; want %v", n, got, want)
		}
	}
	if got := f.Usage(8, 1000); got != 0 {
		t.Errorf("a user never seen: usage %v; want 0", got)
	}

	// Without decay to speak of, usage is processor-seconds: 4 × 100.
	f = newFairshare(t, policies.FairshareConfig{HalfLife: 1 << 50})
	runAll(f, v, 10, 110, fsJob(0, 1, 4, 0))
	if got := f.Usage(1, 110); math.Abs(got-400) > 1e-6 {
		t.Errorf("a half-life of 2^50 s: usage %v; want 400", got)
	}
}

// TestFairshareRescale runs far past the 64 half-lives after which the
// scaled values move to a new reference time: usage keeps decaying
// exactly, relative priorities survive, and nothing overflows.
func TestFairshareRescale(t *testing.T) {
	f := newFairshare(t, policies.FairshareConfig{HalfLife: 1})
	v := policies.CapView{8}
	runAll(f, v, 0, 10, fsJob(0, 1, 1, 0), fsJob(1, 2, 2, 0))
	// Jobs of both users wait from t=200, 200 half-lives on.
	a, b := fsJob(2, 2, 1, 0), fsJob(3, 1, 1, 0)
	f.Submitted(200, a)
	f.Submitted(200, b)
	q := []*sim.Job{a, b}
	f.Sort(200, q)
	if q[0] != b {
		t.Errorf("at t=200 the lighter user 1 should rank first; got job %d first", q[0].ID)
	}
	want := 1 / math.Ln2 * (math.Exp2(-190) - math.Exp2(-200))
	if got := f.Usage(1, 200); !near(got, want) {
		t.Errorf("user 1 at t=200: usage %v; want %v", got, want)
	}
	if got := f.Usage(2, 200); !near(got, 2*want) {
		t.Errorf("user 2 at t=200: usage %v; want %v", got, 2*want)
	}
	// A million half-lives later both have decayed to nothing: a tie, so
	// arrival order.
	q = []*sim.Job{a, b}
	f.Sort(1_000_000, q)
	if q[0] != a || f.Usage(1, 1_000_000) != 0 {
		t.Errorf("at t=1e6: got job %d first, usage %v; want job %d, 0", q[0].ID, f.Usage(1, 1_000_000), a.ID)
	}
}

// TestFairshareShares checks target shares: a user's normalised share is
// its weight over the weights of the users seen so far, and ranking is by
// usage over share.
func TestFairshareShares(t *testing.T) {
	f := newFairshare(t, policies.FairshareConfig{HalfLife: 1 << 50, Shares: map[int32]float64{1: 3}})
	v := policies.CapView{8}
	if got := f.Share(1); got != 0 {
		t.Errorf("before any job: share %v; want 0", got)
	}
	// User 1 runs 300 processor-seconds, user 2 200.
	runAll(f, v, 0, 100, fsJob(0, 1, 3, 0), fsJob(1, 2, 2, 0))
	if s1, s2 := f.Share(1), f.Share(2); s1 != 0.75 || s2 != 0.25 {
		t.Errorf("shares of users 1 (weight 3) and 2 (weight 1): %v, %v; want 0.75, 0.25", s1, s2)
	}
	a, b, c := fsJob(2, 2, 1, 0), fsJob(3, 1, 1, 0), fsJob(4, 3, 1, 0)
	for _, j := range []*sim.Job{a, b, c} {
		f.Submitted(100, j)
	}
	if s1, s3 := f.Share(1), f.Share(3); s1 != 0.6 || s3 != 0.2 {
		t.Errorf("a third user seen: shares %v, %v; want 0.6, 0.2", s1, s3)
	}
	// User 3 has no usage; user 1 has 300/3 = 100 per weight, user 2 200.
	q := []*sim.Job{a, b, c}
	f.Sort(100, q)
	if diff := gocmp.Diff([]sim.JobID{c.ID, b.ID, a.ID}, ids(q)); diff != "" {
		t.Errorf("order with shares (-want +got):\n%s", diff)
	}
	// With equal shares user 2 (200) goes before user 1 (300).
	g := newFairshare(t, policies.FairshareConfig{HalfLife: 1 << 50})
	runAll(g, v, 0, 100, fsJob(0, 1, 3, 0), fsJob(1, 2, 2, 0))
	for _, j := range []*sim.Job{a, b, c} {
		g.Submitted(100, j)
	}
	q = []*sim.Job{a, b, c}
	g.Sort(100, q)
	if diff := gocmp.Diff([]sim.JobID{c.ID, a.ID, b.ID}, ids(q)); diff != "" {
		t.Errorf("order with equal shares (-want +got):\n%s", diff)
	}
}

// TestFairshareDominant charges the largest share of any kind: memory
// counts when it dominates.
func TestFairshareDominant(t *testing.T) {
	v := policies.CapView{10, 100} // 10 processors, 100 bytes of memory
	jobs := []*sim.Job{
		fsJob(0, 1, 1, 50), // half the memory: dominant share 0.5
		fsJob(1, 2, 5, 0),  // half the processors: 0.5
		fsJob(2, 3, 2, 10), // a fifth of the processors: 0.2
	}
	for _, tc := range []struct {
		usage policies.Usage
		want  [3]float64 // users 1, 2, 3 after 100 s
		order []sim.JobID
	}{
		{policies.UsageDominant, [3]float64{50, 50, 20}, []sim.JobID{6, 4, 5}},
		{policies.UsageProcs, [3]float64{100, 500, 200}, []sim.JobID{4, 6, 5}},
	} {
		t.Run(tc.usage.String(), func(t *testing.T) {
			f := newFairshare(t, policies.FairshareConfig{HalfLife: 1 << 50, Usage: tc.usage})
			runAll(f, v, 0, 100, jobs...)
			for u, want := range tc.want {
				if got := f.Usage(int32(u+1), 100); math.Abs(got-want) > 1e-6 {
					t.Errorf("user %d: usage %v; want %v", u+1, got, want)
				}
			}
			q := []*sim.Job{fsJob(3, 1, 1, 0), fsJob(4, 2, 1, 0), fsJob(5, 3, 1, 0)}
			for _, j := range q {
				f.Submitted(100, j)
			}
			f.Sort(100, q)
			if diff := gocmp.Diff(tc.order, ids(q)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFairshareSort checks the shape of the order: one user's jobs keep
// arrival order, users of equal priority interleave by arrival, and a
// running job's user sinks as it accrues.
func TestFairshareSort(t *testing.T) {
	f := newFairshare(t, policies.FairshareConfig{HalfLife: policies.DefaultHalfLife})
	v := policies.CapView{8}
	big := fsJob(0, 1, 8, 0)
	f.Submitted(0, big)
	f.Started(0, v, []*sim.Job{big})
	var q []*sim.Job
	for i, u := range []int32{1, 2, 3, 1, 2, 3, 1} {
		j := fsJob(i+1, u, 1, 0)
		f.Submitted(5, j)
		q = append(q, j)
	}
	f.Sort(5, q)
	// Users 2 and 3 have no usage: their jobs interleave by arrival; user 1
	// is running a job, so its own go last, in arrival order.
	if diff := gocmp.Diff([]sim.JobID{3, 4, 6, 7, 2, 5, 8}, ids(q)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestFairsharePanicsUnobserved: a Fairshare that never heard of a job
// cannot rank it; that is a discipline that does not forward observer
// calls, a programmer error.
func TestFairsharePanicsUnobserved(t *testing.T) {
	f := newFairshare(t, policies.FairshareConfig{HalfLife: 10})
	defer func() {
		if recover() == nil {
			t.Error("Sort of jobs never submitted did not panic")
		}
	}()
	f.Sort(0, []*sim.Job{fsJob(0, 1, 1, 0), fsJob(1, 2, 1, 0)})
}

func TestNewFairshareErrors(t *testing.T) {
	for _, c := range []policies.FairshareConfig{
		{HalfLife: 0},
		{HalfLife: -1},
		{HalfLife: 10, Usage: 7},
		{HalfLife: 10, Shares: map[int32]float64{1: 0}},
		{HalfLife: 10, Shares: map[int32]float64{1: math.NaN()}},
		{HalfLife: 10, Shares: map[int32]float64{1: math.Inf(1)}},
	} {
		if _, err := policies.NewFairshare(c); err == nil {
			t.Errorf("NewFairshare(%+v): no error", c)
		}
	}
}

// TestFairshareDecayMatters runs the decay golden case with the default
// half-life: user 1's old usage has not faded, so user 2's job goes first,
// the opposite of the golden schedule with a 100 s half-life.
func TestFairshareDecayMatters(t *testing.T) {
	tc := loadCase(t, casePath("fairshare-decay"))
	for _, tt := range []struct {
		halfLife sim.Time
		first    sim.JobID // of jobs 3 (user 2) and 4 (user 1), both waiting at t=350
	}{
		{100, 4},
		{policies.DefaultHalfLife, 3},
	} {
		o := newFairshare(t, policies.FairshareConfig{HalfLife: tt.halfLife})
		res, _ := simtest.Run(t, tc.capacity, policies.NewList("fcfs/fairshare", o), tc.jobs, sim.Options{}, simtest.Checks{})
		start := map[sim.JobID]sim.Time{}
		for _, o := range res.Jobs {
			start[o.ID] = o.Start
		}
		other := 7 - tt.first
		if start[tt.first] != 350 || start[other] != 400 {
			t.Errorf("half-life %d: jobs %d and %d start at %d and %d; want 350 and 400",
				tt.halfLife, tt.first, other, start[tt.first], start[other])
		}
	}
}

func ids(q []*sim.Job) []sim.JobID {
	out := make([]sim.JobID, len(q))
	for i, j := range q {
		out[i] = j.ID
	}
	return out
}

// checkedOrder is a Fairshare whose every Sort is checked against the
// definition, computed afresh from the public Usage and Share: the result
// is a permutation of the queue, each user's jobs keep arrival order, users'
// usage/share never decreases along it, and users without usage interleave
// by arrival.
type checkedOrder struct {
	*policies.Fairshare
	t *testing.T
}

func (c checkedOrder) Sort(now sim.Time, q []*sim.Job) {
	in := slices.Clone(q)
	c.Fairshare.Sort(now, q)
	bySeq := func(a, b *sim.Job) int { return cmp.Compare(a.Seq, b.Seq) }
	out := slices.SortedFunc(slices.Values(q), bySeq)
	if !slices.Equal(in, out) { // in arrives in arrival order
		c.t.Fatalf("t=%d: the sorted queue is not a permutation of the queue", now)
	}
	prio := func(j *sim.Job) float64 { return c.Usage(j.User, now) / c.Share(j.User) }
	last := map[int32]int{}
	for i, j := range q {
		if s, ok := last[j.User]; ok && s > j.Seq {
			c.t.Fatalf("t=%d: user %d's job %d ranks after its later job", now, j.User, j.ID)
		}
		last[j.User] = j.Seq
		if i == 0 || q[i-1].User == j.User {
			continue
		}
		a, b := prio(q[i-1]), prio(j)
		if a > b*(1+1e-9) || a == 0 && b == 0 && q[i-1].Seq > j.Seq {
			c.t.Fatalf("t=%d: job %d (user %d, priority %v) ranks before job %d (user %d, priority %v)",
				now, q[i-1].ID, q[i-1].User, a, j.ID, j.User, b)
		}
	}
}

// TestFairshareSortDefinition runs the disciplines over random workloads
// with every Sort checked against the definition.
func TestFairshareSortDefinition(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 5))
		c := simtest.Cluster(1+rng.Int64N(32), 1<<20)
		recs := randomWorkload(rng, 300, c, 30)
		cfg := policies.FairshareConfig{HalfLife: sim.Time(50 + rng.IntN(2000)), Usage: policies.Usage(seed % 2)}
		if seed%3 == 0 {
			cfg.Shares = map[int32]float64{0: 3, 2: 0.25}
		}
		for _, mk := range []func(policies.Order) sim.Policy{
			func(o policies.Order) sim.Policy { return policies.NewList("fcfs/fairshare", o) },
			func(o policies.Order) sim.Policy { return policies.NewEASY(o) },
			func(o policies.Order) sim.Policy { return policies.NewConservative(o) },
		} {
			o := checkedOrder{newFairshare(t, cfg), t}
			simtest.Run(t, c, mk(o), recs, sim.Options{}, simtest.Checks{})
		}
	}
}

// TestFairshareUsageFarAhead asks for usage long after the last event,
// with a job still running: no overflow, and the running job's charge
// tends to rate × H/ln2 while the finished usage decays away.
func TestFairshareUsageFarAhead(t *testing.T) {
	f := newFairshare(t, policies.FairshareConfig{HalfLife: 10})
	v := policies.CapView{8}
	runAll(f, v, 0, 100, fsJob(0, 1, 2, 0))
	j := fsJob(1, 1, 3, 0)
	f.Submitted(100, j)
	f.Started(100, v, []*sim.Job{j})
	if got, want := f.Usage(1, 1_000_000), 3*10/math.Ln2; !near(got, want) {
		t.Errorf("far ahead: usage %v; want %v", got, want)
	}
}

// TestFairshareLongRun keeps a job running across a jump of a million
// half-lives: the charge stays finite and tends to rate × H/ln2.
func TestFairshareLongRun(t *testing.T) {
	for _, jump := range []sim.Time{63, 64, 65, 1000, 1_000_000} {
		f := newFairshare(t, policies.FairshareConfig{HalfLife: 1})
		v := policies.CapView{8}
		long, other := fsJob(0, 1, 2, 0), fsJob(1, 2, 1, 0)
		f.Submitted(0, long)
		f.Started(0, v, []*sim.Job{long})
		a, b := fsJob(2, 1, 1, 0), fsJob(3, 2, 1, 0)
		f.Submitted(5, other)
		f.Submitted(5, a)
		f.Submitted(5, b)
		f.Started(5, v, []*sim.Job{other})
		f.Finished(6, other, 1)
		q := []*sim.Job{a, b}
		f.Sort(6+jump, q)
		want := 2 / math.Ln2 * (1 - math.Exp2(-float64(6+jump)))
		if got := f.Usage(1, 6+jump); !near(got, want) {
			t.Errorf("jump %d: user 1's usage %v; want %v", jump, got, want)
		}
		if q[0] != b {
			t.Errorf("jump %d: job %d ranks first; want %d of the idle user", jump, q[0].ID, b.ID)
		}
		f.Finished(7+jump, long, 7+jump)
		if got := f.Usage(1, 7+jump); !near(got, want/2+2/math.Ln2*0.5) {
			t.Errorf("jump %d: user 1's usage after the end %v; want %v", jump, got, want/2+2/math.Ln2*0.5)
		}
	}
}
