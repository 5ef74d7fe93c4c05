package tier

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/check"
)

// Checks are what Verify needs besides the result and the events.
type Checks struct {
	// Jobs is how many jobs the source gave; -1 skips the count.
	Jobs int
	// Config is the run's machine model (threshold, migration cost).
	Config Config
	// Model, if set, is a fresh model of the run (Config.NewModel with the
	// run's seed): Verify then recomputes every rate the engine gave.
	Model Model
	// AllowOverrun must match the run's sim.Options.AllowOverrun.
	AllowOverrun bool
	// MaxOpen bounds the promises open at once; 0: no bound.
	MaxOpen int
}

// Verify replays a two-tier run's events and checks what every two-tier
// schedule must keep:
//   - every job is accounted for once, in arrival order, and the counts
//     agree; it is first placed no earlier than its submission, and its
//     Start and End are its first placement and its end;
//   - each VM holds at most one process: at most one foreground and one
//     background process per processor, which also bounds each tier by
//     the capacity; a background VM accepts a process only while its
//     foreground usage is below the threshold;
//   - a job's progress never exceeds its work: it ends at the first whole
//     second by which its progress, integrated from the rates the engine
//     reported, reaches its work (run time, or estimate if it was killed);
//     rates lie in [0, FullRate] and are 0 during a migration's pause;
//   - killed work is counted as lost: Result.Tiers matches the moves, and
//     LostWork the progress the restarts threw away;
//   - with chk.Model, every rate is what the model gives for the job's
//     slowest process whenever the job or a neighbour moved;
//   - promises: none is moved later unless withdrawn, and each job is in
//     the foreground (or has ended) by its last promise, unless a job
//     overran its estimate; at most chk.MaxOpen are open at once.
//
// It returns every violation found (up to 20), joined, or nil.
func Verify(res *sim.Result, rec *Recorder, chk Checks) error {
	v := newReplay(res, chk)
	check.Accounting(&v.errs, res, chk.Jobs, chk.AllowOverrun)
	if rec != nil {
		for i := range rec.Events {
			ev := &rec.Events[i]
			if i > 0 && ev.Time != rec.Events[i-1].Time {
				v.settle(rec.Events[i-1].Time)
			}
			v.event(ev)
		}
		if n := len(rec.Events); n > 0 {
			v.settle(rec.Events[n-1].Time)
		}
		v.final()
	}
	return v.errs.Err()
}

type replayJob struct {
	state      uint8 // 0 waiting, 1 running, 2 ended
	tier       Tier
	procs      []int
	rate       Rate
	since      sim.Time
	progress   int64 // at since
	before     int64 // at since − 1, or −1 if the current run began at since
	work       int64
	placed     sim.Time
	entered    bool // reached the foreground (or ended)
	enteredAt  sim.Time
	pauseUntil sim.Time
	promise    sim.Time
	open       bool
}

type replay struct {
	res        *sim.Result
	chk        Checks
	errs       check.Errors
	fg, bg     []int // job seq per processor, −1 if idle
	jobs       []replayJob
	counts     sim.TierCounts
	lost       int64
	open       int
	overran    bool
	touched    []int
	touchedSet map[int]bool
}

func newReplay(res *sim.Result, chk Checks) *replay {
	v := &replay{res: res, chk: chk, touchedSet: map[int]bool{}}
	n := int(res.Capacity[sim.Procs])
	v.fg, v.bg = make([]int, n), make([]int, n)
	for i := range n {
		v.fg[i], v.bg[i] = -1, -1
	}
	v.jobs = make([]replayJob, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		v.jobs[i].work = int64(o.Work()) * int64(FullRate)
		v.jobs[i].before = -1
		if o.State != sim.Rejected && o.Runtime > o.Estimate && chk.AllowOverrun {
			v.overran = true
		}
		if o.State == sim.Rejected {
			v.jobs[i].state = 2
		} else if chk.Model != nil {
			chk.Model.Admit(&o.Job)
		}
	}
	return v
}

func (v *replay) fail(format string, args ...any) { v.errs.Fail(format, args...) }

// advance integrates job j's progress up to t.
func (v *replay) advance(j *replayJob, t sim.Time) {
	if t > j.since {
		j.before = j.progress + int64(j.rate)*int64(t-1-j.since)
		j.progress += int64(j.rate) * int64(t-j.since)
	}
	j.since = t
}

