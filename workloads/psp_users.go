package workloads

// This file holds the users' estimating behaviour of the Penalty Scheduling
// Policy paper (Rocchetti et al., 2015, section 5.2, Table 2), shared by the
// PSP generator and the PSPEstimates transform. See PSP for the paper and
// the assumptions.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedsweep/schedsweep/sim"
)

// PSPUser is one user's estimating behaviour in a PSP scenario.
type PSPUser struct {
	ID int32
	// Group is the user's accuracy group, 1-based: g1–g6 of section 5.1 for
	// CF, CFG, DI and HDI; 1 for BE and GE, which have one group each.
	Group    int
	Initial  float64 // accuracy at the first job
	Accuracy float64 // accuracy now, after the learning steps so far
	Learns   bool    // whether the user learns (DI: all; HDI: half)
	Jobs     int     // jobs submitted so far
}

type pspUser struct {
	id      int32
	group   int8
	learns  bool
	initial float64
	acc     float64
	jobs    int
}

func (u *pspUser) export() PSPUser {
	return PSPUser{ID: u.id, Group: int(u.group) + 1, Initial: u.initial, Accuracy: u.acc, Learns: u.learns, Jobs: u.jobs}
}

// pspPopulation deals users their behaviour in blocks of block users: each
// block holds every group's share of block users, rounded by largest
// remainder, in random order; in HDI, ⌊block/2⌋ users of each block, chosen
// at random, learn. The k-th new user gets slot k mod block of block
// k / block.
type pspPopulation struct {
	sc       PSPScenario
	groups   []pspGroup
	block    int
	maxEst   sim.Time
	groupRNG *rand.Rand // which group each slot holds
	accRNG   *rand.Rand // the accuracy within the group
	learnRNG *rand.Rand // which slots learn (HDI)
	slots    []int8     // the current block's groups
	learns   []bool     // the current block's learners
	next     int        // the next free slot
}

func newPSPPopulation(sc PSPScenario, block int, maxEst sim.Time, seed uint64) *pspPopulation {
	p := &pspPopulation{
		sc:       sc,
		groups:   sc.groups(),
		block:    block,
		maxEst:   maxEst,
		groupRNG: NewStream(seed, StreamExtra),
		accRNG:   NewStream(seed, StreamEstimates),
		learnRNG: NewStream(seed, StreamExtra+1),
	}
	p.next = block
	return p
}

// pspQuota returns how many of n users each group gets: its share of n,
// rounded by largest remainder, ties to the lower group. As the shares sum
// to 100 %, each group is rounded up at most once.
func pspQuota(groups []pspGroup, n int) []int {
	counts := make([]int, len(groups))
	rems := make([]int, len(groups))
	left := n
	for i, g := range groups {
		counts[i], rems[i] = n*g.pct/100, n*g.pct%100
		left -= counts[i]
	}
	for ; left > 0; left-- {
		best := 0
		for i := range rems {
			if rems[i] > rems[best] {
				best = i
			}
		}
		counts[best]++
		rems[best] = -1
	}
	return counts
}

func (p *pspPopulation) refill() {
	p.slots = p.slots[:0]
	for g, c := range pspQuota(p.groups, p.block) {
		for range c {
			p.slots = append(p.slots, int8(g))
		}
	}
	p.groupRNG.Shuffle(len(p.slots), func(i, j int) { p.slots[i], p.slots[j] = p.slots[j], p.slots[i] })
	p.learns = p.learns[:0]
	for i := range p.block {
		p.learns = append(p.learns, p.sc == PSPDI || (p.sc == PSPHDI && i < p.block/2))
	}
	if p.sc == PSPHDI {
		p.learnRNG.Shuffle(len(p.learns), func(i, j int) { p.learns[i], p.learns[j] = p.learns[j], p.learns[i] })
	}
	p.next = 0
}

// newUser deals the next slot to the user id.
func (p *pspPopulation) newUser(id int32) *pspUser {
	if p.next == p.block {
		p.refill()
	}
	g := p.slots[p.next]
	u := &pspUser{id: id, group: g, learns: p.learns[p.next]}
	p.next++
	grp := p.groups[g]
	u.initial = grp.lo + (grp.hi-grp.lo)*p.accRNG.Float64()
	u.acc = u.initial
	return u
}

// estimate returns the estimate of u's next job, which runs for run, and
// counts the job.
func (p *pspPopulation) estimate(u *pspUser, run sim.Time) sim.Time {
	est := pspEstimate(run, u.acc, p.maxEst)
	u.submitted()
	return est
}

// submitted counts a job of u, taking a learning step after every
// PSPLearnEvery jobs of a learner.
func (u *pspUser) submitted() {
	u.jobs++
	if u.learns && u.jobs%PSPLearnEvery == 0 {
		u.acc = PSPLearn(u.acc)
	}
}

// pspEstimate is ⌈run / acc⌉ capped at maxEst, and never below run. An
// accuracy of 0 gives maxEst.
func pspEstimate(run sim.Time, acc float64, maxEst sim.Time) sim.Time {
	est := maxEst
	if e := math.Ceil(float64(run) / acc); acc > 0 && e < float64(maxEst) {
		est = sim.Time(e)
	}
	return max(est, run)
}

// PSPEstimates returns src with every job's estimate replaced as in the PSP
// scenario sc (Rocchetti et al., 2015, Table 2; see PSP): each user of src,
// by its User id, gets an accuracy when its first job arrives, and each job
// the estimate ⌈runtime / accuracy⌉, capped at ten days but never below the
// run time; in DI and HDI the learners' accuracy takes a PSPLearn step after
// every PSPLearnEvery of their jobs. It streams: it holds one small entry
// per user, not the jobs.
//
// Users are dealt groups in order of first appearance, in blocks of 20 (the
// paper's number of users): each block of 20 new users has the scenario's
// shares exactly (up to rounding) and, in HDI, 10 learners. Jobs with User
// -1 (unknown) are one user. A job with unknown run time (-1) keeps its
// estimate but counts as one of its user's jobs. The streams are those of
// NewPSP with the same seed: groups StreamExtra, accuracies StreamEstimates,
// learners StreamExtra+1.
//
// It panics if sc is not one of the PSPScenario constants.
func PSPEstimates(src sim.Source, sc PSPScenario, seed uint64) sim.Source {
	if sc < 0 || int(sc) >= len(pspScenarioNames) {
		panic(fmt.Sprintf("workloads: PSPEstimates: invalid %v", sc))
	}
	d := DefaultPSPParams()
	return &pspEstimates{src: src, pop: newPSPPopulation(sc, d.Users, d.MaxEstimate, seed), users: map[int32]*pspUser{}}
}

type pspEstimates struct {
	src   sim.Source
	pop   *pspPopulation
	users map[int32]*pspUser
}

func (e *pspEstimates) Next() (sim.Record, error) {
	rec, err := e.src.Next()
	if err != nil {
		return rec, err
	}
	u := e.users[rec.User]
	if u == nil {
		u = e.pop.newUser(rec.User)
		e.users[rec.User] = u
	}
	if rec.Runtime < 0 {
		u.submitted()
		return rec, nil
	}
	rec.Estimate = e.pop.estimate(u, rec.Runtime)
	return rec, nil
}
