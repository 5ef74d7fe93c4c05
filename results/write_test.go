package results_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
)

var testMeta = results.Metadata{
	ToolVersion: "v0.0.0-test", ExperimentFile: "experiments/smoke.hcl", ExperimentHash: "sha256:abc",
	Extra: map[string]string{"z.note": "last", "a.note": "first"},
}

// table is a Parquet file read back: its Arrow table and Parquet metadata.
type table struct {
	arrow.Table
	pq *file.Reader
}

// readParquet reads path with arrow-go's own reader.
func readParquet(t *testing.T, path string) table {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatalf("opening %s: %v", path, err)
	}
	t.Cleanup(func() { rdr.Close() })
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	t.Cleanup(tbl.Release)
	return table{tbl, rdr}
}

// schema renders the Arrow schema as "name type" lines, "?" marking a
// nullable column.
func (tb table) schema() []string {
	var out []string
	for _, f := range tb.Schema().Fields() {
		s := f.Name + " " + f.Type.String()
		if f.Nullable {
			s += "?"
		}
		out = append(out, s)
	}
	return out
}

// column returns a column's values as Go values, nil for NULL.
func (tb table) column(t *testing.T, name string) []any {
	t.Helper()
	idx := tb.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %q in %v", name, tb.schema())
	}
	var out []any
	for _, c := range tb.Column(idx[0]).Data().Chunks() {
		for i := 0; i < c.Len(); i++ {
			if c.IsNull(i) {
				out = append(out, nil)
				continue
			}
			switch a := c.(type) {
			case *array.Int64:
				out = append(out, a.Value(i))
			case *array.Float64:
				out = append(out, a.Value(i))
			case *array.String:
				out = append(out, a.Value(i))
			case *array.Boolean:
				out = append(out, a.Value(i))
			default:
				t.Fatalf("column %q: unexpected array type %T", name, c)
			}
		}
	}
	return out
}

