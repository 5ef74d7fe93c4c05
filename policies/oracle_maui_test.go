package policies_test

// A differential oracle for the maui policy, in the manner of
// oracle_test.go (whose event loop, admission and plan helpers it shares:
// oracleAdmit, admitArrivals, splitLive, startAll, scheduleOf, oracleSpan,
// fitsAll, freeOf and summaryLine there; planned, earliestFit,
// overcommitted and freeAt in oracle_plan_test.go). It keeps no profile
// between passes and calls nothing in maui.go or mauiprio.go: at every
// pass it ranks the queue from scratch, rebuilds the plan from the running
// jobs and the reservations held, and walks the queue.
// oracle_maui_diff_test.go compares it with the engine.
//
// Semantics it follows, and where each comes from:
//
//   - Priority (MauiWeights' comment, the registry's parameter docs, the
//     maui-xfactor golden): QueueTime·(minutes waited, a real number) +
//     XFactor·(wait + requested)/requested (requested below 1 s counts as
//     1 s) + Procs·(processors) + Fairshare·FS + QoS·(the qos priority of
//     the job's SWF queue, 0 if unlisted). Highest first, ties by arrival.
//     Recomputed at every pass (Maui's deviations: "ranks the queue ... at
//     every event").
//   - FS (MauiWeights, Maui's deviations, Fairshare's accounting comment):
//     100·(share − used), share = the user's weight (shares, default 1)
//     over the weights of the users seen so far (those with an admitted
//     job), used = the user's decayed usage over everyone's (0 if there is
//     no usage). A job charges rate·2^(−(now−x)/H) for every second x it
//     has run, rate being its processors (usage=procs) or its dominant
//     share of the machine (usage=dominant). The oracle integrates this in
//     closed form over every started job at every pass.
//   - The pass (Maui's comment, bullets; the maui/, maui-depth2/,
//     maui-nobackfill/ and maui-xfactor/ goldens). The plan holds the
//     running jobs over [start, start+max(estimate, 1)) (an overrunning
//     job until now+1) and the reservations held. Walking the ranked
//     queue with n = reservations kept or made so far in this pass:
//     a job holding a reservation keeps it if n < reservation_depth,
//     moved to its earliest fit with every other reservation in place
//     (those of lower-ranked jobs included), starting if that is now;
//     otherwise it loses it and is treated as any other job. Any other
//     job is not bound by the reservations of jobs ranked below it (the
//     maui-xfactor golden: "3 outranks 2, so 2's reservation does not
//     bind it"): those are lifted while it is placed, or released
//     outright when n ≥ reservation_depth (they rank below that many
//     reserved jobs). It starts if it fits now for its whole estimate
//     (without backfill: only while no job ranked above it waits); else,
//     if n < reservation_depth, it is reserved at its earliest fit. Then
//     the lifted reservations are laid back, one by one in the order of
//     the last pass's walk, each where it was if it still fits there and
//     withdrawn otherwise (maui.go's relay comment; the order is left
//     open by the bullets, and read from relay's code).
//   - Without backfill a reservation is sought from the latest one kept
//     or made above it (the bullets), so no job starts before one above
//     it; a kept one may then move later (move's comment).
//   - A timer brings a pass at the earliest reservation (the comment);
//     none while a job runs past its estimate (maui.go's overrun
//     deviation: "all are withdrawn and made again"; when exactly is read
//     from Schedule and rebuild, as for conservative in oracle_test.go: at
//     a pass where a job runs past its estimate, and at the pass after,
//     if a reservation has passed or (at the first) the reservations no
//     longer fit, every reservation is withdrawn before the walk).

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// mauiOracleConfig are the maui parameters the oracle reads, with the
// registry's names.
type mauiOracleConfig struct {
	queueTime, xfactor, procs, fairshare, qos float64
	qosTable                                  map[int32]float64 // qos: priority by SWF queue
	halfLife                                  sim.Time          // half_life; 0 is the default day
	dominant                                  bool              // usage = dominant
	shares                                    map[int32]float64 // shares: weight by user
	depth                                     int               // reservation_depth
	backfill                                  bool

	// broken names a rule the oracle breaks on purpose, to show that the
	// comparison can fail; "" for none.
	broken string
}

// defaultMauiOracle is maui's registry defaults.
func defaultMauiOracle() mauiOracleConfig {
	return mauiOracleConfig{queueTime: 1, depth: 1, backfill: true}
}

