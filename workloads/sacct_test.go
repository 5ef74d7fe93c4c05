package workloads

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
)

// sacctRec builds the record the reader should give: a job of procs CPUs
// on nodes × (procs/nodes), or CPUs anywhere when nodes is 0, with gpus and
// mem per node (for a Tasks shape, the job's), in partition part (number
// and name; 0 and "" for none).
type sacctRec struct {
	id, submit, runtime, est int64
	status                   int8
	procs, nodes             int64
	gpus, mem                int64
	user, group, qos         int32
	part                     int32
	partName                 string
}

func (w sacctRec) record() sim.Record {
	r := sim.Record{
		Job: sim.Job{ID: sim.JobID(w.id), Submit: sim.Time(w.submit), Estimate: sim.Time(w.est),
			User: w.user, Group: w.group, Queue: w.qos, Partition: w.part},
		Runtime: sim.Time(w.runtime), Status: sim.Status(w.status), Preceding: -1, Think: -1,
	}
	r.Need[sim.Procs] = w.procs
	r.Shape = sim.Shape{GPUsPerNode: int32(w.gpus), MemPerNode: w.mem}
	r.Need[sim.GPUs], r.Need[sim.Memory] = w.gpus, w.mem
	if w.nodes > 0 {
		r.Shape.Nodes, r.Shape.PerNode = int32(w.nodes), int32(w.procs/w.nodes)
		r.Need[sim.GPUs], r.Need[sim.Memory] = w.gpus*w.nodes, w.mem*w.nodes
	}
	if w.partName != "" {
		r.Shape.Where = &sim.Where{Partition: w.partName}
	}
	if r.Shape.Nodes == 0 && r.Shape.Where == nil {
		r.Shape = sim.Shape{}
	}
	return r
}

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// statesWant is what testdata/sacct/states.txt gives with memory read;
// every number worked out from the file by hand (times from 10:00:00).
var statesWant = []sacctRec{
	{100, 0, 600, 3600, 1, 4, 1, 0, 16 * gib, 1, 1, 1, 1, "batch"},
	{105, 30, 60, 1800, 0, 1, 1, 0, 1000 * mib, 1, 1, 1, 1, "batch"},   // array task 102_1, TIMEOUT
	{101, 60, 1800, 7200, 0, 16, 2, 2, 32000 * mib, 2, 2, 2, 2, "gpu"}, // gres/gpu=4 over 2 nodes
	{110, 180, 600, 1200, 1, 2, 1, 0, 2 * gib, 3, 3, 1, 1, "batch"},    // het component 110+0
	{111, 180, 600, 1200, 1, 8, 1, 2, 8 * gib, 3, 3, 1, 2, "gpu"},      // 110+1, typed GPUs only
	{121, 360, 120, 3600, 5, 4, 1, 0, 4 * gib, 2, 2, 1, 1, "batch"},    // cancelled after start
	{122, 420, 60, 3600, 0, 4, 1, 0, 4 * gib, 4, 1, 1, 1, "batch"},     // NODE_FAIL
	{123, 480, 5, 3600, 0, 4, 1, 0, 4 * gib, 4, 1, 3, 1, "batch"},      // OUT_OF_MEMORY, QOS low
	{124, 540, 600, 3600, 5, 4, 1, 0, 4 * gib, 1, 1, 1, 1, "batch"},    // PREEMPTED
	{125, 665, 600, 3600, 1, 4, 1, 0, 4 * gib, 1, 1, 1, 1, "batch"},    // the requeued job's last record
	{128, 720, 60, -1, 1, 1, 1, 0, 1 * gib, 5, 4, 1, 1, "batch"},       // UNLIMITED
	{129, 720, 30, -1, 1, 1, 1, 0, 1 * gib, 5, 4, 1, 1, "batch"},       // Partition_Limit
	{130, 780, 60, 600, 1, 3, 0, 0, 3000 * mib, 5, 4, 1, 1, "batch"},   // 3 CPUs on 2 nodes: tasks
	{131, 840, 600, 600, 1, 4, 1, 0, 16000 * mib, 6, 4, 1, 1, "batch"}, // ReqMem 4000Mc
	{132, 840, 60, 600, 1, 8, 2, 0, 2 * gib, 6, 4, 1, 1, "batch"},      // ReqMem 2Gn
	{133, 900, 60, 600, 1, 2, 1, 0, 1000 * mib, 6, 4, 1, 1, "batch"},   // ReqMem 1000
	{134, 960, 600, 600, 0, 2, 1, 0, 2 * gib, 6, 4, 1, 1, "batch"},     // DEADLINE
	{139, 1140, 60, 600, 1, 2, 1, 0, 512 * mib, 6, 4, 1, 1, "batch"},   // mem=524288K
	{140, 1140, 60, 600, 1, 256, 4, 0, 256 * gib, 6, 4, 1, 3, "big"},   // mem=1T over 4 nodes
}

