package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

const kthTrace = "../../shared/workloads/KTH-SP2-1996-2.1-cln.swf.gz"

// kthSweep is 48 runs on KTH-SP2: four policies × four load factors ×
// three replicates.
func kthSweep(tb testing.TB, dir string, jobs bool) (*spec.Experiment, []Run) {
	tb.Helper()
	if _, err := os.Stat(kthTrace); err != nil {
		tb.Skipf("%s is absent: the shared workloads are not beside the checkout", kthTrace)
	}
	cl := &spec.Cluster{Name: "kth", Capacity: sim.Resources{sim.Procs: 100}}
	w := &spec.Workload{Name: "kth", Trace: kthTrace, Estimates: "keep", CPUUsage: "none"}
	var ps []*spec.Policy
	for _, name := range []string{"fcfs", "sjf", "easy", "conservative"} {
		e, _ := policies.Lookup(name)
		var p any
		if e.Params != nil {
			p = e.Params()
		}
		ps = append(ps, &spec.Policy{Name: name, Type: name, Params: p})
	}
	e := &spec.Experiment{
		Name: "kth48", Seed: 1, Hash: "bench", File: "bench.hcl",
		Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep: spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps,
			LoadFactors: []float64{0.8, 0.9, 1.0, 1.1}, Seeds: []uint64{1, 2, 3}},
		Output: spec.Output{Dir: dir, Jobs: jobs},
	}
	runs, err := Expand(e)
	if err != nil {
		tb.Fatal(err)
	}
	if len(runs) != 48 {
		tb.Fatalf("got %d runs; want 48", len(runs))
	}
	return e, runs
}

// BenchmarkSweep runs the 48-run KTH-SP2 sweep with one and two workers
// (the target: two at least 1.8× faster), and with and without the
// per-job tables (target: writing adds at most 15%; not met, see
// results/README.md). It sets the garbage collector as schedsweep run does.
func BenchmarkSweep(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	// As schedsweep run does.
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	for _, jobs := range []bool{false, true} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("KTH-SP2-48/jobs=%t/workers=%d", jobs, workers), func(b *testing.B) {
				for b.Loop() {
					dir := b.TempDir()
					e, runs := kthSweep(b, dir, jobs)
					if _, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(48*float64(b.N)/b.Elapsed().Seconds(), "runs/s")
			})
		}
	}
}

