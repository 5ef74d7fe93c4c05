package simtest

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/check"
)

// Checks says which invariants Verify applies beyond those every schedule
// must keep.
type Checks struct {
	// Jobs is how many jobs the source gave; -1 skips the count check.
	// Run fills it in.
	Jobs int
	// AllowOverrun must match the run's sim.Options.AllowOverrun. With
	// overruns, estimates are not bounds and promises are not checked.
	AllowOverrun bool
	// MaxOpen bounds how many promises may be open (made, not withdrawn, the
	// job not yet started) at once: 1 for EASY. 0 means no bound.
	MaxOpen int
	// PromiseOnWait requires that every job that did not start at once was
	// promised a start in the pass of its arrival: conservative backfilling.
	PromiseOnWait bool
}

// Verify checks a finished run against the invariants of a correct schedule:
//   - every job is accounted for exactly once, in arrival order: finished
//     after its full run time, killed at its estimate, or rejected with a
//     reason, and the result's counts agree;
//   - no job starts before it was submitted;
//   - no resource kind is over capacity at any instant;
//   - no promise is ever moved later and every job starts by its last
//     promise (unless it was withdrawn) — so EASY never delays its head's
//     reservation and conservative never delays any;
//   - the extra Checks.
//
// It returns every violation found (up to 20), joined, or nil.
func Verify(res *sim.Result, rec *Recorder, chk Checks) error {
	v := &verifier{res: res}
	check.Accounting(&v.errs, res, chk.Jobs, chk.AllowOverrun)
	v.runs()
	v.capacity()
	if rec != nil {
		v.promises(rec, chk)
	}
	return v.errs.Err()
}

type verifier struct {
	res  *sim.Result
	errs check.Errors
}

func (v *verifier) fail(format string, args ...any) { v.errs.Fail(format, args...) }

// runs checks that each job that ran held its resources for its run time,
// or its estimate if it was killed: on this engine jobs run at full speed.
func (v *verifier) runs() {
	for i := range v.res.Jobs {
		o := &v.res.Jobs[i]
		run := o.End - o.Start
		switch {
		case o.State == sim.Finished && run != o.Runtime:
			v.fail("job %d: finished after %d s; its run time is %d s", o.ID, run, o.Runtime)
		case o.State == sim.Killed && run != o.Estimate:
			v.fail("job %d: killed after %d s; its estimate is %d s", o.ID, run, o.Estimate)
		}
	}
}

// capacity sweeps starts and ends in time order, ends first at equal times,
// and checks the resources in use against the capacity. A zero-length job
// holds nothing over time; it only has to fit the machine.
func (v *verifier) capacity() {
	type change struct {
		at    sim.Time
		start bool
		seq   int
	}
	var ch []change
	for i := range v.res.Jobs {
		o := &v.res.Jobs[i]
		if o.State == sim.Rejected {
			continue
		}
		if _, over := o.Need.Exceeds(v.res.Capacity); over {
			v.fail("job %d: needs %v, more than the capacity %v", o.ID, o.Need, v.res.Capacity)
		}
		if o.End > o.Start {
			ch = append(ch, change{o.Start, true, i}, change{o.End, false, i})
		}
	}
	slices.SortFunc(ch, func(a, b change) int {
		return cmp.Or(cmp.Compare(a.at, b.at), boolCmp(a.start, b.start), cmp.Compare(a.seq, b.seq))
	})
	var used sim.Resources
	for _, c := range ch {
		o := &v.res.Jobs[c.seq]
		if !c.start {
			used = used.Sub(o.Need)
			continue
		}
		used = used.Add(o.Need)
		if k, over := used.Exceeds(v.res.Capacity); over {
			v.fail("t=%d: job %d starts and %s in use is %d, capacity %d", c.at, o.ID, k, used[k], v.res.Capacity[k])
			used = used.Sub(o.Need) // report each over-commit once
		}
	}
}