func readSacct(t *testing.T, path string, opt SacctOptions) (*SacctReader, []sim.Record) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewSacctReader(f, path, opt)
	recs, err := sim.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r, recs
}

func TestSacctStates(t *testing.T) {
	r, got := readSacct(t, "testdata/sacct/states.txt", SacctOptions{Memory: true})
	var want []sim.Record
	for _, w := range statesWant {
		want = append(want, w.record())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("records differ (-want +got):\n%s", d)
	}
	skipped, err := r.Skipped()
	if err != nil {
		t.Fatal(err)
	}
	wantSkips := []SacctCount{
		{SkipStep, 3, 3}, {SkipPendingArray, 1, 8}, {SkipDuplicate, 1, 16},
		{SkipCancelledBeforeStart, 1, 11}, {SkipNeverStarted, 1, 27}, {SkipPending, 1, 19},
		{SkipRunning, 2, 18}, {SkipRequeued, 1, 30}, {SkipRevoked, 1, 29},
	}
	if d := cmp.Diff(wantSkips, skipped); d != "" {
		t.Errorf("skips differ (-want +got):\n%s", d)
	}
	if r.Heterogeneous() != 2 {
		t.Errorf("Heterogeneous() = %d; want 2", r.Heterogeneous())
	}
	names, _ := r.Names()
	wantNames := SacctNames{
		Users:    []string{"alice", "bob", "carol", "dave", "erin", "frank"},
		Accounts: []string{"phys", "chem", "bio", "math"},
		QOS:      []string{"normal", "high", "low"}, Partitions: []string{"batch", "gpu", "big"},
	}
	if d := cmp.Diff(wantNames, names); d != "" {
		t.Errorf("names differ (-want +got):\n%s", d)
	}
	start, _ := r.Start()
	if want := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC); !start.Equal(want) {
		t.Errorf("Start() = %v; want %v", start, want)
	}
}

// TestSacctNoMemory: without SacctOptions.Memory jobs ask no memory, and a
// job whose only node request was its memory keeps its nodes and GPUs.
func TestSacctNoMemory(t *testing.T) {
	_, got := readSacct(t, "testdata/sacct/states.txt", SacctOptions{})
	for i, rec := range got {
		if rec.Need[sim.Memory] != 0 || rec.Shape.MemPerNode != 0 {
			t.Errorf("job %d: memory %d, %d per node; want none", rec.ID, rec.Need[sim.Memory], rec.Shape.MemPerNode)
		}
		if w := statesWant[i]; rec.Need[sim.GPUs] != w.record().Need[sim.GPUs] {
			t.Errorf("job %d: %d GPUs; want %d", rec.ID, rec.Need[sim.GPUs], w.record().Need[sim.GPUs])
		}
	}
}

// TestSacctPartitionLimit: Partition_Limit takes the partition's limit
// when the options give it.
func TestSacctPartitionLimit(t *testing.T) {
	_, got := readSacct(t, "testdata/sacct/states.txt", SacctOptions{PartitionLimits: map[string]sim.Time{"batch": 86400}})
	for _, rec := range got {
		want := sim.Time(-1)
		switch rec.ID {
		case 129:
			want = 86400
		case 128:
		default:
			continue
		}
		if rec.Estimate != want {
			t.Errorf("job %d: estimate %d; want %d", rec.ID, rec.Estimate, want)
		}
	}
}

