package policies_test

// A differential oracle for FCFS, EASY and conservative backfilling, in
// arrival, shortest-first or fairshare order (oracle_order_test.go) or
// accuracy order, PSP (oracle_accuracy_test.go), PBS's
// FIFO scheduler (below), and Backfill Balanced and Improved Backfill
// Balanced (oracle_balanced_test.go): a deliberately plain, slow
// re-implementation of the semantics that sim/engine.go, sim/policy.go,
// list.go, easy.go, conservative.go, order.go, fairshare.go, accuracy.go,
// pbs.go and balanced.go document, written without calling into any of them (only
// sim's value types and constants are shared). It keeps no profile, heap or sorted
// running list between passes: at every event time it loops over every job
// in the system, and every backfilling question is answered from scratch.
// Its schedules must equal the engine's job for job; oracle_diff_test.go
// compares them.
//
// Semantics it follows, and where each comes from:
//
//   - Events at one time: completions, then arrivals, then one scheduling
//     pass if a job waits (sim.Run, sim.Policy). A job that starts with a
//     zero length ends at the same instant, which brings another round of
//     completions and a second pass at that time (sim.Policy; the zero
//     golden case).
//   - A job runs min(run time, estimate) and is Killed if its run time is
//     longer (sim.Options.AllowOverrun off); with AllowOverrun it runs its
//     full run time.
//   - Admission (sim.Admit, in this order): no run time, no processors,
//     negative estimate or need, too large on some kind; then a missing
//     estimate becomes the run time (default) or rejects the job.
//   - FCFS: start jobs in arrival order while they fit; stop at the first
//     that does not (list.go).
//   - EASY (easy.go): start jobs in order while they fit; the first that
//     does not is the head. Its shadow time is the earliest estimated end
//     of a running job (those started this pass included) at which the
//     free resources plus everything ending by then fit the head on every
//     kind; extra is that amount minus the head's need. A running job past
//     its estimate (AllowOverrun) is taken to end at now+1, and so is one
//     whose estimate is 0 (easy.go's max(end, now+1), read from the code).
//     Later jobs are tried in arrival order; one starts if it fits now and
//     either now+estimate <= shadow or it fits in extra. The oracle
//     recomputes shadow and extra from scratch before every candidate
//     instead of updating extra in place, which easy.go's comment claims
//     is equivalent; this checks that claim.
//   - Conservative (conservative.go): every waiting job holds a
//     reservation; a job occupies [start, start+max(estimate, 1)) of the
//     plan (sim.Span). At a pass, if a job has ended before the end of
//     that span since the last pass (or at the very first pass), every
//     waiting job in arrival order has its reservation lifted and is laid
//     again at its earliest fit with all others in place (one sweep, not
//     repeated to a fixed point); otherwise only new jobs are laid, in
//     arrival order, at their earliest fit. A job whose reservation is now
//     starts; the earliest reservation in the future brings a pass then
//     (the engine's WakeAt). With AllowOverrun (conservative.go's
//     deviation, details read from its Schedule and rebuild): while a job
//     runs past its estimate it is taken to end at now+1, no timer is set,
//     and at that pass and the next the plan is rebuilt: if a reservation
//     has passed or the reservations no longer fit, all are withdrawn; then
//     every job is laid again as in a compression.
//   - PBS FIFO (pbs.go): first fit in arrival order; the first job that
//     does not fit is the head, and if it has waited max_starve or more
//     (now - submit >= max_starve, with the guard on) nothing after it
//     starts. A blocked head that does not starve yet sets the engine's
//     timer at submit + max_starve; each pass replaces the timer and a
//     pass at the timer clears it (sim.Decision.WakeAt, sim/engine.go).
//   - Under an order other than arrival, every discipline takes the
//     waiting jobs in that order instead (order.go); the policy is named
//     as the registry names it, with its settings (oraclePolicy).

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// oracleJob is one job's state in the oracle.
type oracleJob struct {
	sim.Record
	phase      int // oWaiting, oRunning, oDone
	start, end sim.Time
	state      sim.State
	reason     sim.Reason
	resv       sim.Time // conservative: reservation, -1 for none
	// nth counts the jobs started before this one (set when it starts):
	// the engine breaks ties of end time by the order of start.
	nth int
}

