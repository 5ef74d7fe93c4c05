package sim

// Shape is how a job asks for processors on a machine of nodes. Its zero
// value is the aggregate request of the pool: Need[Procs] processors
// anywhere ("tasks"), with Need[Memory] and Need[GPUs] on every node the
// job uses (on a machine of one node, exactly the pool's request). Models
// without nodes ignore it, so a job without a shape schedules as before.
type Shape struct {
	// Nodes is the node count of a nodes × per-node request (PBS
	// nodes=N:ppn=P, Slurm -N N --ntasks-per-node=P); 0 asks Need[Procs]
	// cores anywhere, packed in node order.
	Nodes int32
	// PerNode is the cores asked on each of Nodes; Nodes × PerNode must
	// equal Need[Procs].
	PerNode int32
	// GPUsPerNode is the GPUs asked on every node the job uses.
	GPUsPerNode int32
	// Exclusive asks for whole nodes: the job uses only idle nodes and
	// nothing else runs on them while it does.
	Exclusive bool
	// MemPerNode is the memory in bytes asked on every node the job uses.
	MemPerNode int64
	// Where restricts the nodes the job may use (partition, node groups,
	// features); nil: any node of the machine's default partition.
	Where *Where
}

// IsZero reports whether s is the zero shape, the pool's request.
func (s Shape) IsZero() bool { return s == Shape{} }

// Trial answers, within one scheduling pass, whether a job fits now on the
// machine as it stands less the jobs the policy has already taken in this
// pass. A policy takes a job it means to start, in the order it starts
// them; the trial changes nothing on the machine.
type Trial interface {
	// Fits reports whether j could start now, after the jobs taken.
	Fits(j *Job) bool
	// Take counts j as started for the later questions of this trial. Call
	// it only for a job Fits accepted since the last Take.
	Take(j *Job)
}

// Placer is implemented by a model that places jobs on nodes of their
// own: View.Trial asks it whether a job fits, and the loop asks it at
// arrival whether a job fits the empty machine at all.
type Placer interface {
	// Trial starts a new trial on the model's state; it ends the one
	// before.
	Trial() Trial
	// Refuse returns why job o, admitted in aggregate, can never run on
	// the model (TooLarge, NegativeRequest), or NoReason.
	Refuse(o *Outcome) Reason
}

// aggTrial is the trial of a model without placement: a job fits when its
// need fits the free resources less those taken.
type aggTrial struct{ free Resources }

func (t *aggTrial) Fits(j *Job) bool { return j.Need.FitsIn(t.free) }
func (t *aggTrial) Take(j *Job)      { t.free = t.free.Sub(j.Need) }

// Lookahead is a Trial that also looks ahead to one waiting job's
// reservation, for EASY-like policies on a model of nodes, where whether a
// job fits later depends on which nodes free up, not only how much. A
// model of nodes returns one from View.Trial; the pool's trial is not one,
// and policies keep their aggregate reasoning there.
//
// The reservation does not pin nodes: it only has to be feasible at its
// time. After Shadow(now, head), every Take of a job whose estimate runs
// past the shadow time holds the nodes the job gets now at the shadow time
// too, and Keeps tells whether head would still fit there. Since fewer
// running jobs never make head not fit, a start that Keeps accepts leaves
// head able to start by its shadow time.
type Lookahead interface {
	Trial
	// Shadow makes head the trial's reserved job and returns its shadow
	// time: the earliest estimated end, of a running job or of one taken
	// in this trial (at now + its estimate), at which head fits on what
	// the jobs still running then leave; an end not after now (a job past
	// its estimate, or an estimate of 0) counts as now+1, as in the pool's
	// EASY. head, which does not fit now, must fit the empty machine (the
	// loop rejects a job that does not). A second call replaces the first.
	Shadow(now Time, head *Job) Time
	// Keeps reports whether the reserved job still fits at its shadow
	// time if j, which Fits has accepted, starts now where it fits and
	// runs past the shadow time, with every job taken since Shadow that
	// runs past it. It changes nothing.
	Keeps(j *Job) bool
	// Full reports whether no job can fit now: no core is free on a node
	// not held whole, after the jobs taken. O(1).
	Full() bool
	// Free returns the resources free now on nodes not held whole by an
	// exclusive job, less what the jobs taken hold: what later jobs could
	// still use.
	Free() Resources
	// Cost returns how much of Free j would hold if it started now where
	// it fits: its cores, its memory and GPUs on each node it uses, and
	// for an exclusive job the whole of its nodes. Call it only for a job
	// that fits.
	Cost(j *Job) Resources
}

// Classes is implemented by a Lookahead whose answers depend on a job's
// request alone. Class returns a number ≥ 0 that two jobs share only if
// they ask the same of the machine, so that Fits, Keeps and Cost answer
// the same for both as long as the trial takes nothing and Shadow is not
// called again; or -1 for a job it does not class. A policy that asks
// many jobs in one pass may then ask once per class between two takes,
// and Keeps and Take accept a job when Fits accepted another of its
// class since the last take. Once Fits refuses a job, it refuses every
// job of its class for the rest of the trial (takes only shrink what is
// free, and fewer free resources never let a request fit), so a policy
// may pass over the class's later jobs without asking.
type Classes interface {
	Class(j *Job) int
}

// Revivals is implemented by a Lookahead that classes jobs (Classes) and
// can tell, after jobs end, which of the classes Fits refused may fit
// again. Revived(c) false means Fits would refuse every job of class c
// now: it refused the class when last asked, and nothing given back since
// (a job's end, a trial undone) could hold such a job. True means the
// class may fit, and only Fits can say. A policy that remembers a class's
// refusal until a job ends may keep it past the end while Revived is
// false.
type Revivals interface {
	Revived(c int) bool
}

// Monotone is implemented by a Lookahead that can say whether taking a
// job never lets another job fit that did not fit before: Monotone true
// means a no from Fits holds until a job ends, so a policy may remember
// it from one pass to the next. On a machine of nodes it is false where a
// partition limits the nodes of a job of tasks: first fit passes over a
// node once a take has filled it, and may then find room on fewer nodes.
type Monotone interface {
	Monotone() bool
}
