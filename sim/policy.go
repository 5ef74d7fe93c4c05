package sim

// Policy decides which waiting jobs start; the engine acts on the decision.
//
// Schedule is called once per distinct event time at which a job ended or
// arrived or the policy's timer fired, after every completion and arrival at
// that time has been applied, whenever at least one job is waiting or the
// model has a job a policy may move (Model.Movable), and again at the same
// time if a zero-length job has ended there. It returns
// the jobs to start now and the promises it makes. It must not keep v, or the
// slices v returns, past the call. A non-nil error fails the run; the engine
// wraps it with the policy name and time.
type Policy interface {
	Name() string
	Schedule(now Time, v View) (Decision, error)
}

// View is the engine's read-only state as a policy sees it. It exposes
// estimates, never true run times. The slices it returns belong to the engine:
// read them, never modify or keep them.
type View interface {
	// Waiting returns the jobs waiting to start, in arrival order.
	Waiting() []*Job
	// Running returns the running jobs ordered by estimated end, then arrival.
	Running() []Allocation
	// Free returns the resources not held by running jobs.
	Free() Resources
	// Capacity returns the cluster's total resources.
	Capacity() Resources
	// Model returns the machine model's own view (Model.View): nil on the
	// pool, a tier.View on the two-tier machine. A policy written for one
	// model type-asserts it.
	Model() any
	// Trial starts a trial of which jobs fit now: on the pool a job fits
	// when its Need fits Free, on a model of nodes when it can be placed.
	// A policy asks it rather than comparing Need with Free, so that it
	// starts only jobs the model can place. It ends the trial before.
	Trial() Trial
}

// Allocation is a running job and when it started.
type Allocation struct {
	Job   *Job
	Start Time
}

// EstimatedEnd returns when the job will have ended at the latest if it is
// killed at its estimate: Start + Estimate.
func (a Allocation) EstimatedEnd() Time { return a.Start + a.Job.Estimate }

// Decision is a policy's answer for one scheduling pass. The engine checks it
// whole: every job in Start must be waiting and the jobs together must fit the
// free resources, or the run fails with a *DecisionError.
type Decision struct {
	// Start lists the jobs to start now, in the order they are started,
	// wherever the model puts them: on the pool, the only way to start.
	Start []*Job
	// Actions are moves with a placement, for a model that places jobs
	// (the two-tier machine): applied in order after Start, each checked
	// by the model once those before it have been applied. A refused
	// action fails the run with a *DecisionError whose error names the
	// move.
	Actions []Action
	// Promise lists reservations made or moved this pass: job j will start no
	// later than Start. A later promise for the same job must not be later,
	// unless the promise was withdrawn in between. Promises cost nothing to
	// the engine; they let simtest.Verify check that a backfilling policy never
	// delays a reservation.
	Promise []Reservation
	// Withdraw lists jobs whose promise no longer holds because the policy
	// re-prioritised them (for example, a new job overtook an EASY head).
	// Withdrawals apply before the promises of the same decision, so a
	// policy may withdraw a promise and make a new one in one pass.
	Withdraw []*Job
	// WakeAt asks for a scheduling pass at that time even if nothing happens
	// then. Each decision replaces the timer; 0 clears it.
	WakeAt Time
}

// Reservation is a promise that Job starts no later than Start.
type Reservation struct {
	Job   *Job
	Start Time
}

// Observer is implemented by policies that keep state across passes (usage,
// accuracy, reservations). The engine detects it with a type assertion and calls
// it before the scheduling pass of the same time.
type Observer interface {
	// Submitted is called when a job joins the queue (not for rejected jobs).
	Submitted(now Time, j *Job)
	// Finished is called when a job ends, killed or not. actual is how long it
	// ran on dedicated processors, Outcome.Work (its run time, or its
	// estimate if it was killed there; on the pool, End − Start); a policy
	// may learn from it, as a real scheduler learns from accounting records
	// after the fact.
	Finished(now Time, j *Job, actual Time)
}

// Tracer receives what the engine applies; the simtest recorder implements it
// to check a run afterwards. Calls come in simulation order.
type Tracer interface {
	Promised(now Time, j *Job, start Time)
	Withdrawn(now Time, j *Job)
}