const (
	oWaiting = iota
	oRunning
	oDone
)

// span is how long a job occupies a plan: at least one second.
func oracleSpan(est sim.Time) sim.Time {
	if est < 1 {
		return 1
	}
	return est
}

func fitsAll(need, avail sim.Resources) bool {
	for k := range need {
		if need[k] > avail[k] {
			return false
		}
	}
	return true
}

// oracleAdmit returns why r cannot run on capacity c (sim.NoReason if it
// can) and its estimate once a missing one is filled.
func oracleAdmit(r sim.Record, c sim.Resources, reject bool) (sim.Reason, sim.Time) {
	if r.Runtime < 0 {
		return sim.NoRuntime, r.Estimate
	}
	if r.Need[sim.Procs] == 0 {
		return sim.NoProcessors, r.Estimate
	}
	if r.Estimate < -1 {
		return sim.NegativeRequest, r.Estimate
	}
	for _, v := range r.Need {
		if v < 0 {
			return sim.NegativeRequest, r.Estimate
		}
	}
	for k := range r.Need {
		if r.Need[k] > c[k] {
			return sim.TooLarge, r.Estimate
		}
	}
	if r.Estimate == sim.Missing {
		if reject {
			return sim.NoEstimate, r.Estimate
		}
		return sim.NoReason, r.Runtime
	}
	return sim.NoReason, r.Estimate
}

// oracle simulates policy on a pool of capacity c and returns the schedule
// as scheduleLines renders it, then summaryLine's line of counts. An error
// wrapping errOracleTie says the schedule hangs on a near-tie of fairshare
// priorities that float64 rounding decides, so the oracle cannot say it.
func oracle(policy oraclePolicy, c sim.Resources, recs []sim.Record, opt sim.Options) ([]string, error) {
	cfg, err := policy.config()
	if err != nil {
		return nil, err
	}
	r := &oracleRun{policy: policy, cfg: cfg, c: c, opt: opt, compress: true, first: true, now: -1}
	r.jobs = make([]*oracleJob, len(recs))
	for i, rec := range recs {
		r.jobs[i] = &oracleJob{Record: rec, start: -1, end: -1, resv: -1}
	}
	for {
		t, err := r.nextEvent()
		if err != nil {
			return nil, err
		}
		if t == math.MaxInt64 {
			break
		}
		waiting, running := r.advance(t)
		if len(waiting) == 0 {
			continue
		}
		if err := r.pass(waiting, running); err != nil {
			return nil, err
		}
	}
	return scheduleOf(r.jobs, r.passes, r.filled)
}

// oracleRun is the state oracle carries from one event time to the next.
type oracleRun struct {
	policy oraclePolicy
	cfg    oracleConfig
	c      sim.Resources
	opt    sim.Options

	jobs                    []*oracleJob
	next                    int          // jobs[:next] have arrived
	live                    []*oracleJob // arrived and not done, in arrival order
	passes, filled, started int
	compress                bool // conservative: re-lay every reservation at the next pass
	// guessing: conservative's last pass saw a job past its estimate
	// (AllowOverrun); its reservations rest on a guess, so it set no timer
	// and the next pass rebuilds the plan.
	guessing bool
	first    bool
	wake     sim.Time // pbs: the engine's timer, 0 for none
	now      sim.Time
}

// nextEvent returns the time of the next event: a completion, an arrival,
// a reservation coming or the timer; math.MaxInt64 if there is none.
func (r *oracleRun) nextEvent() (sim.Time, error) {
	t := sim.Time(math.MaxInt64)
	for _, j := range r.live {
		if j.phase == oRunning && j.end < t {
			t = j.end
		}
		if r.cfg.disc == "conservative" && !r.guessing && j.phase == oWaiting && j.resv >= 0 && j.resv < t {
			if j.resv <= r.now {
				return 0, fmt.Errorf("oracle: job %d's reservation %d has passed at %d", j.ID, j.resv, r.now)
			}
			t = j.resv
		}
	}
	if r.next < len(r.jobs) && r.jobs[r.next].Submit < t {
		t = r.jobs[r.next].Submit
	}
	if r.wake > 0 && r.wake < t {
		t = r.wake
	}
	return t, nil
}

