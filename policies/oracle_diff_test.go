package policies_test

// The differential tests: the oracle of oracle_test.go against the engine
// on random and tie-heavy workloads, the golden cases and the shared real
// traces. A mismatch is minimised in the failure message.

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

var oracleLong = flag.Bool("oracle.long", false, "compare the oracle with the engine on whole traces (slow)")

// longOracle reports whether the slow comparisons should run: never under
// -short, otherwise with -oracle.long or SCHEDSWEEP_ORACLE_LONG=1.
func longOracle() bool {
	return !testing.Short() && (*oracleLong || os.Getenv("SCHEDSWEEP_ORACLE_LONG") == "1")
}

// oracleCase is one workload to compare on.
type oracleCase struct {
	name string
	c    sim.Resources
	recs []sim.Record
}

// oraclePolicies are the registered policies in arrival order that the
// first oracle re-implemented; oracle_more_test.go compares the others.
var oraclePolicies = []oraclePolicy{{entry: "fcfs"}, {entry: "easy"}, {entry: "conservative"}}

// oracleOptions are the engine options each policy is compared under.
func oracleOptions(policy oraclePolicy) []sim.Options {
	return []sim.Options{{}, {MissingEstimate: sim.RejectMissingEstimate}, {AllowOverrun: true}}
}

// optName names the options that matter to the oracle.
func optName(o sim.Options) string {
	var parts []string
	if o.AllowOverrun {
		parts = append(parts, "overrun")
	}
	if o.MissingEstimate == sim.RejectMissingEstimate {
		parts = append(parts, "reject-missing")
	}
	if len(parts) == 0 {
		return "default options"
	}
	return strings.Join(parts, ", ")
}

// engineLines runs the registered policy on the engine, checked by Verify.
func engineLines(t *testing.T, policy oraclePolicy, c sim.Resources, recs []sim.Record, opt sim.Options) []string {
	t.Helper()
	p, err := policies.New(policy.entry, policy.params...)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := simtest.Run(t, c, p, recs, opt, registryChecks(t, policy.entry, policy.params))
	return engineSummary(res)
}

// engineSummary renders an engine result as oracle does.
func engineSummary(res *sim.Result) []string {
	return append(scheduleLines(res), summaryLine(res.Passes, res.Finished, res.Killed, res.Rejected, res.EstimatesFilled))
}

// mismatch reports whether the oracle and the engine disagree on recs
// (without failing t), for minimising. A workload the oracle cannot decide
// is no mismatch.
func mismatch(policy oraclePolicy, c sim.Resources, recs []sim.Record, opt sim.Options) bool {
	want, err := oracle(policy, c, recs, opt)
	if err != nil {
		return !errors.Is(err, errOracleTie)
	}
	p, _ := policies.New(policy.entry, policy.params...)
	res, err := sim.Run(sim.NewPool(c), p, sim.NewSliceSource(recs), opt)
	if err != nil {
		return true
	}
	return !slices.Equal(want, engineSummary(res))
}

// drawOracleCase draws seed's random case from rng: a machine of up to 32
// processors, with memory when seed%3 is 1 and memory and GPUs when it is
// 2; a mean gap between submits of 2, 10, 100 or 400 s by seed/3; and up
// to size jobs of randomWorkload on it.
func drawOracleCase(rng *rand.Rand, seed uint64, size int) (sim.Resources, int, []sim.Record) {
	gaps := []int{2, 10, 100, 400}
	c := simtest.Cluster(1+rng.Int64N(32), 0)
	switch seed % 3 {
	case 1:
		c[sim.Memory] = 1 << 20
	case 2:
		c[sim.Memory], c[sim.GPUs] = 1<<20, 4
	}
	gap := gaps[int(seed/3)%len(gaps)]
	recs := randomWorkload(rng, 1+rng.IntN(size), c, gap)
	if c[sim.GPUs] > 0 {
		withGPUs(rng, c, recs)
	}
	return c, gap, recs
}

