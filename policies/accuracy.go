package policies

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/sim"
)

// MaxAccuracyWindow bounds AccuracyConfig.Window: a user's priority is
// recomputed over the whole window at each of their completions.
const MaxAccuracyWindow = 1000

// AccuracyConfig are the knobs of an accuracy order. Tagged for
// internal/params, it is embedded in the parameter structs of the entries
// that take them (OrderParams, PSPParams).
type AccuracyConfig struct {
	// Window is how many of a user's most recently ended jobs their
	// accuracy is the mean of; 1..MaxAccuracyWindow. The paper's is 10.
	Window int `hcl:"accuracy_window,optional" doc:"accuracy: a user's accuracy is the mean runtime/requested time of their last N ended jobs; the paper's N is 10"`
	// NewUser is the priority, 1 to 5, of a user none of whose jobs has
	// ended yet. The paper does not say; the default is 5.
	NewUser int `hcl:"new_user_priority,optional" doc:"accuracy: priority, 1 (lowest) to 5, of a user none of whose jobs has ended yet"`
	// AgeScale is T of the age term: a job's priority is its user's
	// class plus min(its wait so far, MaxAge) / T, as when PSP's priority
	// is one factor of SLURM's multifactor plugin beside age. 0, the
	// default, leaves age out: a strict class order.
	AgeScale sim.Time `hcl:"age_scale,optional" params:"omitzero" doc:"accuracy: seconds of waiting worth one priority class (priority = class + min(wait, max_age) / age_scale); 0: no age term, a strict class order"`
	// MaxAge caps the wait the age term counts (SLURM's PriorityMaxAge);
	// 0 means DefaultMaxAge, so that the default parameters name no
	// age term at all.
	MaxAge sim.Time `hcl:"max_age,optional" params:"omitzero" doc:"accuracy: the longest wait the age term counts, in seconds; 0: 7 days, SLURM's default PriorityMaxAge"`
}

// DefaultAccuracyConfig returns the paper's window of ten jobs and
// priority 5 for new users.
func DefaultAccuracyConfig() AccuracyConfig {
	return AccuracyConfig{Window: psp.Window, NewUser: psp.Classes}
}

// DefaultMaxAge is AccuracyConfig.MaxAge unless told otherwise: seven
// days, SLURM's default PriorityMaxAge.
const DefaultMaxAge = 7 * 24 * 3600