// advance moves the clock to now and applies its events: completions, then
// arrivals, then the timer's clearing. It returns the jobs waiting and
// running after them, in arrival order.
func (r *oracleRun) advance(now sim.Time) (waiting, running []*oracleJob) {
	r.now = now
	for _, j := range r.live {
		if j.phase == oRunning && j.end == now {
			j.phase = oDone
			if now < j.start+oracleSpan(j.Estimate) {
				r.compress = true
			}
		}
	}
	arrived, n := admitArrivals(r.jobs, &r.next, now, r.c, r.opt)
	r.live, r.filled = append(r.live, arrived...), r.filled+n
	if r.wake == now {
		r.wake = 0
	}
	r.live, waiting, running = splitLive(r.live)
	return waiting, running
}

// pass is one scheduling pass at r.now: rank the waiting jobs, ask the
// discipline which to start, and start them.
func (r *oracleRun) pass(waiting, running []*oracleJob) error {
	r.passes++
	if err := r.cfg.rank(r.now, r.c, waiting, r.jobs[:r.next]); err != nil {
		return err
	}
	start, err := r.decide(waiting, running)
	if err != nil {
		return err
	}
	r.first = false
	if err := startAll(fmt.Sprint(r.policy), r.c, running, start, r.now, r.opt); err != nil {
		return err
	}
	for _, j := range start {
		j.nth, r.started = r.started, r.started+1
	}
	return nil
}

// decide returns the jobs the discipline starts at r.now.
func (r *oracleRun) decide(waiting, running []*oracleJob) ([]*oracleJob, error) {
	now, c := r.now, r.c
	switch r.cfg.disc {
	case "fcfs":
		return oracleFCFS(c, waiting, running), nil
	case "easy":
		return oracleEASY(now, c, waiting, running), nil
	case "pbs":
		var start []*oracleJob
		start, r.wake = oraclePBS(now, c, waiting, running, r.cfg.guard, r.cfg.maxStarve)
		if r.wake != 0 && r.wake <= now {
			return nil, fmt.Errorf("oracle: timer at %d, not after %d", r.wake, now)
		}
		return start, nil
	case "bb", "ibb":
		return oracleBalanced(now, c, waiting, running, r.cfg.disc == "ibb", r.cfg.once), nil
	case "conservative":
		return r.conservative(waiting, running)
	default:
		return nil, fmt.Errorf("oracle: no discipline %q", r.cfg.disc)
	}
}

// conservative is one conservative pass: it decides whether the plan is
// compressed or rebuilt (a first pass, an overrun now or at the last pass),
// then lays it.
func (r *oracleRun) conservative(waiting, running []*oracleJob) ([]*oracleJob, error) {
	overrun := false
	for _, j := range running {
		overrun = overrun || j.start+j.Estimate <= r.now
	}
	rebuild := r.first || overrun || r.guessing
	start, err := oracleConservative(r.now, r.c, waiting, running, r.compress || rebuild, rebuild)
	if err != nil {
		return nil, err
	}
	r.compress, r.guessing = false, overrun
	return start, nil
}

// admitArrivals admits the jobs of jobs[*next:] submitted at now, moving
// *next past them, as the engine does (oracleAdmit): a rejected job is
// done, an admitted one gets its filled estimate. It returns the admitted
// jobs and how many of their estimates were filled.
func admitArrivals(jobs []*oracleJob, next *int, now sim.Time, c sim.Resources, opt sim.Options) (admitted []*oracleJob, filled int) {
	for ; *next < len(jobs) && jobs[*next].Submit == now; *next++ {
		j := jobs[*next]
		reason, est := oracleAdmit(j.Record, c, opt.MissingEstimate == sim.RejectMissingEstimate)
		if reason != sim.NoReason {
			j.phase, j.state, j.reason = oDone, sim.Rejected, reason
			continue
		}
		if est != j.Estimate {
			filled++
		}
		j.Estimate = est
		admitted = append(admitted, j)
	}
	return admitted, filled
}

