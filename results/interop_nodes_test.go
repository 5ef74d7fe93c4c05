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
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// interopNodesDirEnv names the folder TestInteropNodesFixture fills.
const interopNodesDirEnv = "SCHEDSWEEP_INTEROP_NODES_DIR"

// TestInteropNodesFixture writes the results of a small sweep with runs
// on nodes, laid out as the runner lays them out, for
// .ci/interop/check.mjs to read with DuckDB, hyparquet and Polars:
//
//	SCHEDSWEEP_INTEROP_NODES_DIR=/tmp/fxn go test -run TestInteropNodesFixture ./results
//	node .ci/interop/check.mjs /tmp/fxn --runs 12 --jobs 12000 --partition cluster=nodes
//
// 12 runs of FCFS (2 machines × load factors 0.8 and 1 × 3 replicates) of
// 1,000 synthetic jobs, some shaped as whole nodes, some exclusive, one in
// a hundred too wide for any node: on 256 cores as node groups x (16 nodes
// of 8 cores) and y (8 of 16), and on a pool of 256, which writes its jobs
// files with the nodes column NULL throughout, as the runner does in a
// sweep with runs on nodes. Without the variable the test skips.
func TestInteropNodesFixture(t *testing.T) {
	dir := os.Getenv(interopNodesDirEnv)
	if dir == "" {
		t.Skipf("set %s to a folder to write the interop fixture with nodes", interopNodesDirEnv)
	}
	const procs = 256
	meta := results.Metadata{
		ToolVersion:    "interop-fixture",
		ExperimentFile: "nodes.hcl",
		ExperimentHash: fmt.Sprintf("sha256:%x", sha256.Sum256([]byte("nodes"))),
	}
	var runs []results.RunRow
	var groups []results.GroupRow
	users, err := results.NewUsersWriter(filepath.Join(dir, "users.parquet"), meta)
	if err != nil {
		t.Fatal(err)
	}
	defer users.Abort()
	for _, cluster := range []string{"nodes", "pool"} {
		for _, lf := range []float64{0.8, 1} {
			for rep := int64(1); rep <= 3; rep++ {
				key := fmt.Sprintf("r%04d", len(runs)+1)
				src, err := workloads.LoadFactor(sim.NewSliceSource(shapedJobs(1000, procs, uint64(rep))), lf)
				if err != nil {
					t.Fatal(err)
				}
				var m sim.Model = sim.NewPool(sim.Resources{procs})
				if cluster == "nodes" {
					if m, err = nodes.New([]nodes.Group{{Name: "x", Count: 16, Cores: 8}, {Name: "y", Count: 8, Cores: 16}}, nodes.FirstFit); err != nil {
						t.Fatal(err)
					}
				}
				t0 := time.Now()
				res, err := sim.Run(m, policies.NewFCFS(), src, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				axes := []results.Param{
					{Name: "workload", Value: results.StringValue("syn")},
					{Name: "cluster", Value: results.StringValue(cluster)},
					{Name: "load_factor", Value: results.FloatValue(lf)},
					{Name: "replicate", Value: results.IntValue(rep)},
				}
				info := results.RunInfo{Key: key, Experiment: "nodes", Seed: uint64(rep),
					Params: append(axes, results.Param{Name: "policy", Value: results.StringValue("fcfs")},
						results.Param{Name: "cluster_procs", Value: results.IntValue(procs)},
						results.Param{Name: "cluster_memory", Value: results.IntValue(0)})}
				runs = append(runs, results.NewRunRow(info, res, time.Since(t0)))
				e, err := results.ComputeEET(res, results.CapacityRule{})
				if err != nil {
					t.Fatal(err)
				}
				p := results.PlacementOf(m)
				groups = append(groups, results.GroupRows(key, res, p)...)
				jobs := filepath.Join(dir, "jobs", results.PartitionDir(axes), key+".parquet")
				if err := results.WriteJobsOnNodes(jobs, key, res, e, p, meta); err != nil {
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
	if err := results.WriteGroups(filepath.Join(dir, "node_groups.parquet"), groups, meta); err != nil {
		t.Fatal(err)
	}
}

// shapedJobs is syntheticJobs with shapes: every third job of 8 or more
// processors asks for whole nodes of 8 cores, every seventh is exclusive,
// and every hundredth asks for one node of 32 cores, which no node has.
func shapedJobs(n int, procs int64, seed uint64) []sim.Record {
	recs := syntheticJobs(n, procs, seed)
	for i := range recs {
		r := &recs[i]
		w := r.Need[sim.Procs]
		switch {
		case i%100 == 99:
			r.Need[sim.Procs] = 32
			r.Shape = sim.Shape{Nodes: 1, PerNode: 32}
		case i%3 == 0 && w >= 8:
			r.Shape = sim.Shape{Nodes: int32(w / 8), PerNode: 8}
		case i%7 == 0:
			r.Shape = sim.Shape{Exclusive: true}
		}
	}
	return recs
}
