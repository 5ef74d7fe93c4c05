package plot_test

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"
)

// fixtureJob is a row of a jobs file for writeJobs; a job with a NaN
// start was rejected.
type fixtureJob struct {
	submit, start, end, runtime, estimate, procs float64
}

// writeJobs writes the jobs file of the fixture's run (policy, load,
// rep) under dir, with the columns the figures of jobs read.
func writeJobs(t *testing.T, dir, policy string, load float64, rep int, jobs []fixtureJob) {
	t.Helper()
	key := fixtureKey(policy, load, rep)
	var keys, status []string
	var submit, start, end, runtime, estimate, procs, wait, bsld []float64
	for _, j := range jobs {
		keys = append(keys, key)
		submit, start, end = append(submit, j.submit), append(start, j.start), append(end, j.end)
		runtime, estimate, procs = append(runtime, j.runtime), append(estimate, j.estimate), append(procs, j.procs)
		if math.IsNaN(j.start) {
			status, wait, bsld = append(status, "rejected"), append(wait, math.NaN()), append(bsld, math.NaN())
			continue
		}
		status = append(status, "finished")
		wait = append(wait, j.start-j.submit)
		bsld = append(bsld, max(1, (j.end-j.submit)/max(j.end-j.start, 10)))
	}
	part := fmt.Sprintf("jobs/workload=mix/policy=%s/load_factor=%g/replicate=%d/part-%s.parquet", policy, load, rep, key)
	writeParquet(t, filepath.Join(dir, part),
		col{name: "run_key", values: keys}, col{name: "submit", values: submit},
		col{name: "start", values: start}, col{name: "end", values: end},
		col{name: "runtime", values: runtime}, col{name: "requested_time", values: estimate},
		col{name: "procs", values: procs}, col{name: "wait", values: wait},
		col{name: "bounded_slowdown", values: bsld}, col{name: "status", values: status})
}
