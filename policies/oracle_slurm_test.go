package policies_test

// A differential oracle for the slurm policy on the pool: a plain, slow
// re-implementation of what slurm.go's comment documents, on the oracle
// harness of oracle_test.go (admission, completions, kills), without
// calling into slurm.go. It keeps no plan between passes and skips no
// pass: it passes at every event time and, while a job waits, at every
// multiple of bf_interval and sched_interval and at every priority
// recalculation (slurmprio's Next), which the policy skips when nothing
// changed; every backfill pass plans the whole queue from a list of holds,
// where the policy plans only up to the last job that fits now. Matching
// job for job checks that neither shortcut changes a start. The priority
// is slurmprio's, which the oracle calls as the policy does.
//
// A pass at now:
//   - priorities are brought to now (Update, with the running jobs and the
//     waiting ones), and the waiting jobs ranked: priority descending,
//     then submit time, then arrival;
//   - if a job arrived or ended at now, or now is a multiple of
//     sched_interval (or sched_interval is 0), the main scheduler walks
//     the ranking (at most default_queue_depth+1 jobs unless now is such
//     a multiple): a job of a failed partition is skipped, a job that fits
//     the free resources starts, one that does not fails its partition;
//   - if now is a multiple of bf_interval (or it is 0), the backfill
//     plans: holds for the running jobs (those just started included)
//     from now to their estimated end (now+1 if that has passed), then for
//     the ranked jobs not started, at most bf_max_job_user per user and
//     bf_max_job_test in all (0: no limit), the earliest time from now at
//     which the job's need fits beside the holds for max(estimate, 1)
//     seconds; now: it starts (a hold from now); within bf_window of now
//     (0: any): a hold from that time to the rounded end
//     max(floor(t+span), floor(t)+res) (floors to multiples of
//     bf_resolution) if that fits, else to t+span.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/policies/slurmprio"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// slurmOracleEntry is the registry entry the oracle re-implements.
const slurmOracleEntry = "slurm"

// slurmOracleSettings are the parameter sets the oracle is compared
// under: the defaults, exact planning at every pass, and every limit
// biting with priorities by age.
var slurmOracleSettings = [][]string{
	nil,
	{"bf_interval=0", "bf_resolution=1", "bf_window=0", "bf_max_job_test=0"},
	{"priority_calc_period=50", "priority_max_age=500", "bf_window=300", "bf_max_job_test=3", "bf_max_job_user=1",
		"default_queue_depth=2", "bf_interval=20", "sched_interval=45", "bf_resolution=30"},
	{"priority_weight_age=0", "bf_interval=7", "sched_interval=0", "bf_resolution=4", "default_queue_depth=0"},
}

// slurmParams returns the parameters settings make of the defaults.
func slurmParams(t testing.TB, settings []string) *policies.SlurmParams {
	t.Helper()
	p := policies.DefaultSlurmParams()
	if err := params.SetAll(p, settings); err != nil {
		t.Fatal(err)
	}
	return p
}

// hold is a span of the oracle's plan.
type hold struct {
	from, to sim.Time
	need     sim.Resources
}

// slurmOracle simulates the slurm policy with parameters p on a pool of
// capacity c and returns the schedule as scheduleLines renders it.
func slurmOracle(p *policies.SlurmParams, c sim.Resources, recs []sim.Record, opt sim.Options) ([]string, error) {
	calc, err := slurmprio.New(p.Params, slurmprio.Machine{Procs: c[sim.Procs]})
	if err != nil {
		return nil, err
	}
	jobs := make([]*oracleJob, len(recs))
	for i, rec := range recs {
		jobs[i] = &oracleJob{Record: rec, start: -1, end: -1, resv: -1}
		jobs[i].Seq = i
	}
	var live []*oracleJob
	next, filled := 0, 0
	tick := sim.Time(math.MaxInt64) // the next tick while jobs wait
	for {
		now := nextEvent(tick, live, jobs, next)
		if now == math.MaxInt64 {
			break
		}
		event := false
		for _, j := range live {
			if j.phase == oRunning && j.end == now {
				j.phase, event = oDone, true
				calc.Finished(now, &j.Job, j.end-j.start)
			}
		}
		arrived, n := admitArrivals(jobs, &next, now, c, opt)
		for _, j := range arrived {
			calc.Submitted(now, &j.Job)
		}
		event = event || len(arrived) > 0
		live, filled = append(live, arrived...), filled+n
		var waiting, running []*oracleJob
		live, waiting, running = splitLive(live)
		tick = math.MaxInt64
		if len(waiting) == 0 {
			continue
		}
		start, err := slurmOraclePass(p, calc, c, now, event, waiting, running)
		if err != nil {
			return nil, err
		}
		if err := startAll("slurm", c, running, start, now, opt); err != nil {
			return nil, err
		}
		for _, j := range start {
			calc.Started(now, &j.Job)
		}
		if len(start) < len(waiting) {
			tick = slurmOracleTick(p, calc, now)
		}
	}
	lines, err := scheduleOf(jobs, 0, filled)
	if err != nil {
		return nil, err
	}
	return lines[:len(lines)-1], nil
}

