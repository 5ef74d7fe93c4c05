package results

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"time"

	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/sim"
)

// RunInfo identifies a run: what the runner decided before simulating it.
type RunInfo struct {
	Key        string // the runner's run key, unique within an experiment
	Experiment string // the experiment's name
	Seed       uint64 // the run's own seed (runs.parquet stores its bits as int64)
	Params     []Param
	// Trim is the warm-up and cool-down the run's metrics leave out;
	// runs.parquet records it as warmup and cooldown. The zero Trim
	// measures every job.
	Trim Trim
}

// Stats summarises one per-job metric over the jobs that ran.
//
// Median and P95 are nearest-rank quantiles: the p-quantile of n sorted
// values x[1..n] is x[k] with k = ceil(p·n), the smallest value that at
// least a share p of the values do not exceed. It is always one of the
// values, never an interpolation, and equals gonum's stat.Quantile with
// stat.Empirical and DuckDB's quantile_disc. For an even n the median is
// therefore the lower of the two middle values, not their mean as pandas'
// median() and DuckDB's median() give.
type Stats struct {
	Mean, Median, P95 float64
}

// RunRow is one row of runs.parquet: a run's parameters and headline
// metrics. It is plain data, which the runner journals (gob-encoded).
type RunRow struct {
	RunInfo
	// Jobs counts every job the source gave; JobsMeasured those the Trim
	// keeps (all of them without one). Finished, Killed and Rejected
	// partition the measured jobs.
	Jobs, Finished, Killed, Rejected int
	JobsMeasured                     int
	// Makespan is the latest end of a job that ran minus the run's first
	// submit (of any job, rejected ones included), in seconds; 0 if none
	// ran.
	Makespan int64
	// Utilization and MemoryUtilization are the shares of processor- and
	// memory-capacity × makespan that jobs' work took (need × Outcome.Work,
	// what they held on the classic engine), in [0, 1]; memory's is 0
	// when the machine has no memory.
	Utilization, MemoryUtilization float64
	// OfferedLoad is the processors' offered load (Summary.OfferedLoad):
	// the work of the jobs that ran over processors × the time from the
	// first submit to the last, whatever the policy; 0 when none ran or
	// every job was submitted at once.
	OfferedLoad float64
	// Restarts, Migrations and Swaps count what the two-tier engine did to
	// jobs running in a background VM (sim.TierCounts), and LostWork the
	// processor-seconds of work restarts threw away; all zero for the
	// policies of the classic engine.
	Restarts, Migrations, Swaps int
	LostWork                    float64
	// RuntimesCut counts the jobs whose run time the workload's estimate
	// model cut to its largest estimate (the Tsafrir model's max_estimate);
	// the runner sets it, NewRunRow leaves it 0.
	RuntimesCut int
	// Per-job metrics over the measured jobs that ran (finished or killed), all zero
	// when none ran (runs.parquet then holds NULL): wait and response in
	// seconds, Slowdown as the function Slowdown, BoundedSlowdown as
	// BoundedSlowdown with DefaultTau.
	Wait, Response, Slowdown, BoundedSlowdown Stats
	// WallSeconds is the simulator's own wall time for the run, in seconds.
	WallSeconds float64
}

// NewRunRow computes the row of a run from its result and the wall time the
// simulation took. It reads each job once (through Summarize's loop) and
// selects the quantiles from four slices of the jobs that ran: O(n) expected
// time, 32 bytes per job of scratch memory.
func NewRunRow(info RunInfo, res *sim.Result, wall time.Duration) RunRow {
	ran := len(res.Jobs) - res.Rejected
	if !info.Trim.IsZero() {
		lo, hi := info.Trim.Kept(len(res.Jobs))
		ran = hi - lo
	}
	smp := samples{
		wait:     make([]float64, 0, ran),
		response: make([]float64, 0, ran),
		slowdown: make([]float64, 0, ran),
		bsld:     make([]float64, 0, ran),
	}
	s := summarize(res, DefaultTau, info.Trim, &smp)
	return RunRow{
		RunInfo:           info,
		Jobs:              s.Jobs,
		Finished:          s.Finished,
		Killed:            s.Killed,
		Rejected:          s.Rejected,
		JobsMeasured:      s.Measured,
		Makespan:          int64(s.Makespan),
		Utilization:       s.Utilization[sim.Procs],
		MemoryUtilization: s.Utilization[sim.Memory],
		OfferedLoad:       s.OfferedLoad[sim.Procs],
		Restarts:          res.Tiers.Restarts,
		Migrations:        res.Tiers.Migrations,
		Swaps:             res.Tiers.Swaps,
		LostWork:          res.Tiers.LostWork,
		Wait:              stats(s.MeanWait, smp.wait),
		Response:          stats(s.MeanResponse, smp.response),
		Slowdown:          stats(s.MeanSlowdown, smp.slowdown),
		BoundedSlowdown:   stats(s.MeanBoundedSlowdown, smp.bsld),
		WallSeconds:       wall.Seconds(),
	}
}