// BenchmarkSweepGC runs the 48-run KTH-SP2 sweep (jobs files, two
// workers) with Go's default GOGC and with GCPercent, the setting
// schedsweep run uses: benchstat over the two gives what the setting buys.
func BenchmarkSweepGC(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	for _, gc := range []int{100, GCPercent} {
		b.Run(fmt.Sprintf("GOGC=%d", gc), func(b *testing.B) {
			defer debug.SetGCPercent(debug.SetGCPercent(gc))
			for b.Loop() {
				dir := b.TempDir()
				e, runs := kthSweep(b, dir, true)
				if _, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// rssChildEnv marks the child process of BenchmarkSweepPeakRSS.
const rssChildEnv = "SCHEDSWEEP_SWEEP_RSS_CHILD"

// BenchmarkSweepPeakRSS runs a 50-, a 500- and a 5000-run sweep of the
// Lublin model, each in a fresh process with the garbage collector set as
// schedsweep run sets it (GOGC in the environment wins, as it does there),
// and reports each process's peak resident memory, its peak live heap
// (after collections, sampled as runs finish) and the mean of those samples
// over the first and the last tenth of the runs, which shows whether what
// the sweep keeps grows as it goes. The target is that the 500-run
// sweep needs no more than the 50-run one. Results stream to disk and the
// grid takes about 200 bytes a run, but the peak is the highest of many
// collections' high-water marks, and a longer sweep goes through more of
// them: results/README.md gives the numbers. It also reports what the grid
// keeps per run (grid-B/run).
func BenchmarkSweepPeakRSS(b *testing.B) {
	if testing.Short() {
		b.Skip("sweep memory benchmarks are skipped under -short")
	}
	for _, n := range []int{50, 500, 5000} {
		b.Run(fmt.Sprintf("runs=%d", n), func(b *testing.B) {
			var peak, live, early, late, grid int64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestSweepRSSChild$", "-test.count=1", "-test.v")
				cmd.Env = append(os.Environ(), rssChildEnv+"="+strconv.Itoa(n)+":"+b.TempDir())
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				peak = max(peak, childCount(b, out, "VmHWM-kB"))
				live = max(live, childCount(b, out, "peak-live-kB"))
				early = max(early, childCount(b, out, "early-live-kB"))
				late = max(late, childCount(b, out, "late-live-kB"))
				grid = max(grid, childCount(b, out, "grid-B-per-run"))
			}
			// Bytes, the unit benchstat scales: the counts are in KiB.
			b.ReportMetric(float64(peak)*1024, "peak-RSS-B")
			b.ReportMetric(float64(live)*1024, "peak-live-B")
			b.ReportMetric(float64(early)*1024, "early-live-B")
			b.ReportMetric(float64(late)*1024, "late-live-B")
			b.ReportMetric(float64(grid), "grid-B/run")
		})
	}
}

// childCount returns the count the child reported as key=N (KiB, or bytes
// for grid-B-per-run).
func childCount(b *testing.B, out []byte, key string) int64 {
	b.Helper()
	_, after, ok := strings.Cut(string(out), key+"=")
	if !ok {
		b.Fatalf("child reported no %s:\n%s", key, out)
	}
	kb, err := strconv.ParseInt(strings.Fields(after)[0], 10, 64)
	if err != nil {
		b.Fatalf("child reported %s: %v", key, err)
	}
	return kb
}

// TestSweepRSSChild is the child of BenchmarkSweepPeakRSS: a sweep of n
// runs (2 policies × 5 load factors × n/10 replicates of 2000 Lublin jobs).
func TestSweepRSSChild(t *testing.T) {
	spec_ := os.Getenv(rssChildEnv)
	if spec_ == "" {
		t.Skip("only run as the child of BenchmarkSweepPeakRSS")
	}
	if os.Getenv("GOGC") == "" { // as schedsweep run sets it
		defer debug.SetGCPercent(debug.SetGCPercent(GCPercent))
	}
	nStr, dir, _ := strings.Cut(spec_, ":")
	n, _ := strconv.Atoi(nStr)
	m, _ := workloads.LookupModel("lublin")
	wp := m.Params().(*workloads.LublinParams)
	wp.Nodes = 256
	cl := &spec.Cluster{Name: "c", Capacity: sim.Resources{sim.Procs: 256}}
	w := &spec.Workload{Name: "lublin", Model: "lublin", Params: wp, Take: 2000, Estimates: "exact", CPUUsage: "none"}
	easy, _ := policies.Lookup("easy")
	ps := []*spec.Policy{{Name: "fcfs", Type: "fcfs"}, {Name: "easy", Type: "easy", Params: easy.Params()}}
	var seeds []uint64
	for i := range n / 10 {
		seeds = append(seeds, uint64(i+1))
	}
	e := &spec.Experiment{Name: "rss", Seed: 1, Hash: "rss", Clusters: []*spec.Cluster{cl}, Workloads: []*spec.Workload{w}, Policies: ps,
		Sweep:  spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: ps, LoadFactors: []float64{0.6, 0.8, 1, 1.2, 1.4}, Seeds: seeds},
		Output: spec.Output{Dir: dir, Jobs: true}}
	// What the grid keeps: the heap after a collection, before and after.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runs, err := Expand(e)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("grid-B-per-run=%d", (int64(after.HeapAlloc)-int64(before.HeapAlloc))/int64(len(runs)))
	// The live heap after each collection, sampled as runs finish: what the
	// sweep keeps, as opposed to the garbage it has not yet collected.
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := make([]uint64, 0, len(runs))
	progress := func(Progress) {
		metrics.Read(sample)
		live = append(live, sample[0].Value.Uint64())
	}
	if _, err := Execute(context.Background(), e, runs, Options{Out: dir, Workers: 2, Progress: progress}); err != nil {
		t.Fatal(err)
	}
	tenth := max(len(live)/10, 1)
	t.Logf("peak-live-kB=%d early-live-kB=%d late-live-kB=%d",
		slices.Max(live)/1024, meanOf(live[:tenth])/1024, meanOf(live[len(live)-tenth:])/1024)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc: peak memory is measured on Linux only")
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			t.Logf("VmHWM-kB=%s", strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return
		}
	}
	t.Fatal("/proc/self/status has no VmHWM line")
}

// meanOf returns the mean of x, which is not empty.
func meanOf(x []uint64) uint64 {
	var sum uint64
	for _, v := range x {
		sum += v
	}
	return sum / uint64(len(x))
}
