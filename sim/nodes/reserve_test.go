package nodes_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// piece is one node's part of a hold, for the brute-force oracle.
type piece struct {
	node             int
	cores, mem, gpus int64
	excl             bool
	from, to         sim.Time
}

// ask is a job's request as the oracle reads it, from its record alone.
type ask struct {
	tasks, nodes, per, mem, gpus int64
	excl                         bool
}

func askOf(j *sim.Job) ask {
	if j.Shape == (sim.Shape{}) {
		return ask{tasks: j.Need[sim.Procs], mem: j.Need[sim.Memory], gpus: j.Need[sim.GPUs]}
	}
	return ask{tasks: j.Need[sim.Procs], nodes: int64(j.Shape.Nodes), per: int64(j.Shape.PerNode),
		mem: j.Shape.MemPerNode, gpus: int64(j.Shape.GPUsPerNode), excl: j.Shape.Exclusive}
}

// cap is one node's capacity.
type capa struct{ cores, mem, gpus int64 }

// oracle answers a profile's query from scratch: it lists what every
// running job and every reservation holds on each node, tries every time
// at which some hold ends (and the query's start), and at each evaluates
// each node's least free resources over the job's interval by summing the
// holds at every instant where one starts, then places the job by the
// fit rule written anew. It returns the earliest time and the placement as
// one (node, cores) pair per node.
func oracle(caps []capa, pieces []piece, a ask, from, span sim.Time, fit nodes.Fit, only bool) (sim.Time, [][2]int64) {
	times := []sim.Time{from}
	if !only {
		for _, p := range pieces {
			if p.to > from {
				times = append(times, p.to)
			}
		}
		slices.Sort(times)
		times = slices.Compact(times)
	}
	for _, t := range times {
		if got := placeOracle(caps, pieces, a, t, t+span, fit); got != nil {
			return t, got
		}
	}
	return -1, nil
}

// nodeFree is one node's least free cores over an interval, and whether
// a job may use it then (its other resources, exclusivity).
type nodeFree struct {
	n      int
	cores  int64
	usable bool
}

func placeOracle(caps []capa, pieces []piece, a ask, t, end sim.Time, fit nodes.Fit) [][2]int64 {
	var free []nodeFree
	for n, c := range caps {
		free = append(free, freeOracle(n, c, pieces, a, t, end))
	}
	return fitOracle(free, a, fit)
}

// freeOracle sums, at every instant of [t, end) where a hold on node n
// starts, what the holds there take, and keeps the least.
func freeOracle(n int, c capa, pieces []piece, a ask, t, end sim.Time) nodeFree {
	instants := []sim.Time{t}
	busy, held := false, false
	for _, p := range pieces {
		if p.node == n && p.from < end && p.to > t {
			busy = true
			held = held || p.excl
			if p.from > t {
				instants = append(instants, p.from)
			}
		}
	}
	lc, lm, lg := c.cores, c.mem, c.gpus
	for _, b := range instants {
		fc, fm, fg := c.cores, c.mem, c.gpus
		for _, p := range pieces {
			if p.node == n && p.from <= b && b < p.to {
				fc, fm, fg = fc-p.cores, fm-p.mem, fg-p.gpus
			}
		}
		lc, lm, lg = min(lc, fc), min(lm, fm), min(lg, fg)
	}
	return nodeFree{n, lc, !held && !(a.excl && busy) && lm >= a.mem && lg >= a.gpus}
}

