package policies_test

// A differential oracle for the two-tier policies KEASY, REASY and MEASY
// (twotier.go) and the engine they run on (sim/tier): a deliberately plain,
// slow re-implementation of what twotier.go's doc comment, sim/tier's doc
// comments and Liu et al. 2012 (Algorithms 1–3, sections 2.1–3.2) say,
// written without calling into either package. Only sim's value types and
// constants are shared, plus tier's Move and Tier names and its Recorder's
// events, which the comparison reads the engine's run from
// (oracle_twotier_diff_test.go). The oracle keeps no board, queue or
// wake-up between events: at every event time it rebuilds which job sits in
// which VM from the jobs' own state, recomputes every running job's rate
// from its tier and neighbours, and every job's next completion from its
// remaining work and that rate; each pass computes the shadow time, the
// extra VMs and the dispatch pairing from scratch.
//
// Engine semantics it follows (sim/tier doc.go, machine.go's Machine
// comment, tier.go, model.go):
//
//   - Work is the run time in millionths of a dedicated-processor second;
//     unless overruns are allowed a job whose run time exceeds its
//     estimate has the estimate as its work and counts as killed. A
//     process progresses at the model's rate converted by RateOf (rounded
//     down to millionths, clamped to [0, 1]); a job at its slowest
//     process's rate. Progress is integrated in integers, so completions
//     are compared exactly: a job ends at the first whole second by which
//     its progress reaches its work.
//   - Events at one time: completions, then arrivals (admitted as sim.Run
//     admits them), then a pass if a job ended or arrived (a rejected
//     arrival counts: it arrived) and a job waits or runs in the
//     background; then rates are recomputed. A job of no work placed in a
//     pass ends at the same time, which makes another round there.
//   - A migrated job makes no progress until now + migration cost; the end
//     of that pause is an event but brings no pass (only arrivals and ends
//     do, tier.Machine). A restart throws the progress away: LostWork adds
//     progress × processes.
//   - Believed ends: a job reaching the foreground by move m at t is
//     believed to end at t + ceil(estimate / m_fg) (0 for an estimate of
//     0), m_fg being the model's lowest foreground rate (RateOf(1 −
//     loss_max)), plus the migration cost for a migration.
//   - A background VM accepts a process while it is free and its
//     foreground job's usage is below the threshold; usage is CPUUsage,
//     1 when unknown (≤ 0) or above 1 (tier.Usage).
//   - The paper's model (model.go): foreground rate 1 − loss; background
//     α × min(u, idle) (literal) or α × min(1, idle / u) (normalised),
//     idle = 1 − usage of the foreground job, 1 behind an idle one. Loss
//     and α are drawn per admitted job, in arrival order, from a PCG
//     stream seeded with the run's seed: loss uniform, then α uniform for
//     one process or normal (drawn again while outside its range) for
//     several. The oracle draws them itself (ttState.draw).
//
// Policy semantics (oracle_twotier_policy_test.go; twotier.go's doc
// comment; Algorithms 1–3): steps 1 (FCFS of the merged list into the
// foreground), 2 (EASY reservation for the head, backfill), 3 (SJF of the
// waiting jobs into the background),
// Deploy (swap if every foreground VM of the job's processors is idle,
// else KEASY restarts, MEASY migrates, REASY leaves it), Dispatch (idle VMs
// whose processor's other VM uses the least CPU, ties by the highest
// processor), REASY's background-head reservation, and the promises.
//
// Where the documentation is silent or ambiguous the oracle follows the
// intent read from the code, in its own words; each point is marked
// "(code)" below and listed in the report:
//
//   - (code) the second PCG seed of the paper model's stream,
//     0x7469657273 ("tiers"), and that a multi-process α is drawn at most
//     100 times, then clamped into its range.
//   - (code) the job's previous rate is kept across moves and starts at 0,
//     so a rate is reported (Tracer.Rated) only when it differs from the
//     last one reported; a restart does not reset it.
//   - (code) the EASY shadow time takes every believed end as at least
//     now + 1 (a foreground job past its believed end, with overruns, or
//     of estimate 0), as EASY in this package does; REASY's background-head
//     shadow time is at least now + 1 as well.
//   - (code) in step 2 a job of the merged list is skipped if it cannot
//     move (REASY, pinned behind a busy foreground) or needs more VMs than
//     are idle; it is backfilled if now + its span (estimate over the
//     lowest foreground rate, plus the migration cost for a migration)
//     ends by the shadow time, else if it fits in the extra VMs (which it
//     then uses up). A job deployed by the shadow-time rule may land on a
//     REASY head's processors; one using the extra VMs may not.
//   - (code) step 3 takes the jobs waiting when the pass began, by
//     (estimate, arrival), skipping those placed in steps 1–2.
//   - (code) promises: a head new since the last pass, or earlier than
//     its last promise, is promised; a later one (REASY's pinned head) is
//     withdrawn and promised again; a pass without a head forgets the head.
//   - (code) Dispatch for the foreground counts the job's own background
//     process as no neighbour (usage 0), since it leaves that VM.
//   - The processors of a placement are compared as a set: the order in
//     which the engine lists them means nothing.
//
// Arithmetic: times are whole seconds and progress integers, so schedules
// are compared exactly. The only floating point is a process's speed (1 −
// loss, α × min(u, idle), α × min(1, idle / u)) and the draws; the oracle
// writes each as the same IEEE operations on the same operands as the
// documented formula, and RateOf's rounding down then makes the rates
// integers. Rates are compared exactly too; on an architecture where Go
// fuses a multiply-add (arm64, ppc64le, s390x) both sides would have to be
// fused alike, which nothing guarantees, and a one-millionth difference
// there would show as a rate mismatch, not as a wrong policy.
//
// REASY's count of extra VMs for a head pinned in the background adds no
// check of its own: a job using them must avoid the head's processors, and
// the idle VMs off them are never more than that count, so Dispatch (or a
// swap onto the job's own idle processors) is the tighter bound. Counting
// the head's own idle VMs as extra cannot change a schedule.

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// ttFull is one dedicated-processor second per second, in millionths.
const ttFull = 1_000_000

