package nodes

import (
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// ReserveTo lays j's reservation at t, where the last Fit or Fits found
// a placement for j, to end at to instead of t+Span(its estimate), if j
// can be placed at t for [t, to): on the placement found for that span
// (the cluster's fit rule again, over the other interval). Otherwise it
// lays the reservation Reserve lays. It returns the reservation's end.
// It is for a policy whose reservations hold a rounded span, as Slurm's
// backfill rounds them to bf_resolution (backfill.c, _add_reservation).
//
// A shorter span needs no test of the sum over the nodes: j's placement
// found for its whole span holds it over any part of it, so a placement
// exists and the search over [t, to) on the nodes finds one. A longer span
// is tested on the sum first, as Fits tests it. The search for the rounded
// span is not told to the test's check (SetCheck).
//
// j must hold no reservation; ReserveTo panics if no placement was found
// for j at t (a policy's broken invariant).
func (p *Profile) ReserveTo(j *sim.Job, t, to sim.Time) sim.Time {
	if p.found.job != j || p.found.at != t {
		panic("nodes: ReserveTo without a placement found at that time") // broken invariant
	}
	end := t + sim.Span(j.Estimate)
	if to == end || to <= t {
		p.Reserve(j, t)
		return end
	}
	r := reqOf(j)
	if to > end {
		if ok, _ := p.agg.Fits(t, to-t, filter(r)); !ok {
			p.Reserve(j, t)
			return end
		}
	}
	// The rounded search writes on the scratch that holds j's placement.
	whole := p.found.uses
	p.uses, p.spare = p.spare, p.uses
	uses, ok := p.placeAt(r, t, to)
	if !ok {
		p.layTo(j, t, end, slices.Clone(whole), Laid)
		p.found = found{}
		return end
	}
	p.layTo(j, t, to, slices.Clone(uses), Laid)
	p.found = found{}
	return to
}