// TestSacctTimeZone reads the same local times in two zones: across the
// switch to summer time in Prague (02:00 → 03:00 on 31 March 2024) a job
// from 01:30 to 03:30 ran one hour, not two.
func TestSacctTimeZone(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	for _, tc := range []struct {
		name     string
		loc      *time.Location
		runtimes []sim.Time
		submits  []sim.Time
		start    time.Time
	}{
		{"utc", nil, []sim.Time{7200, 60}, []sim.Time{0, 7200}, time.Date(2024, 3, 31, 1, 30, 0, 0, time.UTC)},
		{"prague", prague, []sim.Time{3600, 60}, []sim.Time{0, 3600}, time.Date(2024, 3, 31, 0, 30, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, got := readSacct(t, "testdata/sacct/timezone.txt", SacctOptions{Location: tc.loc})
			if len(got) != 2 {
				t.Fatalf("got %d jobs; want 2", len(got))
			}
			for i, rec := range got {
				if rec.Runtime != tc.runtimes[i] || rec.Submit != tc.submits[i] {
					t.Errorf("job %d: submit %d, run time %d; want %d, %d", rec.ID, rec.Submit, rec.Runtime, tc.submits[i], tc.runtimes[i])
				}
			}
			if start, _ := r.Start(); !start.Equal(tc.start) {
				t.Errorf("Start() = %v; want %v", start, tc.start)
			}
		})
	}
}

// TestSacctColumns reads a dump with its columns in another order, extra
// columns, Timelimit instead of TimelimitRaw, and --parsable's trailing
// '|'.
func TestSacctColumns(t *testing.T) {
	_, got := readSacct(t, "testdata/sacct/columns.txt", SacctOptions{})
	want := []struct {
		id        sim.JobID
		est       sim.Time
		procs     int64
		nodes     int32
		gpus, usr int32
	}{
		{7, 86400 + 2*3600 + 3*60 + 4, 2, 1, 0, 1},
		{8, 2*3600 + 30*60, 4, 1, 1, 2},
		{9, 45*60 + 30, 1, 0, 0, 1}, // no node count: CPUs anywhere
		{10, -1, 1, 0, 0, 1},        // UNLIMITED
		{11, -1, 1, 0, 0, 1},        // Partition_Limit
	}
	if len(got) != len(want) {
		t.Fatalf("got %d jobs; want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || g.Estimate != w.est || g.Need[sim.Procs] != w.procs || g.Shape.Nodes != w.nodes ||
			g.Shape.GPUsPerNode != w.gpus || g.User != w.usr {
			t.Errorf("job %d: got id %d est %d procs %d nodes %d gpus %d user %d; want %+v", i, g.ID, g.Estimate,
				g.Need[sim.Procs], g.Shape.Nodes, g.Shape.GPUsPerNode, g.User, w)
		}
	}
}

// TestSacctBad checks that each malformed dump fails with an error naming
// its line and column and quoting the value.
func TestSacctBad(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"empty.txt", `empty.txt: the dump is empty: want a header line naming the columns (run sacct without --noheader)`},
		{"noheader.txt", `noheader.txt:1: the header lacks JobIDRaw, JobID, State, Submit, Start, End, one of AllocTRES, NCPUS, ReqTRES, ReqCPUS`},
		{"missing.txt", `missing.txt:1: the header lacks Start, End (a sacct dump needs`},
		{"fields.txt", `fields.txt:3: has 5 fields, the header 7`},
		{"trailing.txt", `trailing.txt:3: does not end with '|' as the header does`},
		{"jobid.txt", `jobid.txt:2: field 1 (JobIDRaw): "12a" is not a non-negative integer`},
		{"emptyjobid.txt", `emptyjobid.txt:2: field 2 (JobID): is empty`},
		{"state.txt", `state.txt:2: field 3 (State): "FINISHED" is not a Slurm job state`},
		{"submit.txt", `submit.txt:2: field 4 (Submit): "2024-02-30T10:00:00" is not a time YYYY-MM-DDTHH:MM:SS`},
		{"nosubmit.txt", `nosubmit.txt:2: field 4 (Submit): "Unknown": the time is required`},
		{"start.txt", `start.txt:2: field 5 (Start): "03/01/24 10:00" is not a time`},
		{"endbefore.txt", `endbefore.txt:2: field 6 (End): "2024-03-01T09:00:00" is before the start "2024-03-01T10:00:00"`},
		{"tres.txt", `tres.txt:2: field 7 (AllocTRES): "cpu" is not NAME=COUNT`},
		{"tresmem.txt", `tresmem.txt:2: field 7 (AllocTRES): mem=4X: "4X" is not a size such as 4000M or 16G`},
		{"trescpu.txt", `trescpu.txt:2: field 7 (AllocTRES): cpu=-4: "-4" is not a non-negative integer`},
		{"reqmem.txt", `reqmem.txt:2: field 8 (ReqMem): "4000Mx" is not a size such as 4000M or 16G`},
		{"limitraw.txt", `limitraw.txt:2: field 9 (TimelimitRaw): "1:00" is not a non-negative integer`},
		{"limit.txt", `limit.txt:2: field 9 (Timelimit): "1-02:60:00" is not a time limit [D-]HH:MM:SS, UNLIMITED or Partition_Limit`},
		{"tresbig.txt", `tresbig.txt:2: field 7 (AllocTRES): mem=5000P: "5000P" is over the bound of 4 EiB`},
		{"control.txt", `control.txt:2: field 8 (User): "al\x01ce" has a control character`},
		{"ncpus.txt", `ncpus.txt:2: field 7 (NCPUS): "four" is not a non-negative integer`},
		{"elapsed.txt", `elapsed.txt:2: field 7 (ElapsedRaw): is empty`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := "testdata/sacct/bad/" + tc.file
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r := NewSacctReader(f, tc.file, SacctOptions{})
			_, err = sim.ReadAll(r)
			var perr *ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("got %v; want a *ParseError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("second Next: %v; want the same error", again)
			}
		})
	}
}