// fitOracle places a on the nodes' free cores by the fit rule.
func fitOracle(free []nodeFree, a ask, fit nodes.Fit) [][2]int64 {
	var out [][2]int64
	switch {
	case a.nodes > 0:
		var fits []nodeFree
		for _, f := range free {
			if f.usable && f.cores >= a.per {
				fits = append(fits, f)
			}
		}
		if int64(len(fits)) < a.nodes {
			return nil
		}
		if fit == nodes.BestFit {
			slices.SortStableFunc(fits, func(x, y nodeFree) int { return cmp.Compare(x.cores, y.cores) })
			fits = fits[:a.nodes]
			slices.SortFunc(fits, func(x, y nodeFree) int { return cmp.Compare(x.n, y.n) })
		}
		for _, f := range fits[:a.nodes] {
			out = append(out, [2]int64{int64(f.n), a.per})
		}
		return out
	case fit == nodes.BestFit:
		best := -1
		for i, f := range free {
			if f.usable && f.cores >= a.tasks && (best < 0 || f.cores < free[best].cores) {
				best = i
			}
		}
		if best >= 0 {
			return [][2]int64{{int64(free[best].n), a.tasks}}
		}
	}
	need := a.tasks
	for _, f := range free {
		if f.usable && f.cores > 0 && need > 0 {
			take := min(need, f.cores)
			out = append(out, [2]int64{int64(f.n), take})
			need -= take
		}
	}
	if need > 0 {
		return nil
	}
	return out
}

func flat(uses []nodes.Use) [][2]int64 {
	var out [][2]int64
	for _, u := range uses {
		for n := u.Node; n < u.Node+u.Nodes; n++ {
			out = append(out, [2]int64{int64(n), int64(u.Cores)})
		}
	}
	return out
}

// piecesOf is what a job of request a holds on uses over [from, to).
func piecesOf(caps []capa, a ask, uses []nodes.Use, from, to sim.Time) []piece {
	var out []piece
	for _, nc := range flat(uses) {
		out = append(out, piece{node: int(nc[0]), cores: nc[1], mem: a.mem, gpus: a.gpus, excl: a.excl, from: from, to: to})
	}
	return out
}

// checker returns a profile check that asks the oracle about every
// answer of cl's profile, recs being the run's jobs by Seq; it counts the
// queries and reports the first mismatch through fail.
func checker(cl *nodes.Cluster, caps []capa, recs []sim.Record, fit nodes.Fit, queries *int, fail func(string)) func(nodes.Query) {
	return func(q nodes.Query) {
		*queries++
		now := nodes.ProfileNow(cl)
		var ps []piece
		for _, a := range cl.Running() {
			ps = append(ps, piecesOf(caps, askOf(a.Job), cl.Where(a.Job.Seq), now, max(a.EstimatedEnd(), now+1))...)
		}
		for _, r := range nodes.ReservedIn(cl) {
			running := slices.ContainsFunc(cl.Running(), func(a sim.Allocation) bool { return a.Job.Seq == r.Seq })
			if running || q.Kept && r.Seq == q.Job.Seq {
				continue
			}
			ps = append(ps, piecesOf(caps, askOf(&recs[r.Seq].Job), r.Uses, max(r.From, now), r.To)...)
		}
		t, place := oracle(caps, ps, askOf(q.Job), q.From, sim.Span(q.Job.Estimate), fit, q.Only)
		switch {
		case t != q.At:
			fail(fmt.Sprintf("t=%d job %d (%+v) from %d (only %v, kept %v): profile says %d, oracle %d on %v", now, q.Job.ID, askOf(q.Job), q.From, q.Only, q.Kept, q.At, t, place))
		case !q.Kept && t >= 0 && !slices.Equal(place, flat(q.Uses)):
			fail(fmt.Sprintf("t=%d job %d (%+v) at %d: profile places %v, oracle %v", now, q.Job.ID, askOf(q.Job), t, flat(q.Uses), place))
		}
	}
}

// shapedWorkload is n random jobs of every shape, estimates often above
// the run time (so compression moves reservations) and sometimes below.
func shapedWorkload(rng *rand.Rand, n int) []sim.Record {
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		t += sim.Time(rng.IntN(30))
		run := 1 + sim.Time(rng.IntN(200))
		est := run + sim.Time(rng.IntN(200))
		if rng.IntN(6) == 0 {
			est = max(1, run/2)
		}
		r := simtest.J(int64(i+1), t, run, est, 1)
		switch rng.IntN(4) {
		case 0:
			r.Need = sim.Resources{sim.Procs: 1 + rng.Int64N(20), sim.Memory: rng.Int64N(20)}
		case 1:
			r.Need[sim.Procs] = 1 + rng.Int64N(24)
			r.Shape = sim.Shape{Exclusive: rng.IntN(3) == 0, GPUsPerNode: int32(rng.IntN(2)), MemPerNode: rng.Int64N(8)}
		default:
			nn, per := 1+rng.Int32N(4), 1+rng.Int32N(9)
			r.Need[sim.Procs] = int64(nn * per)
			r.Shape = sim.Shape{Nodes: nn, PerNode: per, Exclusive: rng.IntN(4) == 0, GPUsPerNode: int32(rng.IntN(3)), MemPerNode: rng.Int64N(20)}
		}
		recs[i] = r
	}
	return recs
}

