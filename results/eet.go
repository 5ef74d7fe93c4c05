package results

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// This file implements the user-aware model of Š. Tóth and D. Klusáček,
// "User-Aware Metrics for Measuring Quality of Parallel Job Schedules",
// JSSPP 2014 (LNCS 8828): section 3.2's expected end time (EET) of every
// job, Algorithm 1, and section 3.3's per-user measures, Formulas 1–3.

// Sharing says how a CapacityRule gives each user an expected capacity:
// the "resource with a predefined capacity" each user is assigned in
// section 3.2, "the share of real resources a user is expecting to receive
// from the system (at any time)".
type Sharing uint8

const (
	// EqualShare gives each user the machine's capacity divided by the
	// number of users, kind by kind: the paper's "virtual share of the
	// system, following the idea of the well known fairshare principle"
	// (section 3.1) for users of equal priority, and the split of its
	// Figure 3 (two users with capacity 3 on 6 processors). The users are
	// the distinct users with at least one job that ran; the unknown user
	// (sim.Missing) counts as one. Users whose every job was rejected are
	// not counted: they never compete for the machine, and the engine
	// rejects a job for what it is, not for what a policy did, so every
	// policy's run of a workload has the same users and the same shares.
	// The share is kept exact as a fraction (2176 processors among 75 users
	// is 2176/75 each), never rounded.
	EqualShare Sharing = iota
	// ProportionalShare splits each kind in proportion to the users'
	// submitted work of that kind: user u gets capacity × w(u)/Σw, where
	// w(u) is the need of that kind × run time (Outcome.Work) summed over
	// u's jobs that ran. It models "more or less demanding users" (section
	// 3.2: "We can assign different capacity of this resource to different
	// users"): a user who submits more expects more. It is an alternative
	// of this package, not the paper's, whose future work (section 5)
	// leans the other way: a user who used much in the near past should
	// get later EETs, that is less capacity. Shares are rounded down to
	// 1/1024 of a unit (to whole units on a kind whose capacity exceeds
	// 2⁶³/1024, about 9·10¹⁵), and a user with any work of the kind gets
	// at least 1/1024.
	ProportionalShare
	// FixedShare gives every user CapacityRule.Fixed, whatever the machine
	// and however many users there are, as the paper's worked example does
	// (ExpectedCapacity = 3, Table 1).
	FixedShare
)

func (s Sharing) String() string {
	switch s {
	case EqualShare:
		return "equal"
	case ProportionalShare:
		return "proportional"
	case FixedShare:
		return "fixed"
	}
	return fmt.Sprintf("sharing(%d)", int(s))
}

// CapacityRule decides each user's expected capacity per resource kind.
// The zero value is EqualShare with no per-user capacities.
type CapacityRule struct {
	Sharing Sharing
	// Fixed is every user's capacity when Sharing is FixedShare; ignored
	// otherwise.
	Fixed sim.Resources
	// Users gives particular users their own capacity, in place of what
	// Sharing gives them (the paper's "different capacity ... to different
	// users, thus modeling ... users with different priorities"). The other
	// users' shares do not change: with EqualShare an overridden user still
	// counts among the users the machine is divided by.
	Users map[int32]sim.Resources
}

// Fixed returns the rule that gives every user capacity c.
func Fixed(c sim.Resources) CapacityRule { return CapacityRule{Sharing: FixedShare, Fixed: c} }

// Ratio is an exact fraction Num/Den of a resource kind's unit (Den > 0).
type Ratio struct{ Num, Den int64 }

// Float64 returns the ratio as a float.
func (r Ratio) Float64() float64 { return float64(r.Num) / float64(r.Den) }

// JobEET is one job's expected end time and tardiness, in seconds from the
// start of the trace.
type JobEET struct {
	EET sim.Time // -1 for a rejected job
	// Tardiness is T_j = max(0, C_j − EET_j) (Formula 2) with C_j the job's
	// end in the simulated schedule; -1 for a rejected job.
	Tardiness sim.Time
}

// UserEET is one user's share of the machine and section 3.3's measures
// over the user's jobs that ran.
type UserEET struct {
	User int32 // sim.Missing for the jobs of unknown users
	// Capacity is the user's expected capacity per kind (all zero for a
	// user none of whose jobs ran, under EqualShare and ProportionalShare).
	Capacity [sim.MaxKinds]Ratio
	// Jobs counts all the user's jobs; Ran those that ran, jobCount_u of
	// Formula 1 (a rejected job has no EET to meet or violate).
	Jobs, Ran int
	// Violated counts jobs that ran with positive tardiness, violatedEET_u.
	Violated int
	// VEETShare is Formula 1's VEET_u as a fraction: Violated / Ran, in
	// [0, 1]; 0 when Ran is 0.
	VEETShare float64
	// Tardiness is Σ T_j over the user's jobs, in seconds.
	Tardiness sim.Time
	// WeightedTardiness is Formula 3's total weighted tardiness
	// WT_u = Σ w_j·T_j with w_j the job's processors: processor-seconds.
	WeightedTardiness int64
}

