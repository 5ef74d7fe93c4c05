package policies

import (
	"cmp"
	"errors"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// TwoTier is the family of EASY extensions for two-tier processors of Liu,
// Wang, Zhou, Chen, Yang and Zomaya ("Scheduling Parallel Jobs Using
// Migration and Consolidation in the Cloud", Mathematical Problems in
// Engineering 2012): every processor has a high-priority foreground VM and
// a low-priority background VM (package sim/tier models them), and a job
// may run in the background on the cycles the foreground leaves. One pass
// is Algorithm 1 (KEASY; Algorithm 3 for REASY's reservation):
//
//  1. FCFS into the foreground: the merged list U of waiting jobs and jobs
//     running in the background, in arrival order, is deployed to
//     foreground VMs while its first job fits the idle ones;
//  2. EASY: the first job of U left (the head) gets a reservation at its
//     shadow time, and later jobs of U are deployed to the foreground if
//     they fit now and either end by the shadow time or fit in the extra
//     VMs;
//  3. SJF into the background: the waiting jobs by estimate, each placed
//     in background VMs if enough of them accept a process.
//
// Deploying a background job (Algorithm 2) swaps the priorities of its
// processors' VMs if all their foreground VMs are idle; otherwise KEASY
// kills it and restarts it from scratch elsewhere, MEASY migrates it
// (keeping its progress, paying the migration cost) and REASY leaves it
// where it is: its run is pinned to its processors. For a head running in
// the background, REASY's shadow time is the last believed end of the
// foreground jobs on its processors, and its extra VMs the idle ones not on
// its processors (section 2.3.1). Dispatch (Algorithm 2) pairs high usage
// with low: a job goes to the idle VMs whose processor's other VM uses the
// least CPU.
//
// Choices where the paper is silent, and deviations:
//   - Every pass runs all three steps, at every arrival and every end (the
//     paper's point (1) calls step 3 only when a job leaves the background
//     and steps 1–2 only on arrivals and foreground ends).
//   - REASY: a background job that fits the idle VMs in step 1 but cannot
//     swap ends step 1, as a job that does not fit does (Algorithm 3 does
//     not show REASY's step 1; going on past it would let later jobs take
//     its processors).
//   - REASY: a job backfilled into the extra VMs of a head running in the
//     background goes to VMs off the head's processors; otherwise it could
//     land on them and delay the head.
//   - REASY may put its waiting head in the background in step 3, as the
//     paper's algorithm does; once pinned, its reservation follows the
//     background rule and may move later: the promise is then withdrawn
//     and made again, the only case where a promise moves later.
//   - Times the policy uses are the machine's beliefs (tier.Machine): a
//     job's estimate over the lowest foreground rate, plus the migration
//     cost for a migrating job; progress made in the background is not
//     counted (the paper's Figure 1 does not count it either: J8, half
//     done, "cannot be backfilled as its original execution time is 4").
//   - The shadow time counts every job believed to end at that time, so
//     the extra VMs include them, as EASY in this package does; Algorithm
//     1 stops at the first job that makes the head fit.
//   - Dispatch breaks ties of usage by the highest processor number first,
//     which reproduces the placements of the paper's Figure 1.
//   - CPU usage is Job.CPUUsage, taken as exact (the paper's section
//     3.5.1 variant without usage estimates is not modelled); an unknown
//     usage counts as 100 % (tier.Usage).
type TwoTier struct {
	name string
	how  deployMode
	plan tier.Plan
	cfg  tier.Config
	rank ranked // the waiting jobs by estimate, for step 3
	// fs, if set, orders the merged list by fairshare (fairshare-measy);
	// keyed is its scratch.
	fs    *Fairshare
	keyed []fairJob

	head   *sim.Job // the job holding the reservation, nil if none
	headAt sim.Time

	u        []*sim.Job     // the merged list
	started  []tier.Running // moved to the foreground this pass, by believed end
	took     []*sim.Job     // waiting jobs placed this pass
	cands    []candidate
	pick     []int
	avoid    []bool // by processor: REASY's head is there
	promise  []sim.Reservation
	withdraw []*sim.Job
}

// deployMode is what Deploy does with a background job that cannot swap.
type deployMode uint8

const (
	kill    deployMode = iota // KEASY: kill it and restart it from scratch
	pin                       // REASY: leave it where it is
	migrate                   // MEASY: migrate it
)

var (
	_ sim.Policy     = (*TwoTier)(nil)
	_ sim.ModelMaker = (*TwoTier)(nil)
	_ sim.Observer   = (*TwoTier)(nil)
)

// NewKEASY returns KEASY: kill and restart (Algorithms 1 and 2).
func NewKEASY() *TwoTier { return newTwoTier("keasy", kill) }

// NewREASY returns REASY: pinned background runs, reservations on their
// processors (Algorithm 3).
func NewREASY() *TwoTier { return newTwoTier("reasy", pin) }

// NewMEASY returns MEASY: migration instead of kills (section 2.3.2).
func NewMEASY() *TwoTier { return newTwoTier("measy", migrate) }

func newTwoTier(name string, how deployMode) *TwoTier {
	return &TwoTier{name: name, how: how, cfg: tier.DefaultConfig(), rank: newRanked(ShortestFirst{})}
}

// NewFairshareMEASY returns MEASY whose merged list is in fairshare order
// (f) rather than arrival order; see TwoTier for what that means.
func NewFairshareMEASY(f *Fairshare) *TwoTier {
	p := newTwoTier("fairshare-measy", migrate)
	p.fs = f
	return p
}

// Submitted tells a fairshare order of an arrival.
func (p *TwoTier) Submitted(now sim.Time, j *sim.Job) {
	if p.fs != nil {
		p.fs.Submitted(now, j)
	}
}

// Finished tells a fairshare order of an end.
func (p *TwoTier) Finished(now sim.Time, j *sim.Job, actual sim.Time) {
	if p.fs != nil {
		p.fs.Finished(now, j, actual)
	}
}

// WithConfig sets the machine model the policy runs on (the paper's,
// tier.DefaultConfig, unless set), which it checks, and returns p.
func (p *TwoTier) WithConfig(cfg tier.Config) (*TwoTier, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p.cfg = cfg
	return p, nil
}

// Config returns the machine model the policy runs on.
func (p *TwoTier) Config() tier.Config { return p.cfg }

// NewModel returns the two-tier machine of the policy's machine model for
// a cluster of the given capacity: sim.Run runs the policy on it.
func (p *TwoTier) NewModel(capacity sim.Resources, seed uint64) (sim.Model, error) {
	return tier.NewMachine(capacity, p.cfg, seed)
}

// Name returns "keasy", "reasy" or "measy".
func (p *TwoTier) Name() string { return p.name }

// Schedule runs one pass: steps 1, 2 and 3.
func (p *TwoTier) Schedule(now sim.Time, sv sim.View) (sim.Decision, error) {
	v, ok := tier.ViewOf(sv)
	if !ok {
		return sim.Decision{}, errNotTwoTier
	}
	p.plan.Reset(v)
	p.started, p.took = p.started[:0], p.took[:0]
	p.promise, p.withdraw = p.promise[:0], p.withdraw[:0]
	u := v.Waiting()
	if bg := v.Background(); len(bg) > 0 {
		p.u = mergeBySeq(p.u[:0], u, bg)
		u = p.u
	}
	if p.fs != nil {
		u = p.fairOrder(now, u)
	}

	i := 0
	for ; i < len(u) && procs(u[i]) <= p.plan.IdleForeground(); i++ {
		if !p.deploy(now, v, u[i], false) {
			break
		}
	}
	p.head = p.easy(now, v, u, i)

	var q []*sim.Job
	if p.plan.OpenBackground() > 0 { // else skip sorting the queue
		q = p.rank.jobs(now, sv)
	}
	for _, j := range q {
		k := p.plan.OpenBackground()
		if k == 0 {
			break
		}
		if procs(j) > k || p.plan.Moved(j) {
			continue
		}
		if at := p.dispatch(j, tier.Background, false); at != nil {
			if p.plan.Do(tier.Action{Move: tier.Start, Job: j, Tier: tier.Background, Procs: at}) == nil {
				p.took = append(p.took, j)
			}
		}
	}
	p.rank.took(now, sv, p.took)
	if p.fs != nil && len(p.took) > 0 {
		p.fs.Started(now, sv, p.took)
	}
	return sim.Decision{Actions: p.plan.Actions(), Promise: p.promise, Withdraw: p.withdraw}, nil
}

// easy is step 2: u[i], if any, is the head; it gets a reservation at its
// shadow time and the later jobs of u are backfilled around it. easy
// returns the head, nil if none.
func (p *TwoTier) easy(now sim.Time, v tier.View, u []*sim.Job, i int) *sim.Job {
	if i >= len(u) {
		return nil
	}
	head := u[i]
	shadow, extra, avoided := p.reserve(now, v, head)
	for _, j := range u[i+1:] {
		n := p.plan.IdleForeground()
		if n == 0 {
			break // every job needs a processor
		}
		m, ok := p.move(j)
		if !ok || procs(j) > n {
			continue
		}
		switch {
		case now+v.Span(j, m) <= shadow:
			p.deploy(now, v, j, false)
		case procs(j) <= extra:
			if p.deploy(now, v, j, avoided) {
				extra -= procs(j)
			}
		}
	}
	p.promiseHead(u, head, shadow)
	return head
}

// promiseHead promises head a start at shadow if that is new or earlier,
// withdrawing the promise it replaces where that moved later (REASY) or
// belonged to a head overtaken in fairshare order.
func (p *TwoTier) promiseHead(u []*sim.Job, head *sim.Job, shadow sim.Time) {
	if p.fs != nil && head != p.head && p.head != nil && slices.Contains(u, p.head) && p.plan.Tier(p.head) != tier.Foreground {
		// Overtaken in fairshare order, the old head waits on.
		p.withdraw = append(p.withdraw, p.head)
	}
	switch {
	case head != p.head || shadow < p.headAt:
		p.promise = append(p.promise, sim.Reservation{Job: head, Start: shadow})
	case shadow > p.headAt: // REASY: the head was pinned in the background since
		p.withdraw = append(p.withdraw, head)
		p.promise = append(p.promise, sim.Reservation{Job: head, Start: shadow})
	}
	p.headAt = shadow
}

// move returns how j would get to the foreground now, and false if it
// cannot (REASY, pinned where the foreground is busy).
func (p *TwoTier) move(j *sim.Job) (tier.Move, bool) {
	if p.plan.Tier(j) != tier.Background {
		return tier.Start, true
	}
	for _, q := range p.plan.Where(j) {
		if p.plan.Foreground(q) != nil {
			switch p.how {
			case kill:
				return tier.Restart, true
			case migrate:
				return tier.Migrate, true
			}
			return 0, false
		}
	}
	return tier.Swap, true
}

// deploy moves j to the foreground (Algorithm 2's Deploy) and reports
// whether it could; with avoid, not onto the processors p.avoid marks.
func (p *TwoTier) deploy(now sim.Time, v tier.View, j *sim.Job, avoid bool) bool {
	m, ok := p.move(j)
	if !ok {
		return false
	}
	a := tier.Action{Move: m, Job: j, Tier: tier.Foreground}
	if m != tier.Swap {
		if a.Procs = p.dispatch(j, tier.Foreground, avoid); a.Procs == nil {
			return false
		}
	}
	if p.plan.Do(a) != nil {
		return false
	}
	if m == tier.Start {
		p.took = append(p.took, j)
	}
	r := tier.Running{Job: j, End: now + v.Span(j, m)}
	k := len(p.started)
	p.started = append(p.started, r)
	for ; k > 0 && p.started[k-1].End > r.End; k-- {
		p.started[k] = p.started[k-1]
	}
	p.started[k] = r
	return true
}

// candidate is a processor Dispatch may use and its other VM's usage.
type candidate struct {
	proc  int
	usage float64
}

// dispatch returns processors for j's processes in tier t (Algorithm 2's
// Dispatch): the idle foreground VMs, or the background VMs that accept a
// process, whose processor's other VM uses the least CPU, ties by the
// highest processor first; nil if there are too few. A foreground VM's
// background neighbour that is j itself counts as idle, since j leaves it.
// The slice is valid until the next call.
//
// Empty neighbours (usage 0) sort first, so a first scan from the highest
// processor down takes those; only if they are too few are the others
// sorted. O(processors) a call, plus O(k log k) for k candidates then.
func (p *TwoTier) dispatch(j *sim.Job, t tier.Tier, avoid bool) []int {
	n := p.plan.IdleForeground()
	if t == tier.Background {
		n = p.plan.OpenBackground()
	}
	need := procs(j)
	if need > n {
		return nil
	}
	fg, bg := p.plan.VMs()
	threshold := p.plan.Threshold()
	p.avoidLen()
	// usage returns the other VM's usage on processor q, and whether q can
	// take a process of j in tier t.
	usage := func(q int) (float64, bool) {
		if avoid && p.avoid[q] {
			return 0, false
		}
		other := fg[q]
		if t == tier.Foreground {
			if fg[q] != nil {
				return 0, false
			}
			if other = bg[q]; other == j {
				other = nil
			}
		} else if bg[q] != nil || other != nil && tier.Usage(other) >= threshold {
			return 0, false
		}
		if other == nil {
			return 0, true
		}
		return tier.Usage(other), true
	}
	p.pick = p.pick[:0]
	seen := 0
	for q := len(fg) - 1; q >= 0 && len(p.pick) < need && seen < n; q-- {
		u, ok := usage(q)
		if !ok {
			continue
		}
		seen++
		if u == 0 {
			p.pick = append(p.pick, q)
		}
	}
	if len(p.pick) == need {
		return p.pick
	}
	// Too few empty neighbours: those are in p.pick already; choose the
	// rest among the others by usage, highest processor first.
	p.cands = p.cands[:0]
	for q := len(fg) - 1; q >= 0; q-- {
		if u, ok := usage(q); ok && u > 0 {
			p.cands = append(p.cands, candidate{q, u})
		}
	}
	rest := need - len(p.pick)
	if len(p.cands) < rest {
		return nil
	}
	p.pickLeastUsed(rest)
	return p.pick
}

// pickLeastUsed appends to p.pick the rest candidates of p.cands whose
// other VM uses the least CPU, ties by the highest processor first.
func (p *TwoTier) pickLeastUsed(rest int) {
	before := func(a, b candidate) bool { return a.usage < b.usage || a.usage == b.usage && a.proc > b.proc }
	if rest <= 16 {
		// Selection: rest passes over the candidates beat a sort. On
		// sim's BenchmarkSimulate/keasy/wagap-2013 (2176 processors)
		// always sorting made the run about four times slower.
		for i := range rest {
			m := i
			for k := i + 1; k < len(p.cands); k++ {
				if before(p.cands[k], p.cands[m]) {
					m = k
				}
			}
			p.cands[i], p.cands[m] = p.cands[m], p.cands[i]
		}
	} else {
		slices.SortFunc(p.cands, func(a, b candidate) int {
			if before(a, b) {
				return -1
			}
			return 1
		})
	}
	for _, c := range p.cands[:rest] {
		p.pick = append(p.pick, c.proc)
	}
}

// avoidLen sizes p.avoid to the machine and returns its length.
func (p *TwoTier) avoidLen() int {
	n := p.plan.Procs()
	if len(p.avoid) != n {
		p.avoid = make([]bool, n)
	}
	return n
}

// reserve returns the head's shadow time and extra foreground VMs, and
// whether jobs using the extra VMs must avoid the processors p.avoid marks.
func (p *TwoTier) reserve(now sim.Time, v tier.View, head *sim.Job) (sim.Time, int, bool) {
	n := p.plan.IdleForeground()
	if p.how == pin && p.plan.Tier(head) == tier.Background {
		// Section 2.3.1: the head can only swap on its own processors.
		clear(p.avoid[:p.avoidLen()])
		shadow := now + 1
		idleOwn := 0
		for _, q := range p.plan.Where(head) {
			p.avoid[q] = true
			if f := p.plan.Foreground(q); f != nil {
				shadow = max(shadow, p.plan.End(now, f))
			} else {
				idleOwn++
			}
		}
		return shadow, n - idleOwn, true
	}
	// EASY: walk the foreground jobs, running and started this pass, by
	// believed end until enough VMs are free.
	avail, shadow := n, sim.Time(-1)
	running := v.Foreground()
	r, s := 0, 0
	for r < len(running) || s < len(p.started) {
		var a tier.Running
		if s == len(p.started) || r < len(running) && running[r].End <= p.started[s].End {
			a, r = running[r], r+1
		} else {
			a, s = p.started[s], s+1
		}
		end := max(a.End, now+1)
		if shadow >= 0 && end > shadow {
			break
		}
		avail += procs(a.Job)
		if shadow < 0 && procs(head) <= avail {
			shadow = end
		}
	}
	if shadow < 0 {
		panic("policies: two-tier head never fits") // admitted jobs fit the machine
	}
	return shadow, avail - procs(head), false
}

func procs(j *sim.Job) int { return int(j.Need[sim.Procs]) }

// mergeBySeq appends the jobs of a and b, each in arrival order, to dst in
// arrival order.
func mergeBySeq(dst, a, b []*sim.Job) []*sim.Job {
	return mergeSorted(dst, a, b, func(x, y *sim.Job) int { return cmp.Compare(x.Seq, y.Seq) })
}

// fairJob is a job of the merged list and its user's fairshare priority.
type fairJob struct {
	key float64
	j   *sim.Job
}

// fairOrder returns u, in arrival order, re-ordered by the fairshare
// priority of each job's user (lowest usage per share first), ties by
// arrival; the slice is p.u.
func (p *TwoTier) fairOrder(now sim.Time, u []*sim.Job) []*sim.Job {
	p.keyed = p.keyed[:0]
	for _, j := range u {
		p.keyed = append(p.keyed, fairJob{p.fs.priority(now, j), j})
	}
	slices.SortStableFunc(p.keyed, func(a, b fairJob) int { return cmp.Compare(a.key, b.key) })
	p.u = p.u[:0]
	for _, k := range p.keyed {
		p.u = append(p.u, k.j)
	}
	return p.u
}

// errNotTwoTier fails a two-tier policy's pass on another machine model.
var errNotTwoTier = errors.New("a two-tier policy runs on the two-tier machine only")
