package results_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

// sharedWorkloads is where the project's shared traces live, beside the
// checkout.
const sharedWorkloads = "../../shared/workloads"

// syntheticJobs returns n jobs for a machine of procs processors at an
// offered load of about 0.8: power-of-two widths, log-uniform run times
// from 10 s to a day, estimates one to five times the run time, 200 users.
// The seed picks the random stream.
func syntheticJobs(n int, procs int64, seed uint64) []sim.Record {
	rng := rand.New(rand.NewPCG(seed, 1))
	recs := make([]sim.Record, n)
	var now sim.Time
	// Mean work per job: E[width] × E[run] processor-seconds, with
	// E[width] = (1 + 2 + … + 128) / 8 and E[run] = 10 (8640 − 1) / ln 8640.
	meanWork := 255.0 / 8 * 10 * (8640 - 1) / math.Log(8640)
	meanGap := meanWork / (0.8 * float64(procs))
	for i := range recs {
		now += sim.Time(rng.ExpFloat64() * meanGap)
		width := int64(1) << rng.IntN(8)
		run := sim.Time(10 * math.Pow(8640, rng.Float64()))
		est := sim.Time(float64(run) * (1 + 4*rng.Float64()))
		recs[i] = simtest.J(int64(i+1), now, run, est, width, simtest.User(int32(rng.IntN(200))))
	}
	return recs
}

// benchWorkload is a run to measure writing against.
type benchWorkload struct {
	name  string
	procs int64
	load  func(testing.TB) []sim.Record
}

var benchWorkloads = []benchWorkload{
	{"synthetic-100k", 1024, func(tb testing.TB) []sim.Record { return syntheticJobs(100_000, 1024, 2026) }},
	{"METACENTRUM-2009-2", 806, func(tb testing.TB) []sim.Record {
		if testing.Short() {
			tb.Skip("full-trace benchmarks are skipped under -short")
		}
		name := "METACENTRUM-2009-2.swf.gz"
		f, err := os.Open(filepath.Join(sharedWorkloads, name))
		if errors.Is(err, fs.ErrNotExist) {
			tb.Skipf("%s is absent: the shared workloads are not beside the checkout", name)
		}
		if err != nil {
			tb.Fatal(err)
		}
		defer f.Close()
		recs, err := sim.ReadAll(workloads.NewSWFReader(f, name, workloads.SWFOptions{}))
		if err != nil {
			tb.Fatal(err)
		}
		return recs
	}},
}

// simulate runs EASY over recs three times and returns the result and the
// fastest wall time, the simulator's own cost of the run.
func simulate(tb testing.TB, recs []sim.Record, procs int64) (*sim.Result, time.Duration) {
	tb.Helper()
	var res *sim.Result
	best := time.Duration(math.MaxInt64)
	for range 3 {
		p, err := policies.NewDefault("easy")
		if err != nil {
			tb.Fatal(err)
		}
		t0 := time.Now()
		res, err = sim.Run(sim.NewPool(sim.Resources{procs}), p, sim.NewSliceSource(recs), sim.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		best = min(best, time.Since(t0))
	}
	return res, best
}

// BenchmarkWriteJobs measures what recording a run costs next to simulating
// it: "jobs" writes its jobs file, "all" also computes its runs.parquet row
// and users.parquet rows (the rows themselves are written once per sweep).
// Each reports ns/job and result/sim, the time taken over the time EASY took
// to simulate the same run; the goal is result/sim ≤ 0.15.
func BenchmarkWriteJobs(b *testing.B) {
	for _, w := range benchWorkloads {
		b.Run(w.name, func(b *testing.B) {
			recs := w.load(b)
			res, simTime := simulate(b, recs, w.procs)
			path := filepath.Join(b.TempDir(), "jobs", "policy=easy", "r.parquet")
			meta := results.Metadata{ToolVersion: "bench", ExperimentFile: "bench.hcl", ExperimentHash: "0"}
			for _, mode := range []string{"jobs", "all"} {
				b.Run(mode, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if mode == "all" {
							results.NewRunRow(results.RunInfo{Key: "r"}, res, simTime)
							results.UserRows("r", res, nil)
						}
						if err := results.WriteJobs(path, "r", res, nil, meta); err != nil {
							b.Fatal(err)
						}
					}
					perRun := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(perRun*1e9/float64(len(res.Jobs)), "ns/job")
					b.ReportMetric(perRun/simTime.Seconds(), "result/sim")
					b.ReportMetric(simTime.Seconds()*1e3, "sim-ms")
				})
			}
		})
	}
}