// EET is the model's verdict on one run.
type EET struct {
	Rule CapacityRule
	// Jobs is aligned with the Result's Jobs.
	Jobs []JobEET
	// Users holds every user with a job in the run, by user number, the
	// unknown user (sim.Missing) first: the users and order of UserRows.
	Users []UserEET
}

// User returns user u's measures and whether u has jobs in the run.
func (e *EET) User(u int32) (*UserEET, bool) {
	i, ok := slices.BinarySearchFunc(e.Users, u, func(x UserEET, u int32) int { return cmp.Compare(x.User, u) })
	if !ok {
		return nil, false
	}
	return &e.Users[i], true
}

// ComputeEET computes the expected end time of every job of res that ran,
// its tardiness, and every user's measures, under rule.
//
// Algorithm 1 of the paper, generalised. Each user has, per resource kind,
// an expected capacity (rule). The user's jobs, in arrival order, are laid
// into that capacity "tetris-like" from their arrival (their submit time):
// a job of need r and run time t must consume r×t units and takes, each
// second, min(capacity left that second, r) — so it keeps its width where
// the user's capacity allows, becomes narrower and longer where earlier
// jobs left less, never wider and shorter, and fills holes earlier jobs
// left. Its EET on that kind is the end of the last second in which it
// consumes anything (Algorithm 1's time after its loop: whole seconds, as
// the paper counts "blocks" of 1 second × 1 unit). With several kinds
// (processors, memory, GPUs) the EET is the latest over the kinds on which
// the job's need and the user's capacity are both positive (section 3.2:
// "we then select the latest/maximum EET"); a job with no such kind gets
// submit + run time. A job with zero run time consumes nothing: its EET is
// its arrival.
//
// Deviations from Algorithm 1, documented:
//   - The run time is the job's work in the simulated schedule
//     (Outcome.Work): its full run time if it finished, its estimate if it
//     was killed; end − start on dedicated processors. The paper takes it
//     from a historic trace, where it is the same thing.
//   - A job's last second takes only what the job still needs. Line 9 of
//     Algorithm 1 takes min(capacity, rescReq) even then, consuming more
//     than rescReq × runtime in all when earlier seconds were short of
//     capacity, which can delay later jobs: with capacity 3, jobs (arrival
//     0, need 2, run 1), (0, 2, 2) and (2, 2, 1) get EETs 1, 3 and 3 here,
//     1, 3 and 4 by the literal algorithm. The paper's worked example
//     (Table 1: EETs 4 and 3) is the same either way.
//   - Capacities may be fractions (EqualShare: 2176/75 processors each);
//     the arithmetic is exact, in units of 1/denominator.
//
// The capacity left is kept per user and kind as a step function (never
// one cell per second); each job costs O(s) for the s steps between its
// arrival and its EET, and the steps before the latest arrival are
// dropped. ComputeEET fails if the rule is unknown or gives a negative
// capacity or one that is zero on every kind, if a job that ran ends
// before it starts or starts before its submit time, or if a time or sum
// would overflow int64.
func ComputeEET(res *sim.Result, rule CapacityRule) (*EET, error) {
	if err := rule.validate(); err != nil {
		return nil, err
	}
	e := &EET{Rule: rule, Jobs: make([]JobEET, len(res.Jobs))}
	users, err := usersOf(res)
	if err != nil {
		return nil, err
	}
	caps, err := rule.capacities(res, users)
	if err != nil {
		return nil, err
	}
	var p userProfile
	for u, jobs := range users {
		ue, err := e.user(res, jobs, caps[u], &p)
		if err != nil {
			return nil, err
		}
		e.Users = append(e.Users, ue)
	}
	slices.SortFunc(e.Users, func(a, b UserEET) int { return cmp.Compare(a.User, b.User) })
	return e, nil
}

