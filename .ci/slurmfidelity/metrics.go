package main

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// report is how far a simulated schedule agrees with the real one.
//
// A job's difference is its simulated wait less its real wait (wait =
// start - submit); when the simulation's submit times are Slurm's, as they
// are from the imported sacct log, that is the difference of the starts.
// A pair of jobs is ordered alike when both schedules start the first
// before the second, both the second first, or both at the same second.
// A job's start rank is its position when the jobs are sorted by start,
// ties by submission order; its rank is the same when the positions in
// the two schedules are.
//
// A pair is contested when both jobs were waiting in Slurm at one
// instant: the later submission came no later than the earlier start.
// Only a contested pair's order was Slurm's choice; Slurm started every
// other pair in submission order, and a simulation nearly always does
// too, so the all-pairs fraction grows with the length of the run (jobs
// far apart in time never wait together). The fraction of contested pairs ordered alike
// does not, and so compares a short run with a long one. Its
// denominator is the real schedule's alone: were a pair contested in
// the simulation to count as well, a policy that delays jobs in
// submission order (FCFS) would add pairs it orders alike by
// construction, and outscore one closer to Slurm (on the full run of 27
// November 2026, FCFS 0.86 against the slurm policy's 0.61; counted on
// Slurm's pairs, 0.24 against 0.68).
type report struct {
	jobs           int
	pairs          int64 // pairs of jobs, jobs*(jobs-1)/2
	alike          int64 // pairs ordered alike
	contested      int64 // pairs both waiting at once in Slurm
	contestedAlike int64 // of those, pairs ordered alike
	tauB           float64
	sameRank       int
	within         int     // jobs whose difference is at most the tolerance
	waited         int     // jobs that waited more than the tolerance in Slurm
	waitedIn       int     // of those, jobs within the tolerance
	diffs          []int64 // the differences, sorted
	meanAbs        float64
	earlier, later int // jobs the simulation starts earlier, later
}

// agreement compares the real schedule a with the simulated b, job i of
// one with job i of the other, both in submission order; within is the
// tolerance in seconds.
func agreement(a, b []start, within int64) report {
	n := len(a)
	r := report{jobs: n, pairs: int64(n) * int64(n-1) / 2}
	var concordant, discordant, tiesA, tiesB int64
	for i := range n {
		for j := i + 1; j < n; j++ {
			x := compareInt(a[i].start, a[j].start)
			y := compareInt(b[i].start, b[j].start)
			if x == y {
				r.alike++
			}
			if contested(a[i], a[j]) {
				r.contested++
				if x == y {
					r.contestedAlike++
				}
			}
			switch {
			case x == 0 && y == 0:
			case x == 0:
				tiesA++
			case y == 0:
				tiesB++
			case x == y:
				concordant++
			default:
				discordant++
			}
		}
	}
	n0 := float64(r.pairs)
	// Pairs tied in both count in neither denominator term, as in tau-b.
	bothTied := r.pairs - concordant - discordant - tiesA - tiesB
	if d := math.Sqrt((n0 - float64(tiesA+bothTied)) * (n0 - float64(tiesB+bothTied))); d > 0 {
		r.tauB = float64(concordant-discordant) / d
	}
	ra, rb := ranks(a), ranks(b)
	var sumAbs float64
	for i := range n {
		if ra[i] == rb[i] {
			r.sameRank++
		}
		d := (b[i].start - b[i].submit) - (a[i].start - a[i].submit)
		r.diffs = append(r.diffs, d)
		sumAbs += math.Abs(float64(d))
		in := d >= -within && d <= within
		if in {
			r.within++
		}
		if a[i].start-a[i].submit > within {
			r.waited++
			if in {
				r.waitedIn++
			}
		}
		switch {
		case d < 0:
			r.earlier++
		case d > 0:
			r.later++
		}
	}
	r.meanAbs = sumAbs / float64(n)
	slices.Sort(r.diffs)
	return r
}

// contested reports whether jobs p and q were both waiting at one
// instant (to the second): neither started before the other's submission.
func contested(p, q start) bool {
	return max(p.submit, q.submit) <= min(p.start, q.start)
}

// ranks returns each job's position when s is sorted by start, ties kept
// in the order of s.
func ranks(s []start) []int {
	order := make([]int, len(s))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return compareInt(s[x].start, s[y].start) })
	rank := make([]int, len(s))
	for pos, i := range order {
		rank[i] = pos
	}
	return rank
}

