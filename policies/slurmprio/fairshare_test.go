package slurmprio

import (
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
)

// usageCase is a user's waiting job, submitted at 0, and, if end > 0, a
// job of procs CPUs that runs from 0 to end.
type usageCase struct {
	user, group int32
	procs       int64
	end         sim.Time
}

// play submits every case's jobs at 0, starts the running ones at 0, ends
// them at their end, then updates at each of updates; it returns the
// calculator and the waiting jobs in case order.
func play(t *testing.T, p Params, cases []usageCase, updates ...sim.Time) (*Calculator, []*sim.Job) {
	t.Helper()
	c := newCalc(t, p, Machine{Procs: 64})
	var waiting, runs []*sim.Job
	seq := 0
	for _, uc := range cases {
		w := job(seq, 0, 1, uc.user, uc.group)
		seq++
		c.Submitted(0, w)
		waiting = append(waiting, w)
		if uc.end > 0 {
			r := job(seq, 0, uc.procs, uc.user, uc.group)
			seq++
			c.Submitted(0, r)
			runs = append(runs, r)
		}
	}
	for _, r := range runs {
		c.Started(0, r)
	}
	for _, r := range runs {
		for _, uc := range cases {
			if uc.user == r.User && uc.group == r.Group && uc.end > 0 {
				c.Finished(uc.end, r, uc.end)
			}
		}
	}
	for _, u := range updates {
		c.Update(u, nil, waiting)
	}
	return c, waiting
}

func priorities(c *Calculator, js []*sim.Job) []uint32 {
	out := make([]uint32, len(js))
	for i, j := range js {
		out[i] = c.Priority(j)
	}
	return out
}

func samePriorities(t *testing.T, what string, got, want []uint32) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: got priorities %v; want %v", what, got, want)
			return
		}
	}
}

// TestChargeNoDecay: without decay a running job is charged its CPUs ×
// seconds at each boundary and at its end: 4 CPUs from 0 to 700 with a
// period of 300 are 1200 at 300, 2400 at 600 and 2800 at the end.
func TestChargeNoDecay(t *testing.T) {
	p := Defaults()
	p.WeightFairshare = 1 // usage is kept only when the fairshare factor weighs
	p.DecayHalfLife, p.CalcPeriod = 0, 300
	c := newCalc(t, p, Machine{Procs: 8})
	j := job(0, 0, 4, 1, 1)
	c.Submitted(0, j)
	c.Started(0, j)
	for _, s := range []struct {
		at   sim.Time
		want float64
	}{{0, 0}, {300, 1200}, {600, 2400}} {
		c.Update(s.at, nil, nil)
		if got := c.t.a[0].usage; got != s.want {
			t.Errorf("root usage at %d: got %g; want %g", s.at, got, s.want)
		}
	}
	c.Finished(700, j, 700)
	c.Update(900, nil, nil)
	for i, want := range []float64{2800, 2800, 2800} { // root, account, user
		if got := c.t.a[i].usage; got != want {
			t.Errorf("association %d usage after the end: got %g; want %g", i, got, want)
		}
	}
}

// TestDecayHalfLife: usage decays by Slurm's decay factor d = 1 −
// 0.693/h per second, so by d^h ≈ ½ over a half-life h (the decay
// thread's first-order approximation of 2^(−1/h)). With h = 1000 s and a
// period of 1000 s, one CPU running 0–1000 is charged, at the boundary
// 1000, 1000 · d^1000 = 1000 · 0.4999534746970… = 499.9534746970…; at
// 2000 that has decayed by d^1000 again: 249.9534768616…
func TestDecayHalfLife(t *testing.T) {
	p := Defaults()
	p.WeightFairshare = 1 // usage is kept only when the fairshare factor weighs
	p.DecayHalfLife, p.CalcPeriod = 1000, 1000
	c := newCalc(t, p, Machine{Procs: 8})
	j := job(0, 0, 1, 1, 1)
	c.Submitted(0, j)
	c.Started(0, j)
	c.Finished(1000, j, 1000)
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*want }
	if got, want := c.t.a[0].usage, 499.95347469707804; !near(got, want) {
		t.Errorf("usage at 1000: got %.12g; want %.12g", got, want)
	}
	c.Update(2000, nil, nil)
	if got, want := c.t.a[0].usage, 249.95347686168185; !near(got, want) {
		t.Errorf("usage at 2000: got %.12g; want %.12g", got, want)
	}
	// A half-life later still, about a quarter of that again.
	c.Update(4000, nil, nil)
	if got, want := c.t.a[0].usage, 249.95347686168185*0.499953474697078*0.499953474697078; !near(got, want) {
		t.Errorf("usage at 4000: got %.12g; want %.12g", got, want)
	}
}