// BenchmarkEET measures the user-aware metrics of the 17,900-job wagap-2013
// run (Klusáček's zewura and zegox clusters, 2176 processors, requested
// memory in bytes per job) scheduled by EASY: ComputeEET under EqualShare,
// then the heatmap and the utilization series in minutes. The goal is
// under 0.5 s in all. On the machine as the file describes it the run uses
// about half the processors and violates few EETs; load-2 halves the gaps
// between submits, which violates thousands and fills 300,000 heatmap
// cells.
func BenchmarkEET(b *testing.B) {
	if testing.Short() {
		b.Skip("full-trace benchmarks are skipped under -short")
	}
	const name = "wagap-2013.swf.gz"
	open := func(file string) *os.File {
		f, err := os.Open(filepath.Join(sharedWorkloads, file))
		if errors.Is(err, fs.ErrNotExist) {
			b.Skipf("%s is absent: the shared workloads are not beside the checkout", file)
		}
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	mf := open("wagap-2013.swf.machines")
	groups, err := workloads.ReadMachines(mf, "wagap-2013.swf.machines")
	mf.Close()
	if err != nil {
		b.Fatal(err)
	}
	f := open(name)
	defer f.Close()
	recs, err := sim.ReadAll(workloads.NewSWFReader(f, name, workloads.SWFOptions{
		NegativeAsMissing: true, Memory: workloads.RequestedMemory, MemoryUnit: workloads.BytesPerJob}))
	if err != nil {
		b.Fatal(err)
	}
	for _, load := range []float64{1, 2} {
		b.Run(fmt.Sprintf("load-%g", load), func(b *testing.B) {
			src, err := workloads.LoadFactor(sim.NewSliceSource(recs), load)
			if err != nil {
				b.Fatal(err)
			}
			p, err := policies.NewDefault("easy")
			if err != nil {
				b.Fatal(err)
			}
			res, err := sim.Run(sim.NewPool(workloads.Capacity(groups)), p, src, sim.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var cells, points, violated int
			b.ReportAllocs()
			for b.Loop() {
				e, err := results.ComputeEET(res, results.CapacityRule{})
				if err != nil {
					b.Fatal(err)
				}
				cells = len(results.Violations(res, e, 60))
				points = len(results.Utilization(res, 60))
				violated = 0
				for _, u := range e.Users {
					violated += u.Violated
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/run")
			b.ReportMetric(float64(len(res.Jobs)), "jobs")
			b.ReportMetric(float64(violated), "violated")
			b.ReportMetric(float64(cells), "cells")
			b.ReportMetric(float64(points), "minutes")
		})
	}
}

// BenchmarkWriteTables measures writing a sweep's two tables: runs.parquet
// for 20,000 runs with four parameter columns of every kind, and
// users.parquet for 20,000 rows, each two row groups.
func BenchmarkWriteTables(b *testing.B) {
	runs, users := manyRunRows(20_000), manyUserRows(20_000)
	dir := b.TempDir()
	b.Run("runs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), runs, testMeta); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("users", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := results.WriteUsers(filepath.Join(dir, "users.parquet"), users, testMeta); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkWriteJobsOnNodes measures what the nodes column adds to a jobs
// file: 100,000 jobs of shapedJobs scheduled by FCFS on 4096 cores as node
// groups x (256 nodes of 8 cores) and y (128 of 16), written without the
// column (WriteJobs), with it (WriteJobsOnNodes), and the run's node group
// rows (GroupRows).
func BenchmarkWriteJobsOnNodes(b *testing.B) {
	const procs = 4096
	c, err := nodes.New([]nodes.Group{{Name: "x", Count: 256, Cores: 8}, {Name: "y", Count: 128, Cores: 16}}, nodes.FirstFit)
	if err != nil {
		b.Fatal(err)
	}
	res, err := sim.Run(c, policies.NewFCFS(), sim.NewSliceSource(shapedJobs(100_000, procs, 1)), sim.Options{})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "r.parquet")
	meta := results.Metadata{ToolVersion: "bench", ExperimentFile: "bench.hcl", ExperimentHash: "0"}
	for _, mode := range []string{"jobs", "jobs+nodes", "groups"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				switch mode {
				case "jobs":
					err = results.WriteJobs(path, "r", res, nil, meta)
				case "jobs+nodes":
					err = results.WriteJobsOnNodes(path, "r", res, nil, c, meta)
				default:
					results.GroupRows("r", res, c)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e9/float64(len(res.Jobs)), "ns/job")
		})
	}
}
