package policies_test

// The oracle's policies by name and its queue orders: shortest requested
// time first, and fairshare, re-derived from order.go's and fairshare.go's
// documentation without calling into either; the accuracy order is in
// oracle_accuracy_test.go.
//
// Fairshare, as the oracle reads fairshare.go's comment:
//
//   - A job charges its user its rate for every second it has run: its
//     processors (usage = procs), or its dominant share, the largest
//     need/capacity over the kinds the cluster has (usage = dominant).
//     It is charged from the pass that starts it to the instant it ends
//     (killed at its estimate, or its whole run time with overruns).
//   - A charge made d seconds ago counts 2^(-d/H) of itself, H the
//     half-life, continuously: a job that ran over [s, e] weighs, at now,
//     rate·∫_s^min(e,now) 2^(-(now-x)/H) dx. The oracle sums that over
//     every started job from scratch at every pass; fairshare.go keeps
//     scaled running totals instead.
//   - At every pass the waiting jobs rank by (usage/weight of their user,
//     arrival); a user's weight is its shares entry, 1 if not listed.
//     Ranking by usage/share is ranking by usage/weight: the sum of the
//     weights cancels.
//
// The engine compares float64 priorities exactly ("users rank equal only
// when their values are exactly equal"), and computes them otherwise than
// the oracle does, so where two waiting users' priorities are equal in
// exact arithmetic but reached by different sums, rounding decides, and
// differently in each. The oracle cannot say what the engine does then: a
// pass whose ranking hangs on such a near-tie ends its run with
// errOracleTie, and the comparison counts the case as undecided. Users
// that no job has charged yet rank at exactly zero in both, and users
// whose priorities the oracle computes bit for bit alike (the same jobs'
// spans in the same order) tie exactly in both; neither is a near-tie.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// oraclePolicy is a registered policy with registry settings, as
// policies.New takes them ("order=fairshare", "half_life=100").
type oraclePolicy struct {
	entry  string
	params []string
}

func (p oraclePolicy) String() string {
	if len(p.params) == 0 {
		return p.entry
	}
	return p.entry + " " + strings.Join(p.params, " ")
}

// errOracleTie marks a run the oracle cannot decide: see the file comment.
var errOracleTie = errors.New("fairshare near-tie")

// oracleConfig is an oraclePolicy as the oracle runs it.
type oracleConfig struct {
	disc  string // fcfs, easy, conservative, pbs, bb, ibb
	order string // arrival, sjf, fairshare, accuracy
	// fairshare
	halfLife sim.Time
	dominant bool
	shares   map[int32]float64
	// pbs
	guard     bool
	maxStarve sim.Time
	// bb: one backfilled job per pass
	once bool
	// accuracy (oracle_accuracy_test.go): the window of ended jobs and
	// the priority of a user with none
	window, newUser int
}

// config reads p's entry and settings. The defaults are the documented
// ones: a half-life of one day and usage in processors (fairshare.go's
// DefaultHalfLife), and the guard on at 24 hours (pbs.go's
// DefaultMaxStarve), and the paper's window of ten jobs with new users at
// priority 5 (the registry's accuracy_window and new_user_priority), written
// out here rather than read from policies.
func (p oraclePolicy) config() (oracleConfig, error) {
	cfg := oracleConfig{order: "arrival", halfLife: 86400, guard: true, maxStarve: 86400, window: 10, newUser: 5}
	switch p.entry {
	case "fcfs", "easy", "conservative":
		cfg.disc = p.entry
	case "sjf":
		cfg.disc, cfg.order = "fcfs", "sjf"
	case "psp":
		cfg.disc, cfg.order = "easy", "accuracy"
	case "pbs-fifo":
		cfg.disc = "pbs"
	case "backfill-balanced":
		cfg.disc = "bb"
	case "improved-backfill-balanced":
		cfg.disc = "ibb"
	default:
		return cfg, fmt.Errorf("oracle: no policy %q", p.entry)
	}
	for _, s := range p.params {
		k, v, _ := strings.Cut(s, "=")
		var err error
		switch k {
		case "order":
			cfg.order = v
			if v != "arrival" && v != "sjf" && v != "fairshare" && v != "accuracy" {
				err = errors.New("unknown order")
			}
			if p.entry == "psp" {
				err = errors.New("psp takes no order")
			}
		case "half_life":
			var h int64
			h, err = strconv.ParseInt(v, 10, 64)
			cfg.halfLife = sim.Time(h)
		case "usage":
			cfg.dominant = v == "dominant"
		case "shares":
			cfg.shares = map[int32]float64{}
			for e := range strings.SplitSeq(v, ",") {
				u, w, _ := strings.Cut(e, ":")
				user, err1 := strconv.ParseInt(u, 10, 32)
				weight, err2 := strconv.ParseFloat(w, 64)
				if err = errors.Join(err1, err2); err != nil {
					break
				}
				cfg.shares[int32(user)] = weight
			}
		case "max_starve":
			var m int64
			m, err = strconv.ParseInt(v, 10, 64)
			cfg.maxStarve = sim.Time(m)
		case "help_starving_jobs":
			cfg.guard, err = strconv.ParseBool(v)
		case "backfill":
			cfg.once = v == "once"
		case "accuracy_window":
			cfg.window, err = strconv.Atoi(v)
			if err == nil && cfg.window < 1 {
				err = errors.New("not a positive number of jobs")
			}
		case "new_user_priority":
			cfg.newUser, err = strconv.Atoi(v)
			if err == nil && (cfg.newUser < 1 || cfg.newUser > 5) {
				err = errors.New("not a priority 1 to 5")
			}
		default:
			err = errors.New("unknown setting")
		}
		if err != nil {
			return cfg, fmt.Errorf("oracle: %v: %q: %v", p, s, err)
		}
	}
	return cfg, nil
}