// Accuracy orders the queue by the Penalty Scheduling Policy (PSP) of
// N. Rocchetti, S. Iturriaga and S. Nesmachnow, "Including accurate user
// estimates in HPC schedulers: an empirical analysis" (2015), section 4:
// a job's accuracy is its run time over its requested time, A = t_r / t_e;
// a user's accuracy is the mean of the accuracies of their last ten
// completed jobs; Table 1 maps it to a priority, 1 for [0, 0.2), 2 for
// [0.2, 0.4), 3 for [0.4, 0.6), 4 for [0.6, 0.8) and 5 for [0.8, 1]; and
// the queue runs highest priority first. Jobs of equal priority keep their
// arrival order, so within a class the discipline is first-come
// first-served. Under EASY (the "psp" registry entry) this is the paper's
// setting: Maui's default, FCFS with EASY backfilling (section 2.1), with
// the PSP priority in front; fcfs and conservative take the order too.
//
// Choices where the paper is silent, and deviations:
//   - Run time is what the engine reports when a job ends (sim.Observer's
//     actual, end − start), as an accounting database records it after
//     the fact; the policy never sees a run time before the job ends.
//   - "Completed" means ended, killed or not. A job killed at its estimate
//     ran exactly its requested time, so its accuracy is 1, as in the
//     accounting data the paper's SLURM plugin reads (elapsed = time
//     limit); the policy cannot tell such a job from one that used its
//     whole request. A job that ran past its estimate (only with
//     sim.Options.AllowOverrun) counts as 1, the paper's upper bound. A job
//     that ran 0 s counts as 0, the worst estimate, unless it also asked
//     for 0 s (then 1). A job whose missing estimate the engine filled
//     with its run time counts as exact. Rejected jobs never ran and never
//     count. The measure is psp.Accuracy.
//   - Users are SWF user numbers; jobs of unknown users (-1) are one user.
//     A user with fewer completed jobs than the window has the mean of
//     those they have. A user with none has priority NewUser, 5 by
//     default: the policy penalises a record of bad estimates, and a new
//     user has none (set 1 to make newcomers earn their priority).
//   - Priorities change only when one of the user's jobs ends, the one
//     event that changes an accuracy; the paper also recomputes them at
//     each submission, which changes nothing, and periodically (Algorithm
//     1's time_lap). Its SLURM priority thread runs apart from the
//     scheduler; here each pass orders the queue by the priorities of
//     that instant.
//   - Priority is the only factor by default: no age, fairshare or size
//     factor of SLURM's multifactor plugin, into which the paper put its
//     code with weights it does not give. AgeScale adds an age term, so
//     that a job's priority is class + min(wait, MaxAge) / AgeScale; it is
//     compared exactly, as class × AgeScale + min(wait, MaxAge) in
//     seconds, ties by arrival.
//   - The paper simulated SLURM (its backfill plugin, configuration not
//     given) while describing Maui's FCFS + EASY; the "psp" entry is EASY.
//   - The class is Table 1's exactly: a mean on a class boundary is in
//     the class above it, although float64 sums may round it below
//     ((0.2 + 0 + 1)/3 comes to 0.3999…); psp.MeanClass recomputes such
//     means in exact arithmetic.
//
// Cost: Submitted, Started and a completion O(1) (O(Window) for the new
// mean); Sort O(1) while every waiting job's user has one priority
// (arrival order is then priority order), else one stable counting pass
// over the queue, O(queue).
//
// An Accuracy value serves one run and needs the disciplines' observer
// calls (it is an ObservingOrder).
type Accuracy struct {
	window  int
	newUser int8
	scale   sim.Time // the age term's T; 0: none
	maxAge  sim.Time

	userTable[accUser]
	byClass [psp.Classes + 1]int // waiting jobs by their users' class
	spare   []*sim.Job
}

type accUser struct {
	class   int8  // the priority, 1–5
	waiting int32 // the user's waiting jobs
	// last holds the user's last len(last) completed jobs; once it holds
	// a full window, next is the oldest.
	last []psp.Ended
	next int
}

var _ ObservingOrder = (*Accuracy)(nil)

// NewAccuracy returns a PSP accuracy order. It fails on a window outside
// 1..MaxAccuracyWindow or a new users' priority outside 1..5, naming the
// registry's parameter (accuracy_window, new_user_priority).
func NewAccuracy(c AccuracyConfig) (*Accuracy, error) {
	if c.Window < 1 || c.Window > MaxAccuracyWindow {
		return nil, fmt.Errorf("parameter \"accuracy_window\": %d is not in 1..%d jobs", c.Window, MaxAccuracyWindow)
	}
	if c.NewUser < 1 || c.NewUser > psp.Classes {
		return nil, fmt.Errorf("parameter \"new_user_priority\": %d is not in 1..%d", c.NewUser, psp.Classes)
	}
	const limit = 1 << 56 // class × age_scale + max_age stays far from overflow
	if c.AgeScale < 0 || c.AgeScale > limit {
		return nil, fmt.Errorf("parameter \"age_scale\": %d is not in 0..%d seconds", c.AgeScale, int64(limit))
	}
	if c.MaxAge < 0 || c.MaxAge > limit {
		return nil, fmt.Errorf("parameter \"max_age\": %d is not in 0..%d seconds", c.MaxAge, int64(limit))
	}
	a := &Accuracy{window: c.Window, newUser: int8(c.NewUser), scale: c.AgeScale, maxAge: c.MaxAge}
	if a.maxAge == 0 {
		a.maxAge = DefaultMaxAge
	}
	return a, nil
}

