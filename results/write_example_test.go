package results_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// exampleResult is a run of three jobs on 4 processors: two ran, one was
// too large.
func exampleResult() *sim.Result {
	return &sim.Result{
		Capacity: sim.Resources{sim.Procs: 4},
		Jobs: []sim.Outcome{
			{Record: simtest.J(1, 0, 100, 120, 4, simtest.User(1)), Start: 0, End: 100, State: sim.Finished},
			{Record: simtest.J(2, 10, 50, 60, 2, simtest.User(2)), Start: 100, End: 150, State: sim.Finished},
			{Record: simtest.J(3, 20, 10, 10, 8, simtest.User(2)), Start: -1, End: -1, State: sim.Rejected, Reason: sim.TooLarge},
		},
		Finished: 2, Rejected: 1,
	}
}

func ExamplePartitionDir() {
	fmt.Println(results.PartitionDir([]results.Param{
		{Name: "workload", Value: results.StringValue("lublin/256")},
		{Name: "policy", Value: results.StringValue("easy")},
		{Name: "load_factor", Value: results.FloatValue(0.8)},
		{Name: "replicate", Value: results.IntValue(1)},
	}))
	// Output:
	// workload=lublin%2F256/policy=easy/load_factor=0.8/replicate=1
}

func ExampleNewRunRow() {
	info := results.RunInfo{Key: "r0001", Experiment: "demo", Seed: 42,
		Params: []results.Param{{Name: "policy", Value: results.StringValue("easy")}}}
	row := results.NewRunRow(info, exampleResult(), 250*time.Millisecond)
	fmt.Printf("%d jobs, %d rejected, makespan %d s, utilization %.3f\n", row.Jobs, row.Rejected, row.Makespan, row.Utilization)
	fmt.Printf("wait: mean %.0f, median %.0f, p95 %.0f s\n", row.Wait.Mean, row.Wait.Median, row.Wait.P95)
	fmt.Printf("bounded slowdown: mean %.2f, p95 %.2f\n", row.BoundedSlowdown.Mean, row.BoundedSlowdown.P95)
	// Output:
	// 3 jobs, 1 rejected, makespan 150 s, utilization 0.833
	// wait: mean 45, median 0, p95 90 s
	// bounded slowdown: mean 1.90, p95 2.80
}

func ExampleUserRows() {
	for _, u := range results.UserRows("r0001", exampleResult(), nil) {
		fmt.Printf("user %d: %d jobs, %d ran, mean wait %.0f s\n", u.User, u.Jobs, u.Ran, u.MeanWait)
	}
	// Output:
	// user 1: 1 jobs, 1 ran, mean wait 0 s
	// user 2: 2 jobs, 1 ran, mean wait 90 s
}

func ExampleWriteJobs() {
	dir, err := os.MkdirTemp("", "schedsweep-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	axes := []results.Param{{Name: "policy", Value: results.StringValue("easy")}}
	path := filepath.Join(dir, "jobs", results.PartitionDir(axes), "r0001.parquet")
	meta := results.Metadata{ToolVersion: "v1.0.0", ExperimentFile: "demo.hcl", ExperimentHash: "sha256:…"}
	if err := results.WriteJobs(path, "r0001", exampleResult(), nil, meta); err != nil {
		panic(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		panic(err)
	}
	defer rdr.Close()
	fmt.Println(rdr.NumRows(), "rows in", filepath.Base(filepath.Dir(path)))
	fmt.Println(rdr.MetaData().KeyValueMetadata().FindValue(results.MetaToolVersion) != nil)
	// Output:
	// 3 rows in policy=easy
	// true
}

func ExampleWriteRuns() {
	dir, err := os.MkdirTemp("", "schedsweep-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	var rows []results.RunRow
	for i, policy := range []string{"easy", "fcfs"} {
		info := results.RunInfo{Key: fmt.Sprintf("r%04d", i+1), Experiment: "demo", Seed: uint64(i),
			Params: []results.Param{{Name: "policy", Value: results.StringValue(policy)}}}
		rows = append(rows, results.NewRunRow(info, exampleResult(), time.Second))
	}
	path := filepath.Join(dir, "runs.parquet")
	if err := results.WriteRuns(path, rows, results.Metadata{ToolVersion: "v1.0.0"}); err != nil {
		panic(err)
	}
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		panic(err)
	}
	defer rdr.Close()
	sc := rdr.MetaData().Schema
	fmt.Println(rdr.NumRows(), "rows;", sc.NumColumns(), "columns:", sc.Column(0).Name(), sc.Column(1).Name(), sc.Column(2).Name(), "…")
	// Output:
	// 2 rows; 33 columns: run_key experiment policy …
}

func ExampleUsersWriter() {
	dir, err := os.MkdirTemp("", "schedsweep-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	w, err := results.NewUsersWriter(filepath.Join(dir, "users.parquet"), results.Metadata{ToolVersion: "v1.0.0"})
	if err != nil {
		panic(err)
	}
	defer w.Abort() // removes the file unless Close succeeded
	for _, key := range []string{"r0001", "r0002"} {
		// As each run finishes:
		if err := w.Append(results.UserRows(key, exampleResult(), nil)); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	rdr, err := file.OpenParquetFile(filepath.Join(dir, "users.parquet"), false)
	if err != nil {
		panic(err)
	}
	defer rdr.Close()
	fmt.Println(rdr.NumRows(), "rows")
	// Output:
	// 4 rows
}
