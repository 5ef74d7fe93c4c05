package policies

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/policies/slurmprio"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
)

// Slurm is the scheduling of Slurm 22.05's slurmctld (the version Debian
// 12 ships) with the sched/backfill plugin and the priority/multifactor
// plugin (package slurmprio): a main scheduler that starts jobs in
// priority order, and a backfill scheduler that plans every job it tests
// from scratch and starts those that delay no reservation. The sources
// followed are src/slurmctld/job_scheduler.c (_schedule, sort_job_queue2),
// src/slurmctld/controller.c (_slurmctld_background: when the main
// scheduler runs on the full queue) and
// src/plugins/sched/backfill/backfill.c (_attempt_backfill,
// _add_reservation, _job_exceeds_max_bf_param), all at tag
// slurm-22-05-8-1.
//
// Queue order (sort_job_queue2): priority descending, then submit time,
// then job id; Slurm numbers jobs as they are submitted, so the id is the
// arrival order here. Priorities come from a slurmprio.Calculator, which
// sets a job's first priority at submission and recomputes them every
// priority_calc_period (Update at each pass).
//
// The main scheduler (_schedule) runs at each pass where a job arrived or
// ended, and tests at most default_queue_depth+1 jobs (its depth counter
// is compared after the test, "job_depth++ > def_job_limit", and counts
// the jobs it skips); at a pass at a multiple of sched_interval (0: at
// every pass, not a Slurm value) it tests the whole queue instead
// (controller.c's last_full_sched_time calls schedule(full_queue)). In
// priority order it starts every job that fits now (View.Trial); a job
// that does not fit marks its partition (slurmprio.PartitionOf) failed,
// and the later jobs of a failed partition are skipped. It keeps no
// reservation: a job of another partition may start in front of a
// reserved one.
//
// The backfill scheduler (_attempt_backfill) runs at the passes at
// multiples of bf_interval (0: at every pass). It lays an availability
// profile from scratch: the running jobs, including those the main
// scheduler starts in the same pass, to their start plus time limit (the
// estimate); then, in queue order, each job gets the earliest time at
// which it fits for its whole time limit around the running jobs and the
// reservations made before it in the pass. A job that fits now starts; a
// job whose start is at most bf_window after now (0: no limit) is
// reserved there, so no job tested after it can delay it; a later start
// gets no reservation ("Starts too far in the future to worry about").
// Reservations are laid as _add_reservation lays them at bf_resolution:
// they end at start+limit rounded down to a multiple of bf_resolution,
// and last at least until the start's multiple plus bf_resolution. At
// most bf_max_job_test jobs are tested (0: no limit): the limit counts
// the jobs that reach a test, not those skipped by bf_max_job_user, which
// lets each user have at most that many jobs tested per pass (0: no
// limit).
//
// Passes: the engine brings one at every arrival and end while jobs
// wait; the policy asks for one (Decision.WakeAt), while jobs wait, at
// the next priority recalculation (slurmprio's Next), and at the next
// multiple of bf_interval and of sched_interval only when something
// changed since that scheduler last ran: an arrival, an end, a start by
// the other scheduler, a change of the queue's order, a job the backfill
// started (it counted against the test limits), or a running job that may
// pass its limit (with overruns the plan takes it to end one second from
// now, so it changes with time). A pass at a multiple where nothing
// changed would start nothing, so skipping it changes no start; the
// oracle (oracle_slurm_test.go), which skips no pass, checks this. Each
// backfill plan is laid only up to the last tested job that fits now on
// what the running jobs leave, and not at all when none does: no job
// after it can start in the pass, whatever the plan. On
// METACENTRUM-2009-2 (103,656 jobs) this is 91,851 passes against EASY's
// 85,466. Within a pass the plan only loses room, so a job's search
// starts at the fit of a job planned before it that asked no more for no
// longer (bound); the answer is the same.
//
// Every reservation is promised (sim.Decision.Promise). Because the
// backfill scheduler forgets its plan between passes, a later pass can
// give a job a later start than it was promised: a job that now outranks
// it takes its room, it falls outside bf_window or past bf_max_job_test,
// the rounded end of a reservation before it was earlier than that job's
// true end, or the main scheduler started a job of another partition in
// its room. Slurm then simply plans the job later (job_ptr->start_time is
// overwritten at every backfill cycle); the policy withdraws the promise
// first (Decision.Withdraw), and withdraws the promise of a job that goes
// unreserved or starts later than promised. A job is never delayed by
// one the same backfill pass starts: a started job fits around every
// reservation made before it in the pass, and those made after it fit
// around it (TestSlurmBackfillKeepsReservations checks this pass by
// pass).
//
// Equivalence with conservative backfilling: with the priority reduced to
// age, bf_interval 0, bf_window 0, bf_max_job_test 0 and bf_resolution 1,
// every pass starts what a from-scratch conservative plan in arrival
// order starts. Conservative backfilling (Conservative) keeps its
// reservations and only compresses them, so the two agree exactly when
// no job ends before its estimate, and otherwise can differ: when an
// early end lets a job move earlier, Slurm's plan may give that room to a
// job of higher priority that conservative had reserved later, and a job
// reserved in between moves later (TestSlurmConservative; the golden
// slurm-vs-conservative works an example).
//
// On a cluster of nodes (package sim/nodes) the backfill keeps its plan
// in the cluster's node profile (nodes.ProfileOf), as Slurm keeps
// node_space bitmaps: reservations pin nodes, laid from scratch at each
// backfill pass, and a job the backfill starts starts on the nodes the
// profile chose (sim.Action.Place). The main scheduler asks View.Trial;
// at a pass where the backfill plans, its jobs are first placed on the
// profile at now, which places them as the trial did, and start there
// too; at other passes they go in Decision.Start (slurm_nodes.go).
// With every job running exactly its estimate, slurm under the settings
// above equals conservative backfilling on nodes too
// (TestSlurmConservativeNodes).
//
// Simplifications (each a Slurm feature not modelled):
//   - both schedulers run in no time, the main scheduler first, at the
//     pass's instant; bf_max_time, bf_yield_interval, bf_continue,
//     max_rpc_cnt, batch_sched_delay, sched_min_interval and the
//     controller's one-second loop are not modelled;
//   - passes at multiples of bf_interval and sched_interval come at
//     exact multiples of simulated time (Slurm's threads sleep between
//     cycles that take time); the backfill's promises are those of the
//     jobs it planned (see Passes above);
//   - one partition per job, no partition PriorityTier (every partition
//     in one tier), no partition limits (MaxTime, MaxNodes), no
//     advance reservations, QOS limits, licenses, dependencies, job
//     arrays, heterogeneous jobs, preemption, gang scheduling, held
//     jobs, burst buffers, node features or reboots;
//   - time limits are the SWF estimates in seconds, not whole minutes; a
//     job past its limit (sim.Options.AllowOverrun) is taken to end one
//     second from now;
//   - reservations start at the job's start, not rounded down: Slurm's
//     node_space map starts them at the multiple of bf_resolution, but
//     keeps running jobs outside the map, so rounding down only blocks
//     reserved nodes that are idle before the start; the pool cannot
//     tell those apart. A reservation whose rounded span would not fit
//     is laid over the job's exact span;
//   - on nodes a reservation holds the job's cores, memory and GPUs on
//     its nodes, not the whole nodes as node_space's bitmaps do; on the
//     pool it holds the job's resources;
//   - bf_min_age_reserve, bf_min_prio_reserve, bf_max_job_start,
//     bf_max_job_part, bf_max_job_user_part, bf_max_job_assoc,
//     bf_one_resv_per_job, bf_job_part_count_reserve,
//     bf_running_job_reserve, bf_licenses, bf_hetjob_*, max_sched_time,
//     sched_max_job_start, partition_job_depth, assoc_limit_stop and
//     reduce_completing_frag keep their defaults (off); the main
//     scheduler's sched_min_interval and defer are not modelled;
//   - completing jobs and epilogs take no time.
//
// A Slurm value serves one run.
type Slurm struct {
	p    SlurmParams
	calc *slurmprio.Calculator

	queue []*sim.Job // the waiting jobs in queue order
	// qpart is by index in the queue: the job's partition, so that the
	// main scheduler skips the jobs of failed partitions without reading
	// the jobs.
	qpart []int32
	fresh []*sim.Job // arrivals since the last pass
	part  []int32    // by Job.Seq: the job's partition, numbered (parts)
	parts map[string]int32
	// byNum is by Job.Partition: the partition's number plus one, 0 if
	// not yet known, for the jobs without a named partition (Submitted
	// looked the number's name up in parts for every job).
	byNum []int32
	prom  []sim.Time // by Job.Seq: the open promise, -1 for none
	resv  []bool     // by Job.Seq: reserved in the last backfill pass
	gone  []bool     // by Job.Seq: started

	event     bool // a job arrived or ended since the last pass
	dirtyMain bool // something changed since the last full-queue main pass
	dirtyBF   bool // something changed since the last backfill pass

	// The pass's scratch.
	start    []*sim.Job // every job started, the main scheduler's first
	startAt  []int      // the index in the queue of each job of start
	promise  []sim.Reservation
	withdraw []*sim.Job
	failed   []bool // by partition number: failed in this main pass
	users    map[int32]int
	tested   []bool     // by index in the queue: the backfill tests the job
	cands    []int      // the indices tested whose cores fit in the free ones
	reserved []*sim.Job // the jobs reserved in the last backfill pass
	next     []*sim.Job // those of this pass
	bounds   []fitBound // the fits found in this backfill pass

	prof sim.Profile
	// On a cluster of nodes the backfill's plan is the cluster's node
	// profile; np is nil on the pool.
	np      *nodes.Profile
	known   bool // np has been looked up (the first pass)
	based   bool // np holds this pass's running jobs
	actions []sim.Action

	// check, when set (tests), is told of every backfill pass.
	check func(BackfillPass)
}