// ttConfig is a two-tier policy and its machine model, read from the
// registry's parameter names.
type ttConfig struct {
	how                 string // "keasy", "reasy" or "measy"
	threshold           float64
	cost                sim.Time
	lossMin, lossMax    float64
	aSingleMin, aSingle float64 // α of one process: min, max
	aMean, aSD          float64
	aMultiMin, aMulti   float64 // α of several processes: min, max
	normalised          bool
	// table, if set, replaces the paper's model as simtest.RateTable does
	// with only background rates: by (job, foreground neighbour or 0).
	table map[[2]sim.JobID]float64
	// fair, for fairshare-measy, is the fairshare order of the merged list
	// (oracle_order_test.go's, with its half-life, usage and shares).
	fair *oracleConfig
}

// ttParse returns the configuration of entry with params ("k=v"), from the
// defaults the registry lists (go run ./cmd/schedsweep list).
func ttParse(entry string, params []string) (ttConfig, error) {
	c := ttConfig{
		how: entry, threshold: 0.96, cost: 20,
		lossMin: 0.005, lossMax: 0.04,
		aSingleMin: 0.80, aSingle: 0.92,
		aMean: (0.198 + 0.766) / 2, aSD: (0.766 - 0.198) / 6,
		aMultiMin: 0.198, aMulti: 0.766,
	}
	floats := map[string]*float64{
		"threshold": &c.threshold, "loss_min": &c.lossMin, "loss_max": &c.lossMax,
		"alpha_single_min": &c.aSingleMin, "alpha_single_max": &c.aSingle,
		"alpha_multi_mean": &c.aMean, "alpha_multi_sd": &c.aSD,
		"alpha_multi_min": &c.aMultiMin, "alpha_multi_max": &c.aMulti,
	}
	var fair []string
	if entry == "fairshare-measy" {
		c.how, fair = "measy", []string{"order=fairshare"}
	}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		var err error
		switch {
		case fair != nil && (k == "half_life" || k == "usage" || k == "shares"):
			fair = append(fair, p)
		case k == "migration_cost":
			var n int64
			n, err = strconv.ParseInt(v, 10, 64)
			c.cost = sim.Time(n)
		case k == "progress":
			c.normalised = v == "normalised"
		case floats[k] != nil:
			*floats[k], err = strconv.ParseFloat(v, 64)
		default:
			err = fmt.Errorf("unknown parameter")
		}
		if err != nil {
			return c, fmt.Errorf("oracle: %q: %w", p, err)
		}
	}
	if fair != nil {
		fc, err := oraclePolicy{entry: "easy", params: fair}.config()
		if err != nil {
			return c, err
		}
		c.fair = &fc
	}
	return c, nil
}