// splitLive drops the done jobs from live and returns it, with its waiting
// and its running jobs, each in live's order.
func splitLive(live []*oracleJob) (kept, waiting, running []*oracleJob) {
	kept = slices.DeleteFunc(live, func(j *oracleJob) bool { return j.phase == oDone })
	for _, j := range kept {
		switch j.phase {
		case oWaiting:
			waiting = append(waiting, j)
		case oRunning:
			running = append(running, j)
		}
	}
	return kept, waiting, running
}

// startAll starts jobs start at now beside running on machine c, each to
// run its run time or, unless opt allows overruns, to be killed at its
// estimate. The jobs' phases say what runs: the caller keeps no list. A
// job that does not fit, beside running and those started before it, is the
// oracle's error; what names the discipline in the message.
func startAll(what string, c sim.Resources, running, start []*oracleJob, now sim.Time, opt sim.Options) error {
	running = slices.Clip(running) // appended to below, not the caller's
	for _, j := range start {
		if !fitsAll(j.Need, freeOf(c, running)) {
			return fmt.Errorf("oracle: %s starts job %d at %d, which does not fit", what, j.ID, now)
		}
		j.phase, j.start, j.state = oRunning, now, sim.Finished
		run := j.Runtime
		if !opt.AllowOverrun && run > j.Estimate {
			run, j.state = j.Estimate, sim.Killed
		}
		j.end = now + run
		running = append(running, j)
	}
	return nil
}

// scheduleOf renders the oracle's schedule as engineSchedule does the
// engine's: a line per job, then summaryLine. Every job must have ended.
func scheduleOf(jobs []*oracleJob, passes, filled int) ([]string, error) {
	lines := make([]string, len(jobs), len(jobs)+1)
	var count [sim.Rejected + 1]int
	for i, j := range jobs {
		if j.phase != oDone {
			return nil, fmt.Errorf("oracle: job %d never ran", j.ID)
		}
		status := j.state.String()
		if j.state == sim.Rejected {
			status += ":" + j.reason.String()
		}
		lines[i] = fmt.Sprintf("%d %d %d %d %d %s", j.ID, j.Submit, j.start, j.end, j.Need[sim.Procs], status)
		count[j.state]++
	}
	return append(lines, summaryLine(passes, count[sim.Finished], count[sim.Killed], count[sim.Rejected], filled)), nil
}

// summaryLine renders a run's counts: scheduling passes (one per distinct
// event time with a job waiting, plus one after zero-length jobs end),
// jobs by state, and estimates filled from the run time.
func summaryLine(passes, finished, killed, rejected, filled int) string {
	return fmt.Sprintf("passes=%d finished=%d killed=%d rejected=%d filled=%d", passes, finished, killed, rejected, filled)
}

// freeOf returns what the running jobs leave free.
func freeOf(c sim.Resources, running []*oracleJob) sim.Resources {
	free := c
	for _, j := range running {
		free = free.Sub(j.Need)
	}
	return free
}

func oracleFCFS(c sim.Resources, waiting, running []*oracleJob) []*oracleJob {
	free := freeOf(c, running)
	var start []*oracleJob
	for _, j := range waiting {
		if !fitsAll(j.Need, free) {
			break
		}
		free = free.Sub(j.Need)
		start = append(start, j)
	}
	return start
}

// oraclePBS is one pass of PBS's FIFO scheduler. It returns the jobs to
// start and the timer to set (0 for none).
func oraclePBS(now sim.Time, c sim.Resources, waiting, running []*oracleJob, guard bool, maxStarve sim.Time) ([]*oracleJob, sim.Time) {
	free := freeOf(c, running)
	var start []*oracleJob
	var head *oracleJob
	for _, j := range waiting {
		if fitsAll(j.Need, free) {
			free = free.Sub(j.Need)
			start = append(start, j)
			continue
		}
		if head == nil {
			head = j
			if guard && now-j.Submit >= maxStarve {
				return start, 0
			}
		}
	}
	if head != nil && guard {
		return start, head.Submit + maxStarve
	}
	return start, 0
}