// BackfillPass is what a backfill pass did, for a test's check: at Now,
// the running jobs (those the main scheduler started in the pass among
// them, at Now), the jobs the backfill started and the reservations it
// laid, each with the span it holds in the plan.
type BackfillPass struct {
	Now      sim.Time
	Running  []sim.Allocation
	Main     []*sim.Job
	Started  []*sim.Job
	Reserved []Span
}

// Span is a reservation of a backfill pass: Job holds its resources on
// [From, To) in the plan and was promised From.
type Span struct {
	Job      *sim.Job
	From, To sim.Time
}

var (
	_ sim.Policy   = (*Slurm)(nil)
	_ sim.Observer = (*Slurm)(nil)
)

// NewSlurm returns the Slurm scheduler with parameters p. It fails,
// naming the parameter, on a negative depth, interval, window or limit, a
// bf_resolution below 1, or a priority parameter slurmprio refuses.
func NewSlurm(p SlurmParams) (*Slurm, error) {
	checks := []struct {
		name string
		v    int64
		min  int64
	}{
		{"default_queue_depth", int64(p.DefaultQueueDepth), 0},
		{"sched_interval", int64(p.SchedInterval), 0},
		{"bf_interval", int64(p.BfInterval), 0},
		{"bf_resolution", int64(p.BfResolution), 1},
		{"bf_window", int64(p.BfWindow), 0},
		{"bf_max_job_test", int64(p.BfMaxJobTest), 0},
		{"bf_max_job_user", int64(p.BfMaxJobUser), 0},
	}
	for _, c := range checks {
		if c.v < c.min {
			what := "negative"
			if c.min > 0 {
				what = fmt.Sprintf("below %d", c.min)
			}
			return nil, fmt.Errorf("parameter %q: %d is %s", c.name, c.v, what)
		}
	}
	if _, err := slurmprio.New(p.Params, slurmprio.Machine{}); err != nil {
		return nil, err
	}
	return &Slurm{p: p, users: map[int32]int{}, parts: map[string]int32{}}, nil
}

