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

// promises replays promises and withdrawals per job.
func (v *verifier) promises(rec *Recorder, chk Checks) {
	overran := false
	for i := range v.res.Jobs {
		if o := &v.res.Jobs[i]; o.State != sim.Rejected && o.End-o.Start > o.Estimate {
			overran = true
		}
	}
	type promise struct {
		open     bool
		at, made sim.Time
	}
	cur := make(map[int]*promise)
	firstMade := make(map[int]sim.Time)
	type span struct{ from, to sim.Time }
	var spans []span
	for _, e := range rec.Events {
		if e.Seq < 0 || e.Seq >= len(v.res.Jobs) {
			v.fail("event for unknown job seq %d", e.Seq)
			continue
		}
		o := &v.res.Jobs[e.Seq]
		p := cur[e.Seq]
		if p == nil {
			p = &promise{}
			cur[e.Seq] = p
		}
		switch e.Kind {
		case Promise:
			if _, ok := firstMade[e.Seq]; !ok {
				firstMade[e.Seq] = e.Time
			}
			if e.Time > o.Start && o.Start >= 0 {
				v.fail("job %d: promised at t=%d after it started at %d", o.ID, e.Time, o.Start)
			}
			if p.open && e.At > p.at && !overran {
				v.fail("job %d: promise moved later, from %d to %d, at t=%d", o.ID, p.at, e.At, e.Time)
			}
			if !p.open {
				p.made = e.Time
			}
			p.open, p.at = true, e.At
		case Withdraw:
			if !p.open {
				v.fail("job %d: withdrawn at t=%d without an open promise", o.ID, e.Time)
			}
			spans = append(spans, span{p.made, e.Time})
			p.open = false
		}
	}
	for seq, p := range cur {
		if !p.open {
			continue
		}
		o := &v.res.Jobs[seq]
		if !overran && o.Start > p.at {
			v.fail("job %d: started at %d, later than its promise %d", o.ID, o.Start, p.at)
		}
		spans = append(spans, span{p.made, o.Start})
	}
	if chk.MaxOpen > 0 {
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
			if n > chk.MaxOpen {
				v.fail("t=%d: %d promises open at once, at most %d allowed", e.at, n, chk.MaxOpen)
				break
			}
		}
	}
	if chk.PromiseOnWait {
		for i := range v.res.Jobs {
			o := &v.res.Jobs[i]
			if o.State == sim.Rejected || o.Start == o.Submit {
				continue
			}
			if t, ok := firstMade[i]; !ok || t != o.Submit {
				v.fail("job %d: waited from %d to %d without a promise made on arrival", o.ID, o.Submit, o.Start)
			}
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