// checkFile checks what every results file shares: a required root, zstd
// everywhere, dictionary pages exactly on the string columns,
// DELTA_BINARY_PACKED exactly on the int64 columns, statistics on every
// column but the jobs file's status and reason (README.md), and the
// metadata in the footer's key-value metadata. (pyarrow, Polars, R arrow,
// DuckDB and hyparquet show that; arrow-go's pqarrow shows it only through
// the Parquet metadata, as here, since the files store no Arrow schema.)
// The metadata is testMeta's with the extra pairs, if any, among
// testMeta.Extra in key order.
func (tb table) checkFile(t *testing.T, extra ...[2]string) {
	t.Helper()
	md := tb.pq.MetaData()
	if r := md.Schema.Root().RepetitionType(); r != parquet.Repetitions.Required {
		t.Errorf("root repetition %v; want required", r)
	}
	for rg := 0; rg < md.NumRowGroups(); rg++ {
		for c := 0; c < md.Schema.NumColumns(); c++ {
			cc, err := md.RowGroup(rg).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			name := md.Schema.Column(c).Name()
			if cc.Compression() != compress.Codecs.Zstd {
				t.Errorf("row group %d column %s: compression %v; want zstd", rg, name, cc.Compression())
			}
			isString := tb.Schema().Field(c).Type.ID() == arrow.STRING
			if cc.HasDictionaryPage() != isString {
				t.Errorf("row group %d column %s: dictionary page %v; want %v", rg, name, cc.HasDictionaryPage(), isString)
			}
			isInt64 := tb.Schema().Field(c).Type.ID() == arrow.INT64
			if delta := slices.Contains(cc.Encodings(), parquet.Encodings.DeltaBinaryPacked); delta != isInt64 {
				t.Errorf("row group %d column %s: encodings %v; want DELTA_BINARY_PACKED %v", rg, name, cc.Encodings(), isInt64)
			}
			wantStats := name != "status" && name != "reason"
			if stats, err := cc.StatsSet(); err != nil || stats != wantStats {
				t.Errorf("row group %d column %s: statistics %v (%v); want %v", rg, name, stats, err, wantStats)
			}
		}
	}
	want := [][2]string{
		{results.MetaToolVersion, "v0.0.0-test"},
		{results.MetaExperimentFile, "experiments/smoke.hcl"},
		{results.MetaExperimentHash, "sha256:abc"},
	}
	tail := append([][2]string{{"a.note", "first"}, {"z.note", "last"}}, extra...)
	slices.SortFunc(tail, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	want = append(want, tail...)
	var got [][2]string
	for _, kv := range md.KeyValueMetadata() {
		got = append(got, [2]string{kv.Key, *kv.Value})
	}
	if d := cmp.Diff(want, got); d != "" { // exactly these: no ARROW:schema either
		t.Errorf("Parquet key-value metadata (-want +got):\n%s", d)
	}
}

func TestWriteJobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jobs", "workload=lublin", "policy=easy", "r0001.parquet")
	if err := results.WriteJobs(path, "r0001", handResult(), handEET(t), testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	wantSchema := []string{
		"run_key utf8", "job_id int64", "user int64?", "submit int64",
		"start int64?", "end int64?", "runtime int64?", "requested_time int64?",
		"estimate_filled bool", "procs int64", "memory int64",
		"wait int64?", "response int64?", "slowdown float64?", "bounded_slowdown float64?",
		"status utf8", "reason utf8?", "eet int64?", "tardiness int64?",
	}
	if d := cmp.Diff(wantSchema, tb.schema()); d != "" {
		t.Errorf("jobs schema (-want +got):\n%s", d)
	}
	i := func(v ...any) []any { return v }
	want := map[string][]any{
		"run_key":          i("r0001", "r0001", "r0001", "r0001", "r0001", "r0001"),
		"job_id":           i(int64(1), int64(2), int64(3), int64(4), int64(5), int64(6)),
		"user":             i(int64(7), int64(3), int64(7), nil, int64(3), int64(3)),
		"submit":           i(int64(0), int64(5), int64(0), int64(1), int64(2), int64(50)),
		"start":            i(int64(0), int64(10), int64(30), nil, nil, int64(50)),
		"end":              i(int64(10), int64(12), int64(50), nil, nil, int64(50)),
		"runtime":          i(int64(10), int64(30), int64(20), nil, int64(5), int64(0)),
		"requested_time":   i(int64(20), int64(2), int64(20), nil, int64(5), int64(0)),
		"estimate_filled":  i(false, false, false, false, false, true),
		"procs":            i(int64(2), int64(4), int64(1), int64(8), int64(9), int64(1)),
		"memory":           i(int64(100), int64(0), int64(0), int64(0), int64(0), int64(0)),
		"wait":             i(int64(0), int64(5), int64(30), nil, nil, int64(0)),
		"response":         i(int64(10), int64(7), int64(50), nil, nil, int64(0)),
		"slowdown":         i(1.0, 3.5, 2.5, nil, nil, 0.0),
		"bounded_slowdown": i(1.0, 1.0, 2.5, nil, nil, 1.0),
		"status":           i("finished", "killed", "finished", "rejected", "rejected", "finished"),
		"reason":           i(nil, nil, nil, "no-runtime", "too-large", nil),
		"eet":              i(int64(10), int64(9), int64(30), nil, nil, int64(50)),
		"tardiness":        i(int64(0), int64(3), int64(20), nil, nil, int64(0)),
	}
	for name, w := range want {
		if d := cmp.Diff(w, tb.column(t, name)); d != "" {
			t.Errorf("jobs column %s (-want +got):\n%s", name, d)
		}
	}
}

// TestWriteJobsWithoutEET checks that without EETs the eet and tardiness
// columns are there, all NULL.
func TestWriteJobsWithoutEET(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r0001.parquet")
	if err := results.WriteJobs(path, "r0001", handResult(), nil, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	nulls := make([]any, 6)
	for _, name := range []string{"eet", "tardiness"} {
		if d := cmp.Diff(nulls, tb.column(t, name)); d != "" {
			t.Errorf("jobs column %s (-want +got):\n%s", name, d)
		}
	}
	if got := tb.column(t, "start"); got[0] != int64(0) || got[3] != nil {
		t.Errorf("start %v; want the other columns as with EETs", got)
	}
}

// TestWriteJobsBatches checks that a run longer than one record batch comes
// back whole, in order, in several row groups.
func TestWriteJobsBatches(t *testing.T) {
	res := handResult()
	one := res.Jobs[0]
	res.Jobs = res.Jobs[:0]
	const n = 150_000
	for k := range n {
		o := one
		o.ID = sim.JobID(k)
		res.Jobs = append(res.Jobs, o)
	}
	path := filepath.Join(t.TempDir(), "big.parquet")
	e, err := results.ComputeEET(res, results.CapacityRule{})
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJobs(path, "big", res, e, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	if rg := tb.pq.NumRowGroups(); rg != 3 {
		t.Errorf("%d row groups; want 3 for %d rows", rg, n)
	}
	ids := tb.column(t, "job_id")
	if len(ids) != n {
		t.Fatalf("%d rows; want %d", len(ids), n)
	}
	eetCol := tb.column(t, "eet")
	for k, id := range ids {
		if id != int64(k) {
			t.Fatalf("row %d: job_id %v; want %d", k, id, k)
		}
		if want := int64(e.Jobs[k].EET); eetCol[k] != want {
			t.Fatalf("row %d: eet %v; want %d", k, eetCol[k], want)
		}
	}
}

func TestWriteJobsEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.parquet")
	if err := results.WriteJobs(path, "none", handResultWithout(), nil, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	if tb.NumRows() != 0 || len(tb.schema()) != 19 {
		t.Errorf("got %d rows, %d columns; want 0 rows, 19 columns", tb.NumRows(), len(tb.schema()))
	}
}

func handResultWithout() *sim.Result {
	res := handResult()
	res.Jobs, res.Finished, res.Killed, res.Rejected = nil, 0, 0, 0
	return res
}

// runRows is a small sweep: the hand-built run, a second whose parameters
// differ (one missing, one new), and a third in which nothing ran.
func runRows() []results.RunRow {
	a := results.NewRunRow(handInfo, handResult(), 1500*time.Millisecond)
	b := a
	b.RunInfo = results.RunInfo{Key: "r0002", Experiment: "smoke", Seed: 7, Params: []results.Param{
		{Name: "policy", Value: results.StringValue("conservative")},
		{Name: "workload", Value: results.StringValue("lublin")},
		{Name: "backfill", Value: results.BoolValue(true)},
	}}
	b.Restarts, b.Migrations, b.Swaps, b.LostWork = 2, 1, 3, 12.5 // as a two-tier run's
	c := results.NewRunRow(results.RunInfo{Key: "r0003", Experiment: "smoke", Seed: 1 << 63,
		Params: []results.Param{{Name: "load_factor", Value: results.FloatValue(1)}}}, handResultWithout(), time.Second)
	return []results.RunRow{a, b, c}
}

func TestWriteRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.parquet")
	if err := results.WriteRuns(path, runRows(), testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	wantSchema := []string{
		"run_key utf8", "experiment utf8",
		"workload utf8?", "policy utf8?", "load_factor float64?", "replicate int64?", "backfill bool?",
		"seed int64", "jobs int64", "warmup float64", "cooldown float64", "jobs_measured int64", "finished int64", "killed int64", "rejected int64", "makespan int64",
		"utilization float64", "memory_utilization float64", "offered_load float64",
		"restarts int64", "migrations int64", "swaps int64", "lost_work float64", "runtimes_cut int64",
	}
	for _, m := range []string{"wait", "response", "slowdown", "bounded_slowdown"} {
		for _, s := range []string{"mean", "median", "p95"} {
			wantSchema = append(wantSchema, m+"_"+s+" float64?")
		}
	}
	wantSchema = append(wantSchema, "wall_seconds float64")
	if d := cmp.Diff(wantSchema, tb.schema()); d != "" {
		t.Errorf("runs schema (-want +got):\n%s", d)
	}
	i := func(v ...any) []any { return v }
	want := map[string][]any{
		"run_key":               i("r0001", "r0002", "r0003"),
		"workload":              i("lublin", "lublin", nil),
		"policy":                i("easy", "conservative", nil),
		"load_factor":           i(0.8, nil, 1.0),
		"replicate":             i(int64(1), nil, nil),
		"backfill":              i(nil, true, nil),
		"seed":                  i(int64(-1), int64(7), int64(math.MinInt64)),
		"jobs":                  i(int64(6), int64(6), int64(0)),
		"rejected":              i(int64(2), int64(2), int64(0)),
		"makespan":              i(int64(50), int64(50), int64(0)),
		"memory_utilization":    i(0.02, 0.02, 0.0),
		"wait_mean":             i(8.75, 8.75, nil),
		"wait_p95":              i(30.0, 30.0, nil),
		"response_median":       i(7.0, 7.0, nil),
		"slowdown_p95":          i(3.5, 3.5, nil),
		"bounded_slowdown_mean": i(1.375, 1.375, nil),
		"wall_seconds":          i(1.5, 1.5, 1.0),
		"restarts":              i(int64(0), int64(2), int64(0)),
		"migrations":            i(int64(0), int64(1), int64(0)),
		"swaps":                 i(int64(0), int64(3), int64(0)),
		"lost_work":             i(0.0, 12.5, 0.0),
	}
	for name, w := range want {
		if d := cmp.Diff(w, tb.column(t, name), cmp.Comparer(approx)); d != "" {
			t.Errorf("runs column %s (-want +got):\n%s", name, d)
		}
	}
}

func TestWriteRunsErrors(t *testing.T) {
	bad := func(edit func(rows []results.RunRow)) []results.RunRow {
		rows := runRows()
		edit(rows)
		return rows
	}
	tests := []struct {
		name string
		rows []results.RunRow
		want string
	}{
		{"two kinds", bad(func(r []results.RunRow) {
			r[2].Params[0].Value = results.IntValue(1)
		}), `parameter "load_factor" is float in run "r0001" but int in run "r0003"`},
		{"fixed name", bad(func(r []results.RunRow) {
			r[1].Params[2].Name = "seed"
		}), `run "r0002": parameter "seed" has the name of a fixed column`},
		{"repeated", bad(func(r []results.RunRow) {
			r[1].Params[2].Name = "policy"
		}), `run "r0002": parameter "policy" given twice`},
		{"invalid kind", bad(func(r []results.RunRow) {
			r[1].Params[2].Value = results.Value{}
		}), `run "r0002": parameter "backfill" has invalid kind(0)`},
		{"empty name", bad(func(r []results.RunRow) {
			r[1].Params[2].Name = ""
		}), `run "r0002": parameter with an empty name`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "runs.parquet")
			err := results.WriteRuns(path, tc.rows, testMeta)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("WriteRuns: got error %v; want one naming %s and saying %s", err, path, tc.want)
			}
			if left := dirNames(t, dir); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

func TestWriteUsers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "users.parquet")
	rows := results.UserRows("r0001", handResult(), handEET(t))
	rows = append(rows, results.UserRows("r0002", handResult(), nil)...)
	if err := results.WriteUsers(path, rows, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t)
	wantSchema := []string{"run_key utf8", "user int64?", "jobs int64", "ran int64",
		"mean_wait float64?", "mean_response float64?", "mean_bounded_slowdown float64?",
		"eet_violated int64?", "veet_share float64?", "weighted_tardiness int64?", "recent_accuracy float64?"}
	if d := cmp.Diff(wantSchema, tb.schema()); d != "" {
		t.Errorf("users schema (-want +got):\n%s", d)
	}
	i := func(v ...any) []any { return v }
	want := map[string][]any{
		"user":                  i(nil, int64(3), int64(7), nil, int64(3), int64(7)),
		"jobs":                  i(int64(1), int64(3), int64(2), int64(1), int64(3), int64(2)),
		"ran":                   i(int64(0), int64(2), int64(2), int64(0), int64(2), int64(2)),
		"mean_wait":             i(nil, 2.5, 15.0, nil, 2.5, 15.0),
		"mean_bounded_slowdown": i(nil, 1.0, 1.75, nil, 1.0, 1.75),
		// Run r0002 has no EETs.
		"eet_violated":       i(int64(0), int64(1), int64(1), nil, nil, nil),
		"veet_share":         i(nil, 0.5, 0.5, nil, nil, nil),
		"weighted_tardiness": i(int64(0), int64(12), int64(20), nil, nil, nil),
		"recent_accuracy":    i(nil, 1.0, 0.75, nil, 1.0, 0.75),
	}
	for name, w := range want {
		if d := cmp.Diff(w, tb.column(t, name)); d != "" {
			t.Errorf("users column %s (-want +got):\n%s", name, d)
		}
	}
}

// TestDeterministic writes every file twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	writers := []struct {
		name  string
		write func(path string) error
	}{
		{"jobs", func(p string) error { return results.WriteJobs(p, "r0001", handResult(), handEET(t), testMeta) }},
		{"runs", func(p string) error { return results.WriteRuns(p, runRows(), testMeta) }},
		{"users", func(p string) error {
			return results.WriteUsers(p, results.UserRows("r0001", handResult(), handEET(t)), testMeta)
		}},
		{"heatmap", func(p string) error { return results.WriteHeatmap(p, "r0001", 60, heatCases[0].want, testMeta) }},
		{"utilization", func(p string) error {
			return results.WriteUtilization(p, "r0001", 7, results.Utilization(handResult(), 7), testMeta)
		}},
	}
	for _, w := range writers {
		var files [2][]byte
		for k := range files {
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.parquet", w.name, k))
			if err := w.write(path); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files[k] = b
		}
		if !bytes.Equal(files[0], files[1]) {
			t.Errorf("%s: two writes of the same input differ (%d and %d bytes)", w.name, len(files[0]), len(files[1]))
		}
	}
}

