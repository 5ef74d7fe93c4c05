package policies_test

// The differential tests of the oracle's later policies: the three
// disciplines in shortest-first and fairshare order, PBS FIFO, Backfill
// Balanced and Improved Backfill Balanced, on the workloads of
// oracle_diff_test.go with several users, the golden cases, and real trace
// prefixes (with memory where the trace has it).

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// orderPolicies are the disciplines under orders other than arrival:
// fairshare with short half-lives, so that usage decays within a small
// workload, with each usage measure, with and without target shares.
var orderPolicies = []oraclePolicy{
	{entry: "sjf"},
	{"fcfs", []string{"order=sjf"}},
	{"easy", []string{"order=sjf"}},
	{"conservative", []string{"order=sjf"}},
	{"fcfs", []string{"order=fairshare", "half_life=100"}},
	{"fcfs", []string{"order=fairshare", "half_life=60", "usage=dominant"}},
	{"easy", []string{"order=fairshare"}},
	{"easy", []string{"order=fairshare", "half_life=300", "shares=0:4,3:0.5"}},
	{"easy", []string{"order=fairshare", "half_life=50", "usage=dominant"}},
	{"conservative", []string{"order=fairshare", "half_life=200", "usage=dominant", "shares=1:2"}},
	{"conservative", []string{"order=fairshare", "half_life=1000"}},
}

// pbsPolicies are PBS FIFO with the guard at once (FCFS), soon, late, by
// default (never, on these workloads) and off.
var pbsPolicies = []oraclePolicy{
	{"pbs-fifo", []string{"max_starve=0"}},
	{"pbs-fifo", []string{"max_starve=30"}},
	{"pbs-fifo", []string{"max_starve=500"}},
	{entry: "pbs-fifo"},
	{"pbs-fifo", []string{"help_starving_jobs=false"}},
}

var balancedPolicies = []oraclePolicy{
	{entry: "backfill-balanced"},
	{"backfill-balanced", []string{"backfill=once"}},
	{entry: "improved-backfill-balanced"},
}

var morePolicies = slices.Concat(orderPolicies, pbsPolicies, balancedPolicies)

// withUsers gives recs users 0 to n-1, drawn from a stream of their own.
func withUsers(seed uint64, recs []sim.Record, n int) {
	users := rand.New(rand.NewPCG(seed, 23))
	for i := range recs {
		recs[i].User = int32(users.IntN(n))
	}
}

// TestOracleMoreRandom compares the later policies with the engine on
// random and tie-heavy workloads of several users. By default each
// policy runs each workload under one of the three option sets, in turn;
// the long mode runs every one on more and larger workloads.
func TestOracleMoreRandom(t *testing.T) {
	seeds, size := 60, 50
	if longOracle() {
		seeds, size = 200, 200
	}
	agreed, undecided, runs := 0, 0, 0
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 29))
		c, gap, recs := drawOracleCase(rng, seed, size)
		small := c
		small[sim.Procs] = 1 + rng.Int64N(8)
		if small[sim.Memory] > 0 {
			small[sim.Memory] = 4
		}
		ties := tieWorkload(rng, 1+rng.IntN(size), small)
		withUsers(seed, ties, 1+int(seed%4))
		for i, p := range morePolicies {
			opts := func(p oraclePolicy) []sim.Options {
				all := oracleOptions(p)
				if longOracle() {
					return all
				}
				return all[(int(seed)+i)%len(all) : (int(seed)+i)%len(all)+1]
			}
			for _, oc := range []oracleCase{
				{fmt.Sprintf("seed %d (gap %d)", seed, gap), c, recs},
				{fmt.Sprintf("seed %d (ties)", seed), small, ties},
			} {
				a, u := compareWith(t, oc, []oraclePolicy{p}, opts)
				agreed, undecided, runs = agreed+a, undecided+u, runs+len(opts(p))
			}
		}
	}
	t.Logf("%d job schedules agreed; %d of %d runs undecided (fairshare near-ties)", agreed, undecided, runs)
	if undecided*20 > runs {
		t.Errorf("%d of %d runs undecided; want at most 5%%", undecided, runs)
	}
}

// goldenOracle maps the golden folders of the later policies to the
// policies the oracle runs.
var goldenOracle = map[string]oraclePolicy{
	"sjf":                    {entry: "sjf"},
	"fairshare-fifo":         {"fcfs", []string{"order=fairshare"}},
	"fairshare-easy":         {"easy", []string{"order=fairshare"}},
	"fairshare-conservative": {"conservative", []string{"order=fairshare"}},
	"pbs-fifo":               {entry: "pbs-fifo"},
	"bb":                     {entry: "backfill-balanced"},
	"bb-once":                {"backfill-balanced", []string{"backfill=once"}},
	"ibb":                    {entry: "improved-backfill-balanced"},
}

