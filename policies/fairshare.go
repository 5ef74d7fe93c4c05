package policies

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
)

// DefaultHalfLife is the half-life of usage unless told otherwise: one day,
// the "half_life: 24:00:00" of the sched_config that TORQUE's bundled
// scheduler (pbs_sched) ships with, TORQUE being the batch system
// MetaCentrum ran (Tóth & Ruda 2012, cited by Tóth & Klusáček 2014). PBS
// Professional's defaults say the same (fairshare_decay_time 24:00:00,
// fairshare_decay_factor 0.5); Slurm's PriorityDecayHalfLife defaults to
// seven days.
const DefaultHalfLife sim.Time = 86400

// Usage says what a fairshare order charges a running job for, per second.
type Usage uint8

const (
	// UsageProcs charges the processors a job holds: usage is in
	// processor-seconds.
	UsageProcs Usage = iota
	// UsageDominant charges a job's dominant share, the largest over the
	// resource kinds of need/capacity (Ghodsi et al. 2011, dominant resource
	// fairness; kinds the cluster lacks are skipped): usage is in
	// machine-seconds, so a job holding half the memory and a tenth of the
	// processors costs as much as one holding half the processors.
	UsageDominant
)

// String returns "procs" or "dominant", the registry's names.
func (u Usage) String() string {
	switch u {
	case UsageProcs:
		return "procs"
	case UsageDominant:
		return "dominant"
	}
	return fmt.Sprintf("usage(%d)", int(u))
}

// ParseUsage reads "procs" or "dominant".
func ParseUsage(s string) (Usage, error) {
	switch s {
	case "procs":
		return UsageProcs, nil
	case "dominant":
		return UsageDominant, nil
	}
	return 0, fmt.Errorf("%q is not procs or dominant", s)
}

// ParseShares reads target shares written "user:weight,user:weight", user
// being an SWF user number (-1 for jobs whose user is unknown) and weight a
// positive number. Spaces around entries and colons are allowed; "" gives
// no targets (nil). Each fault names the entry.
func ParseShares(s string) (map[int32]float64, error) { return parseTable(s, "user", "weight", true) }