// usersOf groups the jobs of res by user, in order of each user's first
// job, and each user's jobs in arrival order: by submit time, then by
// position in res (a Result from sim.Run is in that order already). It
// fails for a job that ran and ends before it starts or starts before its
// submit time.
func usersOf(res *sim.Result) ([][]int, error) {
	index := map[int32]int{}
	var users [][]int
	for i := range res.Jobs {
		o := &res.Jobs[i]
		if o.State != sim.Rejected && (o.End < o.Start || o.Start < o.Submit) {
			return nil, fmt.Errorf("job %d: ran from %d to %d, submitted at %d: the result is corrupt", o.ID, o.Start, o.End, o.Submit)
		}
		u, ok := index[o.User]
		if !ok {
			u = len(users)
			index[o.User] = u
			users = append(users, nil)
		}
		users[u] = append(users[u], i)
	}
	bySubmit := func(i, j int) int { return cmp.Compare(res.Jobs[i].Submit, res.Jobs[j].Submit) }
	for _, jobs := range users {
		if !slices.IsSortedFunc(jobs, bySubmit) {
			slices.SortStableFunc(jobs, bySubmit)
		}
	}
	return users, nil
}

// user computes the EETs of one user's jobs (indexes into res.Jobs, in
// arrival order) into e.Jobs, under the user's capacity caps, with p as the
// scratch profile, and returns the user's summary. A job's EET is the
// latest over the kinds the user has capacity of; a job no kind constrains
// ends its work after its submit time.
func (e *EET) user(res *sim.Result, jobs []int, caps [sim.MaxKinds]Ratio, p *userProfile) (UserEET, error) {
	for _, i := range jobs {
		if res.Jobs[i].State == sim.Rejected {
			e.Jobs[i] = JobEET{EET: -1, Tardiness: -1}
		} else {
			e.Jobs[i].EET = math.MinInt64 // no kind has constrained it yet
		}
	}
	for k, c := range caps {
		if c.Num == 0 {
			continue
		}
		if err := e.consumeKind(res, jobs, k, c, p); err != nil {
			return UserEET{}, err
		}
	}
	ue := UserEET{User: res.Jobs[jobs[0]].User, Capacity: caps, Jobs: len(jobs)}
	for _, i := range jobs {
		o, je := &res.Jobs[i], &e.Jobs[i]
		if o.State == sim.Rejected {
			continue
		}
		if je.EET == math.MinInt64 {
			je.EET = o.Submit + o.Work()
		}
		je.Tardiness = max(0, o.End-je.EET)
		if err := ue.add(o, je.Tardiness); err != nil {
			return UserEET{}, err
		}
	}
	if ue.Ran > 0 {
		ue.VEETShare = float64(ue.Violated) / float64(ue.Ran)
	}
	return ue, nil
}

// consumeKind walks one user's jobs through the capacity c of kind k,
// resetting p to it: each job that ran and needs k consumes its work from
// its arrival on, and its EET becomes the later of the one it had and the
// time its work is done.
func (e *EET) consumeKind(res *sim.Result, jobs []int, k int, c Ratio, p *userProfile) error {
	p.reset(c.Num)
	for _, i := range jobs {
		o := &res.Jobs[i]
		r := o.Need[k]
		if o.State == sim.Rejected || r <= 0 {
			continue
		}
		// need r·Den, clamped to Num: a second never offers more.
		need := mul64(uint64(r), uint64(c.Den))
		rate := uint64(c.Num)
		if need.hi == 0 && need.lo < rate {
			rate = need.lo
		}
		work, ok := need.mul(uint64(o.Work()))
		if !ok {
			return fmt.Errorf("job %d: %w", o.ID, errOverflow)
		}
		t, err := p.consume(o.Submit, int64(rate), work)
		if err != nil {
			return fmt.Errorf("job %d: %w", o.ID, err)
		}
		e.Jobs[i].EET = max(e.Jobs[i].EET, t)
	}
	return nil
}

// add counts a job of the user that ran, late by tardiness (0: on time),
// into the user's totals; it fails if a total would overflow.
func (ue *UserEET) add(o *sim.Outcome, tardiness sim.Time) error {
	ue.Ran++
	if tardiness == 0 {
		return nil
	}
	ue.Violated++
	var ok1, ok2 bool
	ue.Tardiness, ok1 = addTime(ue.Tardiness, tardiness)
	wt, ok := mulNonNeg(o.Need[sim.Procs], int64(tardiness))
	ue.WeightedTardiness, ok2 = addTime(ue.WeightedTardiness, wt)
	if !ok || !ok1 || !ok2 {
		return fmt.Errorf("user %d: tardiness %w", ue.User, errOverflow)
	}
	return nil
}

// addTime returns a + b for non-negative a and b, and whether it fits.
func addTime[T ~int64](a, b T) (T, bool) {
	if a > math.MaxInt64-b {
		return 0, false
	}
	return a + b, true
}

// mulNonNeg returns a·b for non-negative a and b, and whether it fits.
func mulNonNeg(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int64(lo), hi == 0 && lo <= math.MaxInt64
}