// reservePolicies are the policies whose reservations pin nodes.
var reservePolicies = []struct {
	name   string
	new    func(t *testing.T) sim.Policy
	checks simtest.Checks
}{
	{"conservative", func(*testing.T) sim.Policy { return policies.NewConservative(policies.Arrival{}) }, simtest.Checks{PromiseOnWait: true}},
	{"conservative/sjf", func(*testing.T) sim.Policy { return policies.NewConservative(policies.ShortestFirst{}) }, simtest.Checks{PromiseOnWait: true}},
	{"maui", func(t *testing.T) sim.Policy { return newMaui(t, 1, true) }, simtest.Checks{MaxOpen: 1}},
	{"maui/depth3", func(t *testing.T) sim.Policy { return newMaui(t, 3, true) }, simtest.Checks{MaxOpen: 3}},
	{"maui/nobackfill", func(t *testing.T) sim.Policy { return newMaui(t, 2, false) }, simtest.Checks{MaxOpen: 2}},
}

// newMaui is Maui with the given reservation depth and backfill, its
// priority the expansion factor too, so that jobs climb over reserved ones.
func newMaui(t *testing.T, depth int, backfill bool) sim.Policy {
	t.Helper()
	c := policies.DefaultMauiConfig()
	c.ReservationDepth, c.Backfill = depth, backfill
	c.Weights.XFactor = 100
	m, err := policies.NewMaui(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReservationsOracle runs the policies that keep reservations on
// random multi-node workloads (memory, GPUs, exclusive jobs, nodes × ppn
// and tasks shapes, two node groups), first and best fit, some with
// overruns allowed, and checks every
// answer of the node profile against the brute-force oracle, then the
// schedule with Verify (per node, and every reservation kept on its
// nodes) and simtest.Verify (promises never delayed).
func TestReservationsOracle(t *testing.T) {
	groups := []nodes.Group{{Name: "a", Count: 3, Cores: 4, Memory: 16}, {Name: "g", Count: 2, Cores: 8, Memory: 32, GPUs: 2}}
	var caps []capa
	for _, g := range groups {
		for range g.Count {
			caps = append(caps, capa{g.Cores, g.Memory, g.GPUs})
		}
	}
	seeds := uint64(40)
	if testing.Short() {
		seeds = 8
	}
	for _, pol := range reservePolicies {
		for _, fit := range []nodes.Fit{nodes.FirstFit, nodes.BestFit} {
			for seed := range seeds {
				name := fmt.Sprintf("%s fit %d seed %d", pol.name, fit, seed)
				recs := shapedWorkload(rand.New(rand.NewPCG(seed, 77)), 120)
				cl, err := nodes.New(groups, fit)
				if err != nil {
					t.Fatal(err)
				}
				cl.RecordReservations()
				var queries int
				var first string
				nodes.SetCheck(cl, checker(cl, caps, recs, fit, &queries, func(s string) {
					if first == "" {
						first = s
					}
				}))
				// Every fourth seed lets jobs overrun their estimates, so
				// that the profile is rebuilt and reservations withdrawn.
				overrun := seed%4 == 3
				rec := &simtest.Recorder{}
				res, err := sim.Run(cl, pol.new(t), sim.NewSliceSource(recs), sim.Options{Tracer: rec, AllowOverrun: overrun})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if first != "" {
					t.Fatalf("%s: %s", name, first)
				}
				if queries == 0 {
					t.Fatalf("%s: the profile was never asked", name)
				}
				if err := cl.Verify(res); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				chk := pol.checks
				chk.Jobs, chk.AllowOverrun = len(recs), overrun
				if err := simtest.Verify(res, rec, chk); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
}