// newSlurm is NewSlurm for the registry.
func newSlurm(p *SlurmParams) (sim.Policy, error) {
	s, err := NewSlurm(*p)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Name returns "slurm".
func (s *Slurm) Name() string { return "slurm" }

// Submitted gives j its first priority and queues it.
func (s *Slurm) Submitted(now sim.Time, j *sim.Job) {
	for len(s.part) <= j.Seq {
		s.part = append(s.part, 0)
		s.prom = append(s.prom, -1)
		s.resv = append(s.resv, false)
		s.gone = append(s.gone, false)
	}
	s.part[j.Seq] = s.partition(j)
	s.fresh = append(s.fresh, j)
	s.event, s.dirtyMain, s.dirtyBF = true, true, true
	if s.calc != nil {
		s.calc.Submitted(now, j)
	}
}

// partition returns the number of j's partition (slurmprio.PartitionOf),
// numbering a new one.
func (s *Slurm) partition(j *sim.Job) int32 {
	n := int(j.Partition)
	byNum := (j.Shape.Where == nil || j.Shape.Where.Partition == "") && n >= 0
	if byNum && n < len(s.byNum) && s.byNum[n] > 0 {
		return s.byNum[n] - 1
	}
	name := slurmprio.PartitionOf(j)
	k, ok := s.parts[name]
	if !ok {
		k = int32(len(s.parts))
		s.parts[name] = k
	}
	if byNum {
		for len(s.byNum) <= n {
			s.byNum = append(s.byNum, 0)
		}
		s.byNum[n] = k + 1
	}
	return k
}

// Finished tells the priority that j ended.
func (s *Slurm) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	s.event, s.dirtyMain, s.dirtyBF = true, true, true
	if s.calc != nil {
		s.calc.Finished(now, j, actual)
	}
}

