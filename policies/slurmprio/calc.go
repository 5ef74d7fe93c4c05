package slurmprio

import (
	"math"
	"strconv"

	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/sim"
)

// Calculator holds the state Slurm's priority plugin keeps: usage per
// association, the running jobs whose usage it charges, each user's
// accuracy class, and each waiting job's current priority. A Calculator
// serves one run.
type Calculator struct {
	c *config
	m Machine

	t tree

	jobs []jobInfo    // by Job.Seq
	run  []runningJob // the running jobs, in no order

	users map[int32]*accUser // by Job.User, for the accuracy factor

	decay float64 // decay_factor: the decay over one second
	// decayPeriod is decay^CalcPeriod, the power most charges and decays
	// take (math.Pow gives the same value for the same arguments).
	decayPeriod float64
	// usage says whether usage is charged at all: only the fairshare
	// factor reads it, so with its weight 0 the calculator keeps none.
	usage   bool
	lastRan sim.Time // the last calculation (g_last_ran)
	next    sim.Time // the next calculation
	due     bool     // waiting jobs' priorities are due at lastRan
}

// jobInfo is what the calculator keeps of a job: its priority, its user
// association, its place among the running jobs, and the factors that do
// not change while it waits.
type jobInfo struct {
	prio  uint32
	assoc int32    // −1: not yet known
	runAt int32    // index in Calculator.run; −1: not running
	acc   *accUser // nil without an accuracy weight
	// The job size, partition and QOS factors.
	size, part, qos float64
}

// runningJob is a running job and its start.
type runningJob struct {
	j     *sim.Job
	start sim.Time
}

// accUser is a user's accuracy record: the class and the last
// psp.Window ended jobs (a ring once full, next the oldest).
type accUser struct {
	class int
	last  []psp.Ended
	next  int
}

// New checks p and returns a Calculator for machine m. Each fault names
// its parameter and, in a list, the entry. The machine is not checked (a
// policy may check p with the zero Machine before it knows the machine);
// on a machine of no processors the job size factor is 0.
func New(p Params, m Machine) (*Calculator, error) {
	c, err := check(p)
	if err != nil {
		return nil, err
	}
	calc := &Calculator{c: c, m: m, t: newTree(c.shares), users: map[int32]*accUser{}, decay: 1}
	if p.DecayHalfLife > 0 {
		// The decay thread's first-order approximation of 2^(−1/h).
		calc.decay = 1 - 0.693/float64(p.DecayHalfLife)
	}
	calc.decayPeriod = math.Pow(calc.decay, float64(c.CalcPeriod))
	calc.usage = p.WeightFairshare > 0
	return calc, nil
}

// Submitted sets j's first priority, as Slurm does when a job is
// submitted (priority_p_set), creating its user's association (and
// account's) on its first job.
func (c *Calculator) Submitted(now sim.Time, j *sim.Job) {
	c.advance(now)
	c.register(j)
	c.jobs[j.Seq].prio = c.compute(now, j)
}

// Started tells the calculator that j started now; its usage is charged
// from now on.
func (c *Calculator) Started(now sim.Time, j *sim.Job) {
	c.advance(now)
	c.register(j)
	if c.jobs[j.Seq].runAt >= 0 || !c.usage {
		return
	}
	c.jobs[j.Seq].runAt = int32(len(c.run))
	c.run = append(c.run, runningJob{j, now})
}

// Finished tells the calculator that j ended after running actual
// seconds: its usage since the last calculation is charged as
// priority_p_job_end does, and it joins its user's accuracy window.
func (c *Calculator) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	c.advance(now)
	c.register(j)
	if i := c.jobs[j.Seq].runAt; i >= 0 {
		c.charge(c.run[i], now)
		last := len(c.run) - 1
		c.run[i] = c.run[last]
		c.jobs[c.run[i].j.Seq].runAt = i
		c.run = c.run[:last]
		c.jobs[j.Seq].runAt = -1
	}
	u := c.jobs[j.Seq].acc
	if u == nil {
		return // no accuracy weight: no record is kept
	}
	e := psp.Ended{Run: max(actual, 0), Estimate: j.Estimate}
	if len(u.last) < psp.Window {
		u.last = append(u.last, e)
	} else {
		u.last[u.next] = e
		u.next = (u.next + 1) % psp.Window
	}
	u.class = psp.MeanClass(u.last)
}

