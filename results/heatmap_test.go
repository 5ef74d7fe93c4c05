package results_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// heatRun is a run worked out by hand for the heatmap, on a fixed capacity
// of 2 processors per user, shifted by shift seconds. Jobs (user, submit,
// processors, run) with their schedule, EET and tardiness:
//
//	D   2     0  1   10   ran    0–10    EET 10    T 0
//	E  -1    30  1   30   ran   90–120   EET 60    T 60    from 30
//	A   1   100  1  600   ran  280–880   EET 700   T 180   from 100
//	C   1   100  1  120   ran  161–281   EET 220   T 61    from 100
//	B   1  3000  1   60   ran 3001–3061  EET 3060  T 1     from 3000
//
// "from" is EET − run, where section 3.3 starts a violation. In minutes
// counted from the first submit (D's), A fills 3 cells from minute 1, C 2
// (61 s rounds up), B 1 at minute 50 and E 1 at minute 0.
func heatRun(shift sim.Time) *sim.Result {
	job := func(id int64, user int32, submit, run, start sim.Time) sim.Outcome {
		return ran(simtest.J(id, submit+shift, run, run, 1, simtest.User(user)), start+shift, start+shift+run, sim.Finished)
	}
	return handRun(simtest.Cluster(8, 0),
		job(4, 2, 0, 10, 0),
		job(5, -1, 30, 30, 90),
		job(1, 1, 100, 600, 280),
		job(3, 1, 100, 120, 161),
		job(2, 1, 3000, 60, 3001),
	)
}

var heatCases = []struct {
	name   string
	shift  sim.Time
	bucket sim.Time
	want   []results.HeatCell
}{
	{"minutes", 0, 60, []results.HeatCell{
		{User: -1, Bucket: 0, Count: 1},
		{User: 1, Bucket: 1, Count: 2}, {User: 1, Bucket: 2, Count: 2}, {User: 1, Bucket: 3, Count: 1},
		{User: 1, Bucket: 50, Count: 1},
	}},
	{"minutes count from the first submit", 1_000_000, 60, []results.HeatCell{
		{User: -1, Bucket: 0, Count: 1},
		{User: 1, Bucket: 1, Count: 2}, {User: 1, Bucket: 2, Count: 2}, {User: 1, Bucket: 3, Count: 1},
		{User: 1, Bucket: 50, Count: 1},
	}},
	{"hours", 0, 3600, []results.HeatCell{{User: -1, Bucket: 0, Count: 1}, {User: 1, Bucket: 0, Count: 3}}},
}

func TestViolations(t *testing.T) {
	for _, tc := range heatCases {
		t.Run(tc.name, func(t *testing.T) {
			res := heatRun(tc.shift)
			e := mustEET(t, res, results.Fixed(sim.Resources{2}))
			if d := cmp.Diff([]sim.Time{10 + tc.shift, 60 + tc.shift, 700 + tc.shift, 220 + tc.shift, 3060 + tc.shift}, eets(e)); d != "" {
				t.Fatalf("EETs (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.want, results.Violations(res, e, tc.bucket)); d != "" {
				t.Errorf("cells (-want +got):\n%s", d)
			}
		})
	}
}

// TestViolationsSeconds: with 1-second buckets every violated EET covers
// exactly T cells from EET − run, so the cells sum to the total tardiness
// and each user's cells match a count second by second.
func TestViolationsSeconds(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := simtest.Cluster(1+rng.Int64N(8), 0)
		recs := randomRecs(rng, 1+rng.IntN(60), 3, c, 40, func() int64 { return 1 + rng.Int64N(c[sim.Procs]) }, 1)
		res := simulateRecs(t, "easy", c, recs)
		e := mustEET(t, res, results.CapacityRule{})
		want := map[results.HeatCell]bool{}
		count := map[[2]int64]int64{}
		for i, o := range res.Jobs {
			if o.State == sim.Rejected {
				continue
			}
			from := e.Jobs[i].EET - (o.End - o.Start) - res.Jobs[0].Submit
			for s := range int64(e.Jobs[i].Tardiness) {
				count[[2]int64{int64(o.User), int64(from) + s}]++
			}
		}
		for k, n := range count {
			want[results.HeatCell{User: int32(k[0]), Bucket: k[1], Count: n}] = true
		}
		got := results.Violations(res, e, 1)
		for i, cell := range got {
			if !want[cell] {
				t.Fatalf("seed %d: cell %+v not in the second-by-second count", seed, cell)
			}
			if i > 0 && (got[i-1].User > cell.User || got[i-1].User == cell.User && got[i-1].Bucket >= cell.Bucket) {
				t.Fatalf("seed %d: cells %+v and %+v out of order", seed, got[i-1], cell)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d cells; want %d", seed, len(got), len(want))
		}
	}
}

// bruteUtilization is Utilization second by second.
func bruteUtilization(res *sim.Result, bucket sim.Time) []results.UtilPoint {
	var last sim.Time
	for _, o := range res.Jobs {
		if o.State != sim.Rejected && o.End > o.Start {
			last = max(last, o.End)
		}
	}
	if last == 0 {
		return nil
	}
	t0 := res.Jobs[0].Submit
	var pts []results.UtilPoint
	for b := int64(0); t0+sim.Time(b)*bucket < last; b++ {
		lo, hi := t0+sim.Time(b)*bucket, min(last, t0+sim.Time(b+1)*bucket)
		var p, m int64
		for s := lo; s < hi; s++ {
			for _, o := range res.Jobs {
				if o.State != sim.Rejected && o.Start <= s && s < o.End {
					p, m = p+o.Need[sim.Procs], m+o.Need[sim.Memory]
				}
			}
		}
		pt := results.UtilPoint{Bucket: b, Procs: float64(p) / (float64(res.Capacity[sim.Procs]) * float64(hi-lo))}
		if res.Capacity[sim.Memory] > 0 {
			pt.Memory = float64(m) / (float64(res.Capacity[sim.Memory]) * float64(hi-lo))
		}
		pts = append(pts, pt)
	}
	return pts
}

func TestUtilization(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 8))
		c := simtest.Cluster(1+rng.Int64N(8), 0)
		if seed%2 == 0 {
			c[sim.Memory] = 100
		}
		recs := randomRecs(rng, 1+rng.IntN(40), 2, c, 100, func() int64 { return 1 + rng.Int64N(c[sim.Procs]) }, 1)
		for i := range recs {
			recs[i].Submit += 1000 // the series starts at the first submit, not at 0
		}
		res := simulateRecs(t, []string{"fcfs", "easy"}[seed%2], c, recs)
		for _, bucket := range []sim.Time{1, 7, 60} {
			want := bruteUtilization(res, bucket)
			if d := cmp.Diff(want, results.Utilization(res, bucket), cmp.Comparer(approx)); d != "" {
				t.Fatalf("seed %d, bucket %d s (-second by second +Utilization):\n%s", seed, bucket, d)
			}
		}
	}
	t.Run("nothing ran", func(t *testing.T) {
		res := handRun(simtest.Cluster(4, 0), rejected(simtest.J(1, 0, 5, 5, 8), sim.TooLarge),
			ran(simtest.J(2, 3, 0, 0, 1), 3, 3, sim.Finished))
		if got := results.Utilization(res, 60); got != nil {
			t.Errorf("got %v; want no points", got)
		}
	})
}