// nextEvent is the oracle's next time: the earliest of tick, a running
// job's end and the next arrival, jobs[next]; math.MaxInt64 for none.
func nextEvent(tick sim.Time, live, jobs []*oracleJob, next int) sim.Time {
	now := tick
	for _, j := range live {
		if j.phase == oRunning && j.end < now {
			now = j.end
		}
	}
	if next < len(jobs) && jobs[next].Submit < now {
		now = jobs[next].Submit
	}
	return now
}

// slurmOracleTick is when the oracle passes again while jobs wait: the
// next priority calculation, backfill interval or sched_interval.
func slurmOracleTick(p *policies.SlurmParams, calc *slurmprio.Calculator, now sim.Time) sim.Time {
	tick := calc.Next()
	for _, every := range []sim.Time{p.BfInterval, p.SchedInterval} {
		if every > 0 {
			tick = min(tick, now-now%every+every)
		}
	}
	return tick
}

// slurmOraclePass is one pass at now: the jobs it starts, the main
// scheduler's first.
func slurmOraclePass(p *policies.SlurmParams, calc *slurmprio.Calculator, c sim.Resources, now sim.Time, event bool, waiting, running []*oracleJob) ([]*oracleJob, error) {
	var allocs []sim.Allocation
	for _, j := range running {
		allocs = append(allocs, sim.Allocation{Job: &j.Job, Start: j.start})
	}
	var wjobs []*sim.Job
	for _, j := range waiting {
		wjobs = append(wjobs, &j.Job)
	}
	calc.Update(now, allocs, wjobs)
	ranked := slices.Clone(waiting)
	slices.SortStableFunc(ranked, func(a, b *oracleJob) int {
		return cmp.Or(cmp.Compare(calc.Priority(&b.Job), calc.Priority(&a.Job)), cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.Seq, b.Seq))
	})
	started := map[*oracleJob]bool{}
	var start []*oracleJob
	full := p.SchedInterval == 0 || now%p.SchedInterval == 0
	if event || full {
		free := freeOf(c, running)
		failed := map[string]bool{}
		for i, j := range ranked {
			if !full && i > p.DefaultQueueDepth {
				break
			}
			part := slurmprio.PartitionOf(&j.Job)
			switch {
			case failed[part]:
			case fitsAll(j.Need, free):
				free = free.Sub(j.Need)
				start = append(start, j)
				started[j] = true
			default:
				failed[part] = true
			}
		}
	}
	if p.BfInterval > 0 && now%p.BfInterval != 0 {
		return start, nil
	}
	var holds []hold
	for _, j := range running {
		holds = append(holds, hold{now, max(j.start+j.Estimate, now+1), j.Need})
	}
	for _, j := range start {
		holds = append(holds, hold{now, now + oracleSpan(j.Estimate), j.Need})
	}
	users := map[int32]int{}
	tested := 0
	for _, j := range ranked {
		if started[j] {
			continue
		}
		if p.BfMaxJobTest > 0 && tested >= p.BfMaxJobTest {
			break
		}
		if p.BfMaxJobUser > 0 {
			if users[j.User] >= p.BfMaxJobUser {
				continue
			}
			users[j.User]++
		}
		tested++
		span := oracleSpan(j.Estimate)
		t := earliest(c, holds, now, span, j.Need)
		switch {
		case t < 0:
			return nil, fmt.Errorf("oracle: job %d fits nowhere", j.ID)
		case t == now:
			holds = append(holds, hold{now, now + span, j.Need})
			start = append(start, j)
			started[j] = true
			continue
		case p.BfWindow > 0 && t > now+p.BfWindow:
			continue
		}
		res := p.BfResolution
		to := max((t+span)/res*res, t/res*res+res)
		if !fitsOver(c, holds, t, to, j.Need) {
			to = t + span
		}
		holds = append(holds, hold{t, to, j.Need})
	}
	return start, nil
}

// earliest returns the first time from now at which need fits beside the
// holds for span seconds: now or the end of a hold; -1 if none.
func earliest(c sim.Resources, holds []hold, now, span sim.Time, need sim.Resources) sim.Time {
	cands := []sim.Time{now}
	for _, h := range holds {
		if h.to > now {
			cands = append(cands, h.to)
		}
	}
	slices.Sort(cands)
	for _, t := range cands {
		if fitsOver(c, holds, t, t+span, need) {
			return t
		}
	}
	return -1
}

// fitsOver reports whether need fits beside the holds at every instant of
// [from, to): at from and at every hold start inside.
func fitsOver(c sim.Resources, holds []hold, from, to sim.Time, need sim.Resources) bool {
	at := []sim.Time{from}
	for _, h := range holds {
		if h.from > from && h.from < to {
			at = append(at, h.from)
		}
	}
	for _, t := range at {
		used := need
		for _, h := range holds {
			if h.from <= t && t < h.to {
				used = used.Add(h.need)
			}
		}
		if !fitsAll(used, c) {
			return false
		}
	}
	return true
}