// promises replays promises and withdrawals per job and checks them: no
// promise moves later unless withdrawn in between, every job starts by
// its last promise (both only if no job overran its estimate), at most
// chk.MaxOpen are open at once, and, with chk.PromiseOnWait, every job
// that waits is promised a start on arrival.
func (v *verifier) promises(rec *Recorder, chk Checks) {
	l := ledger{v: v, overran: anyOverran(v.res), open: map[int]*promise{}, first: map[int]sim.Time{}}
	for _, e := range rec.Events {
		l.event(e)
	}
	l.closeOpen()
	if chk.MaxOpen > 0 {
		v.maxOpen(l.spans, chk.MaxOpen)
	}
	if chk.PromiseOnWait {
		v.promisedOnArrival(l.first)
	}
}

// anyOverran reports whether a job ran past its estimate, which frees
// promises from having to hold.
func anyOverran(res *sim.Result) bool {
	for i := range res.Jobs {
		if o := &res.Jobs[i]; o.State != sim.Rejected && o.End-o.Start > o.Estimate {
			return true
		}
	}
	return false
}

// promise is a job's current promise: open until withdrawn or kept.
type promise struct {
	open     bool
	at, made sim.Time
}

// span is when a promise was open, from its making to its end.
type span struct{ from, to sim.Time }

// ledger follows every job's promise through the recorded events.
type ledger struct {
	v       *verifier
	overran bool
	open    map[int]*promise // by job seq
	first   map[int]sim.Time // when each job was first promised a start
	spans   []span
}

// event applies one recorded promise or withdrawal.
func (l *ledger) event(e Event) {
	if e.Seq < 0 || e.Seq >= len(l.v.res.Jobs) {
		l.v.fail("event for unknown job seq %d", e.Seq)
		return
	}
	p := l.open[e.Seq]
	if p == nil {
		p = &promise{}
		l.open[e.Seq] = p
	}
	switch e.Kind {
	case Promise:
		l.promised(&l.v.res.Jobs[e.Seq], p, e)
	case Withdraw:
		if !p.open {
			l.v.fail("job %d: withdrawn at t=%d without an open promise", l.v.res.Jobs[e.Seq].ID, e.Time)
		}
		l.spans = append(l.spans, span{p.made, e.Time})
		p.open = false
	}
}

// promised applies a promise e to the job o whose promise is p.
func (l *ledger) promised(o *sim.Outcome, p *promise, e Event) {
	if _, ok := l.first[e.Seq]; !ok {
		l.first[e.Seq] = e.Time
	}
	if e.Time > o.Start && o.Start >= 0 {
		l.v.fail("job %d: promised at t=%d after it started at %d", o.ID, e.Time, o.Start)
	}
	if p.open && e.At > p.at && !l.overran {
		l.v.fail("job %d: promise moved later, from %d to %d, at t=%d", o.ID, p.at, e.At, e.Time)
	}
	if !p.open {
		p.made = e.Time
	}
	p.open, p.at = true, e.At
}

// closeOpen ends the promises still open with their job's start, which
// must keep them.
func (l *ledger) closeOpen() {
	for seq, p := range l.open {
		if !p.open {
			continue
		}
		o := &l.v.res.Jobs[seq]
		if !l.overran && o.Start > p.at {
			l.v.fail("job %d: started at %d, later than its promise %d", o.ID, o.Start, p.at)
		}
		l.spans = append(l.spans, span{p.made, o.Start})
	}
}

// maxOpen fails if more than limit of spans overlap at any time.
func (v *verifier) maxOpen(spans []span, limit int) {
	type edge struct {
		at    sim.Time
		delta int
	}
	var edges []edge
	for _, s := range spans {
		if s.to > s.from {
			edges = append(edges, edge{s.from, 1}, edge{s.to, -1})
		}
	}
	// Closing edges sort first, so a promise ending at t and one made at t
	// do not overlap.
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta))
	})
	n := 0
	for _, e := range edges {
		n += e.delta
		if n > limit {
			v.fail("t=%d: %d promises open at once, at most %d allowed", e.at, n, limit)
			return
		}
	}
}

// promisedOnArrival fails for a job that waited without a promise made
// when it arrived; first is when each job was first promised.
func (v *verifier) promisedOnArrival(first map[int]sim.Time) {
	for i := range v.res.Jobs {
		o := &v.res.Jobs[i]
		if o.State == sim.Rejected || o.Start == o.Submit {
			continue
		}
		if t, ok := first[i]; !ok || t != o.Submit {
			v.fail("job %d: waited from %d to %d without a promise made on arrival", o.ID, o.Submit, o.Start)
		}
	}
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
