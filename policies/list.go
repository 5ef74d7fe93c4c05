package policies

import "github.com/schedsweep/schedsweep/sim"

// List is strict list scheduling: it starts waiting jobs in the order's
// sequence while they fit and stops at the first job that does not, so nothing
// passes a blocked head. With Arrival order it is FCFS; with ShortestFirst it
// is SJF; with Fairshare it is the "fairshare fifo" of Tóth & Klusáček
// (2014, section 4.1): the queue re-ordered by users' fairshare priorities at
// every pass, and nothing passing its head.
type List struct {
	name  string
	rank  ranked
	start []*sim.Job
}

var (
	_ sim.Policy   = (*List)(nil)
	_ sim.Observer = (*List)(nil)
)

// NewFCFS returns strict first-come first-served scheduling.
func NewFCFS() *List { return NewList("fcfs", Arrival{}) }

// NewSJF returns strict shortest-job-first scheduling by requested time,
// ties by arrival. Like FCFS it does not let a job pass a blocked head; the
// head is the shortest waiting job.
func NewSJF() *List { return NewList("sjf", ShortestFirst{}) }

// NewList returns strict list scheduling in the given order under name.
func NewList(name string, o Order) *List { return &List{name: name, rank: newRanked(o)} }

// Name returns the policy's name.
func (l *List) Name() string { return l.name }

// Submitted tells the order, if it observes, that j arrived.
func (l *List) Submitted(now sim.Time, j *sim.Job) { l.rank.submitted(now, j) }

// Finished tells the order, if it observes, that j ended.
func (l *List) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	l.rank.finished(now, j, actual)
}

// Schedule starts the longest prefix of the ordered queue that fits.
func (l *List) Schedule(now sim.Time, v sim.View) (sim.Decision, error) {
	q := l.rank.jobs(now, v)
	fit := v.Trial()
	l.start = l.start[:0]
	for _, j := range q {
		if !fit.Fits(j) {
			break
		}
		fit.Take(j)
		l.start = append(l.start, j)
	}
	l.rank.took(now, v, l.start)
	return sim.Decision{Start: l.start}, nil
}
