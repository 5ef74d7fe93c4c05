package sim

import (
	"math"
	"sort"
)

// Profile is the free resources of a cluster over future time, as estimates
// predict them: a step function that starts at the current time and ends with
// a last step that lasts forever. Backfilling policies build one per pass from
// the running jobs and lay their reservations into it.
//
// A job occupies [start, start+max(estimate, 1)) in a profile: a job with a
// zero estimate still needs its resources at the instant it starts.
//
// With n steps, Fit is O(n) and Reserve and Unreserve are O(log n + steps
// covered), plus a slice insertion when they add a step. They never remove
// steps, so that lifting a reservation and laying it again in place moves no
// memory; Compact merges what they leave behind.
type Profile struct {
	steps []step
}

type step struct {
	at   Time
	free Resources // free on [at, next step's at)
}

// Span returns how long a job with estimate est occupies a profile.
func Span(est Time) Time { return max(est, 1) }

// Reset makes p the profile at now of a cluster with free resources free now
// and the given running jobs, which must be ordered by estimated end (as
// View.Running returns them). A job whose estimated end is not after now (it
// overran its estimate, with Options.AllowOverrun) is taken to end at now+1.
func (p *Profile) Reset(now Time, free Resources, running []Allocation) {
	p.steps = append(p.steps[:0], step{at: now, free: free})
	for _, a := range running {
		end := max(a.EstimatedEnd(), now+1)
		last := &p.steps[len(p.steps)-1]
		if last.at == end {
			last.free = last.free.Add(a.Job.Need)
			continue
		}
		p.steps = append(p.steps, step{at: end, free: last.free.Add(a.Job.Need)})
	}
}

// ResetEnds makes p the profile at now of a cluster with free resources
// free now and of holds that all run from now, hold i giving back gives[i]
// at ends[i]; ends must be ascending and after now. It is Reset for
// holds whose amounts are not their jobs' needs, in O(len(ends)) where
// laying each hold with Reserve would cost O(steps) apiece.
func (p *Profile) ResetEnds(now Time, free Resources, ends []Time, gives []Resources) {
	p.steps = append(p.steps[:0], step{at: now, free: free})
	for i, end := range ends {
		last := &p.steps[len(p.steps)-1]
		if last.at == end {
			last.free = last.free.Add(gives[i])
			continue
		}
		p.steps = append(p.steps, step{at: end, free: last.free.Add(gives[i])})
	}
}

// Advance moves the profile's start to now, forgetting the past. now must not
// be before Start. It keeps a profile valid across passes for a policy that
// maintains one incrementally.
func (p *Profile) Advance(now Time) {
	i := p.find(now)
	if i > 0 {
		n := copy(p.steps, p.steps[i:])
		p.steps = p.steps[:n]
	}
	p.steps[0].at = now
}

// Start returns the profile's first instant.
func (p *Profile) Start() Time { return p.steps[0].at }

// Len returns the number of steps.
func (p *Profile) Len() int { return len(p.steps) }

// FreeAt returns the free resources at t, which must not be before Start.
func (p *Profile) FreeAt(t Time) Resources { return p.steps[p.find(t)].free }

// find returns the index of the step that holds t.
func (p *Profile) find(t Time) int {
	return sort.Search(len(p.steps), func(i int) bool { return p.steps[i].at > t }) - 1
}

// Fit returns the earliest time at or after from at which need fits for dur
// seconds (Span(dur) in fact). It returns -1 if need never fits, which happens
// only if need exceeds what the last step frees.
func (p *Profile) Fit(from, dur Time, need Resources) Time { return p.fit(from, dur, need, -1) }

// Fits reports whether need fits for dur seconds (Span(dur) in fact) from
// start, which must not be before Start: Fit(start, dur, need) == start, but
// it stops at the first step that lacks room, O(log n + steps covered). If
// need does not fit, until is the end of that step (math.MaxInt64 for the
// last): until the profile gains room, need fits from no time in
// [start, until) either, since every such span covers part of that step.
func (p *Profile) Fits(start, dur Time, need Resources) (ok bool, until Time) {
	end := start + Span(dur)
	for i := p.find(start); i < len(p.steps) && p.steps[i].at < end; i++ {
		if !need.FitsIn(p.steps[i].free) {
			if i+1 < len(p.steps) {
				return false, p.steps[i+1].at
			}
			return false, math.MaxInt64
		}
	}
	return true, 0
}

