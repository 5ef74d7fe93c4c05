package report

import (
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/results/plot"
)

// ganttData is one run's packed schedule as columns, a job per index in
// the jobs file's order; times in seconds from the first submit. Band
// k of job i is rows [Lo[k], Hi[k]) for k in [Band[i], Band[i+1]).
type ganttData struct {
	Key                string
	Series, Workload   string
	Load               string
	Replicate          int64
	Procs, Rows        int64
	Origin, Makespan   int64
	ID, User           []int64 // User -1: unknown
	Submit, Start, End []int64 // Start and End 0 for a job that did not run
	Width              []int64 // processors
	Status             []int   // index into StatusNames
	StatusNames        []string
	Band               []int
	Lo, Hi             []int64
}

// statusNames are the statuses of the jobs files, in the order of the
// page's legend.
var statusNames = []string{"finished", "killed", "rejected"}

// columnar turns g into columns.
func columnar(g *plot.GanttData) *ganttData {
	n := len(g.Jobs)
	x := g.Run
	c := &ganttData{Key: x.Key, Series: x.Series(), Workload: x.Workload, Load: loadText(x), Replicate: x.Replicate,
		Procs: g.Procs, Rows: g.Rows, Origin: g.Origin, Makespan: g.Makespan,
		ID: make([]int64, n), User: make([]int64, n), Submit: make([]int64, n), Start: make([]int64, n),
		End: make([]int64, n), Width: make([]int64, n), Status: make([]int, n), StatusNames: slices.Clone(statusNames),
		Band: make([]int, n+1)}
	for i, j := range g.Jobs {
		c.ID[i], c.User[i], c.Submit[i], c.Width[i] = j.ID, j.User, j.Submit-g.Origin, j.Procs
		if j.Ran {
			c.Start[i], c.End[i] = j.Start-g.Origin, j.End-g.Origin
		}
		c.Status[i] = slices.Index(statusNames, j.Status)
		if c.Status[i] < 0 {
			c.StatusNames = append(c.StatusNames, j.Status)
			c.Status[i] = len(c.StatusNames) - 1
		}
		for _, b := range j.Bands {
			c.Lo, c.Hi = append(c.Lo, b.Lo), append(c.Hi, b.Hi)
		}
		c.Band[i+1] = len(c.Lo)
	}
	return c
}

// userData compares the users of one workload, load and replicate under
// each policy: Values[m][p][u] is metric Metrics[m] of user Users[u]
// under Series[p], nil for a user with no row or a NULL.
type userData struct {
	Workload, Load string
	Replicate      int64
	Users          []int64 // -1: the unknown user
	Jobs           []int64 // each user's jobs in the first run
	Series         []string
	Metrics        []string
	Values         [][][]any
}

// userMetrics are the users.parquet columns the page compares, those the
// folder has.
var userMetrics = []string{"mean_wait", "mean_response", "mean_bounded_slowdown", "veet_share", "weighted_tardiness"}

// users returns the users table of chosen's workload, load and replicate,
// nil if the folder has no users rows for them; an error is reading the
// users tables.
func users(r *plot.Results, chosen *plot.Run) (*userData, error) {
	var runs []*plot.Run
	for _, x := range r.Runs {
		if x.Workload == chosen.Workload && x.LoadFactor == chosen.LoadFactor && x.Replicate == chosen.Replicate {
			runs = append(runs, x)
		}
	}
	d := &userData{Workload: chosen.Workload, Load: loadText(chosen), Replicate: chosen.Replicate}
	index := map[int64]int{}
	type rows struct {
		users []float64
		vals  map[string][]float64
	}
	var all []rows
	for _, x := range runs {
		u, v, err := r.UserRows(x, append([]string{"jobs"}, userMetrics...))
		if err != nil {
			return nil, err
		}
		all = append(all, rows{u, v})
		d.Series = append(d.Series, x.Series())
		for k, id := range u {
			user := userID(id)
			if _, ok := index[user]; !ok {
				index[user] = len(d.Users)
				d.Users = append(d.Users, user)
				var jobs int64
				if c, ok := v["jobs"]; ok {
					jobs = int64(nanZero(c[k]))
				}
				d.Jobs = append(d.Jobs, jobs)
			}
		}
	}
	if len(d.Users) == 0 {
		return nil, nil
	}
	for _, m := range userMetrics {
		if _, ok := all[0].vals[m]; !ok {
			continue
		}
		d.Metrics = append(d.Metrics, m)
		per := make([][]any, len(runs))
		for p, rw := range all {
			per[p] = make([]any, len(d.Users))
			for k, id := range rw.users {
				if v := rw.vals[m][k]; !math.IsNaN(v) {
					per[p][index[userID(id)]] = v
				}
			}
		}
		d.Values = append(d.Values, per)
	}
	return d, nil
}

func userID(f float64) int64 {
	if math.IsNaN(f) {
		return -1
	}
	return int64(f)
}

func nanZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