// runningJob is a job holding resources until its estimated end, as EASY
// sees it.
type runningJob struct {
	need sim.Resources
	end  sim.Time
}

// easyHead begins an EASY pass: it starts waiting jobs in order while they
// fit and returns them, what is left free, what the machine holds (the
// running jobs and those started, to their estimated ends) and the index in
// waiting of the head that does not fit, len(waiting) if every job fits.
func easyHead(now sim.Time, c sim.Resources, waiting, running []*oracleJob) (start []*oracleJob, free sim.Resources, held []runningJob, i int) {
	for _, j := range running {
		held = append(held, runningJob{j.Need, j.start + j.Estimate})
	}
	free = freeOf(c, running)
	for ; i < len(waiting) && fitsAll(waiting[i].Need, free); i++ {
		j := waiting[i]
		free = free.Sub(j.Need)
		start = append(start, j)
		held = append(held, runningJob{j.Need, now + j.Estimate})
	}
	return start, free, held, i
}

func oracleEASY(now sim.Time, c sim.Resources, waiting, running []*oracleJob) []*oracleJob {
	start, free, held, i := easyHead(now, c, waiting, running)
	if i == len(waiting) {
		return start
	}
	head := waiting[i]
	for _, j := range waiting[i+1:] {
		if !fitsAll(j.Need, free) {
			continue
		}
		shadow, extra := oracleShadow(now, head.Need, free, held)
		if now+j.Estimate <= shadow || fitsAll(j.Need, extra) {
			free = free.Sub(j.Need)
			start = append(start, j)
			held = append(held, runningJob{j.Need, now + j.Estimate})
		}
	}
	return start
}

// oracleShadow returns the earliest estimated end (never before now+1) at
// which free plus everything ending by then fits need, and what is left
// then once need is taken.
func oracleShadow(now sim.Time, need, free sim.Resources, held []runningJob) (sim.Time, sim.Resources) {
	end := func(r runningJob) sim.Time { return max(r.end, now+1) }
	var times []sim.Time
	for _, r := range held {
		times = append(times, end(r))
	}
	slices.Sort(times)
	for _, t := range slices.Compact(times) {
		avail := free
		for _, r := range held {
			if end(r) <= t {
				avail = avail.Add(r.need)
			}
		}
		if fitsAll(need, avail) {
			return t, avail.Sub(need)
		}
	}
	panic("oracle: the EASY head never fits") // admitted jobs fit the empty machine
}

func oracleConservative(now sim.Time, c sim.Resources, waiting, running []*oracleJob, compress, rebuild bool) ([]*oracleJob, error) {
	var plan []planned
	for _, j := range running {
		// A job past its estimate (AllowOverrun) is taken to end at now+1.
		plan = append(plan, planned{j, j.start, max(j.start+oracleSpan(j.Estimate), now+1)})
	}
	stale := false
	for _, j := range waiting {
		switch {
		case j.resv >= now:
			plan = append(plan, planned{j, j.resv, j.resv + oracleSpan(j.Estimate)})
		case j.resv >= 0:
			stale = true
		}
	}
	if rebuild && (stale || overcommitted(now, c, plan)) {
		// The guess about an overrunning job broke the plan: every
		// reservation is withdrawn and the jobs laid from scratch.
		for _, j := range waiting {
			j.resv = -1
		}
		plan = slices.DeleteFunc(plan, func(p planned) bool { return p.job.phase == oWaiting })
	}
	var start []*oracleJob
	for _, j := range waiting {
		if j.resv < 0 || compress {
			plan = slices.DeleteFunc(plan, func(p planned) bool { return p.job == j })
			t := earliestFit(now, oracleSpan(j.Estimate), j.Need, c, plan)
			if t < 0 {
				return nil, fmt.Errorf("oracle: job %d fits nowhere", j.ID)
			}
			if j.resv >= 0 && t > j.resv {
				return nil, fmt.Errorf("oracle: job %d's reservation moved later, %d to %d", j.ID, j.resv, t)
			}
			j.resv = t
			plan = append(plan, planned{j, t, t + oracleSpan(j.Estimate)})
		}
		if j.resv == now {
			start = append(start, j)
		}
	}
	return start, nil
}
