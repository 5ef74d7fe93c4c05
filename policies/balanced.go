package policies

import (
	"fmt"
	"slices"

	"github.com/schedsweep/schedsweep/sim"
)

// Balanced is EASY backfilling that chooses its backfilled jobs by how they
// balance the use of every resource kind: Backfill Balanced (BB) of
// Leinberger, Karypis & Kumar (SC 1999) and Improved Backfill Balanced (IBB)
// of Liu, Luan, Wang & Qian ("IBB: Improved K-Resource Aware Backfill
// Balanced Scheduling for HTCondor", NPC 2016, LNCS 9966, section 3.1).
//
// Both run EASY's pass (see EASY): jobs start in arrival order while they
// fit, the first that does not (the head) gets a reservation at its shadow
// time, and only jobs that fit now and either end by the shadow time or fit
// the extra resources are backfill candidates — the paper's "basic
// backfilling requirements". They differ from EASY, and from each other,
// only in which candidates start. In both, for the K resource kinds of the
// cluster, S_i is the fraction of kind i in use now (counting the jobs
// started earlier in the same pass) and R_i^j the fraction candidate j asks
// for; x_i = S_i + R_i^j is the use after j starts.
//
//   - BB (Formula 1) scores each candidate by the balance measure
//     max_i x_i / (Σ_i x_i / K) times the fullness modifier 1 − Σ_i x_i / K,
//     and starts the lowest-scoring one. The balance measure alone would
//     prefer the job that evens out the kinds; the modifier lets a larger
//     job with a worse balance win when it nearly fills the machine.
//   - IBB traverses the candidates once in queue order and starts every one
//     for which Formula 2 holds: the imbalance max_i x_i / (Σ_i x_i / K) is
//     no greater than that of S alone — the job "does not worsen the
//     resource imbalance".
//
// Choices where the papers are silent or unclear:
//
//   - How many jobs BB starts per pass. Liu et al. read BB as starting one
//     job "in one traversal of the job queue" and give that as the reason
//     IBB beats it. Our engine has one pass per event time, so BB taken
//     literally starts one backfilled job per event time and leaves the
//     rest of the machine idle until something happens. By default
//     (backfill = "repeat") BB starts the best candidate, rescores the
//     remaining ones against the new S, and repeats until no candidate is
//     left, which is how we understand Leinberger et al.'s original; their
//     paper is not among ours, so this rests on the description of
//     it, unverified. backfill = "once" gives the literal one-per-pass
//     reading, for comparison with Liu et al.'s figures.
//   - K is every kind the cluster has (capacity above zero): processors
//     and memory on a machine with memory, processors alone otherwise. The
//     paper's simulations use processors and memory. With processors alone
//     the balance measure is always 1, so BB starts the widest candidate
//     first and IBB's test always holds: IBB is then exactly EASY.
//   - S counts the jobs started earlier in the same pass, BB's rescoring
//     and IBB's traversal alike. Algorithm 1 of the paper, which would say
//     so, is a figure missing from our copy of the text.
//   - Ties: BB takes the earliest candidate in queue order among equal
//     scores. IBB starts a job that leaves the imbalance equal.
//   - Formula 2 is evaluated multiplied out, max(x)·Σ S ≤ max(S)·Σ x, which
//     is exact for fractions with few binary digits (such as k/16) and
//     needs no division. It is undefined when nothing is in use (Σ S = 0);
//     that cannot happen while a head is blocked, since an admitted job fits
//     the empty machine, and the multiplied form would then let any job
//     pass.
//   - The queue is in arrival order, as in the paper; no other order is
//     offered.
//   - Small jobs. Liu et al. motivate IBB by small jobs' impact on
//     utilization being negligible, yet Formula 2 as printed judges every
//     job. IBB's parameter small (a fraction, default 0: off, the literal
//     reading) exempts from Formula 2 a candidate that asks for at most
//     that fraction of every kind of the cluster: it starts if it is
//     admitted. BB, which scores rather than filters, has no such
//     parameter.
//
// On a machine of nodes (sim/nodes) both run EASY's pass on the nodes (see
// EASY): a candidate is admitted when it can be placed now and either ends
// by the shadow time or leaves the head room there (sim.Lookahead.Keeps).
// They balance over the node-level free resources: S_i is the fraction of
// kind i that is not free on a node not held whole by an exclusive job
// (sim.Lookahead.Free: the cores, memory and GPUs still usable by other
// jobs), and R_i^j is what candidate j would hold of them on the nodes it
// gets now (sim.Lookahead.Cost): its cores, its memory and GPUs on each
// node it uses, and, for an exclusive job, the whole of its nodes. So a job
// asking memory per node counts it once per node, and an exclusive job of
// one core on a node of 64 uses the node. On a cluster of one node holding
// all of the pool this is the pool's S and R exactly. BB prunes a candidate
// the first time it is not admitted in a pass, as on the pool, although on
// nodes a later start can move where it would land and so admit it again.
//
// Deviations: the fractions and scores are float64 (x_i is computed in one
// division, (used_i + need_i) / capacity_i), so two candidates whose scores
// are equal in exact arithmetic may be told apart by rounding, always the
// same way. Overruns are handled as in EASY.
//
// Cost: IBB's pass is EASY's, O(queue), with O(K) work per candidate; BB's
// is O(queue + candidates × started), since the candidates are rescored
// after every start.
type Balanced struct {
	EASY
	improved bool
	once     bool
	small    float64    // IBB: jobs asking for at most this fraction of every kind skip Formula 2
	cand     []*sim.Job // BB: the candidates still admitted this pass
	use      usage
}