// ttRate converts a speed in dedicated-processor seconds per second to
// millionths, rounding down, within [0, ttFull]; NaN gives 0.
func ttRate(x float64) int64 {
	switch {
	case !(x > 0):
		return 0
	case x >= 1:
		return ttFull
	}
	return int64(x * ttFull)
}

// ttUsage is a job's CPU usage: CPUUsage, 1 if unknown or above 1.
func ttUsage(j *ttJob) float64 {
	if u := j.CPUUsage; u > 0 && u <= 1 {
		return u
	}
	return 1
}

// The tiers, as the oracle numbers them.
const (
	ttNone = iota
	ttFg
	ttBg
)

// ttJob is one job's state in the two-tier oracle.
type ttJob struct {
	sim.Record
	seq         int
	phase       int // oWaiting, oRunning, oDone
	tier        int // ttFg or ttBg while running
	procs       []int
	work, done  int64 // millionths of a dedicated-processor second
	rate        int64 // the last rate reported; 0 before the first
	resume      sim.Time
	believed    sim.Time // believed end in the foreground
	start, end  sim.Time
	state       sim.State
	reason      sim.Reason
	loss, alpha float64
}

func (j *ttJob) need() int { return int(j.Need[sim.Procs]) }

// ttEvent is one thing the engine did, as the comparison renders it.
type ttEvent struct {
	at   sim.Time
	kind tier.EventKind
	seq  int
	line string
}

// ttState is the oracle's whole state.
type ttState struct {
	cfg    ttConfig
	n      int
	now    sim.Time
	minFg  int64
	jobs   []*ttJob // every arrived job, by seq
	live   []*ttJob // arrived and not done, by seq
	head   *ttJob   // the last pass's head, nil if none
	headAt sim.Time
	events []ttEvent
	passes int
	moves  [tier.Migrate + 1]int
	lost   int64
}

// oracleTwoTier simulates cfg on n processors and returns the schedule as
// scheduleLines renders it, then summaryLine, ttCountsLine and the events.
func oracleTwoTier(cfg ttConfig, n int, recs []sim.Record, opt sim.Options) ([]string, error) {
	st := &ttState{cfg: cfg, n: n, now: -1}
	if cfg.table != nil {
		st.minFg = ttFull // the table gives no foreground rate: 1
	} else {
		st.minFg = ttRate(1 - cfg.lossMax)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7469657273))
	filled, next := 0, 0
	for {
		t := st.nextEvent(recs, next)
		if t == math.MaxInt64 {
			break
		}
		changed := st.advance(t)
		for next < len(recs) && recs[next].Submit == t {
			if st.arrive(rng, recs[next], next, opt) {
				filled++
			}
			next++
			changed = true
		}
		st.live = slices.DeleteFunc(st.live, func(j *ttJob) bool { return j.phase == oDone })
		if changed && slices.ContainsFunc(st.live, func(j *ttJob) bool { return j.phase == oWaiting || j.tier == ttBg }) {
			st.passes++
			if err := st.pass(); err != nil {
				return nil, err
			}
		}
		st.rerate()
	}
	for _, j := range st.live {
		return nil, fmt.Errorf("oracle: job %d never ends (phase %d, rate %d)", j.ID, j.phase, j.rate)
	}
	if len(st.jobs) != len(recs) {
		return nil, fmt.Errorf("oracle: %d of %d jobs arrived", len(st.jobs), len(recs))
	}
	oj := make([]*oracleJob, len(st.jobs))
	for i, j := range st.jobs {
		oj[i] = &oracleJob{Record: j.Record, phase: oDone, start: j.start, end: j.end, state: j.state, reason: j.reason}
	}
	lines, err := scheduleOf(oj, st.passes, filled)
	if err != nil {
		return nil, err
	}
	lines = append(lines, ttCountsLine(st.moves[tier.Restart], st.moves[tier.Migrate], st.moves[tier.Swap], float64(st.lost)/ttFull))
	ids := make([]sim.JobID, len(st.jobs))
	for i, j := range st.jobs {
		ids[i] = j.ID
	}
	return append(lines, renderEvents(ids, st.events)...), nil
}

