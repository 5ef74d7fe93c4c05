package policies_test

import (
	"encoding/binary"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// boundPolicies returns every registered policy with its default
// parameters, with the checks its golden entry uses (Checks{} if it has
// none).
func boundPolicies() []goldenPolicy {
	var gps []goldenPolicy
	for _, e := range policies.Entries() {
		gp := goldenPolicy{name: e.Name, entry: e.Name}
		for _, g := range goldenPolicies {
			if g.entry == e.Name && len(g.params) == 0 {
				gp.checks = g.checks
				break
			}
		}
		gps = append(gps, gp)
	}
	return gps
}

// checkSane fails if a job that ran ends before its submit time or before
// it starts, or if a utilization leaves [0, 1]: what an overflow of the
// engine's sums looks like. It computes utilization as results.Summarize
// does (area in float64 over capacity × makespan) without importing
// results, whose Parquet dependencies would weigh on every fuzz build of
// this package.
func checkSane(t *testing.T, name string, res *sim.Result) {
	t.Helper()
	var area [sim.MaxKinds]float64
	var first, last sim.Time
	for i, o := range res.Jobs {
		if i == 0 || o.Submit < first {
			first = o.Submit
		}
		if o.State == sim.Rejected {
			continue
		}
		if o.Start < o.Submit || o.End < o.Start || o.End < 0 {
			t.Fatalf("%s: job %d submitted at %d runs from %d to %d", name, o.ID, o.Submit, o.Start, o.End)
		}
		last = max(last, o.End)
		// Work, not End − Start: on the two-tier machine a job in a
		// background VM shares its processors and runs slower, so its
		// span overstates what it held (a fuzzed KEASY run reached 100.5%).
		if w := o.Work(); w < 0 || w > o.End-o.Start {
			t.Fatalf("%s: job %d did %d s of work between %d and %d", name, o.ID, w, o.Start, o.End)
		}
		for k, v := range o.Need {
			area[k] += float64(v) * float64(o.Work())
		}
	}
	span := last - first
	for k, c := range res.Capacity {
		if c == 0 || span <= 0 {
			continue
		}
		if u := area[k] / (float64(c) * float64(span)); !(u >= 0 && u <= 1+1e-9) {
			t.Fatalf("%s: utilization of %s is %v", name, sim.Kind(k), u)
		}
	}
}

// tierMaxProcs is the largest machine the two-tier policies (keasy,
// reasy, measy) run on here. Their engine accepts up to 2^24 processors
// and refuses more with an error, but its verifier replays placements
// processor by processor, which takes minutes at that size.
const tierMaxProcs = 1 << 10

// machineProcs returns the processors of the largest machine gp runs on,
// at most procs.
func machineProcs(gp goldenPolicy, procs int64) int64 {
	if !gp.runs(sim.Resources{sim.Memory: 1}) { // the two-tier policies
		return min(procs, tierMaxProcs)
	}
	return procs
}

// TestSimulateAtBounds runs jobs at every bound of package workloads
// (bounds.go: times up to MaxTime, processors up to MaxProcs) through every
// registered policy: whole-machine jobs of MaxTime seconds one after
// another, a last one submitted at MaxTime, missing and short estimates.
// Verify must hold and every metric stay sane; before the bounds, a run
// time of 9.2 × 10^18 s gave negative ends.
func TestSimulateAtBounds(t *testing.T) {
	for _, gp := range boundPolicies() {
		simulateAtBounds(t, gp, machineProcs(gp, workloads.MaxProcs))
	}
}

// simulateAtBounds runs gp on jobs at the bounds on a machine of P
// processors.
func simulateAtBounds(t *testing.T, gp goldenPolicy, P int64) {
	t.Helper()
	const T = sim.Time(workloads.MaxTime)
	recs := []sim.Record{
		simtest.J(1, 0, T, T, P, simtest.User(1)),
		simtest.J(2, 0, T, T, P, simtest.User(2)),
		simtest.J(3, 0, T, sim.Missing, 1, simtest.User(1)),
		simtest.J(4, 1, T, T/2, P/2, simtest.User(3)), // killed at its estimate
		simtest.J(5, 2, 0, T, P, simtest.User(2)),
		simtest.J(6, T-1, T, T, P, simtest.User(1)),
		simtest.J(7, T, T, T, P, simtest.User(3)),
		simtest.J(8, T, 1, T, 1, simtest.User(2)),
		simtest.J(9, T, T, T, P+1, simtest.User(2)), // too large: rejected
	}
	c := simtest.Cluster(P, 0)
	for _, overrun := range []bool{false, true} {
		res, _ := simtest.Run(t, c, gp.new(t), recs, sim.Options{AllowOverrun: overrun}, gp.checks)
		checkSane(t, gp.name, res)
		if res.Rejected != 1 {
			t.Errorf("%s: got %d rejected; want 1 (job 9, too large)", gp.name, res.Rejected)
		}
	}
}

// rangeValue maps 8 bytes onto [0, bound], favouring the extremes: the top
// two bits choose the bound itself, just under it, a small value, or any
// value in the range.
func rangeValue(b []byte, bound int64) int64 {
	v := binary.LittleEndian.Uint64(b)
	switch v >> 62 {
	case 0:
		return bound
	case 1:
		return max(0, bound-int64(v%16))
	case 2:
		return int64(v % 64)
	}
	return int64(v % uint64(bound+1))
}

// FuzzSimulateRange turns bytes into a workload whose values span the
// whole range the workloads package accepts, bounds included (FuzzSimulate
// draws one byte a field, so it never comes near them): 8 bytes give the
// machine size in [1, MaxProcs], then 32 bytes a job: the gap to the
// previous submit time, the run time, the estimate (missing when its value
// is odd and in the low range) and the processors, each in [0, bound].
// Every registered policy runs it, with and without overrun (the two-tier
// ones only on machines of at most tierMaxProcs processors);
// Verify and the sanity of the metrics must hold.
func FuzzSimulateRange(f *testing.F) {
	le := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	const bound, under, small, any = 0, 1 << 62, 2 << 62, 3 << 62
	f.Add(le(bound, bound, bound, bound, bound, small, bound, small+1, small+3))
	f.Add(le(any+12345, small, bound, bound, any+99, under+3, under+1, bound, bound))
	f.Add(le(small+8, small+1, any+5, any+7, small+4, any+1e12, small+2, under, small+3))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		procs := max(1, rangeValue(data, workloads.MaxProcs))
		c := simtest.Cluster(procs, 0)
		data = data[8:]
		var recs []sim.Record
		var at sim.Time
		for i := 0; i+32 <= len(data) && len(recs) < 12; i += 32 {
			gap := sim.Time(rangeValue(data[i:], workloads.MaxTime))
			at = min(at+gap, workloads.MaxTime)
			run := sim.Time(rangeValue(data[i+8:], workloads.MaxTime))
			est := sim.Time(rangeValue(data[i+16:], workloads.MaxTime))
			if est < 64 && est%2 == 1 {
				est = sim.Missing
			}
			need := rangeValue(data[i+24:], workloads.MaxProcs)
			if need > procs && need < workloads.MaxProcs {
				need = need%procs + 1 // mostly jobs that fit; the bound itself stays
			}
			recs = append(recs, simtest.J(int64(len(recs)+1), at, run, est, need, simtest.User(int32(i/32%3))))
		}
		for _, gp := range boundPolicies() {
			if machineProcs(gp, procs) < procs {
				continue
			}
			for _, overrun := range []bool{false, true} {
				res, _ := simtest.Run(t, c, gp.new(t), recs, sim.Options{AllowOverrun: overrun}, gp.checks)
				checkSane(t, gp.name, res)
			}
		}
	})
}