// Update brings the calculator to now: at each PriorityCalcPeriod boundary
// passed since the last update it charges the running jobs' usage, decays
// it, and recomputes the priority of every waiting job, as Slurm's decay
// thread does. It reports whether priorities were recomputed.
//
// The boundaries are the multiples of PriorityCalcPeriod. Usage is
// charged at every one passed, for the jobs Started named and Finished
// has not (a job of running that Started did not name is counted from its
// allocation's start); priorities are recomputed once, as
// they were at the last boundary passed, for the jobs of waiting
// submitted by then (a job submitted since keeps the priority it got at
// submission, computed after that boundary's calculation). A policy that
// wakes at Next() sees every calculation at its time. O(waiting) per
// call that recomputes, plus O(running + associations) per boundary.
func (c *Calculator) Update(now sim.Time, running []sim.Allocation, waiting []*sim.Job) bool {
	if !c.usage {
		running = nil
	}
	for _, a := range running {
		c.register(a.Job)
		if ji := &c.jobs[a.Job.Seq]; ji.runAt < 0 {
			ji.runAt = int32(len(c.run))
			c.run = append(c.run, runningJob{a.Job, a.Start})
		}
	}
	c.advance(now)
	if !c.due {
		return false
	}
	c.due = false
	at := c.lastRan
	for _, j := range waiting {
		if j.Submit > at {
			continue
		}
		if j.Seq >= len(c.jobs) || c.jobs[j.Seq].assoc < 0 {
			c.register(j) // not submitted (a test's job)
		}
		c.jobs[j.Seq].prio = c.compute(at, j)
	}
	return true
}

// Next returns the time of the next recalculation: a policy that wants
// priorities to move while nothing else happens asks for a pass then.
func (c *Calculator) Next() sim.Time { return c.next }

// Priority returns j's priority as last computed: 0 for a job the
// calculator has not seen (Slurm's held priority; every job it has seen
// has at least 1).
func (c *Calculator) Priority(j *sim.Job) uint32 {
	if j.Seq >= len(c.jobs) {
		return 0
	}
	return c.jobs[j.Seq].prio
}

// register makes room for j, and on the job's first call finds (or
// creates) its user association and computes its fixed factors.
func (c *Calculator) register(j *sim.Job) {
	for len(c.jobs) <= j.Seq {
		c.jobs = append(c.jobs, jobInfo{assoc: -1, runAt: -1})
	}
	ji := &c.jobs[j.Seq]
	if ji.assoc >= 0 {
		return
	}
	ji.assoc = c.t.userAssoc(j.Group, j.User, c.c.classic)
	p := &c.c.Params
	if p.WeightAccuracy > 0 {
		// Only compute reads the class, under this weight: without it
		// the window's upkeep took a fifth of the calculator's time.
		ji.acc = c.accuracyUser(j.User)
	}
	if p.WeightJobSize > 0 {
		ji.size = c.jobSizeFactor(j)
	}
	if p.WeightPartition > 0 {
		ji.part = c.partitionFactor(j)
	}
	if p.WeightQOS > 0 {
		ji.qos = c.qosFactor(j)
	}
}

// accuracyUser returns user's accuracy record, a new user's in class 5.
func (c *Calculator) accuracyUser(user int32) *accUser {
	u := c.users[user]
	if u == nil {
		u = &accUser{class: psp.Classes}
		c.users[user] = u
	}
	return u
}

// advance runs the calculations of every boundary up to now, as the
// decay thread would have (_decay_thread, fair_tree_decay): at each, the
// usage of all associations decays over the time since the last, then
// each running job is charged its usage since then. For the last boundary
// the classic calculation first refreshes the accounts' effective usage,
// and Fair Tree ranks the users after charging; waiting jobs' priorities
// become due (Update computes them).
func (c *Calculator) advance(now sim.Time) {
	if now < c.next {
		return
	}
	for c.next <= now && !c.usage {
		c.lastRan = c.next
		c.next += c.c.CalcPeriod
	}
	for c.next <= now {
		b := c.next
		last := b+c.c.CalcPeriod > now
		if last && c.c.classic {
			c.t.startClassic()
		}
		if d := b - c.lastRan; d > 0 {
			// real_decay, floored at DBL_MIN as Slurm does.
			c.t.decay(max(c.pow(d), 0x1p-1022))
		}
		for _, r := range c.run {
			c.charge(r, b)
		}
		c.lastRan = b
		c.next = b + c.c.CalcPeriod
	}
	if !c.c.classic && c.usage {
		c.t.rankFairTree()
	}
	c.due = true
}

// charge adds r's usage from the last calculation (or its start, if
// later) to end: its CPUs times the seconds d, decayed by decay^d
// (_apply_new_usage: run_delta · decay_factor^run_delta · billable TRES,
// billable TRES being the CPU count without TRESBillingWeights).
func (c *Calculator) charge(r runningJob, end sim.Time) {
	d := end - max(c.lastRan, r.start)
	if d <= 0 {
		return
	}
	delta := float64(d)
	// Rounded before it is added, as Slurm stores it (no fused
	// multiply-add).
	use := float64(delta * c.pow(d) * float64(r.j.Need[sim.Procs]))
	c.t.charge(c.jobs[r.j.Seq].assoc, use)
}