// settings renders c as registry settings for policies.New("maui", ...).
func (c mauiOracleConfig) settings() []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	table := func(m map[int32]float64) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			parts = append(parts, fmt.Sprintf("%d:%s", k, f(m[k])))
		}
		return strings.Join(parts, ",")
	}
	s := []string{
		"queue_time_weight=" + f(c.queueTime), "xfactor_weight=" + f(c.xfactor), "proc_weight=" + f(c.procs),
		"fairshare_weight=" + f(c.fairshare), "qos_weight=" + f(c.qos),
		"reservation_depth=" + strconv.Itoa(c.depth), "backfill=" + strconv.FormatBool(c.backfill),
	}
	if len(c.qosTable) > 0 {
		s = append(s, "qos="+table(c.qosTable))
	}
	if c.halfLife > 0 {
		s = append(s, "half_life="+strconv.FormatInt(int64(c.halfLife), 10))
	}
	if c.dominant {
		s = append(s, "usage=dominant")
	}
	if len(c.shares) > 0 {
		s = append(s, "shares="+table(c.shares))
	}
	return s
}

// oracleMaui simulates maui configured by mc on a pool of capacity c and
// returns the schedule as oracle does: scheduleLines' lines, then
// summaryLine's.
func oracleMaui(mc mauiOracleConfig, c sim.Resources, recs []sim.Record, opt sim.Options) ([]string, error) {
	jobs := make([]*oracleJob, len(recs))
	for i, r := range recs {
		jobs[i] = &oracleJob{Record: r, start: -1, end: -1, resv: -1}
	}
	next := 0
	var live, admitted []*oracleJob
	var held []*oracleJob // the reservations held, in the last pass's walk order
	passes, filled := 0, 0
	first, guessing := true, false
	now := sim.Time(-1)
	for {
		t := sim.Time(math.MaxInt64)
		for _, j := range live {
			if j.phase == oRunning && j.end < t {
				t = j.end
			}
			if !guessing && j.phase == oWaiting && j.resv >= 0 && j.resv < t {
				if j.resv <= now {
					return nil, fmt.Errorf("oracle: job %d's reservation %d has passed at %d", j.ID, j.resv, now)
				}
				t = j.resv
			}
		}
		if next < len(jobs) && jobs[next].Submit < t {
			t = jobs[next].Submit
		}
		if t == math.MaxInt64 {
			break
		}
		now = t
		for _, j := range live {
			if j.phase == oRunning && j.end == now {
				j.phase = oDone
			}
		}
		arrived, n := admitArrivals(jobs, &next, now, c, opt)
		live, admitted, filled = append(live, arrived...), append(admitted, arrived...), filled+n
		var waiting, running []*oracleJob
		live, waiting, running = splitLive(live)
		if len(waiting) == 0 {
			continue
		}
		passes++
		overrun := false
		for _, j := range running {
			overrun = overrun || j.start+j.Estimate <= now
		}
		rankMaui(mc, now, c, waiting, admitted)
		start, err := mauiPass(mc, now, c, waiting, running, &held, first || overrun || guessing, overrun)
		if err != nil {
			return nil, err
		}
		first, guessing = false, overrun
		for _, j := range start {
			j.resv = -1
		}
		if err := startAll("maui", c, running, start, now, opt); err != nil {
			return nil, err
		}
	}
	return scheduleOf(jobs, passes, filled)
}

// rankMaui sorts waiting by Maui priority at now, highest first, ties by
// arrival. admitted are every job admitted so far, for fairshare. The
// priority is exact but for fairshare: the other terms are rationals (a
// float64 weight is one), so equal priorities tie whatever the minutes;
// the fairshare terms are floats, which cancel exactly between two jobs of
// one user.
func rankMaui(mc mauiOracleConfig, now sim.Time, c sim.Resources, waiting, admitted []*oracleJob) {
	fs := map[int32]float64{}
	if mc.fairshare != 0 {
		fs = fairshareFactors(mc, now, c, admitted)
	}
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	integer := func(v int64) *big.Rat { return new(big.Rat).SetInt64(v) }
	qt, xf, procs, qos := rat(mc.queueTime), rat(mc.xfactor), rat(mc.procs), rat(mc.qos)
	prio := make(map[*oracleJob]*big.Rat, len(waiting))
	for _, j := range waiting {
		req, wait := max(j.Estimate, 1), now-j.Submit
		p := new(big.Rat).Mul(qt, new(big.Rat).SetFrac64(int64(wait), 60))
		p.Add(p, new(big.Rat).Mul(xf, new(big.Rat).SetFrac64(int64(wait+req), int64(req))))
		p.Add(p, new(big.Rat).Mul(procs, integer(j.Need[sim.Procs])))
		p.Add(p, new(big.Rat).Mul(qos, rat(mc.qosTable[j.Queue])))
		prio[j] = p
	}
	if mc.broken == "ties-last-first" {
		slices.Reverse(waiting) // equal priorities by reverse arrival
	}
	// waiting is in arrival order: a stable sort breaks ties by arrival.
	slices.SortStableFunc(waiting, func(a, b *oracleJob) int {
		d := new(big.Rat).Sub(prio[b], prio[a])
		f := mc.fairshare * (fs[b.User] - fs[a.User])
		if f == 0 {
			return d.Sign()
		}
		v, _ := d.Float64()
		return cmp.Compare(v+f, 0)
	})
}