// slurmEngineLines runs the registered slurm policy with settings on the
// engine, checked by Verify.
func slurmEngineLines(t *testing.T, settings []string, c sim.Resources, recs []sim.Record, opt sim.Options) []string {
	t.Helper()
	pol, err := policies.New(slurmOracleEntry, settings...)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := simtest.Run(t, c, pol, recs, opt, registryChecks(t, slurmOracleEntry, settings))
	return scheduleLines(res)
}

// compareSlurm fails t if the oracle and the engine disagree on recs
// under any parameter set and option, with the workload minimised; it
// returns the number of jobs compared.
func compareSlurm(t *testing.T, name string, c sim.Resources, recs []sim.Record) int {
	t.Helper()
	n := 0
	for _, settings := range slurmOracleSettings {
		p := slurmParams(t, settings)
		for _, opt := range []sim.Options{{}, {AllowOverrun: true}, {MissingEstimate: sim.RejectMissingEstimate}} {
			want, err := slurmOracle(p, c, recs, opt)
			if err != nil {
				t.Errorf("%s, %v, %s: %v", name, settings, optName(opt), err)
				continue
			}
			got := slurmEngineLines(t, settings, c, recs, opt)
			if d := gocmp.Diff(want, got); d != "" {
				differs := func(try []sim.Record) bool {
					w, err := slurmOracle(p, c, try, opt)
					pol, _ := policies.New(slurmOracleEntry, settings...)
					res, err2 := sim.Run(sim.NewPool(c), pol, sim.NewSliceSource(try), opt)
					return err != nil || err2 != nil || !slices.Equal(w, scheduleLines(res))
				}
				t.Errorf("%s, %v, %s: engine differs from oracle (-oracle +engine):\n%s\nminimised: %s",
					name, settings, optName(opt), d, minimise(c, recs, differs))
				continue
			}
			n += len(recs)
		}
	}
	return n
}

// TestSlurmOracle compares the oracle with the engine on random
// workloads (processors, memory, GPUs; users and partitions drawn from a
// few), on tie-heavy ones, and on every golden case.
func TestSlurmOracle(t *testing.T) {
	seeds, size := 40, 60
	if longOracle() {
		seeds, size = 120, 200
	}
	jobs := 0
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 16))
		c, gap, recs := drawOracleCase(rng, seed, size)
		withUsersAndPartitions(rng, recs)
		jobs += compareSlurm(t, fmt.Sprintf("seed %d (gap %d)", seed, gap), c, recs)
		small := c
		small[sim.Procs] = 1 + rng.Int64N(8)
		if small[sim.Memory] > 0 {
			small[sim.Memory] = 4
		}
		ties := tieWorkload(rng, 1+rng.IntN(size), small)
		withUsersAndPartitions(rng, ties)
		jobs += compareSlurm(t, fmt.Sprintf("seed %d (ties)", seed), small, ties)
	}
	for _, gc := range goldenCases(t) {
		jobs += compareSlurm(t, gc.name, gc.capacity, gc.jobs)
	}
	t.Logf("%d job schedules agreed", jobs)
}

// withUsersAndPartitions gives the jobs one of three users and one of
// two partitions (SWF field 16), or none.
func withUsersAndPartitions(rng *rand.Rand, recs []sim.Record) {
	for i := range recs {
		recs[i].User = rng.Int32N(3)
		recs[i].Partition = rng.Int32N(3) - 1
	}
}

// TestSlurmOracleGolden checks the oracle against the hand-worked goldens
// of testdata/slurm, with each case's parameters.
func TestSlurmOracleGolden(t *testing.T) {
	n := checkOracleGoldens(t, "slurm", func(tc testCase) ([]string, error) {
		lines, err := slurmOracle(slurmParams(t, tc.params), tc.capacity, tc.jobs, sim.Options{})
		return append(lines, "summary"), err // checkOracleGoldens drops a summary line
	})
	if n == 0 {
		t.Fatal(errors.New("no golden checked"))
	}
}

// TestSlurmOracleTraces compares the oracle with the engine on a prefix
// of KTH-SP2 under the defaults and the exact settings.
func TestSlurmOracleTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	n := 300
	if longOracle() {
		n = 3000
	}
	recs := readTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", workloads.SWFOptions{})
	recs = recs[:min(n, len(recs))]
	for _, settings := range slurmOracleSettings[:2] {
		p := slurmParams(t, settings)
		want, err := slurmOracle(p, sim.Resources{100}, recs, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := gocmp.Diff(want, slurmEngineLines(t, settings, sim.Resources{100}, recs, sim.Options{})); d != "" {
			t.Errorf("KTH-SP2 (%d jobs), %v: engine differs from oracle (-oracle +engine):\n%s", len(recs), settings, d)
		}
	}
}