// minimise drops jobs from recs while differs still holds, halves first,
// then one job at a time, and renders what is left as simtest.J calls on
// machine c.
func minimise(c sim.Resources, recs []sim.Record, differs func([]sim.Record) bool) string {
	recs = slices.Clone(recs)
	for chunk := len(recs) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i+chunk <= len(recs); {
			try := slices.Concat(recs[:i], recs[i+chunk:])
			if len(try) > 0 && differs(try) {
				recs = try
			} else {
				i += chunk
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "machine %v, %d jobs:\n", c, len(recs))
	for _, r := range recs {
		fmt.Fprintf(&b, "\tsimtest.J(%d, %d, %d, %d, %d, simtest.Mem(%d), simtest.User(%d)) // queue %d, gpus %d\n",
			r.ID, r.Submit, r.Runtime, r.Estimate, r.Need[sim.Procs], r.Need[sim.Memory], r.User, r.Queue, r.Need[sim.GPUs])
	}
	return b.String()
}

// minimiseOracle is minimise for a disagreement between the oracle and
// the engine on policy under opt.
func minimiseOracle(policy oraclePolicy, c sim.Resources, recs []sim.Record, opt sim.Options) string {
	return minimise(c, recs, func(try []sim.Record) bool { return mismatch(policy, c, try, opt) })
}

// compareOracle fails t if the oracle and the engine disagree on the case
// under any of oraclePolicies and option, showing a minimised workload. It
// returns the number of jobs compared (per policy and option).
func compareOracle(t *testing.T, oc oracleCase) int {
	t.Helper()
	n, _ := compareWith(t, oc, oraclePolicies, oracleOptions)
	return n
}

// compareWith is compareOracle under the given policies, each with the
// options opts gives it. It also returns how many runs the oracle could
// not decide (errOracleTie), which it skips.
func compareWith(t *testing.T, oc oracleCase, pols []oraclePolicy, opts func(oraclePolicy) []sim.Options) (agreed, undecided int) {
	t.Helper()
	for _, policy := range pols {
		for _, opt := range opts(policy) {
			want, err := oracle(policy, oc.c, oc.recs, opt)
			if errors.Is(err, errOracleTie) {
				undecided++
				continue
			}
			if err != nil {
				t.Errorf("%s, %s, %s: %v\nminimised: %s", oc.name, policy, optName(opt), err, minimiseOracle(policy, oc.c, oc.recs, opt))
				continue
			}
			got := engineLines(t, policy, oc.c, oc.recs, opt)
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %s, %s: engine differs from oracle (-oracle +engine):\n%s\nminimised: %s",
					oc.name, policy, optName(opt), diff, minimiseOracle(policy, oc.c, oc.recs, opt))
				continue
			}
			agreed += len(oc.recs)
		}
	}
	return agreed, undecided
}

// withGPUs gives a random third of the jobs a GPU need, up to the
// cluster's, so that three kinds are checked.
func withGPUs(rng *rand.Rand, c sim.Resources, recs []sim.Record) {
	for i := range recs {
		if rng.IntN(3) == 0 {
			recs[i].Need[sim.GPUs] = rng.Int64N(c[sim.GPUs] + 1)
		}
	}
}

// tieWorkload draws n jobs whose times come from a handful of small values,
// so that submits, ends, estimated ends and shadow times coincide often:
// the boundaries (a backfilled job ending exactly at the shadow time, a
// completion and an arrival at one instant, zero-length jobs and zero
// estimates) that randomWorkload's wide ranges rarely hit; and now and
// then a job to reject for each reason.
func tieWorkload(rng *rand.Rand, n int, c sim.Resources) []sim.Record {
	lengths := []sim.Time{0, 1, 2, 5, 10, 10, 20}
	recs := make([]sim.Record, n)
	var t sim.Time
	for i := range recs {
		if rng.IntN(2) == 0 {
			t += lengths[rng.IntN(len(lengths))]
		}
		run := lengths[rng.IntN(len(lengths))]
		est := lengths[rng.IntN(len(lengths))]
		switch rng.IntN(8) {
		case 0:
			est = sim.Missing
		case 1, 2:
			est = run
		}
		procs := 1 + rng.Int64N(c[sim.Procs])
		if rng.IntN(30) == 0 {
			procs = 0
		}
		recs[i] = simtest.J(int64(i+1), t, run, est, procs)
		for k := sim.Memory; k < sim.MaxKinds; k++ {
			if c[k] > 0 {
				recs[i].Need[k] = rng.Int64N(c[k] + 1)
			}
		}
		// Now and then a record every admission rule must catch.
		switch rng.IntN(40) {
		case 0:
			recs[i].Runtime = -1
		case 1:
			recs[i].Estimate = -5
		case 2:
			recs[i].Need[sim.Memory] = -1
		case 3:
			recs[i].Need[sim.GPUs] = c[sim.GPUs] + 1
		case 4:
			recs[i].Need[sim.Procs] = c[sim.Procs] + 1
		}
	}
	return recs
}