// parseTable reads "key:value,key:value" into a map from whole-number keys
// (int32) to finite numbers, positive ones if positive is set; "" gives
// nil. Faults name the entry and call the parts keyName and valueName.
func parseTable(s, keyName, valueName string, positive bool) (map[int32]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	want := "a finite number"
	if positive {
		want = "a positive number"
	}
	table := make(map[int32]float64)
	for entry := range strings.SplitSeq(s, ",") {
		key, value, ok := strings.Cut(entry, ":")
		if !ok {
			return nil, fmt.Errorf("entry %q is not %s:%s", strings.TrimSpace(entry), keyName, valueName)
		}
		k, err := strconv.ParseInt(strings.TrimSpace(key), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %s %q is not a whole number", strings.TrimSpace(entry), keyName, strings.TrimSpace(key))
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || positive && !(v > 0) {
			return nil, fmt.Errorf("entry %q: %s %q is not %s", strings.TrimSpace(entry), valueName, strings.TrimSpace(value), want)
		}
		if _, dup := table[int32(k)]; dup {
			return nil, fmt.Errorf("%s %d is given twice", keyName, k)
		}
		table[int32(k)] = v
	}
	return table, nil
}

// FairshareConfig are the knobs of a fairshare order.
type FairshareConfig struct {
	// HalfLife is how long usage takes to decay by half, in seconds; > 0.
	HalfLife sim.Time
	// Usage is what a running job is charged for.
	Usage Usage
	// Shares are target weights by user; a user not listed weighs 1. nil
	// gives every user the same share.
	Shares map[int32]float64
}

// Fairshare orders the queue by its users' fairshare priorities, the
// mechanism Tóth & Klusáček (2014, sections 2.2 and 4.1) describe for
// MetaCentrum: each user's usage is remembered with an exponential decay,
// the waiting jobs are re-ordered by their users' priorities, and those
// priorities are updated continuously as jobs run, so that over a long
// enough period each user's usage tends to their designated fraction of the
// machine. The priority is that of Slurm's classic fairshare factor,
// F = 2^(-U/S), with U a user's decayed usage as a fraction of everyone's
// and S their normalised share; ranking by F is ranking by usage/share, so
// that is what Fairshare compares (the common denominators cancel). PBS
// ranks its entities by the same ratio; Maui (Jackson, Snell & Clement
// 2001) by the difference between a user's target and actual percentage,
// which agrees with the ratio when shares are equal.
//
// Accounting. A running job charges its user its rate (processors, or its
// dominant share; see Usage) for every second it has run so far: the
// policy knows when it started a job and when the engine reports it ended
// (Observer.Finished), so it charges elapsed time, never the estimate, and a
// finished job's total is its actual run time × rate. Usage decays
// continuously: a charge made d seconds ago counts 2^(-d/H) of itself, H the
// half-life. The queue is re-ordered at every scheduling pass; jobs rank by
// (usage/weight of their user, arrival), so one user's jobs keep their
// arrival order and users with equal priority (all new users: no usage)
// interleave by arrival. A user's share is their weight over the sum of the
// weights of the users seen so far; unlisted users weigh 1, so by default
// all users seen so far share equally.
//
// Cost. Usage is kept scaled to a reference time (usage × 2^((t−epoch)/H)),
// in which decay multiplies no one: a user without running jobs keeps a
// constant value and only those with running jobs move. Each user's waiting
// jobs are kept in arrival order, so a pass sorts users, not jobs: it
// computes one priority per waiting user, sorts those users (an insertion
// sort from the last pass's ranking, O(U) when little changed, O(U log U)
// at worst), and copies their queues into q one after the other (merging
// by arrival the queues of users of equal priority): a copy of Q pointers
// for Q waiting jobs of U users, and O(1) while at most one user waits, as
// arrival order is then fairshare order. A start costs a binary search in
// its user's queue and a shift of its shorter side. The reference time
// moves every 64 half-lives, O(users).
//
// Deviations: users only, flat — no account or group tree (Slurm's
// associations, Maui's group and account fairshare, PBS's fairshare tree);
// fairshare is the only priority factor, with no age, size or QOS factor, so
// ties go by arrival and a heavy user's job can wait as long as lighter users
// keep the machine busy; decay and charging are continuous and exact
// rather than applied every calculation period (Slurm's PriorityCalcPeriod,
// Maui's FSInterval windows, PBS's decay interval); the queue is re-ordered
// at every event time rather than periodically; the users are those seen so
// far, not an accounting database's list; usage is never reset; with
// unequal shares the ratio, not Maui's difference, decides; the
// multi-resource variant is the dominant share, one of the two measures
// the paper names (section 2.1), not Maui's processor equivalent.
// Priorities are float64: users rank equal only when their values are
// exactly equal.
//
// A Fairshare value serves one run and needs the disciplines' observer
// calls (it is an ObservingOrder).
type Fairshare struct {
	halfLife sim.Time
	usage    Usage
	shares   map[int32]float64
	k        float64 // H/ln 2: ∫ 2^(x/H) dx = k·2^(x/H)
	perSec   float64 // ln 2/H

	capacity sim.Resources // the cluster's, learnt at the first start
	epoch    sim.Time      // the reference time of the scaled values
	now      sim.Time      // the time scale was computed for
	scale    float64       // 2^((now−epoch)/H)
	weights  float64       // the sum of the weights of the users seen

	userTable[fsUser]
	waiting []int32 // the users with waiting jobs (indices in users), as the last Sort ranked them
	queued  int     // waiting jobs
}

type fsUser struct {
	weight float64
	// charged is the user's usage up to last, scaled to the epoch; at is
	// the scale at last; rate is what the user's running jobs charge per
	// second.
	charged, at, rate float64
	last              sim.Time
	running           int32

	// queue[head:] are the user's waiting jobs in arrival order.
	queue []*sim.Job
	head  int

	// At the last Sort: the priority and the first waiting job's Seq.
	key   float64
	first int
}

// waiting returns u's waiting jobs in arrival order.
func (u *fsUser) waiting() []*sim.Job { return u.queue[u.head:] }

var _ ObservingOrder = (*Fairshare)(nil)

// NewFairshare returns a fairshare order. It fails on a half-life that is
// not positive, an unknown Usage, or a weight that is not a positive finite
// number.
func NewFairshare(c FairshareConfig) (*Fairshare, error) {
	if c.HalfLife <= 0 {
		return nil, fmt.Errorf("half-life %d is not a positive number of seconds", c.HalfLife)
	}
	if c.Usage != UsageProcs && c.Usage != UsageDominant {
		return nil, fmt.Errorf("unknown usage %v", c.Usage)
	}
	for u, w := range c.Shares {
		if math.IsInf(w, 0) || !(w > 0) {
			return nil, fmt.Errorf("user %d: weight %v is not a positive number", u, w)
		}
	}
	return &Fairshare{
		halfLife: c.HalfLife,
		usage:    c.Usage,
		shares:   maps.Clone(c.Shares),
		k:        float64(c.HalfLife) / math.Ln2,
		perSec:   math.Ln2 / float64(c.HalfLife),
		scale:    1,
	}, nil
}

// Name returns "fairshare".
func (f *Fairshare) Name() string { return "fairshare" }

// Submitted registers j's user (weighing it from the shares) and counts j
// as waiting.
func (f *Fairshare) Submitted(_ sim.Time, j *sim.Job) {
	ui, isNew := f.register(j)
	u := &f.users[ui]
	if isNew {
		w, listed := f.shares[j.User]
		if !listed {
			w = 1
		}
		u.weight = w
		f.weights += w
	}
	if len(u.queue) == cap(u.queue) && u.head > 0 {
		n := copy(u.queue, u.queue[u.head:])
		clear(u.queue[n:])
		u.queue, u.head = u.queue[:n], 0
	}
	if len(u.queue) == u.head {
		f.waiting = append(f.waiting, ui)
	}
	u.queue = append(u.queue, j)
	f.queued++
}

// Started charges each job's user from now on.
func (f *Fairshare) Started(now sim.Time, v sim.View, js []*sim.Job) {
	f.capacity = v.Capacity()
	scale := f.scaleAt(now)
	for _, j := range js {
		u := f.user(j)
		f.bring(u, now, scale)
		u.rate += f.rate(j)
		u.running++
		f.dequeue(u, j)
	}
}

// dequeue removes the started job j from u's queue, shifting whichever side
// of it is shorter, and u from the waiting users if that was its last.
func (f *Fairshare) dequeue(u *fsUser, j *sim.Job) {
	q := u.waiting()
	i, ok := slices.BinarySearchFunc(q, j.Seq, func(x *sim.Job, seq int) int { return cmp.Compare(x.Seq, seq) })
	if !ok {
		panic("policies: Fairshare started a job it does not hold as waiting") // broken invariant
	}
	if i < len(q)-1-i {
		copy(q[1:i+1], q[:i])
		q[0] = nil
		u.head++
	} else {
		copy(q[i:], q[i+1:])
		q[len(q)-1] = nil
		u.queue = u.queue[:len(u.queue)-1]
	}
	f.queued--
	if u.head < len(u.queue) {
		return
	}
	u.queue, u.head = u.queue[:0], 0
	i = slices.Index(f.waiting, f.jobUser[j.Seq])
	f.waiting = slices.Delete(f.waiting, i, i+1) // keeps the others' ranking
}

// Finished stops charging j's user for j. Its elapsed time, now − start,
// is the actual run time; the charge has accrued since the start.
func (f *Fairshare) Finished(now sim.Time, j *sim.Job, _ sim.Time) {
	u := f.user(j)
	f.bring(u, now, f.scaleAt(now))
	if u.running--; u.running == 0 {
		u.rate = 0 // no rounding left behind
	} else {
		u.rate -= f.rate(j)
	}
}

// Sort orders q by (usage/weight of the job's user at now, Seq). q must be
// the whole waiting queue, as the disciplines give it: Sort writes the
// users' queues it holds over it. It panics if q is not that queue (a
// discipline that does not forward observer calls, or a caller passing
// part of the queue).
func (f *Fairshare) Sort(now sim.Time, q []*sim.Job) {
	if len(q) != f.queued {
		panic(fmt.Sprintf("policies: Fairshare.Sort of %d jobs while %d are waiting; the discipline must pass its whole queue and forward sim.Observer calls", len(q), f.queued))
	}
	if len(f.waiting) < 2 {
		return // one user's jobs: arrival order is fairshare order
	}
	f.scaleAt(now) // moves the epoch if due
	for _, ui := range f.waiting {
		u := &f.users[ui]
		u.key, u.first = f.charge(u, now)/u.weight, u.queue[u.head].Seq
	}
	f.rankUsers()
	pos := 0
	for i := 0; i < len(f.waiting); {
		u := &f.users[f.waiting[i]]
		n := copy(q[pos:], u.waiting())
		// Users of equal priority: their jobs go by arrival.
		k := i + 1
		for ; k < len(f.waiting) && f.users[f.waiting[k]].key == u.key; k++ {
			n += copy(q[pos+n:], f.users[f.waiting[k]].waiting())
		}
		if k > i+1 {
			slices.SortFunc(q[pos:pos+n], func(a, b *sim.Job) int { return cmp.Compare(a.Seq, b.Seq) })
		}
		pos += n
		i = k
	}
}

// priority returns the fairshare priority of j's user at now as Sort
// ranks users, its usage over its weight (lower first), for a job that
// arrived, waiting or not: the merged list of fairshare-measy.
func (f *Fairshare) priority(now sim.Time, j *sim.Job) float64 {
	f.scaleAt(now) // moves the epoch if due, as Sort does
	u := f.user(j)
	return f.charge(u, now) / u.weight
}

// rankUsers sorts the waiting users by (key, first). They are in the last
// pass's order, which usually changes little: an insertion sort costs
// O(U) then; past a budget of moves it hands over to a full sort.
func (f *Fairshare) rankUsers() {
	less := func(a, b int32) bool {
		ua, ub := &f.users[a], &f.users[b]
		return ua.key < ub.key || ua.key == ub.key && ua.first < ub.first
	}
	w := f.waiting
	budget := 4 * len(w)
	for i := 1; i < len(w); i++ {
		x, k := w[i], i
		for ; k > 0 && less(x, w[k-1]); k-- {
			w[k] = w[k-1]
		}
		w[k] = x
		if budget -= i - k; budget < 0 {
			slices.SortFunc(w, func(a, b int32) int {
				ua, ub := &f.users[a], &f.users[b]
				return cmp.Or(cmp.Compare(ua.key, ub.key), cmp.Compare(ua.first, ub.first))
			})
			return
		}
	}
}

// Usage returns user's decayed usage at now (processor-seconds, or
// machine-seconds with UsageDominant); 0 for a user not seen. now must not
// be before the last event the order saw.
func (f *Fairshare) Usage(user int32, now sim.Time) float64 {
	u, ok := f.lookup(user)
	if !ok {
		return 0
	}
	return f.decayed(u, now, f.epochDecay(now))
}

// TotalUsage returns the sum of every user's Usage at now, O(users).
func (f *Fairshare) TotalUsage(now sim.Time) float64 {
	total := 0.0
	scale := f.epochDecay(now)
	for i := range f.users {
		total += f.decayed(&f.users[i], now, scale)
	}
	return total
}

// epochDecay returns 2^(−(now−epoch)/H), which decayed scales every user's
// charge by: the same for all of them at one time.
func (f *Fairshare) epochDecay(now sim.Time) float64 {
	return math.Exp2(-float64(now-f.epoch) / float64(f.halfLife))
}

// decayed returns u's decayed usage at now; scale is epochDecay(now).
func (f *Fairshare) decayed(u *fsUser, now sim.Time, scale float64) float64 {
	// charge(u, now)/2^((now−epoch)/H), rearranged so that a time far
	// past the epoch underflows to 0 rather than overflowing.
	usage := u.charged * scale
	if u.rate != 0 {
		usage += float64(u.rate * f.k * -math.Expm1(-float64(now-u.last)*f.perSec))
	}
	return usage
}

// Share returns user's normalised target share: its weight over the sum of
// the weights of the users seen so far; 0 for a user not seen.
func (f *Fairshare) Share(user int32) float64 {
	u, ok := f.lookup(user)
	if !ok {
		return 0
	}
	return u.weight / f.weights
}

// rate returns what j charges per second.
func (f *Fairshare) rate(j *sim.Job) float64 {
	if f.usage == UsageProcs {
		return float64(j.Need[sim.Procs])
	}
	share := 0.0
	for k, c := range f.capacity {
		if c > 0 {
			share = max(share, float64(j.Need[k])/float64(c))
		}
	}
	return share
}

// charge returns u's usage at now, scaled to the epoch. Since last, u's
// running jobs have added ∫ rate·2^((x−epoch)/H) dx over [last, now], which
// is rate·k·at·(2^((now−last)/H) − 1); Expm1 keeps the last factor exact
// for spans short against the half-life.
func (f *Fairshare) charge(u *fsUser, now sim.Time) float64 {
	if u.rate == 0 {
		return u.charged
	}
	// The explicit conversion keeps a compiler from fusing the multiply
	// and add, so results are the same on every platform.
	return u.charged + float64(u.rate*f.k*u.at*math.Expm1(float64(now-u.last)*f.perSec))
}

// bring charges u up to now, whose scale is scale.
func (f *Fairshare) bring(u *fsUser, now sim.Time, scale float64) {
	u.charged = f.charge(u, now)
	u.at, u.last = scale, now
}

// scaleAt returns 2^((now−epoch)/H), first moving the epoch by whole
// half-lives once it lies 64 of them back, so the scaled values stay far from
// overflow: each value is then halved exactly that many times, and users
// with running jobs are charged up to now. So a running job's last charge
// is never more than 64 half-lives back, and charge cannot overflow.
func (f *Fairshare) scaleAt(now sim.Time) float64 {
	if now == f.now {
		return f.scale
	}
	n := (now - f.epoch) / f.halfLife
	if n >= 64 {
		f.epoch += n * f.halfLife
	}
	f.now = now
	f.scale = math.Exp2(float64(now-f.epoch) / float64(f.halfLife))
	if n < 64 {
		return f.scale
	}
	for i := range f.users {
		u := &f.users[i]
		u.charged = math.Ldexp(u.charged, -int(n))
		if u.rate != 0 {
			// Since last: rate·k·(scale − at'), at' = scale·2^(−(now−last)/H)
			// the old at rescaled, written so that neither an underflow of
			// at' nor a long span can spoil it.
			d := float64(now-u.last) * f.perSec
			u.charged += float64(u.rate * f.k * f.scale * -math.Expm1(-d))
			u.at, u.last = f.scale, now
		}
	}
	return f.scale
}