// rank puts waiting, in arrival order, into cfg's queue order at now.
// arrived is every job that has arrived so far, the started ones among
// them being what fairshare charges for and the ended ones what accuracy
// learns from.
func (cfg *oracleConfig) rank(now sim.Time, c sim.Resources, waiting, arrived []*oracleJob) error {
	switch cfg.order {
	case "sjf":
		// Estimate (missing ones filled at admission), then arrival.
		slices.SortStableFunc(waiting, func(a, b *oracleJob) int { return cmp.Compare(a.Estimate, b.Estimate) })
	case "fairshare":
		return cfg.fairshare(now, c, waiting, arrived)
	case "accuracy":
		cfg.accuracy(waiting, arrived)
	}
	return nil
}

// fsKey is a user's fairshare priority at a pass: usage/weight, lower
// first. charged is false while no job of the user has run a positive
// time, its usage then exactly zero.
type fsKey struct {
	user    int32
	key     float64
	charged bool
}

// chargeRate is what a running job of need charges its user per second on
// a machine of capacity c: its processors, or with dominant its largest
// share of any kind the machine has.
func chargeRate(need, c sim.Resources, dominant bool) float64 {
	if !dominant {
		return float64(need[sim.Procs])
	}
	rate := 0.0
	for k := range c {
		if c[k] > 0 {
			rate = max(rate, float64(need[k])/float64(c[k]))
		}
	}
	return rate
}

func (cfg *oracleConfig) fairshare(now sim.Time, c sim.Resources, waiting, arrived []*oracleJob) error {
	keys := map[int32]*fsKey{}
	for _, j := range waiting {
		if keys[j.User] == nil {
			keys[j.User] = &fsKey{user: j.User}
		}
	}
	h := float64(cfg.halfLife)
	for _, j := range arrived {
		k := keys[j.User]
		if k == nil || j.start < 0 || j.start >= now {
			continue // not waiting, not started, or not run yet
		}
		end := min(j.end, now)
		if end == j.start {
			continue
		}
		rate := chargeRate(j.Need, c, cfg.dominant)
		// ∫_start^end 2^(-(now-x)/H) dx = (H/ln 2)·2^(-(now-end)/H)·(1 - 2^(-(end-start)/H))
		k.key += rate * h / math.Ln2 * math.Exp2(-float64(now-end)/h) * -math.Expm1(-float64(end-j.start)*math.Ln2/h)
		k.charged = true
	}
	var users []*fsKey
	for _, k := range keys {
		w, ok := cfg.shares[k.user]
		if !ok {
			w = 1
		}
		k.key /= w
		users = append(users, k)
	}
	slices.SortFunc(users, func(a, b *fsKey) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.user, b.user)) })
	for i := 1; i < len(users); i++ {
		if nearTie(users[i-1], users[i]) {
			return fmt.Errorf("oracle at %d: users %d and %d rank %g and %g: %w",
				now, users[i-1].user, users[i].user, users[i-1].key, users[i].key, errOracleTie)
		}
	}
	slices.SortStableFunc(waiting, func(a, b *oracleJob) int { return cmp.Compare(keys[a.User].key, keys[b.User].key) })
	return nil
}

// nearTie reports whether two users' priorities may compare otherwise in
// the engine: different, but too close for the oracle's rounding, or so
// small that underflow (usage decayed over a thousand half-lives) may
// have made either zero.
func nearTie(a, b *fsKey) bool {
	const tiny = 1e-280
	switch {
	case !a.charged && !b.charged:
		return false // both exactly zero
	case a.key == b.key:
		return a.key < tiny
	case a.key < tiny || b.key < tiny:
		return max(a.key, b.key) < tiny
	}
	return math.Abs(a.key-b.key) <= 1e-9*max(a.key, b.key)
}
