package plot

import (
	"fmt"
	"math"

	"github.com/schedsweep/schedsweep/results"
)

// jobRows are the rows of one run's jobs file (jobs/…/part-KEY.parquet)
// that a figure of jobs reads: every job's submit time, and for the jobs
// that ran (finished or killed; rejected jobs never wait) the columns
// asked for. Times are seconds from the trace's start.
type jobRows struct {
	path string
	// Origin is the first submit of any job, rejected ones included: the
	// origin of the run's makespan and of its heatmap and utilization.
	Origin float64
	// Cols holds each column asked for, over the jobs that ran, in the
	// file's order.
	Cols map[string][]float64
}

// jobsOf reads run's jobs file, keeping the columns cols of the jobs that
// ran. A folder without jobs files, or without run's, is an error wrapping
// ErrMissingFile; a file without one of cols, ErrMissingColumn.
func (r *Results) jobsOf(run *Run, cols ...string) (*jobRows, error) {
	path, ok := r.jobs[run.Key]
	switch {
	case !ok && len(r.jobs) == 0:
		return nil, fmt.Errorf("%w: %s has no %s files: the sweep ran with output { jobs = false }, or wrote no run yet",
			ErrMissingFile, r.Dir, results.JobsDir)
	case !ok:
		return nil, fmt.Errorf("%w: no %s file for run %s: %s/%s/…/%s is missing",
			ErrMissingFile, results.JobsDir, run.Key, r.Dir, results.JobsDir, results.PartFile(run.Key))
	}
	t, err := readTable(path)
	if err != nil {
		return nil, err
	}
	status, err := t.str("status")
	if err != nil {
		return nil, err
	}
	submit, err := t.num("submit")
	if err != nil {
		return nil, err
	}
	j := &jobRows{path: path, Origin: math.Inf(1), Cols: map[string][]float64{}}
	for _, v := range submit {
		j.Origin = min(j.Origin, v)
	}
	for _, c := range cols {
		vals, err := t.num(c)
		if err != nil {
			return nil, err
		}
		var kept []float64
		for i, v := range vals {
			if status[i] == "finished" || status[i] == "killed" {
				kept = append(kept, v)
			}
		}
		j.Cols[c] = kept
	}
	return j, nil
}

// jobMetric is a column of the jobs files that the figures of jobs draw.
var jobMetrics = []metric{
	{name: "wait", label: "wait", unit: unitSeconds},
	{name: "response", label: "response time", unit: unitSeconds},
	{name: "slowdown", label: "slowdown", unit: unitRatio},
	{name: "bounded_slowdown", label: boundedSlowdown, unit: unitRatio},
}

// JobMetrics returns the names of the jobs-file columns ECDF and
// JobClassMeans draw.
func JobMetrics() []string { return names(jobMetrics) }