// TestWriteFailureCleansUp checks that a failed write returns an error
// naming the path and leaves no temporary file.
func TestWriteFailureCleansUp(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory where the file should go: the data is written, then the
	// rename fails, so the temporary file exists and must be removed.
	occupied := filepath.Join(dir, "occupied.parquet")
	if err := os.MkdirAll(filepath.Join(occupied, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
	}{
		{"parent is a file", filepath.Join(blocker, "jobs", "r.parquet")},
		{"target is a directory", occupied},
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "read-only")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		tests = append(tests, struct{ name, path string }{"unwritable directory", filepath.Join(ro, "r.parquet")})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := results.WriteJobs(tc.path, "r", handResult(), nil, testMeta)
			if err == nil || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("WriteJobs(%s): got error %v; want one naming the path", tc.path, err)
			}
			if got := dirNames(t, dir); !cmp.Equal(got, []string{"not-a-dir", "occupied.parquet", "read-only"}) &&
				!cmp.Equal(got, []string{"not-a-dir", "occupied.parquet"}) {
				t.Errorf("after the failure %s holds %v; want no temporary file", dir, got)
			}
		})
	}
	if err := results.WriteJobs(filepath.Join(dir, "x.parquet"), "r", handResult(), nil, results.Metadata{
		Extra: map[string]string{results.MetaToolVersion: "x"},
	}); err == nil || !strings.Contains(err.Error(), `"schedsweep.tool_version" is reserved`) {
		t.Errorf("extra metadata shadowing a fixed key: got error %v; want it refused", err)
	}
}