// fairshareFactors returns FS by user at now: 100·(share − used).
func fairshareFactors(mc mauiOracleConfig, now sim.Time, c sim.Resources, admitted []*oracleJob) map[int32]float64 {
	h := float64(mc.halfLife)
	if h == 0 {
		h = 86400
	}
	usage := map[int32]float64{}
	weight := map[int32]float64{}
	total, weights := 0.0, 0.0
	for _, j := range admitted {
		if _, seen := weight[j.User]; !seen {
			w, ok := mc.shares[j.User]
			if !ok {
				w = 1
			}
			weight[j.User] = w
			weights += w
		}
		if j.start < 0 || j.start > now {
			continue
		}
		end := min(j.end, now) // a running job's end is in the future
		rate := chargeRate(j.Need, c, mc.dominant)
		// ∫ rate·2^(−(now−x)/h) dx over [start, end].
		u := rate * h / math.Ln2 * (math.Exp2(-float64(now-end)/h) - math.Exp2(-float64(now-j.start)/h))
		usage[j.User] += u
		total += u
	}
	fs := make(map[int32]float64, len(weight))
	for user, w := range weight {
		used := 0.0
		if total > 0 {
			used = usage[user] / total
		}
		fs[user] = 100 * (w/weights - used)
	}
	return fs
}

// mauiPass walks the ranked queue once and returns the jobs to start now;
// held is updated to the reservations held after the pass. rebuild says
// the plan is laid anew (first pass, overrun now or at the last pass):
// then a passed reservation, or (overrun) reservations that no longer
// fit, withdraw every reservation.
func mauiPass(mc mauiOracleConfig, now sim.Time, c sim.Resources, ranked, running []*oracleJob, held *[]*oracleJob, rebuild, overrun bool) ([]*oracleJob, error) {
	w := &mauiWalk{mc: mc, now: now, c: c, last: now}
	if err := w.layPlan(running, held, rebuild, overrun); err != nil {
		return nil, err
	}
	w.pending = slices.Clone(*held)
	for _, j := range ranked {
		if j.resv >= 0 {
			kept, err := w.keep(j)
			if err != nil {
				return nil, err
			}
			if kept {
				continue
			}
		}
		lifted := w.liftPending()
		if err := w.place(j); err != nil {
			return nil, err
		}
		w.relay(lifted)
	}
	*held = w.next
	return w.start, nil
}

// mauiWalk is the state of one maui pass as it walks the ranked queue.
type mauiWalk struct {
	mc   mauiOracleConfig
	now  sim.Time
	c    sim.Resources
	plan []planned

	pending []*oracleJob // held reservations of jobs not reached yet
	next    []*oracleJob // reservations kept or made in this pass, in walk order
	start   []*oracleJob // jobs to start now
	last    sim.Time     // the latest reservation kept or made, now if none
	blocked bool         // a job reached so far could not start now
}

// layPlan lays the plan the walk begins from: the running jobs (an
// overrunning one until now+1) and the reservations held, all of which
// are withdrawn if rebuild finds them broken.
func (w *mauiWalk) layPlan(running []*oracleJob, held *[]*oracleJob, rebuild, overrun bool) error {
	for _, j := range running {
		w.plan = append(w.plan, planned{j, j.start, max(j.start+oracleSpan(j.Estimate), w.now+1)})
	}
	stale := false
	for _, j := range *held {
		if j.resv < w.now {
			stale = true
			continue
		}
		w.plan = append(w.plan, w.claim(j, j.resv))
	}
	if stale && !rebuild {
		return fmt.Errorf("oracle: a reservation has passed at %d with no overrun", w.now)
	}
	if rebuild && (stale || overrun && len(*held) > 0 && overcommitted(w.now, w.c, w.plan)) {
		for _, j := range *held {
			j.resv = -1
		}
		*held = nil
		w.plan = slices.DeleteFunc(w.plan, func(p planned) bool { return p.job.phase == oWaiting })
	}
	return nil
}