// Name returns "accuracy".
func (a *Accuracy) Name() string { return "accuracy" }

// Submitted registers j's user, at the new users' priority if unseen, and
// counts j as waiting.
func (a *Accuracy) Submitted(_ sim.Time, j *sim.Job) {
	ui, isNew := a.register(j)
	u := &a.users[ui]
	if isNew {
		u.class = a.newUser
	}
	u.waiting++
	a.byClass[u.class]++
}

// Started counts the jobs js as no longer waiting.
func (a *Accuracy) Started(_ sim.Time, _ sim.View, js []*sim.Job) {
	for _, j := range js {
		u := a.user(j)
		u.waiting--
		a.byClass[u.class]--
	}
}

// Finished adds j, which ran actual of its estimate, to its user's window
// and moves the user to the class of the window's mean accuracy
// (psp.MeanClass of psp.Accuracy).
func (a *Accuracy) Finished(_ sim.Time, j *sim.Job, actual sim.Time) {
	u := a.user(j)
	e := psp.Ended{Run: actual, Estimate: j.Estimate}
	if len(u.last) < a.window {
		u.last = append(u.last, e)
	} else {
		u.last[u.next] = e
		u.next = (u.next + 1) % a.window
	}
	class := int8(psp.MeanClass(u.last))
	if class != u.class {
		a.byClass[u.class] -= int(u.waiting)
		a.byClass[class] += int(u.waiting)
		u.class = class
	}
}

// Sort orders q by (priority of the job's user, highest first; Seq). q
// must be the whole waiting queue in arrival order, as the disciplines give
// it; Sort panics if it holds a different number of jobs than have been
// submitted and not started (a discipline that does not forward observer
// calls).
func (a *Accuracy) Sort(now sim.Time, q []*sim.Job) {
	queued, classes := 0, 0
	for _, n := range a.byClass {
		if n > 0 {
			queued += n
			classes++
		}
	}
	if len(q) != queued {
		panic(fmt.Sprintf("policies: Accuracy.Sort of %d jobs while %d are waiting; the discipline must pass its whole queue and forward sim.Observer calls", len(q), queued))
	}
	if a.scale > 0 {
		a.sortAged(now, q)
		return
	}
	if classes < 2 {
		return // arrival order is priority order
	}
	// A stable counting sort: each class's jobs go, in queue order, to
	// the class's block; the blocks run from priority 5 down.
	var at [psp.Classes + 1]int
	pos := 0
	for c := psp.Classes; c >= 1; c-- {
		at[c], pos = pos, pos+a.byClass[c]
	}
	a.spare = append(a.spare[:0], q...)
	for _, j := range a.spare {
		c := a.user(j).class
		q[at[c]] = j
		at[c]++
	}
}

// sortAged orders q by class × T + min(now − submit, MaxAge), highest
// first, ties in queue (arrival) order.
func (a *Accuracy) sortAged(now sim.Time, q []*sim.Job) {
	key := func(j *sim.Job) int64 {
		age := min(max(now-j.Submit, 0), a.maxAge)
		return int64(a.user(j).class)*int64(a.scale) + int64(age)
	}
	slices.SortStableFunc(q, func(x, y *sim.Job) int { return cmp.Compare(key(y), key(x)) })
}

// Priority returns user's priority, 1 to 5, as it stands; the new users'
// priority for a user not seen.
func (a *Accuracy) Priority(user int32) int {
	u, ok := a.lookup(user)
	if !ok {
		return int(a.newUser)
	}
	return int(u.class)
}

// newPSP is EASY over the accuracy order, named "psp" (Rocchetti et al.
// 2015; see Accuracy).
func newPSP(p *PSPParams) (sim.Policy, error) {
	o, err := NewAccuracy(p.AccuracyConfig)
	if err != nil {
		return nil, err
	}
	e := NewEASY(o)
	e.name = "psp"
	return e, nil
}