func (v *replay) touch(seq int) {
	if seq >= 0 && !v.touchedSet[seq] {
		v.touchedSet[seq] = true
		v.touched = append(v.touched, seq)
	}
}

func (v *replay) event(ev *Event) {
	if ev.Seq < 0 || ev.Seq >= len(v.jobs) {
		v.fail("t=%d: event for unknown job seq %d", ev.Time, ev.Seq)
		return
	}
	j, o := &v.jobs[ev.Seq], &v.res.Jobs[ev.Seq]
	switch ev.Kind {
	case Placed:
		v.placed(ev, j, o)
	case Rated:
		if j.state != 1 {
			v.fail("job %d: rated at t=%d while not running", o.ID, ev.Time)
			return
		}
		v.advance(j, ev.Time)
		if ev.Rate < 0 || ev.Rate > FullRate {
			v.fail("job %d: rate %d at t=%d is outside [0, %d]", o.ID, ev.Rate, ev.Time, FullRate)
		}
		if ev.Time < j.pauseUntil && ev.Rate != 0 {
			v.fail("job %d: progresses at t=%d during its migration, which ends at %d", o.ID, ev.Time, j.pauseUntil)
		}
		j.rate = ev.Rate
		v.touch(ev.Seq)
	case Ended:
		v.ended(ev, j, o)
	case Promised:
		switch {
		case j.state == 2 || j.entered && ev.Time > j.enteredAt:
			v.fail("job %d: promised at t=%d after it reached the foreground or ended", o.ID, ev.Time)
		case j.open && ev.At > j.promise && !v.overran:
			v.fail("job %d: promise moved later, from %d to %d, at t=%d", o.ID, j.promise, ev.At, ev.Time)
		}
		if !j.open && !j.entered {
			v.open++
			if v.chk.MaxOpen > 0 && v.open > v.chk.MaxOpen {
				v.fail("t=%d: %d promises open at once, at most %d allowed", ev.Time, v.open, v.chk.MaxOpen)
			}
		}
		j.open, j.promise = !j.entered, ev.At
	case Withdrawn:
		if !j.open {
			v.fail("job %d: withdrawn at t=%d without an open promise", o.ID, ev.Time)
		}
		v.close(j)
	default:
		v.fail("t=%d: unknown event kind %d", ev.Time, ev.Kind)
	}
}

func (v *replay) close(j *replayJob) {
	if j.open {
		j.open = false
		v.open--
	}
}

func (v *replay) placed(ev *Event, j *replayJob, o *sim.Outcome) {
	t := ev.Time
	switch {
	case ev.Move == Start && j.state != 0:
		v.fail("job %d: started at t=%d but it is not waiting", o.ID, t)
		return
	case ev.Move != Start && (j.state != 1 || j.tier != Background):
		v.fail("job %d: %v at t=%d but it is not in the background", o.ID, ev.Move, t)
		return
	case ev.Move == Swap && !slices.Equal(ev.Procs, j.procs):
		v.fail("job %d: swapped at t=%d onto %v, not its processors %v", o.ID, t, ev.Procs, j.procs)
		return
	case int64(len(ev.Procs)) != o.Need[sim.Procs]:
		v.fail("job %d: placed at t=%d on %d processors; it has %d processes", o.ID, t, len(ev.Procs), o.Need[sim.Procs])
		return
	}
	if ev.Move == Start {
		j.state, j.placed, j.since = 1, t, t
		if o.Start != t {
			v.fail("job %d: first placed at %d; its outcome says it started at %d", o.ID, t, o.Start)
		}
	} else {
		v.advance(j, t)
		for _, p := range j.procs {
			v.bg[p] = -1
			v.touch(v.fg[p])
		}
	}
	for i, p := range ev.Procs {
		if p < 0 || p >= len(v.fg) || slices.Contains(ev.Procs[:i], p) {
			v.fail("job %d: placed at t=%d on bad processor list %v", o.ID, t, ev.Procs)
			return
		}
		if ev.Tier == Foreground {
			if v.fg[p] >= 0 {
				v.fail("t=%d: job %d joins job %d in the foreground VM of processor %d", t, o.ID, v.res.Jobs[v.fg[p]].ID, p)
			}
			v.fg[p] = ev.Seq
			v.touch(v.bg[p])
			continue
		}
		if v.bg[p] >= 0 {
			v.fail("t=%d: job %d joins job %d in the background VM of processor %d", t, o.ID, v.res.Jobs[v.bg[p]].ID, p)
		}
		if f := v.fg[p]; f >= 0 && Usage(&v.res.Jobs[f].Job) >= v.chk.Config.Threshold {
			v.fail("t=%d: job %d placed in the background of processor %d behind job %d of usage %v (threshold %v)",
				t, o.ID, p, v.res.Jobs[f].ID, Usage(&v.res.Jobs[f].Job), v.chk.Config.Threshold)
		}
		v.bg[p] = ev.Seq
		v.touch(v.fg[p])
	}
	switch ev.Move {
	case Swap:
		v.counts.Swaps++
	case Restart:
		v.counts.Restarts++
		v.lost += j.progress * int64(len(j.procs))
		j.progress, j.before = 0, -1
	case Migrate:
		v.counts.Migrations++
		j.pauseUntil = t + v.chk.Config.MigrationCost
	}
	if ev.Move == Start {
		j.before = -1
	}
	j.tier, j.procs = ev.Tier, ev.Procs
	if ev.Tier == Foreground {
		v.enter(j, o, t)
	}
	v.touch(ev.Seq)
}