// dirNames lists dir's entries.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestUsersWriter streams more rows than one row group, in small appends,
// and checks the file equals WriteUsers' byte for byte.
func TestUsersWriter(t *testing.T) {
	dir := t.TempDir()
	var rows []results.UserRow
	for run := range 150 {
		for u := range 1000 {
			rows = append(rows, results.UserRow{RunKey: fmt.Sprintf("r%04d", run), User: int32(u), Jobs: 2, Ran: 1, MeanWait: float64(u)})
		}
	}
	streamed := filepath.Join(dir, "streamed", "users.parquet")
	w, err := results.NewUsersWriter(streamed, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for lo := 0; lo < len(rows); lo += 1000 {
		if err := w.Append(rows[lo : lo+1000]); err != nil {
			t.Fatal(err)
		}
	}
	if got := dirNames(t, filepath.Dir(streamed)); len(got) != 1 || !strings.HasPrefix(got[0], ".users.parquet.tmp-") {
		t.Errorf("before Close the folder holds %v; want only the temporary file", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(rows[:1]); err == nil {
		t.Error("Append after Close: got no error")
	}
	if err := w.Close(); err == nil {
		t.Error("second Close: got no error")
	}
	whole := filepath.Join(dir, "users.parquet")
	if err := results.WriteUsers(whole, rows, testMeta); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(streamed)
	b, _ := os.ReadFile(whole)
	if !bytes.Equal(a, b) {
		t.Errorf("streamed file (%d bytes) differs from WriteUsers' (%d bytes)", len(a), len(b))
	}
	tb := readParquet(t, streamed)
	tb.checkFile(t)
	if tb.NumRows() != int64(len(rows)) || tb.pq.NumRowGroups() != 10 {
		t.Errorf("%d rows in %d row groups; want %d in 10 (16k rows a group)", tb.NumRows(), tb.pq.NumRowGroups(), len(rows))
	}
}

func TestUsersWriterAbort(t *testing.T) {
	dir := t.TempDir()
	w, err := results.NewUsersWriter(filepath.Join(dir, "users.parquet"), testMeta)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(results.UserRows("r", handResult(), nil)); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	w.Abort()
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("after Abort the folder holds %v; want nothing", got)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after Abort: got no error")
	}
}

func TestWriteJobsCorruptResult(t *testing.T) {
	dir := t.TempDir()
	res := handResult()
	res.Jobs[2].State = 0
	path := filepath.Join(dir, "jobs.parquet")
	err := results.WriteJobs(path, "r", res, nil, testMeta)
	if err == nil || !strings.Contains(err.Error(), "job 3: invalid state(0)") || !strings.Contains(err.Error(), path) {
		t.Errorf("WriteJobs with a job in state 0: got error %v; want one naming %s and job 3", err, path)
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("files left behind: %v", got)
	}
}

// TestRunsWriter streams runs.parquet a row at a time, its columns declared
// up front, and checks the file equals WriteRuns' byte for byte; a row with
// a parameter that was not declared is an error that leaves nothing behind.
func TestRunsWriter(t *testing.T) {
	dir := t.TempDir()
	rows := runRows()
	var pc results.ParamColumns
	for _, r := range rows {
		if err := pc.Add(r.Key, r.Params); err != nil {
			t.Fatal(err)
		}
	}
	streamed := filepath.Join(dir, "streamed", "runs.parquet")
	w, err := results.NewRunsWriter(streamed, &pc, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, r := range rows {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "runs.parquet")
	if err := results.WriteRuns(whole, rows, testMeta); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(streamed)
	b, _ := os.ReadFile(whole)
	if !bytes.Equal(a, b) {
		t.Errorf("streamed file (%d bytes) differs from WriteRuns' (%d bytes)", len(a), len(b))
	}

	// Declared from the first row only, the others bring new parameters.
	var first results.ParamColumns
	if err := first.Add(rows[0].Key, rows[0].Params); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "undeclared")
	path := filepath.Join(sub, "runs.parquet")
	w, err = results.NewRunsWriter(path, &first, testMeta)
	if err != nil {
		t.Fatal(err)
	}
	// Runs added after the writer started add no column to it.
	for _, r := range rows[1:] {
		if err := first.Add(r.Key, r.Params); err != nil {
			t.Fatal(err)
		}
	}
	err = w.Append(rows...)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `run "r0002": parameter "backfill"`) {
		t.Fatalf("Append of an undeclared parameter: got %v; want an error naming %s, the run and the parameter", err, path)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed Append: got no error")
	}
	if left := dirNames(t, sub); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
}