// SetCheck makes s tell f of every backfill pass (tests).
func (s *Slurm) SetCheck(f func(BackfillPass)) { s.check = f }

// Schedule runs the main scheduler and, at its times, the backfill
// scheduler.
func (s *Slurm) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	if err := s.first(now, v); err != nil {
		return sim.Decision{}, err
	}
	s.start, s.promise, s.withdraw, s.actions = s.start[:0], s.promise[:0], s.withdraw[:0], s.actions[:0]
	s.startAt = s.startAt[:0]
	s.based = false
	s.order(now, v)
	running := v.Running()
	if len(running) > 0 && running[0].EstimatedEnd() <= now {
		// A job runs past its limit (sim.Options.AllowOverrun): the plan
		// takes it to end one second from now, so it changes with time.
		s.dirtyBF = true
	}

	full := s.p.SchedInterval == 0 || now%s.p.SchedInterval == 0
	bf := s.p.BfInterval == 0 || now%s.p.BfInterval == 0
	if s.event || full && s.dirtyMain {
		s.main(now, v, full)
		if full {
			s.dirtyMain = false
		}
	}
	s.event = false
	// A job the main scheduler just started changes the backfill's plan
	// even when nothing else did: it no longer counts against
	// bf_max_job_test and bf_max_job_user, so a job behind it may be
	// tested (Slurm's backfill runs after any change to a job).
	runBF := bf && (s.dirtyBF || len(s.start) > 0)
	if runBF {
		main := len(s.start)
		if err := s.backfill(now, v); err != nil {
			return sim.Decision{}, err
		}
		// The jobs this pass started counted against bf_max_job_test and
		// bf_max_job_user; the next pass tests others in their stead.
		s.dirtyBF = len(s.start) > main
	} else if len(s.start) > 0 {
		s.dirtyBF = true
	}
	for _, j := range s.start {
		if s.np != nil && s.resv[j.Seq] {
			// Started without a plan in this pass: its reservation of
			// the last plan is lifted from the node profile (a no-op for
			// a job placed there in this pass).
			s.np.Lift(j)
		}
		if p := s.prom[j.Seq]; p >= 0 && p < now {
			s.withdraw = append(s.withdraw, j)
		}
		s.prom[j.Seq] = -1
		s.calc.Started(now, j)
	}
	if len(s.start) > 0 {
		s.dropStarted()
	}
	d := sim.Decision{Start: s.start, Promise: s.promise, Withdraw: s.withdraw, WakeAt: s.wake(now, running)}
	if s.np != nil && s.based {
		// The backfill placed every job it started, and the main
		// scheduler's, on the node profile.
		d.Start, d.Actions = nil, s.actions
	}
	return d, nil
}

// first builds the priority calculator at the first pass, when the
// machine is known.
func (s *Slurm) first(now sim.Time, v sim.View) error {
	if s.known {
		return nil
	}
	s.known = true
	s.np = nodes.ProfileOf(v)
	m := slurmprio.Machine{Procs: v.Capacity()[sim.Procs]}
	if cv, ok := v.Model().(nodes.View); ok {
		m.Nodes = cv.Nodes()
	}
	c, err := slurmprio.New(s.p.Params, m)
	if err != nil {
		return err
	}
	s.calc = c
	for _, j := range s.fresh {
		c.Submitted(j.Submit, j)
	}
	return nil
}

// order brings the priorities to now and the queue into order: the
// arrivals are inserted, and when the priorities were recomputed the
// queue is sorted again; a change of order makes both schedulers run at
// their next times.
func (s *Slurm) order(now sim.Time, v sim.View) {
	if s.calc.Update(now, v.Running(), v.Waiting()) && !s.sorted() {
		slices.SortFunc(s.queue, s.before)
		s.qpart = s.qpart[:0]
		for _, j := range s.queue {
			s.qpart = append(s.qpart, s.part[j.Seq])
		}
		s.dirtyMain, s.dirtyBF = true, true
	}
	for _, j := range s.fresh {
		i := s.place(j)
		s.queue = slices.Insert(s.queue, i, j)
		s.qpart = slices.Insert(s.qpart, i, s.part[j.Seq])
	}
	clear(s.fresh)
	s.fresh = s.fresh[:0]
}