// enter checks job j's open promise as it reaches the foreground or ends.
func (v *replay) enter(j *replayJob, o *sim.Outcome, t sim.Time) {
	j.entered, j.enteredAt = true, t
	if j.open && t > j.promise && !v.overran {
		v.fail("job %d: reached the foreground at %d, later than its promise %d", o.ID, t, j.promise)
	}
	v.close(j)
}

func (v *replay) ended(ev *Event, j *replayJob, o *sim.Outcome) {
	t := ev.Time
	if j.state != 1 {
		v.fail("job %d: ended at t=%d while not running", o.ID, t)
		return
	}
	v.advance(j, t)
	switch {
	case j.progress < j.work:
		v.fail("job %d: ended at t=%d with %d of %d µs of work done", o.ID, t, j.progress, j.work)
	case j.before >= j.work:
		v.fail("job %d: ended at t=%d but had done its %d µs of work a second earlier (%d)", o.ID, t, j.work, j.before)
	}
	if o.End != t {
		v.fail("job %d: ended at %d; its outcome says %d", o.ID, t, o.End)
	}
	for _, p := range j.procs {
		if j.tier == Foreground {
			v.fg[p] = -1
			v.touch(v.bg[p])
		} else {
			v.bg[p] = -1
			v.touch(v.fg[p])
		}
	}
	if !j.entered {
		v.enter(j, o, t)
	}
	j.state = 2
}

// settle checks, once every event of time t is in, the rates of the jobs
// that moved or whose neighbours moved.
func (v *replay) settle(t sim.Time) {
	for _, seq := range v.touched {
		delete(v.touchedSet, seq)
		j := &v.jobs[seq]
		if v.chk.Model == nil || j.state != 1 {
			continue
		}
		if want := v.expected(seq, t); want != j.rate {
			v.fail("job %d: runs at rate %d after t=%d; its processes give %d", v.res.Jobs[seq].ID, j.rate, t, want)
		}
	}
	v.touched = v.touched[:0]
}

// expected returns the rate the model gives job seq at t.
func (v *replay) expected(seq int, t sim.Time) Rate {
	j := &v.jobs[seq]
	if t < j.pauseUntil {
		return 0
	}
	job := &v.res.Jobs[seq].Job
	r := FullRate
	for _, p := range j.procs {
		o := v.bg[p]
		if j.tier == Background {
			o = v.fg[p]
		}
		var other *sim.Job
		if o >= 0 {
			other = &v.res.Jobs[o].Job
		}
		r = min(r, RateOf(v.chk.Model.Rate(job, j.tier, other)))
	}
	return r
}

func (v *replay) final() {
	for i := range v.jobs {
		if j := &v.jobs[i]; v.res.Jobs[i].State != sim.Rejected && j.state != 2 {
			v.fail("job %d: never ended", v.res.Jobs[i].ID)
		}
	}
	got := v.res.Tiers
	want := v.counts
	want.LostWork = float64(v.lost) / float64(FullRate)
	if got != want {
		v.fail("the result counts %+v; the moves say %+v", got, want)
	}
}
