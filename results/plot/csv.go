package plot

import (
	"math"
	"slices"
	"strconv"
)

// PointsCSV returns as CSV records what Means and LoadLines draw for opt:
// a header, then a row per workload, metric, policy and load factor with
// the mean over the replicates, the lowest and highest, the confidence
// interval and the number of replicates with a value. Values are as
// stored (seconds, fractions), in their shortest exact form; an empty
// field is NULL. Unlike Points it takes runs of several workloads, as the
// figures do.
func PointsCSV(r *Results, opt Options) ([][]string, error) {
	runs, err := r.Select(opt.Selection)
	if err != nil {
		return nil, err
	}
	var wls []string
	for _, x := range runs {
		if !slices.Contains(wls, x.Workload) {
			wls = append(wls, x.Workload)
		}
	}
	out := [][]string{{"workload", "metric", "policy", "load_factor", "mean", "min", "max", "ci_low", "ci_high", "replicates"}}
	for _, w := range wls {
		o := opt
		o.Workload = w
		pts, err := Points(r, o)
		if err != nil {
			return nil, err
		}
		for _, pt := range pts {
			out = append(out, []string{w, pt.Metric, pt.Policy, formatFloat(pt.LoadFactor),
				csvFloat(pt.Mean), csvFloat(pt.Min), csvFloat(pt.Max), csvFloat(pt.Lo), csvFloat(pt.Hi), strconv.Itoa(pt.N)})
		}
	}
	return out, nil
}

// CSV returns d as CSV records: a header, then a row per workload, policy
// and class (a1 … a5 or the job classes' short names, and "all" for every
// class) with the mean, unscaled, the users (or jobs) it is over, the
// runs and the lowest and highest run's mean.
func (d *ClassData) CSV() [][]string {
	out := [][]string{{"workload", "policy", "class", "metric", "mean", d.Of, "runs", "min", "max"}}
	row := func(c ClassMean, class string) {
		lo, hi := c.Min, c.Max
		if math.IsInf(lo, 0) {
			lo, hi = math.NaN(), math.NaN()
		}
		out = append(out, []string{c.Workload, c.Policy, class, d.Metric, csvFloat(c.Mean),
			strconv.Itoa(c.Users), strconv.Itoa(c.Runs), csvFloat(lo), csvFloat(hi)})
	}
	for _, w := range d.Workloads {
		for _, p := range d.Policies {
			for _, c := range d.Means {
				if c.Workload == w && c.Policy == p {
					row(c, d.short[c.Class-1])
				}
			}
			for _, c := range d.All {
				if c.Workload == w && c.Policy == p {
					row(c, "all")
				}
			}
		}
	}
	return out
}

// CSV returns d as CSV records in long form: a header, then a row per run
// and step with the step's start in minutes from the first submission and
// its mean processor utilization in [0, 1], then a row per run with its
// makespan and one for each bound, in seconds, under series "makespan".
func (d *UtilizationData) CSV() [][]string {
	out := [][]string{{"run_key", "policy", "series", "minute", "value"}}
	for i, x := range d.Runs {
		for b, v := range d.Procs[i] {
			out = append(out, []string{x.Key, x.Series(), "procs", strconv.Itoa(b * d.BinMinutes), csvFloat(v)})
		}
	}
	for i, x := range d.Runs {
		out = append(out, []string{x.Key, x.Series(), "makespan_seconds", "", csvFloat(d.Makespan[i])})
	}
	out = append(out,
		[]string{"", "", "bound_every_processor_busy_seconds", "", csvFloat(d.Packed)},
		[]string{"", "", "bound_one_job_at_a_time_seconds", "", csvFloat(d.Sequential)})
	return out
}