// FitLifted is Fit for a job that already holds a reservation of need at
// own (laid with the same dur): it answers as if that reservation were
// lifted, without changing the profile, so a policy compressing a schedule
// pays for Unreserve and Reserve only when a job actually moves. The answer
// is never later than own.
func (p *Profile) FitLifted(from, dur Time, need Resources, own Time) Time {
	return p.fit(from, dur, need, own)
}

// fit scans the steps from the one holding from. If own >= 0, inside the
// lifted reservation [own, own+Span(dur)) need is added back to the free
// resources; the few steps that straddle it are cut at its edges. The loop
// is the simulator's hottest for conservative backfilling, so the common
// case, a step clear of the lifted reservation, stays a compare and a branch.
//
// It is the one function exempt from the cognitive-complexity lint (48
// against 40): split into helpers it cost conservative backfilling 7-11 %
// more instructions (sim/README.md, where the instruction counts of the merge of the loops are).
//
//gocognit:ignore
func (p *Profile) fit(from, dur Time, need Resources, own Time) Time {
	const forever = Time(math.MaxInt64)
	dur = Span(dur)
	lo, hi := own, own+dur
	if own < 0 {
		lo, hi = forever, forever
	}
	i := max(p.find(from), 0)
	cand := max(from, p.steps[i].at)
	for ; i < len(p.steps); i++ {
		end := forever
		if i+1 < len(p.steps) {
			end = p.steps[i+1].at
		}
		if end > lo && p.steps[i].at < hi {
			at := max(p.steps[i].at, from)
			if at >= lo && end <= hi {
				// Inside the lifted reservation the job holds its own
				// resources: it fits by construction.
				if cand < 0 {
					cand = at
				}
				if end-cand >= dur {
					return cand
				}
				continue
			}
			// Cut [at, end) at lo and hi; the middle piece has need back.
			cuts := [4]Time{at, max(lo, at), min(hi, end), end}
			for k := range 3 {
				if cuts[k] >= cuts[k+1] {
					continue
				}
				free := p.steps[i].free
				if k == 1 {
					free = free.Add(need)
				}
				if !need.FitsIn(free) {
					cand = -1
					continue
				}
				if cand < 0 {
					cand = cuts[k]
				}
				if cuts[k+1]-cand >= dur {
					return cand
				}
			}
			continue
		}
		if !need.FitsIn(p.steps[i].free) {
			cand = -1
			continue
		}
		if cand < 0 {
			cand = p.steps[i].at
		}
		if end-cand >= dur {
			return cand
		}
	}
	return -1
}

// Reserve takes need away on [start, start+Span(dur)). It does not check that
// need fits; call Fit first. The result may go negative if it does not.
func (p *Profile) Reserve(start, dur Time, need Resources) {
	p.apply(start, start+Span(dur), need, -1)
}

// Unreserve gives back what Reserve with the same arguments took.
func (p *Profile) Unreserve(start, dur Time, need Resources) {
	p.apply(start, start+Span(dur), need, +1)
}

// Negative reports whether some step has a negative amount of some kind, which
// means reservations were laid that do not fit.
func (p *Profile) Negative() bool {
	for i := range p.steps {
		for _, v := range p.steps[i].free {
			if v < 0 {
				return true
			}
		}
	}
	return false
}

func (p *Profile) apply(from, to Time, need Resources, sign int64) {
	i := p.split(from)
	j := p.split(to)
	// The kinds written out (see threeKinds): a reservation far ahead
	// spans hundreds of steps, and the loop over kinds cost three times
	// as much.
	d0, d1, d2 := sign*need[Procs], sign*need[Memory], sign*need[GPUs]
	steps := p.steps[i:j]
	for k := range steps {
		f := &steps[k].free
		f[Procs] += d0
		f[Memory] += d1
		f[GPUs] += d2
	}
}

// Compact merges neighbouring steps with equal free resources, which
// Reserve and Unreserve leave behind. It is O(n); call it once after a batch
// of changes rather than after each.
func (p *Profile) Compact() {
	w := 1
	for r := 1; r < len(p.steps); r++ {
		if p.steps[r].free != p.steps[w-1].free {
			p.steps[w] = p.steps[r]
			w++
		}
	}
	p.steps = p.steps[:w]
}

// split makes sure a step starts at t and returns its index. t must not be
// before Start.
func (p *Profile) split(t Time) int {
	i := p.find(t)
	if p.steps[i].at == t {
		return i
	}
	p.steps = append(p.steps, step{})
	copy(p.steps[i+2:], p.steps[i+1:])
	p.steps[i+1] = step{at: t, free: p.steps[i].free}
	return i + 1
}