// TestSacctLongLine: a line over MaxLineLen is an error naming it, read
// without holding more than the bound.
func TestSacctLongLine(t *testing.T) {
	in := "JobIDRaw|JobID|State|Submit|Start|End|NCPUS\n" + strings.Repeat("x", 200) + "\n"
	r := NewSacctReader(strings.NewReader(in), "long.txt", SacctOptions{})
	r.maxLine = 100
	_, err := r.Next()
	if want := "long.txt:2: line is longer than 100 bytes"; err == nil || err.Error() != want {
		t.Errorf("got %v; want %s", err, want)
	}
}

// TestSacctEmptyDump: a dump with a header and no jobs gives no records.
func TestSacctEmptyDump(t *testing.T) {
	r := NewSacctReader(strings.NewReader("JobIDRaw|JobID|State|Submit|Start|End|NCPUS\n\n"), "x", SacctOptions{})
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next() = %v; want io.EOF", err)
	}
}

// TestSacctSWFBadPartition: a partition name SWF field 20 cannot hold is
// an error naming the job's line.
func TestSacctSWFBadPartition(t *testing.T) {
	for _, part := range []string{"-1", "a b"} {
		in := "JobIDRaw|JobID|State|Submit|Start|End|NCPUS|Partition\n" +
			"5|5|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:01:00|1|" + part + "\n"
		err := WriteSacctSWF(io.Discard, NewSacctReader(strings.NewReader(in), "p.txt", SacctOptions{}), SacctSWFOptions{})
		want := fmt.Sprintf("p.txt:2: partition %q cannot be written as SWF field 20, a token other than -1", part)
		if err == nil || err.Error() != want {
			t.Errorf("partition %q: got %v; want %s", part, err, want)
		}
	}
}

