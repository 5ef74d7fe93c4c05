package policies_test

// The two-tier oracle's policy (oracle_twotier_test.go has the engine and
// the list of what it follows): one pass of KEASY, REASY or MEASY, steps
// 1–3 with Deploy and Dispatch (Liu et al. 2012, Algorithms 1–3), decided
// from the jobs' state alone.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// move is how j would reach the foreground now; false if it cannot.
func (st *ttState) move(j *ttJob) (tier.Move, bool) {
	if j.phase == oWaiting {
		return tier.Start, true
	}
	fg, _ := st.board()
	for _, p := range j.procs {
		if fg[p] != nil {
			switch st.cfg.how {
			case "keasy":
				return tier.Restart, true
			case "measy":
				return tier.Migrate, true
			}
			return 0, false
		}
	}
	return tier.Swap, true
}

// deploy is Algorithm 2's Deploy: j to the foreground, not onto the
// processors in avoid; false if it cannot go.
func (st *ttState) deploy(j *ttJob, avoid []int) bool {
	m, ok := st.move(j)
	if !ok {
		return false
	}
	procs := j.procs
	if m != tier.Swap {
		if procs = st.dispatch(j, ttFg, avoid); procs == nil {
			return false
		}
	}
	st.place(j, m, ttFg, procs)
	return true
}

// dispatch is Algorithm 2's Dispatch: the VMs of tier t that can take a
// process of j (idle; in the background also behind a foreground below
// the threshold), not on avoid, whose processor's other VM uses the least
// CPU, ties by the highest processor; nil if there are too few.
func (st *ttState) dispatch(j *ttJob, t int, avoid []int) []int {
	fg, bg := st.board()
	type cand struct {
		p int
		u float64
	}
	var cands []cand
	for p := range st.n {
		if slices.Contains(avoid, p) {
			continue
		}
		var other *ttJob
		if t == ttFg {
			if fg[p] != nil {
				continue
			}
			if other = bg[p]; other == j {
				other = nil
			}
		} else {
			if bg[p] != nil {
				continue
			}
			if other = fg[p]; other != nil && ttUsage(other) >= st.cfg.threshold {
				continue
			}
		}
		u := 0.0
		if other != nil {
			u = ttUsage(other)
		}
		cands = append(cands, cand{p, u})
	}
	if len(cands) < j.need() {
		return nil
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if a.u != b.u {
			if a.u < b.u {
				return -1
			}
			return 1
		}
		return b.p - a.p
	})
	var procs []int
	for _, c := range cands[:j.need()] {
		procs = append(procs, c.p)
	}
	return procs
}

// reserve returns the head's shadow time and extra foreground VMs, and the
// processors a job using the extra VMs must avoid; a shadow time of -1 if
// the head never fits.
func (st *ttState) reserve(head *ttJob) (sim.Time, int, []int) {
	fg, _ := st.board()
	idle := st.idleFg()
	if st.cfg.how == "reasy" && head.phase == oRunning {
		// Section 2.3.1: the last believed end of the foreground jobs on
		// its processors; extra: the idle VMs off them.
		shadow, idleOwn := st.now+1, 0
		for _, p := range head.procs {
			if fg[p] != nil {
				shadow = max(shadow, fg[p].believed)
			} else {
				idleOwn++
			}
		}
		return shadow, idle - idleOwn, head.procs
	}
	var ends []sim.Time
	for _, j := range st.live {
		if j.phase == oRunning && j.tier == ttFg {
			ends = append(ends, max(j.believed, st.now+1))
		}
	}
	slices.Sort(ends)
	for _, t := range slices.Compact(ends) {
		avail := idle
		for _, j := range st.live {
			if j.phase == oRunning && j.tier == ttFg && max(j.believed, st.now+1) <= t {
				avail += j.need()
			}
		}
		if head.need() <= avail {
			return t, avail - head.need(), nil
		}
	}
	return -1, 0, nil // admitted jobs fit the machine: pass reports it
}

// pass is one scheduling pass: steps 1, 2 and 3.
func (st *ttState) pass() error {
	var waiting, u []*ttJob // by arrival
	for _, j := range st.live {
		if j.phase == oWaiting {
			waiting = append(waiting, j)
		}
		if j.phase == oWaiting || j.tier == ttBg {
			u = append(u, j)
		}
	}
	if st.cfg.fair != nil {
		var err error
		if u, err = st.fairOrder(u); err != nil {
			return err
		}
	}
	// Step 1: FCFS into the foreground.
	i := 0
	for ; i < len(u); i++ {
		if u[i].need() > st.idleFg() || !st.deploy(u[i], nil) {
			break
		}
	}
	// Step 2: the head's reservation, then backfilling.
	var head *ttJob
	if i < len(u) {
		head = u[i]
		shadow, extra, avoid := st.reserve(head)
		if shadow < 0 {
			return fmt.Errorf("oracle: head %d never fits at %d", head.ID, st.now)
		}
		for _, j := range u[i+1:] {
			m, ok := st.move(j)
			if !ok || j.need() > st.idleFg() {
				continue
			}
			switch {
			case st.now+st.span(j, m) <= shadow:
				st.deploy(j, nil)
			case j.need() <= extra:
				if st.deploy(j, avoid) {
					extra -= j.need()
				}
			}
		}
		if st.cfg.fair != nil && st.head != nil && head != st.head && slices.Contains(u, st.head) && st.head.tier != ttFg {
			st.event(tier.Withdrawn, st.head, "withdraw") // overtaken
		}
		switch {
		case head != st.head || shadow < st.headAt:
			st.event(tier.Promised, head, fmt.Sprintf("promise %d", shadow))
		case shadow > st.headAt:
			st.event(tier.Withdrawn, head, "withdraw")
			st.event(tier.Promised, head, fmt.Sprintf("promise %d", shadow))
		}
		st.headAt = shadow
	}
	st.head = head
	// Step 3: SJF into the background.
	slices.SortStableFunc(waiting, func(a, b *ttJob) int { return cmp.Compare(a.Estimate, b.Estimate) })
	for _, j := range waiting {
		if j.phase != oWaiting {
			continue
		}
		if procs := st.dispatch(j, ttBg, nil); procs != nil {
			st.place(j, tier.Start, ttBg, procs)
		}
	}
	return nil
}

// fairOrder returns u (waiting and background jobs, by arrival) in
// fairshare order: by the user's decayed usage per share, ties by
// arrival, as oracle_order_test.go ranks a waiting queue; every job
// started so far charges its user from its first placement to its end
// or now.
func (st *ttState) fairOrder(u []*ttJob) ([]*ttJob, error) {
	of := map[*oracleJob]*ttJob{}
	view := func(j *ttJob) *oracleJob {
		o := &oracleJob{Record: j.Record, start: j.start, end: j.end}
		if j.phase != oDone {
			o.end = math.MaxInt64
		}
		of[o] = j
		return o
	}
	var arrived, list []*oracleJob
	for _, j := range st.jobs {
		arrived = append(arrived, view(j))
	}
	for _, j := range u {
		list = append(list, view(j))
	}
	c := sim.Resources{sim.Procs: int64(st.n)}
	if err := st.cfg.fair.fairshare(st.now, c, list, arrived); err != nil {
		return nil, err
	}
	out := make([]*ttJob, len(list))
	for i, o := range list {
		out[i] = of[o]
	}
	return out, nil
}