// ran reports whether any job of the row ran, that is whether its Stats
// mean anything.
func (r *RunRow) ran() bool { return r.Finished+r.Killed > 0 }

// stats returns the Stats of x with the given mean. It reorders x.
func stats(mean float64, x []float64) Stats {
	if len(x) == 0 {
		return Stats{}
	}
	m, p := nearestRank(len(x), 50), nearestRank(len(x), 95)
	median := selectRank(x, m)
	// Everything from m on is now at least x[m], so the 95th percentile is
	// in that part.
	return Stats{Mean: mean, Median: median, P95: selectRank(x[m:], p-m)}
}

// selectRank returns the value at index k of x in sorted order and
// reorders x so that x[:k] holds values no greater and x[k+1:] values no
// smaller. It partitions three ways around a median-of-three pivot (runs
// have many equal waits, often 0), so it takes O(n) time on usual inputs,
// and falls back to sorting what is left after 2 log₂ n rounds, so never
// more than O(n log n). x must hold no NaN.
func selectRank(x []float64, k int) float64 {
	return selectRankWithin(x, k, 2*bits.Len(uint(len(x))))
}

// selectRankWithin is selectRank sorting after the given number of rounds.
func selectRankWithin(x []float64, k, rounds int) float64 {
	lo, hi := 0, len(x) // the rank-k value lies in x[lo:hi]
	for ; hi-lo > 1; rounds-- {
		if rounds == 0 {
			slices.Sort(x[lo:hi])
			break
		}
		a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi-1]
		pivot := max(min(a, b), min(max(a, b), c))
		// x[lo:lt] < pivot, x[lt:i] == pivot, x[gt:hi] > pivot.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch v := x[i]; {
			case v < pivot:
				x[lt], x[i] = x[i], x[lt]
				lt++
				i++
			case v > pivot:
				gt--
				x[gt], x[i] = x[i], x[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return pivot
		}
	}
	return x[k]
}

// nearestRank returns the 0-based index of the pct-th percentile of n sorted
// values: ceil(pct·n/100) − 1, at least 0, in exact integer arithmetic.
func nearestRank(n, pct int) int {
	return max((pct*n+99)/100, 1) - 1
}

// UserRow is one row of users.parquet: one user's jobs in one run.
type UserRow struct {
	RunKey string
	User   int32 // the trace's user number; sim.Missing (users.parquet: NULL) when unknown
	// Jobs counts all the user's jobs, Ran those that ran (finished or
	// killed). The means are over the jobs that ran only; all zero when
	// Ran is 0 (users.parquet then holds NULL).
	Jobs, Ran           int
	MeanWait            float64 // seconds
	MeanResponse        float64 // seconds
	MeanBoundedSlowdown float64 // with DefaultTau
	// HasEET says whether the row carries the EET measures below (UserRows
	// was given an *EET); without them users.parquet holds NULL.
	HasEET bool
	// EETViolated and WeightedTardiness are the user's UserEET.Violated
	// and WeightedTardiness: violated EETs and Formula 3's weighted
	// tardiness in processor-seconds. VEETShare derives their share.
	EETViolated       int
	WeightedTardiness int64
	// RecentAccuracy is the mean estimate accuracy of the user's last
	// psp.Window (10) jobs to end: psp.Accuracy(Outcome.Work, estimate),
	// run over requested time capped at 1, jobs ordered by (end, start,
	// arrival). It is the accuracy by which the Penalty Scheduling Policy
	// (Rocchetti et al. 2015) ranks the user when the run ends, whatever
	// policy ran; psp.Class gives the class. A mean on a class boundary
	// reads as the boundary (psp.Mean), so the class is Table 1's. 0 when
	// Ran is 0 (users.parquet: NULL).
	RecentAccuracy float64
}