// TestSacctRequeue: --duplicates lists a requeued job once per run; the
// last record is the job, whatever the earlier ones' states.
func TestSacctRequeue(t *testing.T) {
	r, got := readSacct(t, "testdata/sacct/requeue.txt", SacctOptions{})
	var want []sim.Record
	for _, w := range []sacctRec{
		{8, 0, 600, -1, 0, 4, 1, 0, 0, -1, -1, -1, -1, ""}, // TIMEOUT, from 10:02
		{7, 180, 600, -1, 1, 2, 1, 0, 0, -1, -1, -1, -1, ""},
		{9, 180, 60, -1, 1, 1, 1, 0, 0, -1, -1, -1, -1, ""},
		{10, 240, 60, -1, 1, 1, 1, 0, 0, -1, -1, -1, -1, ""}, // a heterogeneous component, run twice
	} {
		want = append(want, w.record())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("records (-want +got):\n%s", d)
	}
	skipped, _ := r.Skipped()
	if d := cmp.Diff([]SacctCount{{SkipDuplicate, 5, 2}}, skipped); d != "" {
		t.Errorf("skips (-want +got):\n%s", d)
	}
	if n := r.Heterogeneous(); n != 1 {
		t.Errorf("Heterogeneous() = %d; want 1", n)
	}
}

// TestParseTRES reads every form of a TRES value the reader uses.
func TestParseTRES(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want tres
	}{
		{"", tres{-1, -1, -1, -1, -1}},
		{"billing=4,cpu=4,mem=16000M,node=1", tres{4, 1, 16000 * mib, -1, -1}},
		{"cpu=2,mem=4000,node=1", tres{2, 1, 4000 * mib, -1, -1}}, // MiB without a suffix (--noconvert)
		{"cpu=1,mem=512K", tres{1, -1, 512 * kib, -1, -1}},
		{"cpu=1,mem=1.5G", tres{1, -1, 3 * gib / 2, -1, -1}},
		{"cpu=64,mem=2T,node=4", tres{64, 4, 2 << 40, -1, -1}},
		{"cpu=8,gres/gpu=4,gres/gpu:a100=4,node=2", tres{8, 2, -1, 4, 4}},
		{"cpu=8,gres/gpu:a100=2,gres/gpu:v100=1", tres{8, -1, -1, -1, 3}},
		{"cpu=1,energy=123,fs/disk=5,license/matlab=1,gres/gpumem=40G", tres{1, -1, -1, -1, -1}},
	} {
		got, err := parseTRES([]byte(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("parseTRES(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"cpu", "cpu=x", "mem=4Q", "node=-1", "mem=", "gres/gpu:a100=two", "mem=1e3M"} {
		if _, err := parseTRES([]byte(in)); err == nil {
			t.Errorf("parseTRES(%q): no error", in)
		}
	}
}

// TestReqMem reads ReqMem as Slurm 22.05 and releases before 21.08 print
// it, for a job of 4 CPUs on 2 nodes.
func TestReqMem(t *testing.T) {
	for in, want := range map[string]int64{
		"16G": 16 * gib, "4000M": 4000 * mib, "4000": 4000 * mib, "1000Mc": 4000 * mib, "8Gn": 16 * gib, "0n": 0,
	} {
		if got, err := reqMem([]byte(in), 4, 2); err != nil || got != want {
			t.Errorf("reqMem(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "c", "4000Mx", "2Pc"} {
		if v, err := reqMem([]byte(in), 4096, 2); err == nil {
			t.Errorf("reqMem(%q) = %d; want an error", in, v)
		}
	}
}

// TestParseDuration reads Timelimit as mins2time_str prints it.
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]int64{
		"00:30:00": 1800, "1-00:00:00": 86400, "2-12:30:15": 2*86400 + 12*3600 + 30*60 + 15, "45:30": 2730, "100:00:00": 360000,
	} {
		if got, err := parseDuration([]byte(in)); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "30", "1-", "1:2:3:4", "00:60:00", "-1:00:00", "x-01:00:00", "99999999-00:00:00"} {
		if v, err := parseDuration([]byte(in)); err == nil {
			t.Errorf("parseDuration(%q) = %d; want an error", in, v)
		}
	}
}