func TestWriteHeatmap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heatmaps", "r0001.parquet")
	if err := results.WriteHeatmap(path, "r0001", 60, heatCases[0].want, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t, [2]string{results.MetaBucketSeconds, "60"})
	if d := cmp.Diff([]string{"run_key utf8", "user int64?", "bucket int64", "violations int64"}, tb.schema()); d != "" {
		t.Errorf("heatmap schema (-want +got):\n%s", d)
	}
	i := func(v ...any) []any { return v }
	want := map[string][]any{
		"run_key":    i("r0001", "r0001", "r0001", "r0001", "r0001"),
		"user":       i(nil, int64(1), int64(1), int64(1), int64(1)),
		"bucket":     i(int64(0), int64(1), int64(2), int64(3), int64(50)),
		"violations": i(int64(1), int64(2), int64(2), int64(1), int64(1)),
	}
	for name, w := range want {
		if d := cmp.Diff(w, tb.column(t, name)); d != "" {
			t.Errorf("heatmap column %s (-want +got):\n%s", name, d)
		}
	}
}

func TestWriteUtilization(t *testing.T) {
	path := filepath.Join(t.TempDir(), "utilization.parquet")
	// handResult over 20 s buckets from 0: [0, 20) holds job 1 (2 × 10)
	// and job 2 (4 × 2) of 4 processors, and job 1's 100 bytes × 10 s of
	// 1000; [20, 40) job 3 for 10 s; [40, 50) job 3 for 10 s.
	pts := results.Utilization(handResult(), 20)
	if err := results.WriteUtilization(path, "r0001", 20, pts, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	tb.checkFile(t, [2]string{results.MetaBucketSeconds, "20"})
	if d := cmp.Diff([]string{"run_key utf8", "bucket int64", "procs float64", "memory float64"}, tb.schema()); d != "" {
		t.Errorf("utilization schema (-want +got):\n%s", d)
	}
	i := func(v ...any) []any { return v }
	want := map[string][]any{
		"run_key": i("r0001", "r0001", "r0001"),
		"bucket":  i(int64(0), int64(1), int64(2)),
		"procs":   i(28.0/80, 10.0/80, 10.0/40),
		"memory":  i(1000.0/20000, 0.0, 0.0),
	}
	for name, w := range want {
		if d := cmp.Diff(w, tb.column(t, name), cmp.Comparer(approx)); d != "" {
			t.Errorf("utilization column %s (-want +got):\n%s", name, d)
		}
	}
}

// TestWriteUtilizationRowGroups checks that a long series goes out in row
// groups of 64k rows, as the job files do: the smaller groups of the runs
// and users tables are theirs alone.
func TestWriteUtilizationRowGroups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "utilization.parquet")
	pts := make([]results.UtilPoint, 70_000)
	for i := range pts {
		pts[i] = results.UtilPoint{Bucket: int64(i), Procs: 0.5}
	}
	if err := results.WriteUtilization(path, "r", 60, pts, testMeta); err != nil {
		t.Fatal(err)
	}
	tb := readParquet(t, path)
	if tb.NumRows() != 70_000 || tb.pq.NumRowGroups() != 2 {
		t.Errorf("%d rows in %d row groups; want 70000 in 2 (65,536 rows a group)", tb.NumRows(), tb.pq.NumRowGroups())
	}
}