// TestOracleRandom compares the oracle with the engine on random
// workloads: underloaded and overloaded, processors only, with memory, and
// with memory and GPUs.
func TestOracleRandom(t *testing.T) {
	seeds, size := 100, 60
	if longOracle() {
		seeds, size = 600, 300
	}
	jobs := 0
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 17))
		c, gap, recs := drawOracleCase(rng, seed, size)
		jobs += compareOracle(t, oracleCase{fmt.Sprintf("seed %d (gap %d)", seed, gap), c, recs})
		small := c
		small[sim.Procs] = 1 + rng.Int64N(8)
		if small[sim.Memory] > 0 {
			small[sim.Memory] = 4
		}
		ties := tieWorkload(rng, 1+rng.IntN(size), small)
		jobs += compareOracle(t, oracleCase{fmt.Sprintf("seed %d (ties)", seed), small, ties})
	}
	t.Logf("%d job schedules agreed", jobs)
}

// TestOracleGolden checks the oracle against the hand-worked goldens of
// FCFS, EASY and conservative, then compares it with the engine on every
// golden case.
func TestOracleGolden(t *testing.T) {
	for _, policy := range oraclePolicies {
		checkOracleGoldens(t, policy.entry, func(tc testCase) ([]string, error) {
			return oracle(policy, tc.capacity, tc.jobs, sim.Options{})
		})
	}
	for _, gc := range goldenCases(t) {
		compareOracle(t, gc.oracleCase())
	}
}

// checkOracleGoldens checks an oracle, run, against the hand-worked goldens
// in testdata/folder (those of tiny.swf only if the shared workloads are
// there) and returns how many it checked; none is an error. run's schedule
// ends with its summary line, which goldens do not hold.
func checkOracleGoldens(t *testing.T, folder string, run func(testCase) ([]string, error)) int {
	t.Helper()
	goldens, err := filepath.Glob(filepath.Join("testdata", folder, "*.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("%s: no golden files (%v)", folder, err)
	}
	checked := 0
	for _, golden := range goldens {
		name := strings.TrimSuffix(filepath.Base(golden), ".golden")
		path := casePath(name)
		if _, err := os.Stat(path); err != nil && name == "tiny" {
			continue // tiny.swf without the shared workloads
		}
		tc := loadCase(t, path)
		got, err := run(tc)
		if err != nil {
			t.Errorf("oracle %s on %s: %v", folder, name, err)
			continue
		}
		_, want := readGolden(t, golden)
		if diff := gocmp.Diff(want, got[:len(got)-1]); diff != "" {
			t.Errorf("oracle %s on %s differs from %s (-want +got):\n%s", folder, name, golden, diff)
		}
		checked++
	}
	return checked
}

// goldenCase is a golden case file, loaded, under its file name.
type goldenCase struct {
	name string
	testCase
}

func (g goldenCase) oracleCase() oracleCase { return oracleCase{g.name, g.capacity, g.jobs} }

// goldenCases loads every golden case, and tiny.swf if the shared
// workloads are there.
func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "cases", "*.swf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases (%v)", err)
	}
	if _, err := os.Stat(casePath("tiny")); err == nil {
		paths = append(paths, casePath("tiny"))
	}
	cases := make([]goldenCase, len(paths))
	for i, path := range paths {
		cases[i] = goldenCase{filepath.Base(path), loadCase(t, path)}
	}
	return cases
}

// TestOracleTraces compares the oracle with the engine on a prefix of the
// shared real traces (the whole traces in the long mode).
func TestOracleTraces(t *testing.T) {
	traces := []struct {
		file  string
		procs int64
		short int // jobs compared by default; 0: only in the long mode
		long  int // jobs compared in the long mode; 0: all
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 100, 1000, 0},
		{"METACENTRUM-2009-2.swf.gz", 806, 0, 0},
	}
	for _, tr := range traces {
		t.Run(tr.file, func(t *testing.T) {
			n := tr.short
			if longOracle() {
				n = tr.long
			} else if n == 0 {
				t.Skip("run with -oracle.long or SCHEDSWEEP_ORACLE_LONG=1")
			}
			recs := readTrace(t, tr.file, workloads.SWFOptions{})
			if n > 0 && n < len(recs) {
				recs = recs[:n]
			}
			jobs := compareOracle(t, oracleCase{tr.file, sim.Resources{tr.procs}, recs})
			t.Logf("%d job schedules agreed", jobs)
		})
	}
}