// VEETShare returns EETViolated / Ran, UserEET.VEETShare: the share of the
// user's jobs that ran whose EET was violated; 0 when Ran is 0
// (users.parquet: NULL).
func (r *UserRow) VEETShare() float64 {
	if r.Ran == 0 {
		return 0
	}
	return float64(r.EETViolated) / float64(r.Ran)
}

// UserRows returns one row per user of res, sorted by user number, the
// unknown user (sim.Missing) first. With e, ComputeEET's result for res,
// the rows carry the users' EET measures; with nil they do not. It is
// O(n + u log u) for n jobs and u users.
func UserRows(key string, res *sim.Result, e *EET) []UserRow {
	return UserRowsTrimmed(key, res, e, Trim{})
}

// UserRowsTrimmed is UserRows measuring only the jobs trim keeps: every
// column of a row, EET measures and RecentAccuracy included, covers the
// user's kept jobs, and a user none of whose jobs is kept has no row. With
// the zero Trim it is UserRows.
func UserRowsTrimmed(key string, res *sim.Result, e *EET, trim Trim) []UserRow {
	lo, hi := trim.Kept(len(res.Jobs))
	type sums struct {
		jobs, ran        int
		violated         int
		wt               int64
		wait, resp, bsld float64
		recent           []recentJob
	}
	by := map[int32]*sums{}
	for i := lo; i < hi; i++ {
		o := &res.Jobs[i]
		u := by[o.User]
		if u == nil {
			u = &sums{}
			by[o.User] = u
		}
		u.jobs++
		if o.State == sim.Rejected {
			continue
		}
		u.ran++
		if e != nil && e.Jobs[i].Tardiness > 0 {
			u.violated++
			u.wt += o.Need[sim.Procs] * int64(e.Jobs[i].Tardiness)
		}
		r := o.End - o.Submit
		u.wait += float64(o.Start - o.Submit)
		u.resp += float64(r)
		u.bsld += BoundedSlowdown(r, o.Work(), DefaultTau)
		u.recent = keepRecent(u.recent, recentJob{o.End, o.Start, o.Seq, psp.Ended{Run: o.Work(), Estimate: o.Estimate}})
	}
	rows := make([]UserRow, 0, len(by))
	for _, id := range slices.Sorted(maps.Keys(by)) {
		u := by[id]
		row := UserRow{RunKey: key, User: id, Jobs: u.jobs, Ran: u.ran}
		if u.ran > 0 {
			n := float64(u.ran)
			row.MeanWait, row.MeanResponse, row.MeanBoundedSlowdown = u.wait/n, u.resp/n, u.bsld/n
			ended := make([]psp.Ended, len(u.recent))
			for i, j := range u.recent {
				ended[i] = j.job
			}
			row.RecentAccuracy = psp.Mean(ended)
		}
		if e != nil {
			ue, ok := e.User(id)
			if !ok || ue.Jobs < u.jobs || len(e.Jobs) != len(res.Jobs) || trim.IsZero() && ue.Jobs != u.jobs {
				panic(fmt.Sprintf("results: UserRows given the EET of another run (user %d)", id))
			}
			row.HasEET, row.EETViolated, row.WeightedTardiness = true, ue.Violated, ue.WeightedTardiness
			if !trim.IsZero() {
				// A subset of the user's terms, so no overflow where
				// ComputeEET found none.
				row.EETViolated, row.WeightedTardiness = u.violated, u.wt
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// recentJob is a job that ran, as RecentAccuracy's window orders it.
type recentJob struct {
	end, start sim.Time
	seq        int
	job        psp.Ended
}

func (a recentJob) before(b recentJob) bool {
	if a.end != b.end {
		return a.end < b.end
	}
	if a.start != b.start {
		return a.start < b.start
	}
	return a.seq < b.seq
}

// keepRecent adds j to w, the latest psp.Window jobs so far in order,
// dropping the earliest when w is full: O(psp.Window).
func keepRecent(w []recentJob, j recentJob) []recentJob {
	if len(w) == psp.Window {
		if !w[0].before(j) {
			return w
		}
		w = append(w[:0], w[1:]...)
	}
	i := len(w)
	w = append(w, j)
	for ; i > 0 && j.before(w[i-1]); i-- {
		w[i] = w[i-1]
	}
	w[i] = j
	return w
}