// TestWriteSeriesFailures checks the series writers' errors: each names
// the path and leaves nothing behind.
func TestWriteSeriesFailures(t *testing.T) {
	dir := t.TempDir()
	occupied := filepath.Join(dir, "occupied.parquet")
	if err := os.MkdirAll(filepath.Join(occupied, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "x.parquet")
	reserved := results.Metadata{Extra: map[string]string{results.MetaBucketSeconds: "1"}}
	tests := []struct {
		name  string
		write func() error
		path  string
		want  string
	}{
		{"heatmap onto a directory", func() error { return results.WriteHeatmap(occupied, "r", 60, nil, testMeta) }, occupied, "moving"},
		{"utilization onto a directory", func() error { return results.WriteUtilization(occupied, "r", 60, nil, testMeta) }, occupied, "moving"},
		{"zero bucket", func() error { return results.WriteHeatmap(good, "r", 0, nil, testMeta) }, good, "bucket of 0 s is not positive"},
		{"reserved metadata key", func() error { return results.WriteUtilization(good, "r", 60, nil, reserved) }, good,
			`"schedsweep.bucket_seconds" is reserved`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write()
			if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v; want one naming %s and saying %s", err, tc.path, tc.want)
			}
			if got := dirNames(t, dir); !cmp.Equal(got, []string{"occupied.parquet"}) {
				t.Errorf("after the failure %s holds %v; want no other file", dir, got)
			}
		})
	}
}

func ExampleViolations() {
	// One user with an expected capacity of 1 processor submits two 2-minute
	// jobs at once; the second can meet its EET (240 s) only by starting at
	// 120, but starts at 300 and is 3 minutes late: minutes 2, 3 and 4.
	res := &sim.Result{
		Capacity: sim.Resources{sim.Procs: 2},
		Jobs: []sim.Outcome{
			{Record: simtest.J(1, 0, 120, 120, 1, simtest.User(1)), Start: 0, End: 120, State: sim.Finished},
			{Record: simtest.J(2, 0, 120, 120, 1, simtest.User(1)), Start: 300, End: 420, State: sim.Finished},
		},
	}
	e, err := results.ComputeEET(res, results.Fixed(sim.Resources{sim.Procs: 1}))
	if err != nil {
		panic(err)
	}
	for _, c := range results.Violations(res, e, 60) {
		fmt.Printf("user %d, minute %d: %d violated\n", c.User, c.Bucket, c.Count)
	}
	for _, p := range results.Utilization(res, 60) {
		fmt.Printf("minute %d: %.0f%% of the processors\n", p.Bucket, 100*p.Procs)
	}
	// Output:
	// user 1, minute 2: 1 violated
	// user 1, minute 3: 1 violated
	// user 1, minute 4: 1 violated
	// minute 0: 50% of the processors
	// minute 1: 50% of the processors
	// minute 2: 0% of the processors
	// minute 3: 0% of the processors
	// minute 4: 0% of the processors
	// minute 5: 50% of the processors
	// minute 6: 50% of the processors
}

func ExampleWriteHeatmap() {
	dir, err := os.MkdirTemp("", "schedsweep-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	res := exampleResult()
	e, err := results.ComputeEET(res, results.CapacityRule{})
	if err != nil {
		panic(err)
	}
	meta := results.Metadata{ToolVersion: "v1.0.0"}
	heat, util := filepath.Join(dir, "heatmap.parquet"), filepath.Join(dir, "utilization.parquet")
	if err := results.WriteHeatmap(heat, "r0001", 60, results.Violations(res, e, 60), meta); err != nil {
		panic(err)
	}
	if err := results.WriteUtilization(util, "r0001", 60, results.Utilization(res, 60), meta); err != nil {
		panic(err)
	}
	for _, path := range []string{heat, util} {
		rdr, err := file.OpenParquetFile(path, false)
		if err != nil {
			panic(err)
		}
		fmt.Println(filepath.Base(path), rdr.NumRows(), "rows, bucket",
			*rdr.MetaData().KeyValueMetadata().FindValue(results.MetaBucketSeconds), "s")
		rdr.Close()
	}
	// Output:
	// heatmap.parquet 2 rows, bucket 60 s
	// utilization.parquet 3 rows, bucket 60 s
}
