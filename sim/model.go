package sim

import (
	"fmt"
	"sort"

	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// Model is a machine model: what Run's loop asks about the cluster. The
// loop owns time, the source, the waiting queue, the policy and its
// checks; a model owns capacity, placement, release, when each running job
// ends and how fast it runs. Pool is the aggregate model of the
// K-resource backfilling papers; package sim/tier's Machine is the
// two-tier processors of KEASY, REASY and MEASY; a model with nodes of
// their own capacities fits the same methods (Action.Procs carries a
// placement, Model.View exposes the model's own state).
//
// The loop calls a model from one goroutine, in this order per distinct
// event time t: Advance(t) (the jobs that end at t), Admit for each job
// that arrives at t, then, in a scheduling pass, Apply for each action
// and CheckPromise for each promise on a job that is not waiting, and
// finally Next, for the time of the model's next event. The Outcome
// pointers it is given stay valid for the whole run.
type Model interface {
	// Capacity returns the cluster's total resources.
	Capacity() Resources
	// Free returns the resources not held by running jobs, as View.Free.
	Free() Resources
	// Running returns the running jobs as View.Running.
	Running() []Allocation
	// View returns what a policy may see of the model's own state, handed
	// out by View.Model: nil for the pool, a tier.View for the two-tier
	// machine.
	View() any
	// Open starts a run: v is the loop's view (the model may build its own
	// view on it) and opt the run's options. It fails if the model cannot
	// serve such a run (a capacity it cannot model).
	Open(v View, opt Options) error
	// Admit is told of every job that joins the waiting queue.
	Admit(o *Outcome)
	// Apply checks action a on the job whose outcome is o (nil when a.Job
	// is not a job of this run) and carries it out at now, or returns why
	// it cannot. The loop has set o.Start for a Start; the model sets
	// o.End and o.State (Finished or Killed) when the job ends.
	Apply(now Time, o *Outcome, a Action) error
	// Next returns the time of the model's next event (a completion, a
	// change of speed), ok false if none is due. The loop calls it once
	// after each event time; a model may settle that time's changes here.
	Next() (t Time, ok bool)
	// Advance applies the model's events at now and returns the jobs that
	// ended, in the order they end; the slice is the model's, valid until
	// the next call.
	Advance(now Time) []*Outcome
	// Movable reports whether a policy may move a running job, so that a
	// pass is due although no job waits (the two-tier machine's
	// background jobs).
	Movable() bool
	// CheckPromise reports why a job that is not waiting (running tells
	// whether it runs) may not be promised a start at now, or nil.
	CheckPromise(o *Outcome, running bool, now Time) error
	// Close ends the run: it fills the model's part of res and reports a
	// job it left running for good.
	Close(res *Result) error
}

// ModelMaker is implemented by a policy that runs on a machine model of
// its own (the two-tier policies of package policies): Run then runs it on
// the model NewModel builds for the capacity of the model Run was given,
// with the run's seed.
type ModelMaker interface {
	NewModel(capacity Resources, seed uint64) (Model, error)
}

// Move is what an Action does to a job.
type Move uint8

// The moves. The pool knows Start without a placement only.
const (
	// Start starts a waiting job, on Action.Procs in Action.Tier for a
	// model that places jobs.
	Start Move = iota + 1
	// Swap promotes a two-tier background job where it runs: its
	// processors' two VMs swap priorities, it keeps its progress.
	Swap
	// Restart kills a running job and starts it again from scratch on
	// Action.Procs; its progress is lost (KEASY).
	Restart
	// Migrate moves a running job to Action.Procs keeping its progress;
	// it makes no progress for the model's migration cost (MEASY).
	Migrate
)

var moveNames = [...]string{Start: "start", Swap: "swap", Restart: "restart", Migrate: "migrate"}

func (m Move) String() string {
	if int(m) < len(moveNames) && moveNames[m] != "" {
		return moveNames[m]
	}
	return fmt.Sprintf("move(%d)", int(m))
}

// Tier is one of a two-tier processor's VMs (package sim/tier); other
// models take no tier.
type Tier uint8

// The tiers. A job that is not running has tier 0.
const (
	Foreground Tier = iota + 1 // the high-priority VM
	Background                 // the low-priority VM: it gets the cycles the foreground leaves
)

func (t Tier) String() string {
	switch t {
	case Foreground:
		return "foreground"
	case Background:
		return "background"
	}
	return fmt.Sprintf("tier(%d)", int(t))
}

// Action is one move of a decision, with its placement.
type Action struct {
	Move Move
	Job  *Job
	// Tier is where a Start places the job on the two-tier machine; the
	// other moves lead to the foreground. 0 on the pool.
	Tier Tier
	// Procs names one processor per process, no processor twice: where a
	// Start, Restart or Migrate puts the job on a model that places
	// processes; nil on the pool. The model copies it.
	Procs []int
	// Place is where a Start puts the job on a model of nodes, in that
	// model's own terms (a []nodes.Use for package sim/nodes' Cluster,
	// which checks it against the nodes' free resources and refuses an
	// overcommitting one with ErrOvercommit); nil lets the model choose.
	// A backfilling policy whose reservations pin nodes hands its
	// reservation's placement here. The pool and the two-tier machine
	// refuse a non-nil Place.
	Place any
}

// Pool is the Model that treats each resource kind as one aggregate pool,
// the model of the K-resource backfilling papers: a job fits when its need
// fits the free amount of every kind, wherever that amount sits. A job
// ends at start + run time, or at start + estimate, killed, if it needed
// longer and overruns are not allowed. A Pool serves one run.
type Pool struct {
	capacity, free Resources
	overrun        bool
	running        []Allocation               // by (estimated end, seq)
	ends           jobs.Queue[Time, *Outcome] // completions, by end then order of start
	ended          []*Outcome
}

var _ Model = (*Pool)(nil)

// NewPool returns an empty pool with the given capacity.
func NewPool(capacity Resources) *Pool { return &Pool{capacity: capacity, free: capacity} }

// Capacity returns the pool's total resources.
func (p *Pool) Capacity() Resources { return p.capacity }

// Free returns what is not allocated.
func (p *Pool) Free() Resources { return p.free }

// Running returns the running jobs by estimated end, then arrival.
func (p *Pool) Running() []Allocation { return p.running }

// View returns nil: a pool has nothing beyond View's methods to show.
func (p *Pool) View() any { return nil }

// Open takes the run's overrun rule.
func (p *Pool) Open(_ View, opt Options) error {
	p.overrun = opt.AllowOverrun
	return nil
}

// Admit does nothing: a pool keeps nothing of waiting jobs.
func (p *Pool) Admit(*Outcome) {}

// Apply starts o's job if its need fits the free resources; the pool
// knows no other move and no placement.
func (p *Pool) Apply(now Time, o *Outcome, a Action) error {
	switch {
	case a.Move != Start:
		return fmt.Errorf("the pool cannot %v a job", a.Move)
	case a.Procs != nil || a.Tier != 0 || a.Place != nil:
		return fmt.Errorf("the pool takes no placement")
	case !o.Need.FitsIn(p.free):
		return fmt.Errorf("%w: needs %v, free %v", ErrOvercommit, o.Need, p.free)
	}
	p.free = p.free.Sub(o.Need)
	run := o.Runtime
	o.State = Finished
	if !p.overrun && run > o.Estimate {
		run, o.State = o.Estimate, Killed
	}
	o.End = now + run
	p.ends.Push(o.End, o)
	al := Allocation{Job: &o.Job, Start: now}
	i := sort.Search(len(p.running), func(i int) bool { return allocBefore(al, p.running[i]) })
	p.running = append(p.running, Allocation{})
	copy(p.running[i+1:], p.running[i:])
	p.running[i] = al
	return nil
}

func allocBefore(a, b Allocation) bool {
	ea, eb := a.EstimatedEnd(), b.EstimatedEnd()
	return ea < eb || ea == eb && a.Job.Seq < b.Job.Seq
}

// Next returns the earliest completion.
func (p *Pool) Next() (Time, bool) {
	if p.ends.Len() == 0 {
		return 0, false
	}
	return p.ends.Min().At, true
}

// Advance releases the jobs that end at now, in the order they started.
func (p *Pool) Advance(now Time) []*Outcome {
	p.ended = p.ended[:0]
	for p.ends.Len() > 0 && p.ends.Min().At == now {
		o := p.ends.Pop().V
		p.free = p.free.Add(o.Need)
		al := Allocation{Job: &o.Job, Start: o.Start}
		i := sort.Search(len(p.running), func(i int) bool { return !allocBefore(p.running[i], al) })
		if i == len(p.running) || p.running[i].Job != &o.Job {
			panic("sim: running list lost a job") // broken internal invariant
		}
		p.running = append(p.running[:i], p.running[i+1:]...)
		p.ended = append(p.ended, o)
	}
	return p.ended
}

// Movable reports false: the pool moves no running job.
func (p *Pool) Movable() bool { return false }

// CheckPromise accepts a promise for a job started in this very pass only.
func (p *Pool) CheckPromise(o *Outcome, running bool, now Time) error {
	if running && o.Start == now {
		return nil
	}
	return fmt.Errorf("%w: job is not waiting", ErrBadPromise)
}

// Close does nothing: every job a pool starts ends.
func (p *Pool) Close(*Result) error { return nil }
