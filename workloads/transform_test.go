package workloads

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/sim"
)

// mkrec builds a record: id, submit, run time, estimate, processors, user.
func mkrec(id int64, submit, run, est sim.Time, procs int64, user int32) sim.Record {
	r := sim.Record{Job: sim.Job{ID: sim.JobID(id), Submit: submit, Estimate: est, User: user,
		Group: -1, Queue: -1, Partition: -1}, Runtime: run, Status: 1, Preceding: -1, Think: -1}
	r.Need[sim.Procs] = procs
	return r
}

func drain(t *testing.T, src sim.Source) []sim.Record {
	t.Helper()
	recs, err := sim.ReadAll(src)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func readShared(t *testing.T, tc traceCase) []sim.Record {
	t.Helper()
	return drain(t, NewSWFReader(bytes.NewReader(sharedTrace(t, tc.file)), tc.file, tc.opt))
}

// TestLoadFactorOnEveryTrace checks that the transformed offered load is the
// asked multiple of the original within 1%, and that FactorForLoad reaches
// an absolute target within 1%, on every shared trace.
func TestLoadFactorOnEveryTrace(t *testing.T) {
	for _, tc := range traces {
		t.Run(tc.file, func(t *testing.T) {
			recs := readShared(t, tc)
			base, err := Describe(sim.NewSliceSource(recs))
			if err != nil {
				t.Fatal(err)
			}
			const procs = 100 // the load's ratio does not depend on the machine
			for _, f := range []float64{0.5, 0.8, 1.3, 2, 3.7} {
				src, err := LoadFactor(sim.NewSliceSource(recs), f)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Describe(src)
				if err != nil {
					t.Fatal(err)
				}
				ratio := got.OfferedLoad(procs) / base.OfferedLoad(procs)
				if math.Abs(ratio/f-1) > 0.01 {
					t.Errorf("factor %v: load went from %.4f to %.4f, a ratio of %.4f", f, base.OfferedLoad(procs), got.OfferedLoad(procs), ratio)
				}
				if got.Jobs != base.Jobs || got.Work != base.Work {
					t.Errorf("factor %v: jobs or work changed: %d/%v, was %d/%v", f, got.Jobs, got.Work, base.Jobs, base.Work)
				}
			}
			for _, target := range []float64{0.5, 0.9, 1.2} {
				f, err := FactorForLoad(base.OfferedLoad(procs), target)
				if err != nil {
					t.Fatal(err)
				}
				src, _ := LoadFactor(sim.NewSliceSource(recs), f)
				got, _ := Describe(src)
				if l := got.OfferedLoad(procs); math.Abs(l/target-1) > 0.01 {
					t.Errorf("target load %v: got %.4f", target, l)
				}
			}
		})
	}
}

func TestLoadFactorSemantics(t *testing.T) {
	recs := []sim.Record{mkrec(1, 100, 10, 10, 1, 1), mkrec(2, 101, 10, 10, 1, 1), mkrec(3, 103, 10, 10, 1, 1), mkrec(4, 200, 10, 10, 1, 1)}
	src, err := LoadFactor(sim.NewSliceSource(recs), 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []sim.Time
	for _, r := range drain(t, src) {
		got = append(got, r.Submit)
	}
	// Gaps halve from the first submit, rounded to the nearest second
	// (half away from zero): 100, 100.5 → 101, 101.5 → 102, 150.
	if diff := cmp.Diff([]sim.Time{100, 101, 102, 150}, got); diff != "" {
		t.Errorf("submit times (-want +got):\n%s", diff)
	}
	for _, f := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := LoadFactor(sim.NewSliceSource(recs), f); !errors.Is(err, ErrBadFactor) {
			t.Errorf("LoadFactor(%v): got %v; want ErrBadFactor", f, err)
		}
	}
	// A factor so small that the last job's submit time would pass what
	// times can hold is an error naming the job and the factor, not a time
	// that wraps around to negative.
	src, err = LoadFactor(sim.NewSliceSource(recs), 1e-300)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := src.Next(); err != nil || r.Submit != 100 {
		t.Fatalf("the first job under a tiny factor: %+v, %v; want submit 100", r, err)
	}
	if r, err := src.Next(); err == nil || !strings.Contains(err.Error(), "job 2: load factor 1e-300") {
		t.Errorf("the second job under a tiny factor: %+v, %v; want an error naming job 2 and the factor", r, err)
	}
	if _, err := FactorForLoad(0, 0.5); !errors.Is(err, ErrBadFactor) {
		t.Errorf("FactorForLoad from an empty load: got %v; want ErrBadFactor", err)
	}
}

func ids(recs []sim.Record) []sim.JobID {
	var out []sim.JobID
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func TestCuts(t *testing.T) {
	recs := []sim.Record{
		mkrec(1, 0, 5, 5, 1, 1), mkrec(2, 10, 5, 5, 2, 2), mkrec(3, 20, 5, 5, 1, 1),
		mkrec(4, 30, 5, 5, 4, 3), mkrec(5, 40, 5, 5, 1, 2),
	}
	recs[1].Queue, recs[3].Queue = 7, 7
	recs[4].Partition = 2
	tests := []struct {
		name string
		src  sim.Source
		want []sim.JobID
	}{
		{"take 2", Take(sim.NewSliceSource(recs), 2), []sim.JobID{1, 2}},
		{"take 0", Take(sim.NewSliceSource(recs), 0), nil},
		{"window [10, 30)", Window(sim.NewSliceSource(recs), 10, 30), []sim.JobID{2, 3}},
		{"window past the end", Window(sim.NewSliceSource(recs), 35, 1000), []sim.JobID{5}},
		{"users 1 and 3", Filter(sim.NewSliceSource(recs), Users(1, 3)), []sim.JobID{1, 3, 4}},
		{"queue 7", Filter(sim.NewSliceSource(recs), Queues(7)), []sim.JobID{2, 4}},
		{"partition 2", Filter(sim.NewSliceSource(recs), Partitions(2)), []sim.JobID{5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ids(drain(t, tc.src))); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

// countingSource counts how many records were asked of it.
type countingSource struct {
	sim.Source
	n int
}

func (c *countingSource) Next() (sim.Record, error) { c.n++; return c.Source.Next() }

func TestWindowStopsReading(t *testing.T) {
	recs := []sim.Record{mkrec(1, 0, 5, 5, 1, 1), mkrec(2, 10, 5, 5, 1, 1), mkrec(3, 20, 5, 5, 1, 1), mkrec(4, 30, 5, 5, 1, 1)}
	c := &countingSource{Source: sim.NewSliceSource(recs)}
	drain(t, Window(c, 0, 15))
	if c.n != 3 {
		t.Errorf("Window read %d records; want 3 (it must stop at the first one past the window)", c.n)
	}
}

func TestNodesToProcs(t *testing.T) {
	src, err := NodesToProcs(sim.NewSliceSource([]sim.Record{mkrec(1, 0, 5, 5, 3, 1)}), 80)
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, src)[0].Need[sim.Procs]; got != 240 {
		t.Errorf("3 nodes of 80: got %d processors; want 240", got)
	}
	if _, err := NodesToProcs(sim.NewSliceSource(nil), 0); err == nil {
		t.Error("0 processors per node: got no error")
	}
}

func TestEstimates(t *testing.T) {
	var recs []sim.Record
	for i := range 2000 {
		recs = append(recs, mkrec(int64(i+1), sim.Time(i), sim.Time(1+i%500), 99999, 1, 1))
	}
	exact := drain(t, ExactEstimates(sim.NewSliceSource(recs)))
	for _, r := range exact {
		if r.Estimate != r.Runtime {
			t.Fatalf("exact: job %d has estimate %d, run time %d", r.ID, r.Estimate, r.Runtime)
		}
	}
	const f = 2.0
	src, err := BadnessEstimates(sim.NewSliceSource(recs), f, 7)
	if err != nil {
		t.Fatal(err)
	}
	bad := drain(t, src)
	var sumRatio float64
	for _, r := range bad {
		if r.Estimate < r.Runtime || float64(r.Estimate) > math.Ceil((f+1)*float64(r.Runtime)) {
			t.Fatalf("badness %v: job %d has estimate %d for run time %d", f, r.ID, r.Estimate, r.Runtime)
		}
		sumRatio += float64(r.Estimate) / float64(r.Runtime)
	}
	// The estimate / run time ratio is uniform in [1, 1+f]: mean 1 + f/2.
	if mean := sumRatio / float64(len(bad)); math.Abs(mean-(1+f/2)) > 0.05 {
		t.Errorf("badness %v: mean estimate/run time %.3f; want about %.3f", f, mean, 1+f/2)
	}
	again, _ := BadnessEstimates(sim.NewSliceSource(recs), f, 7)
	if diff := cmp.Diff(bad, drain(t, again)); diff != "" {
		t.Errorf("same seed, different estimates:\n%s", diff)
	}
	other, _ := BadnessEstimates(sim.NewSliceSource(recs), f, 8)
	if cmp.Equal(bad, drain(t, other)) {
		t.Error("different seeds gave the same estimates")
	}
	zero, _ := BadnessEstimates(sim.NewSliceSource(recs), 0, 7)
	if diff := cmp.Diff(exact, drain(t, zero)); diff != "" {
		t.Errorf("badness 0 differs from exact estimates:\n%s", diff)
	}
	if _, err := BadnessEstimates(sim.NewSliceSource(recs), -1, 7); err == nil {
		t.Error("badness -1: got no error")
	}
}

func TestMerge(t *testing.T) {
	a := []sim.Record{mkrec(11, 100, 10, 20, 2, 7), mkrec(12, 200, 10, 20, 2, 7)}
	b := []sim.Record{mkrec(21, 5000, 10, 20, 8, 7), mkrec(22, 5050, 10, 20, 1, 8)}
	m, err := Merge(4, Named{"a.swf", sim.NewSliceSource(a)}, Named{"b.swf", sim.NewSliceSource(b)})
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, m)
	type short struct {
		ID          sim.JobID
		Submit, Run sim.Time
		Est         sim.Time
		Procs       int64
		User        int32
	}
	var s []short
	for _, r := range got {
		s = append(s, short{r.ID, r.Submit, r.Runtime, r.Estimate, r.Need[sim.Procs], r.User})
	}
	// Starts aligned at 0; a's job first at the tie; b's 8-processor job
	// scaled to 4 processors and twice the time; b's users shifted.
	want := []short{
		{1, 0, 10, 20, 2, 7},
		{2, 0, 20, 40, 4, 7 + UserOffset},
		{3, 50, 10, 20, 1, 8 + UserOffset},
		{4, 100, 10, 20, 2, 7},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if m.Scaled() != 1 {
		t.Errorf("Scaled() = %d; want 1", m.Scaled())
	}

	if _, err := Merge(0, Named{"a.swf", sim.NewSliceSource(a)}); err == nil {
		t.Error("merge onto 0 processors: got no error")
	}
	big := []sim.Record{mkrec(31, 0, 10, 20, 8, 1), mkrec(32, 5, 10, 20, 16, 1)}
	disjoint, _ := Merge(4, Named{"a.swf", sim.NewSliceSource(a)}, Named{"big.swf", sim.NewSliceSource(big)})
	if _, err := sim.ReadAll(disjoint); err == nil || !strings.Contains(err.Error(), "every one of the 2 jobs of big.swf needs more than the 4-processor target machine") {
		t.Errorf("merge of machines that do not overlap: got %v; want it named", err)
	}
	empty, _ := Merge(4, Named{"a.swf", sim.NewSliceSource(a)}, Named{"empty.swf", sim.NewSliceSource(nil)})
	if _, err := empty.Next(); err == nil || !strings.Contains(err.Error(), "empty.swf has no jobs") {
		t.Errorf("merge with an empty input: got %v; want it named", err)
	}
}

func TestDescribeTiny(t *testing.T) {
	recs := readShared(t, traceCase{file: "tiny.swf"})
	info, err := Describe(sim.NewSliceSource(recs))
	if err != nil {
		t.Fatal(err)
	}
	// Worked out from tiny.swf by hand: Σ run × procs = 138,295 over a
	// span of 5,100 s; accuracy quartiles of the 20 run/request ratios are
	// the 5th, 10th and 15th smallest: 120/300, 600/1200 (0.5), 600/900.
	want := TraceInfo{Jobs: 20, Users: 3, First: 0, Last: 5100, Span: 5100, LargestJob: 8,
		MaxRuntime: 7200, Work: 138295, WithEstimate: 20, Accuracy: [3]float64{0.4, 0.5, 600.0 / 900}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Describe(tiny.swf) (-want +got):\n%s", diff)
	}
	if got := info.OfferedLoad(8); math.Abs(got-138295.0/(8*5100)) > 1e-12 {
		t.Errorf("offered load on 8: got %v", got)
	}
}

// BenchmarkDescribe is `trace info` without the printing: read, parse and
// summarise a whole trace. The target is under 0.5 s for
// METACENTRUM-2009-2.
func BenchmarkDescribe(b *testing.B) {
	for _, tc := range traces[:2] {
		b.Run(tc.file, func(b *testing.B) {
			data := sharedTrace(b, tc.file)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Describe(NewSWFReader(bytes.NewReader(data), tc.file, tc.opt)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestApplyEstimates(t *testing.T) {
	recs := []sim.Record{mkrec(1, 0, 100, 500, 1, 1)}
	tests := []struct {
		spec string
		want sim.Time // -2: an error
	}{
		{"keep", 500}, {"exact", 100}, {"badness:0", 100}, {"tsafrir", 36000},
		{"tsafrir:1800", -2}, {"tsafrir:x", -2}, {"psp:zz", -2},
		{"tsafrir:7200:0.5", 7200}, {"tsafrir:7200:0.95", -2}, {"tsafrir:7200:x", -2}, {"tsafrir:7200:", -2},
		{"exact:3", -2}, {"badness", -2}, {"badness:x", -2}, {"badness:-1", -2}, {"magic", -2},
	}
	for _, tc := range tests {
		src, err := ApplyEstimates(sim.NewSliceSource(recs), tc.spec, 1)
		if tc.want == -2 {
			if err == nil {
				t.Errorf("%q: got no error", tc.spec)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.spec, err)
			continue
		}
		if got := drain(t, src)[0].Estimate; got != tc.want {
			t.Errorf("%q: got estimate %d; want %d", tc.spec, got, tc.want)
		}
	}
}

// TestCPUUsageThroughSWF checks that a record's CPU usage survives writing
// and reading SWF, as field 6 (average CPU time per processor).
func TestCPUUsageThroughSWF(t *testing.T) {
	r := mkrec(1, 0, 1000, 2000, 4, 1)
	r.CPUUsage = 0.625
	var buf bytes.Buffer
	w := NewSWFWriter(&buf)
	if err := w.WriteRecord(&r); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if !strings.Contains(buf.String(), " 625 ") {
		t.Errorf("field 6 should be 625 CPU seconds: %q", buf.String())
	}
	back := drain(t, NewSWFReader(&buf, "x.swf", SWFOptions{}))
	if got := back[0].CPUUsage; got != 0.625 {
		t.Errorf("CPU usage read back: got %v; want 0.625", got)
	}
}

// TestMergeUserCollision checks that Merge refuses a user or group id it
// cannot keep apart with UserOffset: input 0's user 1,000,007 and input 1's
// user 7 would both become 1,000,007, silently made one user (fairshare
// and per-user metrics would then mix them).
func TestMergeUserCollision(t *testing.T) {
	a := []sim.Record{mkrec(11, 100, 10, 20, 2, UserOffset+7)}
	b := []sim.Record{mkrec(21, 100, 10, 20, 2, 7)}
	m, err := Merge(4, Named{"a.swf", sim.NewSliceSource(a)}, Named{"b.swf", sim.NewSliceSource(b)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sim.ReadAll(m)
	want := "merge: a.swf: job 11: user id 1000007 is not below 1000000, the id range each merged workload keeps to itself"
	if err == nil || err.Error() != want {
		t.Errorf("merging user %d with user 7: got error %v; want %q", UserOffset+7, err, want)
	}
	g := mkrec(12, 100, 10, 20, 2, 7)
	g.Group = UserOffset
	m, _ = Merge(4, Named{"a.swf", sim.NewSliceSource([]sim.Record{g})})
	if _, err := sim.ReadAll(m); err == nil || !strings.Contains(err.Error(), "job 12: group id 1000000 is not below 1000000") {
		t.Errorf("merging group %d: got error %v; want it named", UserOffset, err)
	}
}
