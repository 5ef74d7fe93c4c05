package plot_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/schedsweep/schedsweep/results"
)

// col is a column for writeParquet: values is []string, []int64, []int32
// or []float64 (NaN for NULL); an int64 column is NULL where null is true.
type col struct {
	name   string
	values any
	null   []bool
}

// writeParquet writes a table to path with arrow-go, for the tables and
// columns the results package does not write yet.
func writeParquet(t *testing.T, path string, cols ...col) {
	t.Helper()
	var fields []arrow.Field
	var arrs []arrow.Array
	mem := memory.DefaultAllocator
	for _, c := range cols {
		switch v := c.values.(type) {
		case []string:
			b := array.NewStringBuilder(mem)
			b.AppendValues(v, nil)
			fields, arrs = append(fields, arrow.Field{Name: c.name, Type: arrow.BinaryTypes.String}), append(arrs, b.NewArray())
		case []int64:
			b := array.NewInt64Builder(mem)
			for i, x := range v {
				if c.null != nil && c.null[i] {
					b.AppendNull()
				} else {
					b.Append(x)
				}
			}
			fields, arrs = append(fields, arrow.Field{Name: c.name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}), append(arrs, b.NewArray())
		case []int32:
			b := array.NewInt32Builder(mem)
			b.AppendValues(v, nil)
			fields, arrs = append(fields, arrow.Field{Name: c.name, Type: arrow.PrimitiveTypes.Int32}), append(arrs, b.NewArray())
		case []float64:
			b := array.NewFloat64Builder(mem)
			for _, x := range v {
				if math.IsNaN(x) {
					b.AppendNull()
				} else {
					b.Append(x)
				}
			}
			fields, arrs = append(fields, arrow.Field{Name: c.name, Type: arrow.PrimitiveTypes.Float64, Nullable: true}), append(arrs, b.NewArray())
		default:
			t.Fatalf("column %s: unsupported %T", c.name, c.values)
		}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pqarrow.WriteTable(tbl, f, 1024, nil, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
}

// The fixture sweep: one workload, two policies, two load factors, two
// replicates; three users with ids and the unknown user in every run.
var (
	fixturePolicies = []string{"fcfs", "easy"}
	fixtureLoads    = []float64{0.5, 1}
)

const heatmapRun = "easy-1-r1" // the run with heatmap and utilization files

func fixtureKey(policy string, load float64, rep int) string {
	return fmt.Sprintf("%s-%g-r%d", policy, load, rep)
}

// fixtureRuns returns the fixture's rows of runs.parquet: wait_mean is
// 100 × load (× 2 for fcfs) + replicate, so fcfs at load 1 has replicates
// 201 and 202.
func fixtureRuns() []results.RunRow {
	var rows []results.RunRow
	for _, p := range fixturePolicies {
		for _, l := range fixtureLoads {
			for rep := 1; rep <= 2; rep++ {
				w := 100 * l
				if p == "fcfs" {
					w *= 2
				}
				w += float64(rep)
				rows = append(rows, results.RunRow{
					RunInfo: results.RunInfo{Key: fixtureKey(p, l, rep), Experiment: "fixture", Seed: uint64(rep), Params: []results.Param{
						{Name: "workload", Value: results.StringValue("mix")},
						{Name: "policy", Value: results.StringValue(p)},
						{Name: "load_factor", Value: results.FloatValue(l)},
						{Name: "replicate", Value: results.IntValue(int64(rep))},
						{Name: "cluster_memory", Value: results.IntValue(1 << 30)},
					}},
					Jobs: 10, Finished: 10, Makespan: 12000, Utilization: 0.5 * l, MemoryUtilization: 0.25,
					Wait:            results.Stats{Mean: w, Median: w, P95: w},
					Response:        results.Stats{Mean: 3600 + w, Median: 3600 + w, P95: 3600 + w},
					Slowdown:        results.Stats{Mean: 1 + w/100, Median: 1, P95: 2},
					BoundedSlowdown: results.Stats{Mean: 1 + w/200, Median: 1, P95: 2},
				})
			}
		}
	}
	return rows
}

// fixtureVEET is user u's veet_share in a run: u/10, + 0.5 under fcfs,
// + load/10.
func fixtureVEET(p string, l float64, u int64) float64 {
	v := float64(u)/10 + l/10
	if p == "fcfs" {
		v += 0.5
	}
	return v
}

// fixtureTardiness is user u's weighted_tardiness: 0 for user 1 under
// easy, else 1000·u·load under fcfs and 10·u under easy.
func fixtureTardiness(p string, l float64, u int64) float64 {
	switch {
	case p == "fcfs":
		return 1000 * float64(u) * l
	case u == 1:
		return 0
	}
	return 10 * float64(u)
}

// writeFixture writes the fixture's results folder: runs.parquet with
// results.WriteRuns; users.parquet, with the EET columns, and the heatmap
// and utilization files of heatmapRun with arrow-go.
func writeFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), fixtureRuns(), results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var users, jobs, ran, violated []int64
	var null []bool
	var veet, wt, wait []float64
	for _, r := range fixtureRuns() {
		p, l := r.Params[1].Value.Str, r.Params[2].Value.Float
		for u := int64(0); u <= 3; u++ { // user 0 stands for the unknown user
			keys = append(keys, r.Key)
			users, null = append(users, u), append(null, u == 0)
			jobs, ran, violated = append(jobs, 4), append(ran, 4), append(violated, 2)
			veet, wt, wait = append(veet, fixtureVEET(p, l, u)), append(wt, fixtureTardiness(p, l, u)), append(wait, 60)
		}
	}
	// In one run user 3 had no job that ran: veet_share is NULL.
	for i, k := range keys {
		if k == fixtureKey("fcfs", 1, 2) && users[i] == 3 {
			veet[i], ran[i] = math.NaN(), 0
		}
	}
	writeParquet(t, filepath.Join(dir, "users.parquet"),
		col{name: "run_key", values: keys}, col{name: "user", values: users, null: null},
		col{name: "jobs", values: jobs}, col{name: "ran", values: ran},
		col{name: "mean_wait", values: wait}, col{name: "eet_violated", values: violated},
		col{name: "veet_share", values: veet}, col{name: "weighted_tardiness", values: wt})

	// heatmapRun: user 1 violates one EET in minutes 0–9, user 3 two in
	// minutes 100–119; processors are half busy and memory a quarter in
	// every minute of the 200-minute makespan.
	part := "workload=mix/policy=easy/load_factor=1/replicate=1/part-" + heatmapRun + ".parquet"
	var hk []string
	var hu []int32
	var hm, hv []int64
	for m := int64(0); m < 10; m++ {
		hk, hu, hm, hv = append(hk, heatmapRun), append(hu, 1), append(hm, m), append(hv, 1)
	}
	for m := int64(100); m < 120; m++ {
		hk, hu, hm, hv = append(hk, heatmapRun), append(hu, 3), append(hm, m), append(hv, 2)
	}
	writeParquet(t, filepath.Join(dir, "heatmap", part),
		col{name: "run_key", values: hk}, col{name: "user", values: hu},
		col{name: "minute", values: hm}, col{name: "violations", values: hv})
	var uk []string
	var um []int64
	var up, uw []float64
	for m := int64(0); m < 200; m++ {
		uk, um, up, uw = append(uk, heatmapRun), append(um, m), append(up, 0.5), append(uw, 0.25)
	}
	writeParquet(t, filepath.Join(dir, "utilization", part),
		col{name: "run_key", values: uk}, col{name: "minute", values: um},
		col{name: "procs", values: up}, col{name: "memory", values: uw})
	return dir
}