// TestClassic works 2^(−U_e/S_n) on a two-account tree. Accounts 1
// (RawShares 3) and 2 (1): S_n 3/4 and 1/4. Users 10 and 11 in account 1
// (1 each): S_n ½ · ¾ = 3/8; user 20 in account 2: 1 · ¼ = ¼. No decay;
// period 100. User 10 runs 1 CPU and user 20 3 CPUs from 0 to 100: usage
// 100 and 300 of 400, U_n ¼ and ¾. Weight 10000.
func TestClassic(t *testing.T) {
	p := only(func(p *Params) {
		p.WeightFairshare, p.Fairshare, p.Shares = 10000, "classic", "1:3,2:1"
		p.DecayHalfLife, p.CalcPeriod = 0, 100
	})
	cases := []usageCase{
		{user: 10, group: 1, procs: 1, end: 100},
		{user: 11, group: 1},
		{user: 20, group: 2, procs: 3, end: 100},
	}
	c, w := play(t, p, cases)
	// At submission a new association's effective usage is 0: 2^0 = 1.
	samePriorities(t, "at submission", priorities(c, w), []uint32{10000, 10000, 10000})

	// At 100 the accounts' effective usage was taken before the usage of
	// the period was charged: 0. U_e = U_n + (0 − U_n)·share in account:
	// user 10: ¼ − ¼·½ = ⅛, 2^(−(1/8)/(3/8)) = 2^(−1/3) = 0.79370… →
	// 7937; user 11: 0 → 10000; user 20: ¾ − ¾·1 = 0 → 10000.
	c.Update(100, nil, w)
	samePriorities(t, "at 100", priorities(c, w), []uint32{7937, 10000, 10000})

	// At 200 the accounts' U_e are their U_n: ¼ and ¾. User 10: ¼ +
	// (¼ − ¼)·½ = ¼, 2^(−(1/4)/(3/8)) = 2^(−2/3) = 0.62996… → 6299;
	// user 11: 0 + (¼ − 0)·½ = ⅛ → 2^(−1/3) → 7937; user 20: ¾ + 0 =
	// ¾, 2^(−(3/4)/(1/4)) = 2^(−3) = 0.125 → 1250.
	c.Update(200, nil, w)
	samePriorities(t, "at 200", priorities(c, w), []uint32{6299, 7937, 1250})
}

// TestFairTree ranks a small tree. Accounts 1 and 2 (RawShares 1 each:
// S ½). Account 1: users 10, 11 (1 share each: S ¼) and 12 (2: S ½);
// account 2: users 20, 21 (S ½ each). Usage, all CPU-seconds by 100:
// 10: 100, 11: 100, 12: 0, 20: 300, 21: 100; accounts 200 and 400 of 600.
// Level fairshare LF = S/U: account 1: ½/(1/3) = 1.5, account 2:
// ½/(2/3) = 0.75, so account 1 ranks first. In account 1: 12: ½/0 = +Inf,
// 10: ¼/½ = ½, 11: ½ (a tie). In account 2: 21: ½/¼ = 2, 20: ½/¾ = ⅔.
// Five user associations; ranks count down from 5: 12 → 5, 10 and 11
// tied → 4, 4 (the count still moves), 21 → 2, 20 → 1. Factor rank/5,
// weight 1000: 1000, 800, 800, 400, 200.
func TestFairTree(t *testing.T) {
	p := only(func(p *Params) {
		p.WeightFairshare, p.Shares = 1000, "1:1,2:1,1/12:2"
		p.DecayHalfLife, p.CalcPeriod = 0, 100
	})
	cases := []usageCase{
		{user: 12, group: 1},
		{user: 10, group: 1, procs: 1, end: 100},
		{user: 11, group: 1, procs: 1, end: 100},
		{user: 21, group: 2, procs: 1, end: 100},
		{user: 20, group: 2, procs: 3, end: 100},
	}
	c, w := play(t, p, cases)
	// New associations have fs_factor 0 until the next calculation: 1.
	samePriorities(t, "at submission", priorities(c, w), []uint32{1, 1, 1, 1, 1})
	c.Update(100, nil, w)
	samePriorities(t, "at 100", priorities(c, w), []uint32{1000, 800, 800, 400, 200})
}