func (r CapacityRule) validate() error {
	check := func(what string, c sim.Resources) error {
		if k, neg := (sim.Resources{}).Exceeds(c); neg {
			return fmt.Errorf("%s has negative %v %d", what, k, c[k])
		}
		if c == (sim.Resources{}) {
			return fmt.Errorf("%s is zero on every kind", what)
		}
		return nil
	}
	switch r.Sharing {
	case EqualShare, ProportionalShare:
	case FixedShare:
		if err := check("fixed capacity", r.Fixed); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown capacity sharing %v", r.Sharing)
	}
	for _, u := range slices.Sorted(maps.Keys(r.Users)) {
		if err := check(fmt.Sprintf("capacity of user %d", u), r.Users[u]); err != nil {
			return err
		}
	}
	return nil
}

// capacities returns each user's capacity, users[u] being the user's jobs:
// the rule's sharing, then the capacities it names per user.
func (r CapacityRule) capacities(res *sim.Result, users [][]int) ([][sim.MaxKinds]Ratio, error) {
	caps := make([][sim.MaxKinds]Ratio, len(users))
	for u := range caps {
		for k := range caps[u] {
			caps[u][k] = Ratio{0, 1}
		}
	}
	switch r.Sharing {
	case EqualShare:
		equalShares(caps, res, users)
	case ProportionalShare:
		proportionalShares(caps, res, users)
	case FixedShare:
		for u := range users {
			for k, c := range r.Fixed {
				caps[u][k] = Ratio{c, 1}
			}
		}
	}
	for u, jobs := range users {
		if c, ok := r.Users[res.Jobs[jobs[0]].User]; ok {
			for k := range c {
				caps[u][k] = Ratio{c[k], 1}
			}
		}
	}
	return caps, nil
}

// equalShares gives each user with a job that ran an equal share of the
// machine, in caps; the others keep theirs.
func equalShares(caps [][sim.MaxKinds]Ratio, res *sim.Result, users [][]int) {
	ran := func(jobs []int) bool {
		return slices.ContainsFunc(jobs, func(i int) bool { return res.Jobs[i].State != sim.Rejected })
	}
	n := 0
	for _, jobs := range users {
		if ran(jobs) {
			n++
		}
	}
	for u, jobs := range users {
		if !ran(jobs) {
			continue
		}
		for k, c := range res.Capacity {
			caps[u][k] = reduced(c, int64(n))
		}
	}
}

// proportionalShares gives each user, in caps, the share of each kind of
// the machine that the user's work (need × run time of the jobs that ran)
// is of all users' work of that kind, in units of 1/1024 (whole units for
// a capacity too large for that), and at least one unit; a user without
// work of a kind keeps the capacity it had.
func proportionalShares(caps [][sim.MaxKinds]Ratio, res *sim.Result, users [][]int) {
	work, total := usersWork(res, users)
	for u := range users {
		for k, c := range res.Capacity {
			if c <= 0 || work[u][k].Sign() <= 0 {
				continue
			}
			den := int64(1024)
			if c > math.MaxInt64/1024 {
				den = 1
			}
			num := new(big.Int).Mul(big.NewInt(c*den), work[u][k])
			num.Quo(num, &total[k])
			caps[u][k] = reduced(max(num.Int64(), 1), den)
		}
	}
}

// usersWork returns each user's work of each kind, need × run time summed
// over the jobs that ran, and the total of every user's.
func usersWork(res *sim.Result, users [][]int) ([][sim.MaxKinds]*big.Int, *[sim.MaxKinds]big.Int) {
	// need × work overflows int64 for memory in bytes, so the sums
	// are big; the product goes through one reused scratch value.
	var work [][sim.MaxKinds]*big.Int
	var total [sim.MaxKinds]big.Int
	var prod, a, b big.Int
	for _, jobs := range users {
		var w [sim.MaxKinds]*big.Int
		for k := range w {
			w[k] = new(big.Int)
		}
		for _, i := range jobs {
			o := &res.Jobs[i]
			if o.State == sim.Rejected {
				continue
			}
			b.SetInt64(int64(o.Work()))
			for k, need := range o.Need {
				if need == 0 {
					continue
				}
				w[k].Add(w[k], prod.Mul(a.SetInt64(need), &b))
			}
		}
		for k := range w {
			total[k].Add(&total[k], w[k])
		}
		work = append(work, w)
	}
	return work, &total
}

// reduced returns num/den in lowest terms (0/1 for a num not above 0).
func reduced(num, den int64) Ratio {
	if num <= 0 {
		return Ratio{0, 1}
	}
	a, b := num, den
	for b != 0 {
		a, b = b, a%b
	}
	return Ratio{num / a, den / a}
}
