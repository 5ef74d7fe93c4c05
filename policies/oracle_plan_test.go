package policies_test

// The oracles' plan: the claims of running jobs and reservations on the
// machine over time, kept as a plain list and questioned from scratch
// each time. oracleConservative (oracle_test.go) and mauiPass
// (oracle_maui_test.go) lay their plans with these helpers.

import (
	"cmp"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// planned is a job's claim on the conservative plan: need on [from, to).
type planned struct {
	job      *oracleJob
	from, to sim.Time
}

// overcommitted reports whether the plan asks for more than c at some
// instant from now on. Use changes only where a claim begins, so those
// instants (and now) are the ones to check.
func overcommitted(now sim.Time, c sim.Resources, plan []planned) bool {
	points := []sim.Time{now}
	for _, p := range plan {
		if p.from > now {
			points = append(points, p.from)
		}
	}
	for _, at := range points {
		var used sim.Resources
		for _, p := range plan {
			if p.from <= at && at < p.to {
				used = used.Add(p.job.Need)
			}
		}
		if !fitsAll(used, c) {
			return true
		}
	}
	return false
}

// earliestFit returns the earliest time from now on at which need fits
// for dur seconds beside everything in plan, or -1. The free resources
// are rebuilt from scratch as steps: they change only where a claim
// begins or ends, and a fit can begin only now or where one ends.
func earliestFit(now, dur sim.Time, need, c sim.Resources, plan []planned) sim.Time {
	type delta struct {
		at   sim.Time
		need sim.Resources
		sign int64
	}
	ds := []delta{{at: now}}
	for _, p := range plan {
		if p.to <= now {
			continue
		}
		ds = append(ds, delta{max(p.from, now), p.job.Need, -1}, delta{p.to, p.job.Need, +1})
	}
	slices.SortStableFunc(ds, func(a, b delta) int { return cmp.Compare(a.at, b.at) })
	var at []sim.Time
	var free []sim.Resources
	cur := c
	for i, d := range ds {
		for k := range cur {
			cur[k] += d.sign * d.need[k]
		}
		if i+1 == len(ds) || ds[i+1].at != d.at {
			at, free = append(at, d.at), append(free, cur)
		}
	}
	for i, t := range at {
		ok := true
		for k := i; k < len(at) && at[k] < t+dur; k++ {
			if !fitsAll(need, free[k]) {
				ok = false
				break
			}
		}
		if ok {
			return t
		}
	}
	return -1
}

// freeAt returns what the plan leaves free at instant t.
func freeAt(c sim.Resources, plan []planned, t sim.Time) sim.Resources {
	free := c
	for _, p := range plan {
		if p.from <= t && t < p.to {
			free = free.Sub(p.job.Need)
		}
	}
	return free
}