// pow returns decay^d.
func (c *Calculator) pow(d sim.Time) float64 {
	if d == c.c.CalcPeriod {
		return c.decayPeriod
	}
	return math.Pow(c.decay, float64(d))
}

// compute is j's priority at t: the weighted sum of its factors, at least
// 1 and at most 2³²−1, truncated (_get_priority_internal).
func (c *Calculator) compute(t sim.Time, j *sim.Job) uint32 {
	p := &c.c.Params
	ji := &c.jobs[j.Seq]
	var age, fs, acc float64
	if p.WeightAge > 0 {
		age = c.ageFactor(t, j)
	}
	if p.WeightFairshare > 0 {
		fs = c.fairshareFactor(ji.assoc)
	}
	js, part, qos := ji.size, ji.part, ji.qos
	if p.WeightAccuracy > 0 {
		acc = float64(ji.acc.class-1) / (psp.Classes - 1)
	}
	// Each weighted factor is rounded before the sum, as Slurm stores it
	// (the conversions forbid fused multiply-adds), and the sum runs in
	// Slurm's order.
	sum := float64(age*float64(p.WeightAge)) + float64(fs*float64(p.WeightFairshare)) +
		float64(js*float64(p.WeightJobSize)) + float64(part*float64(p.WeightPartition)) +
		float64(qos*float64(p.WeightQOS)) + float64(acc*float64(p.WeightAccuracy))
	// Priority 0 is reserved for held jobs.
	if sum < 1 {
		sum = 1
	}
	if sum > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(sum)
}

// ageFactor is min(t − submit, PriorityMaxAge)/PriorityMaxAge: the job is
// eligible (accrues age) from its submission.
func (c *Calculator) ageFactor(t sim.Time, j *sim.Job) float64 {
	diff := max(t-j.Submit, 0)
	if diff >= c.c.MaxAge {
		return 1
	}
	return float64(diff) / float64(c.c.MaxAge)
}

// fairshareFactor is the fairshare factor of user association u.
func (c *Calculator) fairshareFactor(u int32) float64 {
	if c.c.classic {
		return c.t.classicFactor(u)
	}
	return c.t.a[u].fsFactor
}

// jobSizeFactor is set_priority_factors' job size factor without
// PriorityFlags=SMALL_RELATIVE_TO_TIME: the mean of the job's share of
// the nodes (its minimum node count, 1 unless its shape names nodes) and
// of the CPUs, each share replaced by 1 − share under PriorityFavorSmall,
// clamped to [0, 1]. On the pool (Machine.Nodes 0) every processor counts
// as a node and the job's node count is its processor count, so the
// factor is the CPU share alone.
func (c *Calculator) jobSizeFactor(j *sim.Job) float64 {
	if c.m.Procs <= 0 {
		return 0
	}
	cpus := float64(j.Need[sim.Procs])
	procs := float64(c.m.Procs)
	nodes, minNodes := float64(c.m.Nodes), 1.0
	if c.m.Nodes <= 0 {
		nodes, minNodes = procs, cpus
	} else if j.Shape.Nodes > 0 {
		minNodes = float64(j.Shape.Nodes)
	}
	var js float64
	if c.c.FavorSmall {
		js = (nodes - minNodes) / nodes
		if cpus > 0 {
			js += (procs - cpus) / procs
			js /= 2
		}
	} else {
		js = minNodes / nodes
		if cpus > 0 {
			js += cpus / procs
			js /= 2
		}
	}
	return min(max(js, 0), 1)
}

// partitionFactor is the PriorityJobFactor of j's partition (1 if
// unlisted) over the largest of all partitions (norm_priority,
// read_config.c). A partition that is not listed has 1, so the largest is
// at least the job's own.
func (c *Calculator) partitionFactor(j *sim.Job) float64 {
	f, ok := c.c.partition[PartitionOf(j)]
	if !ok {
		f = 1
	}
	if f == 0 {
		return 0
	}
	return f / max(c.c.partMax, f)
}

// qosFactor is the priority of j's QOS (SWF queue) over the largest QOS
// priority (norm_priority, assoc_mgr.c); 0 for an unlisted QOS.
func (c *Calculator) qosFactor(j *sim.Job) float64 {
	q := c.c.qos[j.Queue]
	if q == 0 {
		return 0
	}
	return q / c.c.qosMax
}

// PartitionOf returns the name of the partition j was submitted to, as
// the priority and the scheduler key it: the partition its shape names on
// a cluster of nodes, else its SWF partition number (field 16) in
// decimal, else "" (the default partition).
func PartitionOf(j *sim.Job) string {
	if w := j.Shape.Where; w != nil && w.Partition != "" {
		return w.Partition
	}
	if j.Partition >= 0 {
		return strconv.Itoa(int(j.Partition))
	}
	return ""
}