// BalancedParams are the parameters of backfill-balanced.
type BalancedParams struct {
	Backfill string `hcl:"backfill,optional" doc:"how many jobs a pass backfills: repeat (start the lowest-scoring candidate, rescore the rest, repeat until none is left) or once (one per scheduling pass, the reading of Liu et al. 2016)"`
}

func balancedParams() *BalancedParams { return &BalancedParams{Backfill: "repeat"} }

// newBB builds backfill-balanced from its parameters.
func newBB(p *BalancedParams) (sim.Policy, error) {
	switch p.Backfill {
	case "repeat":
		return NewBB(false), nil
	case "once":
		return NewBB(true), nil
	}
	return nil, fmt.Errorf("parameter \"backfill\": %q is not repeat or once", p.Backfill)
}

// NewBB returns Backfill Balanced. With once it starts at most one
// backfilled job per pass ("backfill-balanced/once"); otherwise it repeats
// its choice until no candidate is left ("backfill-balanced").
func NewBB(once bool) *Balanced {
	name := "backfill-balanced"
	if once {
		name += "/once"
	}
	return newBalanced(name, false, once)
}

// NewIBB returns Improved Backfill Balanced ("improved-backfill-balanced").
func NewIBB() *Balanced { return newBalanced("improved-backfill-balanced", true, false) }

// IBBParams are the parameters of improved-backfill-balanced.
type IBBParams struct {
	Small float64 `hcl:"small,optional" doc:"exempt from Formula 2 the jobs asking for at most this fraction of every resource kind (0: none, the literal reading; 0.01: 1 %)"`
}

func ibbParams() *IBBParams { return &IBBParams{} }

// newIBB builds improved-backfill-balanced from its parameters.
func newIBB(p *IBBParams) (sim.Policy, error) {
	if !(p.Small >= 0 && p.Small <= 1) {
		return nil, fmt.Errorf("parameter \"small\": %v is not a fraction in [0, 1]", p.Small)
	}
	return NewIBBSmall(p.Small), nil
}

// NewIBBSmall returns Improved Backfill Balanced that exempts from Formula
// 2 the candidates asking for at most the fraction small of every resource
// kind; NewIBBSmall(0) is NewIBB().
func NewIBBSmall(small float64) *Balanced {
	b := NewIBB()
	b.small = small
	return b
}

