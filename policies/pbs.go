package policies

import "github.com/schedsweep/schedsweep/sim"

// DefaultMaxStarve is how long a job waits before PBS's FIFO scheduler
// counts it as starving: 24 hours, the default Bode et al. (2000, section
// 4.2) give and the max_starve of the sched_config PBS and TORQUE ship.
const DefaultMaxStarve sim.Time = 86400

// PBSFIFO is the default "FIFO" scheduler of the Portable Batch System as
// B. Bode, D. M. Halstead, R. Kendall, Z. Lei and D. Jackson describe it in
// "The Portable Batch Scheduler and the Maui Scheduler on Linux Clusters"
// (4th Annual Linux Showcase and Conference, 2000, section 4.2): despite
// its name it is not strict FIFO. It walks the queue and starts every job
// that fits the free resources, so small jobs pass a large one that does
// not fit. To keep large jobs from waiting forever it has a "starving
// jobs" guard: once the first job of the queue has been eligible to run
// for longer than a threshold (max_starve, default 24 hours), nothing else
// starts until that job has started.
//
// Eligible. The paper glosses "eligible to run" as "first in the queue";
// the code of the PBS 2.x scheduler (update_starvation in the fifo
// sample) counts a job as starving once its queue time, the time since it
// was queued, exceeds max_starve, and favours the job that has starved
// longest. Both readings name the same job here: the queue is in arrival
// order, so its first job is the one that has waited longest, and it is
// starving as soon as any job is. The clock is therefore the wait since
// submission, not the time spent as the head. It is the reading that fits
// the paper's own results (section 6.1): with every job submitted within
// three hours, once the first starving job has started every job left
// has waited more than the threshold, and "FIFO became truly a first in
// first out scheduler". Counting from the moment a job becomes the head
// would instead restart the clock at every start and let small jobs pass
// again for another threshold.
//
// A pass starts the jobs of the queue in order while they fit; the first
// job that does not fit is the head. If the head is starving (now −
// Submit ≥ max_starve) the pass stops there; otherwise it goes on
// starting every later job that fits. Nothing is ever reserved, so the
// guard's only effect is to stop passing: the head then starts when the
// running jobs have freed enough, at its shadow time at the latest — the
// earliest time at which, by the running jobs' estimates, every resource
// kind it needs is free. PBSFIFO reports that as a promise when the guard
// first covers a head; it holds because nothing else starts until the
// head does (simtest.Verify checks it, at most one promise open). A
// non-starving blocked head sets a timer at the moment it will starve, so
// that the guard, and its promise, take effect then even if no job
// arrives or ends; the schedule itself would be the same without it,
// since jobs start only at passes and each pass checks the guard afresh.
//
// Choices and deviations:
//   - the queue is in arrival order, the paper's "queued job list"; PBS's
//     sched_config can sort it (sort_by; the file TORQUE ships sorts by
//     shortest job first) and split it by queue (by_queue, round_robin),
//     which the paper does not mention;
//   - a job starves when it has waited max_starve or more; PBS's test is
//     strict (qtime + max_starve < now), one second later. With
//     max_starve = 0 every blocked head starves at once and PBSFIFO is
//     FCFS; with help_starving_jobs = false it is first fit, which lets a
//     large job wait forever;
//   - PBS schedules in cycles, on events and every scheduler_iteration
//     (600 s by default); a pass here happens at every event and at the
//     moment the head starves;
//   - "the scheduler will not even start jobs on nodes which do not meet
//     the resource requirements for the starving job" (section 4.2): on
//     the pool there are no nodes, so nothing starts at all; on a machine
//     of nodes (sim/nodes) nothing starts either, and the promise is the
//     earliest estimated end at which the head can be placed on the nodes
//     the running jobs leave (sim.Lookahead.Shadow), which holds for the
//     same reason;
//   - every resource kind is checked, not only processors; prime time,
//     dedicated time, fairshare and load balancing are left out;
//   - with overruns (sim.Options.AllowOverrun) a job past its estimate is
//     taken to end one second from now when the promise is computed.
type PBSFIFO struct {
	maxStarve sim.Time
	guard     bool

	prof     sim.Profile
	promised *sim.Job // the last head promised a start

	start   []*sim.Job
	promise []sim.Reservation
}