// main is the main scheduler: in queue order, at most
// default_queue_depth+1 jobs unless full, each job of a partition not
// failed starts if it fits now (View.Trial), else fails its partition.
func (s *Slurm) main(now sim.Time, v sim.View, full bool) {
	s.failed = slices.Grow(s.failed[:0], len(s.parts))[:len(s.parts)]
	clear(s.failed)
	nfailed := 0
	fit := v.Trial()
	scan := s.qpart
	if !full && len(scan) > s.p.DefaultQueueDepth+1 {
		scan = scan[:s.p.DefaultQueueDepth+1]
	}
	failed := s.failed // a local: the loop mostly skips jobs of failed partitions
	for i, part := range scan {
		if failed[part] {
			continue
		}
		if j := s.queue[i]; fit.Fits(j) {
			fit.Take(j)
			s.gone[j.Seq] = true
			s.start = append(s.start, j)
			s.startAt = append(s.startAt, i)
		} else {
			failed[part] = true
			if nfailed++; nfailed == len(failed) {
				break // every partition failed: no later job can start
			}
		}
	}
}

// dropStarted takes the jobs started in this pass out of the queue, by
// their indices: the runs between them move down with one copy apiece,
// where a sweep of the whole queue would test every job (the queue holds
// over a hundred jobs on average on METACENTRUM-2009-2, and some jobs
// start at most passes).
func (s *Slurm) dropStarted() {
	slices.Sort(s.startAt) // the main scheduler's, then the backfill's
	w := s.startAt[0]
	for k, i := range s.startAt {
		next := len(s.queue)
		if k+1 < len(s.startAt) {
			next = s.startAt[k+1]
		}
		copy(s.qpart[w:], s.qpart[i+1:next])
		w += copy(s.queue[w:], s.queue[i+1:next])
	}
	clear(s.queue[w:])
	s.queue, s.qpart = s.queue[:w], s.qpart[:w]
}

// wake returns the time of the next pass the policy needs while jobs
// wait: the next priority recalculation, the next multiple of
// bf_interval if the backfill has something new to plan, and of
// sched_interval if the full queue has; 0 if no job waits. running are
// the jobs that ran before the pass, ordered by estimated end: a job that
// neither ends nor is killed at its estimated end runs past its limit
// (sim.Options.AllowOverrun), which changes the backfill's plan at every
// pass from then on, so the first multiple of bf_interval (and of
// sched_interval, when the backfill runs at every pass) at or after the
// earliest estimated end is kept too. Without overruns that job's end
// comes first and its pass sets the timer again.
func (s *Slurm) wake(now sim.Time, running []sim.Allocation) sim.Time {
	if len(s.queue) == 0 {
		return 0
	}
	end := sim.Time(math.MaxInt64)
	if len(running) > 0 {
		end = running[0].EstimatedEnd()
	}
	w := s.calc.Next()
	if w <= now {
		w = 0
	}
	next := func(every sim.Time, dirty, plans bool) {
		if every == 0 {
			return
		}
		t := now - now%every + every
		if !dirty {
			if !plans || end == math.MaxInt64 {
				return
			}
			// The first multiple at or after the earliest estimated end.
			t = max(t, (end+every-1)/every*every)
		}
		if w == 0 || t < w {
			w = t
		}
	}
	next(s.p.BfInterval, s.dirtyBF, true)
	next(s.p.SchedInterval, s.dirtyMain, s.p.BfInterval == 0)
	return w
}

// promised records that j is reserved at t in this backfill pass: a new
// promise, an earlier one, or, if t is later than j's open promise, a
// withdrawal and a new promise.
func (s *Slurm) promised(j *sim.Job, t sim.Time) {
	switch p := s.prom[j.Seq]; {
	case p == t:
		return
	case p >= 0 && t > p:
		s.withdraw = append(s.withdraw, j)
	}
	s.prom[j.Seq] = t
	s.promise = append(s.promise, sim.Reservation{Job: j, Start: t})
}

// unpromised withdraws j's open promise, if any: this backfill pass did
// not reserve it.
func (s *Slurm) unpromised(j *sim.Job) {
	if s.prom[j.Seq] >= 0 {
		s.prom[j.Seq] = -1
		s.withdraw = append(s.withdraw, j)
	}
}

// rounded returns the end of the reservation of a job that starts at t
// and runs for d seconds, as _add_reservation lays it: start+d rounded
// down to a multiple of bf_resolution, and at least the start's multiple
// plus bf_resolution.
func (s *Slurm) rounded(t, d sim.Time) sim.Time {
	res := s.p.BfResolution
	return max((t+d)/res*res, t/res*res+res)
}
