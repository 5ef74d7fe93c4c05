//go:build linux

package sim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// rssChildEnv marks the child process of BenchmarkPeakRSS.
const rssChildEnv = "SCHEDSWEEP_RSS_CHILD"

// BenchmarkPeakRSS measures the peak resident memory of a whole run as a
// user makes it: a fresh process streams a trace from its gzip file through
// the reader and the engine and builds the result, then reports its own
// high-water mark (VmHWM, which starts afresh at exec, unlike the rusage
// figure, which on Linux keeps the parent's size across fork and exec).
func BenchmarkPeakRSS(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	for _, tr := range benchTraces[:2] {
		for _, policy := range []string{"easy", "conservative"} {
			b.Run(policy+"/"+tr.name, func(b *testing.B) {
				path := filepath.Join(sharedWorkloads, tr.file)
				if _, err := os.Stat(path); err != nil {
					b.Skipf("%s is absent: the shared workloads are not beside the checkout", path)
				}
				var peakKB int64
				for b.Loop() {
					cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$", "-test.count=1", "-test.v")
					cmd.Env = append(os.Environ(), rssChildEnv+"="+policy+":"+path+":"+strconv.FormatInt(tr.procs, 10))
					out, err := cmd.CombinedOutput()
					if err != nil {
						b.Fatalf("child: %v\n%s", err, out)
					}
					_, after, ok := strings.Cut(string(out), "VmHWM-kB=")
					if !ok {
						b.Fatalf("child reported no peak:\n%s", out)
					}
					kb, err := strconv.ParseInt(strings.Fields(after)[0], 10, 64)
					if err != nil {
						b.Fatal(err)
					}
					peakKB = max(peakKB, kb)
				}
				b.ReportMetric(float64(peakKB)*1024, "peak-RSS-B") // VmHWM counts KiB
			})
		}
	}
}

// TestRSSChild is the child of BenchmarkPeakRSS; it does nothing otherwise.
func TestRSSChild(t *testing.T) {
	spec := os.Getenv(rssChildEnv)
	if spec == "" {
		t.Skip("only run as the child of BenchmarkPeakRSS")
	}
	parts := strings.SplitN(spec, ":", 3)
	procs, _ := strconv.ParseInt(parts[2], 10, 64)
	p, err := policies.NewDefault(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := workloads.NewSWFReader(f, filepath.Base(parts[1]), workloads.SWFOptions{})
	if _, err := sim.Run(sim.NewPool(sim.Resources{procs}), p, r, sim.Options{}); err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			t.Logf("VmHWM-kB=%s", strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return
		}
	}
	t.Fatal("/proc/self/status has no VmHWM line")
}