// pairFraction is the fraction of pairs ordered alike, 1 for one job.
func (r report) pairFraction() float64 {
	if r.pairs == 0 {
		return 1
	}
	return float64(r.alike) / float64(r.pairs)
}

// contestedFraction is the fraction of contested pairs ordered alike, 1
// when no pair is contested.
func (r report) contestedFraction() float64 {
	if r.contested == 0 {
		return 1
	}
	return float64(r.contestedAlike) / float64(r.contested)
}

// withinFraction is the fraction of jobs within the tolerance.
func (r report) withinFraction() float64 {
	return float64(r.within) / float64(r.jobs)
}

// quantile is the q-quantile of the sorted diffs (nearest rank).
func (r report) quantile(q float64) int64 {
	i := int(math.Ceil(q*float64(len(r.diffs)))) - 1
	return r.diffs[min(max(i, 0), len(r.diffs)-1)]
}

// print writes the report, one figure a line.
func (r report) print(w io.Writer, within int64) {
	fmt.Fprintf(w, "jobs compared: %d\n", r.jobs)
	fmt.Fprintf(w, "pairs ordered alike: %d of %d (%.4f); Kendall tau-b %.4f\n", r.alike, r.pairs, r.pairFraction(), r.tauB)
	fmt.Fprintf(w, "contested pairs (both waiting at once in Slurm) ordered alike: %d of %d (%.4f)\n",
		r.contestedAlike, r.contested, r.contestedFraction())
	fmt.Fprintf(w, "same start rank: %d (%.4f)\n", r.sameRank, float64(r.sameRank)/float64(r.jobs))
	fmt.Fprintf(w, "start within %d s: %d (%.4f)\n", within, r.within, r.withinFraction())
	if r.waited > 0 {
		fmt.Fprintf(w, "  of the %d jobs that waited over %d s in Slurm: %d (%.4f)\n", r.waited, within, r.waitedIn,
			float64(r.waitedIn)/float64(r.waited))
	}
	fmt.Fprintf(w, "simulated minus real wait, s: min %d, p10 %d, p25 %d, median %d, p75 %d, p90 %d, max %d; mean |difference| %.1f\n",
		r.diffs[0], r.quantile(0.10), r.quantile(0.25), r.quantile(0.5), r.quantile(0.75), r.quantile(0.90),
		r.diffs[len(r.diffs)-1], r.meanAbs)
	fmt.Fprintf(w, "the simulation starts %d jobs earlier, %d later, %d at the same wait\n",
		r.earlier, r.later, r.jobs-r.earlier-r.later)
}

// spread is a figure's least, median and greatest value over windows.
type spread struct{ least, median, most float64 }

// windowSpreads returns the spread of the fractions of pairs, of
// contested pairs and of jobs within the tolerance over every window of
// n consecutive jobs of a and b (in submission order), and the number of
// windows (0 when there are fewer than n jobs).
func windowSpreads(a, b []start, n int, within int64) (pairs, contested, jobs spread, windows int) {
	if n < 1 || n > len(a) {
		return spread{}, spread{}, spread{}, 0
	}
	var fp, fc, fj []float64
	for i := 0; i+n <= len(a); i++ {
		r := agreement(a[i:i+n], b[i:i+n], within)
		fp, fc, fj = append(fp, r.pairFraction()), append(fc, r.contestedFraction()), append(fj, r.withinFraction())
	}
	return spreadOf(fp), spreadOf(fc), spreadOf(fj), len(fp)
}

// spreadOf sorts f, which is not empty, and returns its spread (the
// median of an even count is the lower middle value).
func spreadOf(f []float64) spread {
	slices.Sort(f)
	return spread{f[0], f[(len(f)-1)/2], f[len(f)-1]}
}

// printWindows writes windowSpreads's figures for windows of n jobs.
func printWindows(w io.Writer, a, b []start, n int, within int64) {
	p, c, j, k := windowSpreads(a, b, n, within)
	if k == 0 {
		fmt.Fprintf(w, "windows of %d jobs: none, %d jobs compared\n", n, len(a))
		return
	}
	fmt.Fprintf(w, "over the %d windows of %d consecutive jobs, least / median / greatest:\n", k, n)
	fmt.Fprintf(w, "  pairs ordered alike %.4f / %.4f / %.4f\n", p.least, p.median, p.most)
	fmt.Fprintf(w, "  contested pairs ordered alike %.4f / %.4f / %.4f\n", c.least, c.median, c.most)
	fmt.Fprintf(w, "  jobs within %d s %.4f / %.4f / %.4f\n", within, j.least, j.median, j.most)
}