// nextEvent returns the time of the next end or arrival, MaxInt64 if none;
// recs[next] is the next arrival.
func (st *ttState) nextEvent(recs []sim.Record, next int) sim.Time {
	t := sim.Time(math.MaxInt64)
	for _, j := range st.live {
		if w := st.wakeAt(j); j.phase == oRunning && w >= 0 && w < t {
			t = w
		}
	}
	if next < len(recs) && recs[next].Submit < t {
		t = recs[next].Submit
	}
	return t
}

// advance moves the running jobs' progress to t and ends those whose work
// is done; it reports whether one ended.
func (st *ttState) advance(t sim.Time) bool {
	for _, j := range st.live {
		if j.phase == oRunning {
			j.done += j.rate * int64(t-st.now)
		}
	}
	st.now = t
	changed := false
	for _, j := range st.live {
		if j.phase == oRunning && j.done >= j.work {
			j.phase, j.end = oDone, t
			j.state = sim.Finished
			if j.work < int64(j.Runtime)*ttFull {
				j.state = sim.Killed
			}
			st.event(tier.Ended, j, "end")
			changed = true
		}
	}
	return changed
}

// arrive admits rec, the seq-th job, and reports whether its estimate was
// filled in.
func (st *ttState) arrive(rng *rand.Rand, rec sim.Record, seq int, opt sim.Options) bool {
	j := &ttJob{Record: rec, seq: seq, start: -1, end: -1}
	st.jobs = append(st.jobs, j)
	reason, est := oracleAdmit(j.Record, sim.Resources{sim.Procs: int64(st.n)}, opt.MissingEstimate == sim.RejectMissingEstimate)
	if reason != sim.NoReason {
		j.phase, j.state, j.reason = oDone, sim.Rejected, reason
		return false
	}
	filled := est != j.Estimate
	j.Estimate = est
	work := j.Runtime
	if !opt.AllowOverrun && work > est {
		work = est
	}
	j.work = int64(work) * ttFull
	st.draw(rng, j)
	st.live = append(st.live, j)
	return filled
}

// rerate recomputes every running job's rate and reports the changes.
func (st *ttState) rerate() {
	for _, j := range st.live {
		if j.phase != oRunning {
			continue
		}
		if r := st.rateOf(j); r != j.rate {
			j.rate = r
			st.event(tier.Rated, j, fmt.Sprintf("rate %d", r))
		}
	}
}

// ttCountsLine renders a run's two-tier counters.
func ttCountsLine(restarts, migrations, swaps int, lost float64) string {
	return fmt.Sprintf("tiers restarts=%d migrations=%d swaps=%d lost=%s", restarts, migrations, swaps, strconv.FormatFloat(lost, 'g', -1, 64))
}

// draw gives j its loss and α, as the paper's model draws them.
func (st *ttState) draw(rng *rand.Rand, j *ttJob) {
	c := &st.cfg
	if c.table != nil {
		return
	}
	j.loss = c.lossMin + (c.lossMax-c.lossMin)*rng.Float64()
	if j.need() <= 1 {
		j.alpha = c.aSingleMin + (c.aSingle-c.aSingleMin)*rng.Float64()
		return
	}
	for range 100 {
		j.alpha = c.aMean + c.aSD*rng.NormFloat64()
		if j.alpha >= c.aMultiMin && j.alpha <= c.aMulti {
			return
		}
	}
	j.alpha = min(max(j.alpha, c.aMultiMin), c.aMulti)
}

// speed is the model's progress per second of a process of j in tier t
// beside other (nil: an empty VM).
func (st *ttState) speed(j *ttJob, t int, other *ttJob) float64 {
	c := &st.cfg
	if c.table != nil {
		if t == ttFg {
			return 1
		}
		var o sim.JobID
		if other != nil {
			o = other.ID
		}
		if r, ok := c.table[[2]sim.JobID{j.ID, o}]; ok {
			return r
		}
		if other == nil {
			return 1
		}
		return 1 - ttUsage(other)
	}
	if t == ttFg {
		return 1 - j.loss
	}
	idle := 1.0
	if other != nil {
		idle = 1 - ttUsage(other)
	}
	u := ttUsage(j)
	if c.normalised {
		return j.alpha * min(1, idle/u)
	}
	return j.alpha * min(u, idle)
}