// TestOracleMoreGolden checks the oracle against the hand-worked goldens of
// the later policies (with each case's parameters), then compares it with
// the engine on every golden case under every later policy.
func TestOracleMoreGolden(t *testing.T) {
	checked := 0
	for folder, policy := range goldenOracle {
		checked += checkOracleGoldens(t, folder, func(tc testCase) ([]string, error) {
			return oracle(oraclePolicy{policy.entry, slices.Concat(policy.params, tc.params)}, tc.capacity, tc.jobs, sim.Options{})
		})
	}
	if checked < 20 {
		t.Errorf("checked %d goldens; want at least 20", checked)
	}
	for _, tc := range goldenCases(t) {
		var pols []oraclePolicy
		for _, p := range morePolicies {
			// A case's parameters go to the policies that take them.
			for _, s := range tc.params {
				k, _, _ := strings.Cut(s, "=")
				switch {
				case k == "max_starve" && p.entry == "pbs-fifo",
					k == "half_life" && slices.Contains(p.params, "order=fairshare"):
					p.params = append(slices.Clip(p.params), s)
				}
			}
			pols = append(pols, p)
		}
		compareWith(t, tc.oracleCase(), pols, oracleOptions)
	}
}

// TestOracleMoreTraces compares the later policies with the engine on
// prefixes of the shared real traces: KTH-SP2 by processors, METACENTRUM
// with its used memory, where the balanced policies weigh two kinds. Longer prefixes, under every later
// policy, in the long mode.
func TestOracleMoreTraces(t *testing.T) {
	traces := []struct {
		file  string
		c     sim.Resources
		opt   workloads.SWFOptions
		pols  []oraclePolicy
		short int // jobs compared by default; 0: only in the long mode
		long  int // jobs compared in the long mode; 0: all
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", sim.Resources{100}, workloads.SWFOptions{}, []oraclePolicy{
			{"easy", []string{"order=sjf"}},
			{"easy", []string{"order=fairshare", "half_life=3600"}},
			{"conservative", []string{"order=fairshare", "half_life=20000"}},
			{"pbs-fifo", []string{"max_starve=3600"}},
		}, 600, 10000},
		// METACENTRUM's 806 processors leave its early queue unblocked, so
		// a prefix never tells IBB from EASY there; on an eighth of the
		// machine (its widest job is 60 processors) backfilling happens.
		{"METACENTRUM-2009-2.swf.gz", sim.Resources{100, 100 << 30},
			workloads.SWFOptions{Memory: workloads.UsedMemory, MemoryUnit: workloads.KBPerJob}, []oraclePolicy{
				{entry: "backfill-balanced"},
				{entry: "improved-backfill-balanced"},
				{"fcfs", []string{"order=fairshare", "usage=dominant", "half_life=3600"}},
			}, 400, 3000},
	}
	for _, tr := range traces {
		t.Run(tr.file, func(t *testing.T) {
			n, pols := tr.short, tr.pols
			if longOracle() {
				n, pols = tr.long, morePolicies
			} else if n == 0 {
				t.Skip("run with -oracle.long or SCHEDSWEEP_ORACLE_LONG=1")
			}
			recs := readTrace(t, tr.file, tr.opt)
			if n > 0 && n < len(recs) {
				recs = recs[:n]
			}
			agreed, undecided := compareWith(t, oracleCase{tr.file, tr.c, recs}, pols,
				func(oraclePolicy) []sim.Options { return []sim.Options{{}} })
			t.Logf("%d job schedules agreed; %d runs undecided", agreed, undecided)
			// The trace's own half-lives keep usage far from underflow on
			// the prefix; the long mode's short ones (made for small
			// workloads) leave most of a day's usage at zero and may not.
			if !longOracle() && undecided > 0 {
				t.Errorf("%d runs undecided; want 0 with the trace's half-lives", undecided)
			}
			if tr.c[sim.Memory] > 0 {
				// IBB with processors alone is EASY: if memory never
				// changed a choice, the prefix tested nothing of it.
				easy, err1 := oracle(oraclePolicy{entry: "easy"}, tr.c, recs, sim.Options{})
				ibb, err2 := oracle(oraclePolicy{entry: "improved-backfill-balanced"}, tr.c, recs, sim.Options{})
				if err1 != nil || err2 != nil || slices.Equal(easy, ibb) {
					t.Errorf("IBB schedules as EASY on the prefix (%v, %v); memory played no part", err1, err2)
				}
			}
		})
	}
}