// claim is j's claim on the plan if it starts at t.
func (w *mauiWalk) claim(j *oracleJob, t sim.Time) planned {
	return planned{j, t, t + oracleSpan(j.Estimate)}
}

// unclaim takes j's claim off the plan.
func (w *mauiWalk) unclaim(j *oracleJob) {
	w.plan = slices.DeleteFunc(w.plan, func(p planned) bool { return p.job == j })
}

// fitsAt reports whether j fits the plan from t for its whole span.
func (w *mauiWalk) fitsAt(j *oracleJob, t sim.Time) bool {
	if !fitsAll(j.Need, freeAt(w.c, w.plan, t)) {
		return false
	}
	return earliestFit(t, oracleSpan(j.Estimate), j.Need, w.c, w.plan) == t
}

// from is the earliest time a reservation may be sought: now with
// backfill, else the latest reservation kept or made above.
func (w *mauiWalk) from() sim.Time {
	if w.mc.backfill {
		return w.now
	}
	return w.last
}

// reserve gives j a reservation at t.
func (w *mauiWalk) reserve(j *oracleJob, t sim.Time) {
	j.resv = t
	w.plan = append(w.plan, w.claim(j, t))
	w.next = append(w.next, j)
	w.last, w.blocked = max(w.last, t), true
}

// startNow starts j at now.
func (w *mauiWalk) startNow(j *oracleJob) {
	w.plan = append(w.plan, w.claim(j, w.now))
	w.start = append(w.start, j)
}

// keep walks a job j holding a reservation: while fewer than
// reservation_depth are kept or made, it is moved to its earliest fit
// (starting if that is now) and keep reports true; otherwise j loses it
// and keep reports false, for j to be placed as any other job.
func (w *mauiWalk) keep(j *oracleJob) (bool, error) {
	w.pending = slices.DeleteFunc(w.pending, func(p *oracleJob) bool { return p == j })
	w.unclaim(j)
	if len(w.next) >= w.mc.depth {
		j.resv = -1 // reservation_depth jobs above it hold one
		return false, nil
	}
	old := j.resv
	t := earliestFit(w.from(), oracleSpan(j.Estimate), j.Need, w.c, w.plan)
	if t < 0 || w.from() <= old && t > old {
		return false, fmt.Errorf("oracle: job %d's reservation moved from %d to %d at %d", j.ID, old, t, w.now)
	}
	if w.mc.broken == "keep-in-place" && t < old {
		t = old
	}
	if t == w.now {
		j.resv = -1
		w.startNow(j)
	} else {
		w.reserve(j, t)
	}
	return true, nil
}

// liftPending takes the reservations of jobs not reached yet off the plan,
// since they do not bind the job being placed. It returns them, to be laid
// back, or releases them outright (returning none) if reservation_depth
// reservations are already kept or made.
func (w *mauiWalk) liftPending() []*oracleJob {
	if len(w.pending) == 0 || w.mc.broken == "bound-by-lower" {
		return nil
	}
	var lifted []*oracleJob
	for _, p := range w.pending {
		w.unclaim(p)
	}
	if len(w.next) >= w.mc.depth {
		for _, p := range w.pending {
			p.resv = -1
		}
	} else {
		lifted = w.pending
	}
	w.pending = nil
	return lifted
}

// place places a job j holding no reservation: it starts if it fits now
// (without backfill, only while no job above it waits); else it is
// reserved if fewer than reservation_depth are; else it waits.
func (w *mauiWalk) place(j *oracleJob) error {
	switch {
	case (w.mc.backfill || !w.blocked) && w.fitsAt(j, w.now):
		w.startNow(j)
	case len(w.next) < w.mc.depth:
		t := earliestFit(w.from(), oracleSpan(j.Estimate), j.Need, w.c, w.plan)
		if t <= w.now {
			return fmt.Errorf("oracle: job %d that cannot start now is reserved at %d (now %d)", j.ID, t, w.now)
		}
		w.reserve(j, t)
	default:
		w.blocked = true
	}
	return nil
}

// relay lays the lifted reservations back, one by one in order, each where
// it was if it still fits there; one that does not is withdrawn.
func (w *mauiWalk) relay(lifted []*oracleJob) {
	for _, p := range lifted {
		if w.fitsAt(p, p.resv) {
			w.plan = append(w.plan, w.claim(p, p.resv))
			w.pending = append(w.pending, p)
		} else {
			p.resv = -1
		}
	}
}
