package slurmprio

import (
	"fmt"
	"strconv"

	"github.com/schedsweep/schedsweep/sim"
)

// Params are the multifactor knobs, named after slurm.conf's options.
// Times are in seconds.
type Params struct {
	WeightAge       int64 `hcl:"priority_weight_age,optional" doc:"PriorityWeightAge: weight of the age factor (time waiting, up to priority_max_age)"`
	WeightFairshare int64 `hcl:"priority_weight_fairshare,optional" doc:"PriorityWeightFairshare: weight of the fairshare factor"`
	WeightJobSize   int64 `hcl:"priority_weight_job_size,optional" doc:"PriorityWeightJobSize: weight of the job size factor"`
	WeightPartition int64 `hcl:"priority_weight_partition,optional" doc:"PriorityWeightPartition: weight of the partition factor (the partition's priority_job_factor over the largest)"`
	WeightQOS       int64 `hcl:"priority_weight_qos,optional" doc:"PriorityWeightQOS: weight of the QOS factor"`
	// WeightAccuracy is schedsweep's own factor, not Slurm's: the PSP
	// paper's accuracy class of the job's user, (class-1)/4.
	WeightAccuracy int64 `hcl:"priority_weight_accuracy,optional" doc:"weight of the estimate-accuracy factor of the PSP paper (not a Slurm option): (class-1)/4 of the user's accuracy class"`

	MaxAge        sim.Time `hcl:"priority_max_age,optional" doc:"PriorityMaxAge in seconds: the wait at which the age factor reaches 1; Slurm's default is 7 days"`
	FavorSmall    bool     `hcl:"priority_favor_small,optional" doc:"PriorityFavorSmall: the job size factor favours small jobs rather than large ones"`
	DecayHalfLife sim.Time `hcl:"priority_decay_half_life,optional" doc:"PriorityDecayHalfLife in seconds: usage decays by half over this time; Slurm's default is 7 days"`
	CalcPeriod    sim.Time `hcl:"priority_calc_period,optional" doc:"PriorityCalcPeriod in seconds: usage is charged and priorities recomputed this often; Slurm's default is 5 minutes"`
	// Fairshare is the fairshare algorithm: "fair_tree", Slurm's default,
	// or "classic" (PriorityFlags=NO_FAIR_TREE).
	Fairshare string `hcl:"priority_fairshare,optional" doc:"fairshare algorithm: fair_tree (Slurm's default) or classic (PriorityFlags=NO_FAIR_TREE)"`
	// PartitionFactor gives partitions' PriorityJobFactor as
	// "name:factor,name:factor"; unlisted partitions have factor 1.
	PartitionFactor string `hcl:"partition_job_factor,optional" doc:"partitions' PriorityJobFactor as \"name:factor,...\"; unlisted partitions have 1"`
	// QOSPriority gives QOS priorities as "queue:priority,...", keyed by a
	// job's SWF queue number (field 15), which carries its QOS.
	QOSPriority string `hcl:"qos_priority,optional" doc:"QOS priorities as \"queue:priority,...\" by SWF queue number (field 15, where a sacct import puts the QOS); unlisted: 0"`
}

// Defaults returns Slurm 22.05's defaults: every weight 0 but age's
// (schedsweep's choice, so that the default priority is not flat: 1000),
// a maximum age and a half-life of 7 days, a calculation period of 5
// minutes, Fair Tree.
func Defaults() Params {
	return Params{
		WeightAge:     1000,
		MaxAge:        7 * 24 * 3600,
		DecayHalfLife: 7 * 24 * 3600,
		CalcPeriod:    300,
		Fairshare:     "fair_tree",
	}
}

// Machine is what the job size factor measures a job against.
type Machine struct {
	Procs int64 // processors of the cluster
	Nodes int   // nodes of the cluster; 0 on the pool
}

// Calculator holds the state Slurm's priority plugin keeps: usage per
// association, and each waiting job's current priority. A Calculator
// serves one run.
type Calculator struct {
	p    Params
	m    Machine
	prio []uint32 // by Job.Seq
	next sim.Time // the next recalculation
}

// New checks p and returns a Calculator for machine m. Each fault names
// its parameter.
func New(p Params, m Machine) (*Calculator, error) {
	if p.MaxAge <= 0 {
		return nil, fmt.Errorf("parameter \"priority_max_age\": %d is not a positive number of seconds", p.MaxAge)
	}
	if p.CalcPeriod <= 0 {
		return nil, fmt.Errorf("parameter \"priority_calc_period\": %d is not a positive number of seconds", p.CalcPeriod)
	}
	return &Calculator{p: p, m: m}, nil
}

// Submitted sets j's first priority, as Slurm does when a job is
// submitted.
func (c *Calculator) Submitted(now sim.Time, j *sim.Job) {
	for len(c.prio) <= j.Seq {
		c.prio = append(c.prio, 0)
	}
	c.prio[j.Seq] = c.compute(now, j)
}

// Started tells the calculator that j started now; its usage is charged
// from now on.
func (c *Calculator) Started(now sim.Time, j *sim.Job) {}

// Finished tells the calculator that j ended after running actual seconds.
func (c *Calculator) Finished(now sim.Time, j *sim.Job, actual sim.Time) {}

// Update brings the calculator to now: at each PriorityCalcPeriod boundary
// passed since the last update it charges the running jobs' usage, decays
// it, and recomputes the priority of every waiting job, as Slurm's decay
// thread does. It reports whether priorities changed.
func (c *Calculator) Update(now sim.Time, running []sim.Allocation, waiting []*sim.Job) bool {
	if now < c.next {
		return false
	}
	for _, j := range waiting {
		c.prio[j.Seq] = c.compute(now, j)
	}
	c.next = now - now%c.p.CalcPeriod + c.p.CalcPeriod
	return true
}

// Next returns the time of the next recalculation: a policy that wants
// priorities to move while nothing else happens asks for a pass then.
func (c *Calculator) Next() sim.Time { return c.next }

// Priority returns j's priority as last computed.
func (c *Calculator) Priority(j *sim.Job) uint32 { return c.prio[j.Seq] }

// compute is the weighted sum of j's factors at now. (Age alone for now.)
func (c *Calculator) compute(now sim.Time, j *sim.Job) uint32 {
	age := now - j.Submit
	if age > c.p.MaxAge {
		age = c.p.MaxAge
	}
	return uint32(float64(c.p.WeightAge) * float64(age) / float64(c.p.MaxAge))
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
