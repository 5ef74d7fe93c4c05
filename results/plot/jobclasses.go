package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Default thresholds of JobClassMeans: the short/long and narrow/wide
// split of Srinivasan, Kettimuthu, Subramani and Sadayappan,
// "Characterization of Backfilling Strategies for Parallel Job
// Scheduling" (ICPP Workshops 2002, section 4): one hour, eight
// processors.
const (
	DefaultShortSeconds = 3600
	DefaultNarrowProcs  = 8
)

// JobClassMeans returns what Classes draws with opt.ClassBy "size": a
// jobs-file metric (opt.Metrics, default wait; JobMetrics lists the
// others) averaged over the jobs of each class short narrow, short wide,
// long narrow and long wide, for each workload and policy of the
// selected runs, which must be of one load factor. A job is short if its
// run time (the jobs file's runtime, which no policy changes) is at most
// opt.ShortSeconds (0: DefaultShortSeconds), narrow if it uses at most
// opt.NarrowProcs processors (0: DefaultNarrowProcs). Every job that ran
// counts once; jobs without a run time are counted in NoValue.
func JobClassMeans(r *Results, opt Options) (*ClassData, error) {
	m, err := oneMetric(jobMetrics, opt.Metrics, "wait", "the jobs files")
	if err != nil {
		return nil, err
	}
	m.label = "mean " + m.label // the bars are means over jobs
	short, narrow := opt.ShortSeconds, opt.NarrowProcs
	if short == 0 {
		short = DefaultShortSeconds
	}
	if narrow == 0 {
		narrow = DefaultNarrowProcs
	}
	if short < 0 || narrow < 0 {
		return nil, fmt.Errorf("%w: job class thresholds %d s and %d processors: want positive numbers", ErrSelection, short, narrow)
	}
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, err
	}
	policies, loads := axesOf(runs)
	if len(loads) > 1 {
		return nil, fmt.Errorf("%w: the runs are at %d load factors; choose one with --load", ErrSelection, len(loads))
	}
	d := sizeClasses(short, narrow)
	d.Metric, d.Policies, d.m = m.name, policies, m
	for _, x := range runs {
		if !slices.Contains(d.Workloads, x.Workload) {
			d.Workloads = append(d.Workloads, x.Workload)
		}
	}
	for _, w := range d.Workloads {
		for _, p := range policies {
			t := newClassTally(5)
			for _, x := range runs {
				if x.Workload != w || x.Series() != p {
					continue
				}
				j, err := r.jobsOf(x, m.name, "runtime", "procs")
				if err != nil {
					return nil, err
				}
				rsum, rn := t.run()
				d.NoValue += sizeTally(j, m.name, short, narrow, rsum, rn)
				t.fold(rsum, rn)
			}
			t.means(d, w, p)
		}
	}
	if len(d.Means) == 0 {
		return nil, fmt.Errorf("%w: no job of the selected runs (%s) ran with a run time and a value of %s", ErrSelection, opt.Selection, m.name)
	}
	return d, nil
}

// sizeClasses returns the ClassData of JobClassMeans before any run is
// tallied: the four classes by run time (short: at most short seconds)
// and processors (narrow: at most narrow), named and noted.
func sizeClasses(short, narrow int64) *ClassData {
	s, n := duration(int(short/60)), strconv.FormatInt(narrow, 10)
	if short%60 != 0 {
		s = strconv.FormatInt(short, 10) + " s"
	}
	return &ClassData{Of: "jobs",
		Classes: []string{"short narrow (≤ " + s + ", ≤ " + n + " procs)", "short wide (≤ " + s + ", > " + n + " procs)",
			"long narrow (> " + s + ", ≤ " + n + " procs)", "long wide (> " + s + ", > " + n + " procs)"},
		short: []string{"short narrow", "short wide", "long narrow", "long wide"},
		note: fmt.Sprintf("Jobs classed by run time (short: at most %s) and processors (narrow: at most %s), after Srinivasan et al. (2002); the run time is the workload's, the same under every policy.",
			s, n)}
}

// sizeTally adds the value of metric of each job of one run's rows j to
// its class's sum and count, rsum[c] and rn[c] (1 short narrow, 2 short
// wide, 3 long narrow, 4 long wide), and to all jobs' (0). It returns the
// number of jobs left out for a missing run time, value or processors.
func sizeTally(j *jobRows, metric string, short, narrow int64, rsum []float64, rn []int) (noValue int) {
	for i, v := range j.Cols[metric] {
		rt, procs := j.Cols["runtime"][i], j.Cols["procs"][i]
		if math.IsNaN(rt) || math.IsNaN(v) || math.IsNaN(procs) {
			noValue++
			continue
		}
		c := 1
		if procs > float64(narrow) {
			c++
		}
		if rt > float64(short) {
			c += 2
		}
		rsum[c] += v
		rn[c]++
		rsum[0] += v
		rn[0]++
	}
	return noValue
}
