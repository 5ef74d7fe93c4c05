package results_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// interopDirEnv names the folder TestInteropFixture fills.
const interopDirEnv = "SCHEDSWEEP_INTEROP_DIR"

// TestInteropFixture writes the results of a small sweep, laid out as the
// runner lays them out, for .ci/interop/check.mjs to read with DuckDB,
// hyparquet and Polars:
//
//	SCHEDSWEEP_INTEROP_DIR=/tmp/fx go test -run TestInteropFixture ./results
//	node .ci/interop/check.mjs /tmp/fx --runs 18 --users 1800 --jobs 18000 --partition policy=easy
//
// 18 runs (3 policies × load factors 0.8 and 1 × 3 replicates) of 1,000
// synthetic jobs from 100 users each. The workload's name, "syn/1 k", needs
// escaping in a partition directory. Without the variable the test skips.
func TestInteropFixture(t *testing.T) {
	dir := os.Getenv(interopDirEnv)
	if dir == "" {
		t.Skipf("set %s to a folder to write the interop fixture", interopDirEnv)
	}
	const procs = 256
	meta := results.Metadata{
		ToolVersion:    "interop-fixture",
		ExperimentFile: "fixture.hcl",
		ExperimentHash: fmt.Sprintf("sha256:%x", sha256.Sum256([]byte("fixture"))),
	}
	var runs []results.RunRow
	users, err := results.NewUsersWriter(filepath.Join(dir, "users.parquet"), meta)
	if err != nil {
		t.Fatal(err)
	}
	defer users.Abort()
	for _, policy := range []string{"easy", "conservative", "fcfs"} {
		for _, lf := range []float64{0.8, 1} {
			for rep := int64(1); rep <= 3; rep++ {
				key := fmt.Sprintf("r%04d", len(runs)+1)
				recs := syntheticJobs(1000, procs, uint64(rep))
				for i := range recs {
					recs[i].User %= 100
				}
				src, err := workloads.LoadFactor(sim.NewSliceSource(recs), lf)
				if err != nil {
					t.Fatal(err)
				}
				p, err := policies.NewDefault(policy)
				if err != nil {
					t.Fatal(err)
				}
				t0 := time.Now()
				res, err := sim.Run(sim.NewPool(sim.Resources{procs}), p, src, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				axes := []results.Param{
					{Name: "workload", Value: results.StringValue("syn/1 k")},
					{Name: "policy", Value: results.StringValue(policy)},
					{Name: "load_factor", Value: results.FloatValue(lf)},
					{Name: "replicate", Value: results.IntValue(rep)},
				}
				info := results.RunInfo{Key: key, Experiment: "fixture", Seed: 0x9E3779B97F4A7C15 * uint64(rep),
					Params: append(axes,
						results.Param{Name: "cluster_procs", Value: results.IntValue(procs)},
						results.Param{Name: "cluster_memory", Value: results.IntValue(0)},
						results.Param{Name: "workload_nodes", Value: results.IntValue(procs)})}
				runs = append(runs, results.NewRunRow(info, res, time.Since(t0)))
				e, err := results.ComputeEET(res, results.CapacityRule{})
				if err != nil {
					t.Fatal(err)
				}
				jobs := filepath.Join(dir, "jobs", results.PartitionDir(axes), key+".parquet")
				if err := results.WriteJobs(jobs, key, res, e, meta); err != nil {
					t.Fatal(err)
				}
				if err := users.Append(results.UserRows(key, res, e)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := users.Close(); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), runs, meta); err != nil {
		t.Fatal(err)
	}
}