// board returns, by processor, the jobs in the foreground and background
// VMs, rebuilt from the jobs.
func (st *ttState) board() (fg, bg []*ttJob) {
	fg, bg = make([]*ttJob, st.n), make([]*ttJob, st.n)
	for _, j := range st.live {
		if j.phase != oRunning {
			continue
		}
		for _, p := range j.procs {
			if j.tier == ttFg {
				fg[p] = j
			} else {
				bg[p] = j
			}
		}
	}
	return fg, bg
}

func (st *ttState) idleFg() int {
	fg, _ := st.board()
	n := 0
	for _, j := range fg {
		if j == nil {
			n++
		}
	}
	return n
}

// rateOf is j's rate now: 0 while a migration pauses it, else its slowest
// process's.
func (st *ttState) rateOf(j *ttJob) int64 {
	if j.resume > st.now {
		return 0
	}
	fg, bg := st.board()
	r := int64(ttFull)
	for _, p := range j.procs {
		other := bg[p]
		if j.tier == ttBg {
			other = fg[p]
		}
		r = min(r, ttRate(st.speed(j, j.tier, other)))
	}
	return r
}

// wakeAt is when a running job must next be looked at: now if its work is
// done, the end of its pause, when its work will be done, or -1 if never.
func (st *ttState) wakeAt(j *ttJob) sim.Time {
	rem := j.work - j.done
	switch {
	case rem <= 0:
		return st.now
	case j.resume > st.now:
		return j.resume
	case j.rate <= 0:
		return -1
	}
	return st.now + sim.Time((rem+j.rate-1)/j.rate)
}

// span is how long the engine believes j runs in the foreground if move m
// puts it there now.
func (st *ttState) span(j *ttJob, m tier.Move) sim.Time {
	var s sim.Time
	switch {
	case j.Estimate <= 0:
	case st.minFg <= 0:
		s = math.MaxInt64 / 4
	default:
		s = sim.Time((int64(j.Estimate)*ttFull + st.minFg - 1) / st.minFg)
	}
	if m == tier.Migrate {
		s += st.cfg.cost
	}
	return s
}

func (st *ttState) event(kind tier.EventKind, j *ttJob, what string) {
	st.events = append(st.events, ttEvent{st.now, kind, j.seq, what})
}

// place carries out move m of j to tier t on procs.
func (st *ttState) place(j *ttJob, m tier.Move, t int, procs []int) {
	switch m {
	case tier.Start:
		j.phase, j.start = oRunning, st.now
	case tier.Restart:
		st.lost += j.done * int64(len(j.procs))
		j.done = 0
	case tier.Migrate:
		j.resume = st.now + st.cfg.cost
	}
	if m != tier.Start {
		st.moves[m]++
	}
	j.tier, j.procs = t, slices.Clone(procs)
	if t == ttFg {
		j.believed = st.now + st.span(j, m)
	}
	name := tier.Foreground
	if t == ttBg {
		name = tier.Background
	}
	st.event(tier.Placed, j, fmt.Sprintf("%v %v on %v", m, name, sortedProcs(procs)))
}

func sortedProcs(p []int) []int {
	p = slices.Clone(p)
	slices.Sort(p)
	return p
}

// renderEvents renders events as lines, "t=T job ID what". Within one
// time come the moves in their order, then withdrawals and promises in
// theirs (the engine reports a pass's promises after its moves), then ends
// and rate changes, whose order within a time means nothing, each by job.
func renderEvents(ids []sim.JobID, evs []ttEvent) []string {
	rank := map[tier.EventKind]int{tier.Placed: 0, tier.Withdrawn: 1, tier.Promised: 1, tier.Ended: 2, tier.Rated: 3}
	evs = slices.Clone(evs)
	slices.SortStableFunc(evs, func(a, b ttEvent) int {
		switch {
		case a.at != b.at:
			return cmp.Compare(a.at, b.at)
		case rank[a.kind] != rank[b.kind]:
			return rank[a.kind] - rank[b.kind]
		case rank[a.kind] > 1:
			return a.seq - b.seq
		}
		return 0
	})
	lines := make([]string, len(evs))
	for i, e := range evs {
		lines[i] = fmt.Sprintf("t=%d job %d %s", e.at, ids[e.seq], e.line)
	}
	return lines
}
