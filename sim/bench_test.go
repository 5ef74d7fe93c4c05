package sim_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// sharedWorkloads is where the project's shared traces live, beside the
// checkout.
const sharedWorkloads = "../../shared/workloads"

// benchTraces are the real traces the simulator is measured on, with the
// machine each ran on (METACENTRUM-2009-2's copy has no header; 806 is the
// processor count the archive gives for the whole grid).
var benchTraces = []struct {
	name, file string
	procs      int64
	opt        workloads.SWFOptions
}{
	{"KTH-SP2", "KTH-SP2-1996-2.1-cln.swf.gz", 100, workloads.SWFOptions{}},
	{"METACENTRUM-2009-2", "METACENTRUM-2009-2.swf.gz", 806, workloads.SWFOptions{}},
	// Two of wagap's run times are corrupt; read them as missing.
	{"wagap-2013", "wagap-2013.swf.gz", 2176, workloads.SWFOptions{NegativeAsMissing: true}},
	{"lublin-256", "lublin_256.swf.gz", 256, workloads.SWFOptions{}},
}

var (
	traceMu    sync.Mutex
	traceCache = map[string][]sim.Record{}
)

// loadTrace reads a shared trace once per test binary, skipping tb when the
// shared folder is absent.
func loadTrace(tb testing.TB, file string, opt workloads.SWFOptions) []sim.Record {
	tb.Helper()
	traceMu.Lock()
	defer traceMu.Unlock()
	if recs, ok := traceCache[file]; ok {
		return recs
	}
	f, err := os.Open(filepath.Join(sharedWorkloads, file))
	if errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s is absent: the shared workloads are not beside the checkout", file)
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := sim.ReadAll(workloads.NewSWFReader(f, file, opt))
	if err != nil {
		tb.Fatal(err)
	}
	traceCache[file] = recs
	return recs
}

// benchPolicy is a registered policy with parameters, under a name.
type benchPolicy struct {
	name, entry string
	params      []string
}

// benchPolicies are the policies measured: every registered one with its
// defaults, the three disciplines with fairshare priorities, and Maui with
// fairshare and expansion-factor weights.
func benchPolicies() []benchPolicy {
	var ps []benchPolicy
	for _, e := range policies.Entries() {
		ps = append(ps, benchPolicy{e.Name, e.Name, nil})
	}
	fs := []string{"order=fairshare"}
	return append(ps, benchPolicy{"fairshare-fifo", "fcfs", fs},
		benchPolicy{"fairshare-easy", "easy", fs}, benchPolicy{"fairshare-conservative", "conservative", fs},
		// Maui with the weights that re-rank jobs at every pass.
		benchPolicy{"maui-fairshare", "maui", []string{"fairshare_weight=10"}},
		benchPolicy{"maui-xfactor-depth5", "maui", []string{"xfactor_weight=100", "reservation_depth=5"}})
}

// BenchmarkSimulate runs each policy over each full trace held in memory,
// so it measures the engine and the policy, not the reader. Besides
// wall-clock time it reports the processor time per run (cpu-ns/op),
// which a machine shared with other work disturbs far less.
func BenchmarkSimulate(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	for _, bp := range benchPolicies() {
		for _, tr := range benchTraces {
			b.Run(bp.name+"/"+tr.name, func(b *testing.B) {
				recs := loadTrace(b, tr.file, tr.opt)
				c := sim.Resources{tr.procs}
				b.ReportAllocs()
				cpu, _ := simtest.CPUTime()
				for b.Loop() {
					if _, err := sim.Run(sim.NewPool(c), newPolicy(b, bp.entry, bp.params...), sim.NewSliceSource(recs), sim.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				simtest.ReportCPU(b, cpu, b.N)
				b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			})
		}
	}
}

// newPolicy builds a registered policy with its defaults, then the given
// name=value parameters.
func newPolicy(tb testing.TB, name string, set ...string) sim.Policy {
	tb.Helper()
	pol, err := policies.New(name, set...)
	if err != nil {
		tb.Fatal(err)
	}
	return pol
}
