package tier

import "github.com/schedsweep/schedsweep/sim"

// Tracer receives what the two-tier machine does, in simulation order. The
// machine looks for it behind sim.Options.Tracer (which also gets the
// promises and withdrawals from sim.Run's loop).
type Tracer interface {
	sim.Tracer
	// Placed is called for every action applied: m moved j to tier t on
	// procs (for Swap, the processors it already had). procs belongs to the
	// engine; copy it to keep it.
	Placed(now sim.Time, j *sim.Job, m Move, t Tier, procs []int)
	// Rated is called when j's progress rate changes, including to 0 (a
	// migration's pause, or a neighbour that leaves no cycles).
	Rated(now sim.Time, j *sim.Job, r Rate)
	// Ended is called when j has done its work.
	Ended(now sim.Time, j *sim.Job)
}

// EventKind tells the events of a Recorder apart.
type EventKind uint8

// Recorded event kinds.
const (
	Placed EventKind = iota + 1
	Rated
	Ended
	Promised
	Withdrawn
)

// Event is one thing the engine did.
type Event struct {
	Kind  EventKind
	Time  sim.Time
	Seq   int  // the job's arrival index
	Move  Move // Placed
	Tier  Tier // Placed
	Procs []int
	Rate  Rate     // Rated
	At    sim.Time // Promised: the promised time
}

// Recorder is a Tracer that keeps every event, for Verify.
type Recorder struct {
	Events []Event
}

var _ Tracer = (*Recorder)(nil)

// Placed records a move.
func (r *Recorder) Placed(now sim.Time, j *sim.Job, m Move, t Tier, procs []int) {
	r.Events = append(r.Events, Event{Kind: Placed, Time: now, Seq: j.Seq, Move: m, Tier: t, Procs: append([]int(nil), procs...)})
}

// Rated records a rate change.
func (r *Recorder) Rated(now sim.Time, j *sim.Job, rate Rate) {
	r.Events = append(r.Events, Event{Kind: Rated, Time: now, Seq: j.Seq, Rate: rate})
}

// Ended records a completion.
func (r *Recorder) Ended(now sim.Time, j *sim.Job) {
	r.Events = append(r.Events, Event{Kind: Ended, Time: now, Seq: j.Seq})
}

// Promised records a promise.
func (r *Recorder) Promised(now sim.Time, j *sim.Job, start sim.Time) {
	r.Events = append(r.Events, Event{Kind: Promised, Time: now, Seq: j.Seq, At: start})
}

// Withdrawn records a withdrawal.
func (r *Recorder) Withdrawn(now sim.Time, j *sim.Job) {
	r.Events = append(r.Events, Event{Kind: Withdrawn, Time: now, Seq: j.Seq})
}