var _ sim.Policy = (*PBSFIFO)(nil)

// NewPBSFIFO returns PBS's FIFO scheduler with the starving-job guard at
// maxStarve (≥ 0) if guard is true, plain first fit otherwise.
func NewPBSFIFO(guard bool, maxStarve sim.Time) *PBSFIFO {
	return &PBSFIFO{maxStarve: maxStarve, guard: guard}
}

// Name returns "pbs-fifo".
func (p *PBSFIFO) Name() string { return "pbs-fifo" }

// starving reports whether j has waited long enough to stop the queue.
func (p *PBSFIFO) starving(now sim.Time, j *sim.Job) bool {
	return p.guard && now-j.Submit >= p.maxStarve
}

// Schedule runs one pass: first fit in arrival order, up to a starving
// head. On a machine of nodes (the model has a view of its own and its
// trial is a sim.Lookahead) scheduleNodes runs it instead.
func (p *PBSFIFO) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	if v.Model() != nil {
		if lk, ok := v.Trial().(sim.Lookahead); ok {
			return p.scheduleNodes(now, v, lk)
		}
	}
	free := v.Free()
	p.start, p.promise = p.start[:0], p.promise[:0]
	var head *sim.Job
	for _, j := range v.Waiting() {
		if j.Need.FitsIn(free) {
			free = free.Sub(j.Need)
			p.start = append(p.start, j)
			continue
		}
		if head == nil {
			head = j
			if p.starving(now, head) {
				break
			}
		}
		if free[sim.Procs] == 0 {
			break // every admitted job needs a processor
		}
	}
	var wake sim.Time
	switch {
	case head == nil || !p.guard:
	case !p.starving(now, head):
		wake = head.Submit + p.maxStarve
	case head != p.promised:
		p.promised = head
		p.promise = append(p.promise, sim.Reservation{Job: head, Start: p.shadow(now, v, head)})
	}
	return sim.Decision{Start: p.start, Promise: p.promise, WakeAt: wake}, nil
}

// scheduleNodes is Schedule on nodes: a job fits when lk can place it
// now, and the promise is the head's shadow time on the nodes
// (sim.Lookahead.Shadow; the trial's takes are the starts before the
// head).
func (p *PBSFIFO) scheduleNodes(now sim.Time, v sim.View, lk sim.Lookahead) (sim.Decision, error) {
	p.start, p.promise = p.start[:0], p.promise[:0]
	head := p.passNodes(now, v, lk)
	var wake sim.Time
	switch {
	case head == nil || !p.guard:
	case !p.starving(now, head):
		wake = head.Submit + p.maxStarve
	case head != p.promised:
		p.promised = head
		p.promise = append(p.promise, sim.Reservation{Job: head, Start: lk.Shadow(now, head)})
	}
	return sim.Decision{Start: p.start, Promise: p.promise, WakeAt: wake}, nil
}

// passNodes starts every waiting job lk can place now, up to a starving
// head, and returns the head (the first job that does not fit) or nil.
func (p *PBSFIFO) passNodes(now sim.Time, v sim.View, lk sim.Lookahead) *sim.Job {
	var head *sim.Job
	for _, j := range v.Waiting() {
		if lk.Fits(j) {
			lk.Take(j)
			p.start = append(p.start, j)
			continue
		}
		if head == nil {
			head = j
			if p.starving(now, head) {
				break
			}
		}
		if lk.Full() {
			break // every admitted job needs a core
		}
	}
	return head
}

// shadow returns the earliest time at which head fits once the running
// jobs, and those starting now, have ended by their estimates. Nothing
// else is laid in the profile, so its free resources only grow with time
// and the first fit for the whole estimate is the first instant head fits.
func (p *PBSFIFO) shadow(now sim.Time, v sim.View, head *sim.Job) sim.Time {
	p.prof.Reset(now, v.Free(), v.Running())
	for _, j := range p.start {
		p.prof.Reserve(now, j.Estimate, j.Need)
	}
	t := p.prof.Fit(now, head.Estimate, head.Need)
	if t < 0 {
		panic("policies: PBSFIFO head never fits") // admitted jobs fit the empty machine
	}
	return t
}