func newBalanced(name string, improved, once bool) *Balanced {
	b := &Balanced{EASY: EASY{name: name, rank: newRanked(Arrival{})}, improved: improved, once: once}
	b.fill = b.backfill
	return b
}

var (
	_ sim.Policy   = (*Balanced)(nil)
	_ sim.Observer = (*Balanced)(nil)
)

// backfill starts the candidates of q that BB or IBB chooses; on nodes,
// backfillNodes does.
func (b *Balanced) backfill(w *window, q []*sim.Job) {
	if w.lk != nil {
		b.backfillNodes(w, q)
		return
	}
	if w.full() {
		return
	}
	b.use.reset(w)
	if b.improved {
		for _, j := range q {
			if w.full() {
				return
			}
			if w.admits(j) && (b.use.small(w, j, b.small) || !b.use.worsens(w, j)) {
				w.take(j)
				b.use.measure(w)
			}
		}
		return
	}
	// Admission only narrows as jobs start (free and extra shrink, the
	// shadow time stays), so the candidates are gathered once and pruned.
	b.cand = b.cand[:0]
	for _, j := range q {
		if w.admits(j) {
			b.cand = append(b.cand, j)
		}
	}
	for !w.full() {
		n, best, bestScore := 0, -1, 0.0
		for _, j := range b.cand {
			if !w.admits(j) {
				continue // and never again this pass
			}
			if s := b.use.score(w, j); best < 0 || s < bestScore {
				best, bestScore = n, s
			}
			b.cand[n] = j
			n++
		}
		if best < 0 {
			return
		}
		w.take(b.cand[best])
		if b.once {
			return
		}
		b.use.measure(w)
		b.cand = slices.Delete(b.cand[:n], best, best+1)
	}
}

// usage measures, in a pass, how much of each resource kind of the cluster
// is in use, as fractions of capacity: S of the formulas, with its largest
// value and its sum, kept up to date by measure after each start.
type usage struct {
	kinds     [sim.MaxKinds]sim.Kind // the kinds with capacity above zero
	n         int
	peak, sum float64 // of S
}

// reset finds the cluster's kinds and measures S.
func (u *usage) reset(w *window) {
	u.n = 0
	for k, c := range w.capacity {
		if c > 0 {
			u.kinds[u.n] = sim.Kind(k)
			u.n++
		}
	}
	u.measure(w)
}

// measure computes S from the window's free resources.
func (u *usage) measure(w *window) {
	u.peak, u.sum = 0, 0
	for _, k := range u.kinds[:u.n] {
		s := float64(w.capacity[k]-w.free[k]) / float64(w.capacity[k])
		u.peak, u.sum = max(u.peak, s), u.sum+s
	}
}

// with returns the largest value and the sum of x = S + R^j, the use once
// j has started too; each x_i is computed in one division.
func (u *usage) with(w *window, j *sim.Job) (peak, sum float64) {
	for _, k := range u.kinds[:u.n] {
		x := float64(w.capacity[k]-w.free[k]+j.Need[k]) / float64(w.capacity[k])
		peak, sum = max(peak, x), sum+x
	}
	return peak, sum
}

// score is Formula 1 for candidate j: balance measure times fullness
// modifier. Lower is better.
func (u *usage) score(w *window, j *sim.Job) float64 {
	peak, sum := u.with(w, j)
	if sum == 0 {
		return 1 // nothing in use even with j: balanced, empty
	}
	mean := sum / float64(u.n)
	return peak / mean * (1 - mean)
}

// small reports whether j asks for at most the fraction f of every kind;
// never when f is 0.
func (u *usage) small(w *window, j *sim.Job, f float64) bool {
	if f <= 0 {
		return false
	}
	for _, k := range u.kinds[:u.n] {
		if float64(j.Need[k]) > f*float64(w.capacity[k]) {
			return false
		}
	}
	return true
}

// worsens reports whether starting j would make the cluster's use less
// balanced: Formula 2 fails.
func (u *usage) worsens(w *window, j *sim.Job) bool {
	peak, sum := u.with(w, j)
	return peak*u.sum > u.peak*sum
}
