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