// TestFairTreeTiedAccounts: accounts 3 and 4 tie (1 share and 100
// CPU-seconds each). Account 3: user 30 used 100 (LF ½/1 = ½), user 31
// nothing (+Inf); account 4 likewise: 40 used 100, 41 nothing. Slurm
// 22.05 does not merge tied accounts (_count_tied_accounts stops at the
// first account), so account 3 ranks first (name order): 31 → 4, 30 → 3;
// account 4 starts tied with the previous account: 41 shares rank 3, then
// 40 → 1. Factor rank/4, weight 1000: 31 1000, 30 750, 41 750, 40 250.
// (Merged children, as the Fair Tree documentation describes, would give
// 31 and 41 1000, 30 and 40 500.)
func TestFairTreeTiedAccounts(t *testing.T) {
	p := only(func(p *Params) {
		p.WeightFairshare = 1000
		p.DecayHalfLife, p.CalcPeriod = 0, 100
	})
	cases := []usageCase{
		{user: 31, group: 3},
		{user: 30, group: 3, procs: 1, end: 100},
		{user: 41, group: 4},
		{user: 40, group: 4, procs: 1, end: 100},
	}
	c, w := play(t, p, cases, 100)
	samePriorities(t, "at 100", priorities(c, w), []uint32{1000, 750, 750, 250})
}

// TestTwoAccounts: a user seen under two accounts is two associations
// with their own usage.
func TestTwoAccounts(t *testing.T) {
	p := Defaults()
	c := newCalc(t, p, Machine{Procs: 8})
	a, b := job(0, 0, 1, 5, 1), job(1, 0, 1, 5, 2)
	c.Submitted(0, a)
	c.Submitted(0, b)
	if c.jobs[0].assoc == c.jobs[1].assoc {
		t.Fatalf("user 5 in accounts 1 and 2: one association %d", c.jobs[0].assoc)
	}
	if c.t.users != 2 {
		t.Errorf("got %d user associations; want 2", c.t.users)
	}
}

// TestChargeFromRunning: a running job that Started did not announce is
// charged from its allocation's start once Update sees it: 2 CPUs started
// at 100, seen at 200, are 2 · (300 − 100) = 400 at the boundary 300.
func TestChargeFromRunning(t *testing.T) {
	p := Defaults()
	p.WeightFairshare = 1 // usage is kept only when the fairshare factor weighs
	p.DecayHalfLife, p.CalcPeriod = 0, 300
	c := newCalc(t, p, Machine{Procs: 8})
	j := job(0, 0, 2, 1, 1)
	c.Submitted(0, j)
	run := []sim.Allocation{{Job: j, Start: 100}}
	c.Update(200, run, nil)
	c.Update(300, run, nil)
	if got := c.t.a[0].usage; got != 400 {
		t.Errorf("root usage at 300: got %g; want 400", got)
	}
	c.Finished(450, j, 350)
	if got := c.t.a[0].usage; got != 700 {
		t.Errorf("root usage at the end, 450: got %g; want 700", got)
	}
}

// TestNoUsageWithoutFairshare: with the fairshare weight 0 nothing reads
// usage, and the calculator charges none (it skips the decay thread's
// work); the priorities are those of the same run with usage kept, whose
// fairshare factor is then weighed by 0.
func TestNoUsageWithoutFairshare(t *testing.T) {
	p := Defaults()
	p.CalcPeriod, p.WeightJobSize = 300, 500
	c := newCalc(t, p, Machine{Procs: 8})
	kept := newCalc(t, p, Machine{Procs: 8})
	kept.usage = true // as if fairshare weighed, with its weight still 0
	a, b := job(0, 0, 4, 1, 1), job(1, 10, 2, 2, 2)
	for _, k := range []*Calculator{c, kept} {
		k.Submitted(0, a)
		k.Started(0, a)
		k.Submitted(10, b)
		k.Update(900, []sim.Allocation{{Job: a, Start: 0}}, []*sim.Job{b})
	}
	if c.t.a[0].usage != 0 || kept.t.a[0].usage == 0 {
		t.Errorf("root usage %v without fairshare, %v kept; want 0 and more", c.t.a[0].usage, kept.t.a[0].usage)
	}
	if c.Priority(b) != kept.Priority(b) || c.Next() != kept.Next() {
		t.Errorf("priority %d, next %d; with usage kept %d, %d", c.Priority(b), c.Next(), kept.Priority(b), kept.Next())
	}
}
