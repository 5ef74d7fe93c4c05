package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/sim"
)

// optionsTrace has jobs that overrun their requested time, jobs without
// one, requested and allocated processors that differ, memory in both
// fields, five users and 60 jobs over some six hours, so that every option
// changes its schedule; optionsNegative is the same with one requested
// time corrupt (-5). Generated once, not a real log.
const (
	optionsTrace    = "testdata/options.swf"
	smallSlurmConf  = "../../runner/spec/testdata/slurm/small.conf"
	optionsNegative = "testdata/options-negative.swf"
	tinyMachines    = "../../runner/spec/testdata/tiny.machines"
)

// sameCase is one run given both ways: simulate's flags, and the blocks
// of the one-run experiment file that says the same.
type sameCase struct {
	name  string
	trace string   // optionsTrace if empty
	flags []string // simulate's flags, but for the output files
	// The file's parts: the cluster's body ("procs = 16" if empty), the
	// workload's arguments besides trace, the policy's label ("easy" if
	// empty) and body, the sweep's arguments besides its axes of blocks,
	// and the experiment seed (1 if 0).
	cluster, workload, policy, policyBody, sweep string
	seed                                         uint64
	output                                       string // the output block's arguments
	// base are simulate flags whose schedule or metrics must differ from
	// flags': the option the case adds has an effect on this trace, so
	// that a side that ignored it would differ from the other. nil: the
	// option changes no schedule (noEffect says why).
	base     []string
	noEffect string
}

// procs16 returns simulate flags on the 16 processors of optionsTrace's
// header, given as a flag, then extra.
func procs16(extra ...string) []string { return append([]string{"--procs", "16"}, extra...) }

func sameCases(t *testing.T) []sameCase {
	machines, err := filepath.Abs(tinyMachines)
	if err != nil {
		t.Fatal(err)
	}
	slurmConf, err := filepath.Abs(smallSlurmConf)
	if err != nil {
		t.Fatal(err)
	}
	slurmPrio, err := filepath.Abs(strings.Replace(smallSlurmConf, "small", "small-prio", 1))
	if err != nil {
		t.Fatal(err)
	}
	mem := []string{"--memory-field", "requested", "--memory", "8GiB"}
	// At 60 jobs, Tsafrir's model needs a larger share of its largest
	// estimate than its default quarter.
	tsafrir := []string{"--estimates", "tsafrir:36000:0.88"}
	return []sameCase{
		{name: "defaults", flags: procs16(), noEffect: "the baseline"},
		{name: "machine from the trace header", noEffect: "the header says 16, as the file does"},
		{name: "procs", flags: []string{"--procs", "12"}, cluster: "procs = 12", base: procs16()},
		{name: "machines file", flags: []string{"--machines", machines}, cluster: fmt.Sprintf("machines = %q", machines), base: procs16()},
		{name: "gpus", flags: procs16("--gpus", "2"), cluster: "procs = 16\n  gpus = 2", noEffect: "an SWF job needs no GPU"},
		{name: "memory requested", flags: procs16(mem...), cluster: "procs = 16\n  memory = \"8GiB\"",
			workload: `memory_field = "requested"`, base: procs16()},
		{name: "memory used", flags: procs16("--memory-field", "used", "--memory", "8GiB"), cluster: "procs = 16\n  memory = \"8GiB\"",
			workload: `memory_field = "used"`, base: procs16(mem...)},
		{name: "memory unit", flags: procs16(append(mem, "--memory-unit", "kb-per-job")...), cluster: "procs = 16\n  memory = \"8GiB\"",
			workload: "memory_field = \"requested\"\n  memory_unit = \"kb-per-job\"", base: procs16(mem...)},
		{name: "memory from a machines file", flags: []string{"--machines", machines, "--memory-field", "requested"},
			cluster: fmt.Sprintf("machines = %q", machines), workload: `memory_field = "requested"`, base: []string{"--machines", machines}},
		{name: "memory beside a machines file", flags: []string{"--machines", machines, "--memory-field", "requested", "--memory", "4GiB"},
			cluster: fmt.Sprintf("machines = %q\n  memory = 4294967296", machines), workload: `memory_field = "requested"`,
			base: []string{"--machines", machines}},
		{name: "slurm.conf", flags: []string{"--slurm-conf", slurmConf}, cluster: fmt.Sprintf("slurm_conf = %q", slurmConf), base: procs16()},
		{name: "slurm.conf policy", flags: []string{"--slurm-conf", slurmPrio, "--policy", "slurm", "--policy-param", "bf_interval=0"},
			cluster: fmt.Sprintf("slurm_conf = %q", slurmPrio), policy: "slurm",
			policyBody: fmt.Sprintf("slurm_conf = %q\n  params = { bf_interval = 0 }", slurmPrio),
			base:       []string{"--slurm-conf", slurmConf, "--policy", "slurm", "--policy-param", "bf_interval=0"}},
		{name: "procs field", flags: procs16("--procs-field", "allocated"), workload: `procs_field = "allocated"`, base: procs16()},
		{name: "allow overrun", flags: procs16("--allow-overrun"), workload: "allow_overrun = true", base: procs16()},
		{name: "missing estimate", flags: procs16("--missing-estimate", "reject"), workload: `missing_estimate = "reject"`, base: procs16()},
		{name: "negative as missing", trace: optionsNegative, flags: procs16("--negative-as-missing"),
			workload: "negative_as_missing = true", base: procs16()},
		{name: "window", flags: procs16("--window", "3000,9000"), workload: "window = [3000, 9000]", base: procs16()},
		{name: "users", flags: procs16("--users", "1,3"), workload: "users = [1, 3]", base: procs16()},
		{name: "jobs", flags: procs16("--jobs", "25"), workload: "jobs = 25", base: procs16()},
		{name: "cuts together", flags: procs16("--window", "2000,20000", "--users", "2,4,5", "--jobs", "12"),
			workload: "window = [2000, 20000]\n  users = [2, 4, 5]\n  jobs = 12", base: procs16("--window", "2000,20000", "--users", "2,4,5")},
		{name: "estimates exact", flags: procs16("--estimates", "exact"), workload: `estimates = "exact"`, base: procs16()},
		{name: "estimates tsafrir", flags: procs16(tsafrir...), workload: `estimates = "tsafrir:36000:0.88"`, base: procs16()},
		{name: "experiment seed", flags: procs16(append(tsafrir, "--seed", "7")...), workload: `estimates = "tsafrir:36000:0.88"`, seed: 7,
			base: procs16(tsafrir...)},
		{name: "replicate", flags: procs16(append(tsafrir, "--replicate", "3")...), workload: `estimates = "tsafrir:36000:0.88"`,
			sweep: "seeds = [3]", base: procs16(tsafrir...)},
		{name: "policy", flags: procs16("--policy", "conservative"), policy: "conservative", base: procs16()},
		{name: "policy params", flags: procs16("--policy-param", "order=sjf"), policyBody: `params = { order = "sjf" }`, base: procs16()},
		{name: "cpu usage", flags: procs16("--policy", "measy", "--cpu-usage", "full"), policy: "measy",
			workload: `cpu_usage = "full"`, base: procs16("--policy", "measy")},
		{name: "load factor", flags: procs16("--load-factor", "1.5"), sweep: "load_factors = [1.5]", base: procs16()},
		{name: "warmup and cooldown", flags: procs16("--warmup", "0.1", "--cooldown", "0.2"),
			output: "warmup = 0.1\n  cooldown = 0.2", base: procs16()},
		{name: "offered load", flags: procs16("--offered-load", "0.9"), sweep: "offered_loads = [0.9]", base: procs16()},
	}
}

// file returns the one-run experiment file of c on trace, named as
// simulate names its blocks (simulate_spec.go).
func (c sameCase) file(trace string) string {
	cluster, policy, seed := c.cluster, c.policy, c.seed
	if cluster == "" {
		cluster = "procs = 16"
	}
	if policy == "" {
		policy = "easy"
	}
	if seed == 0 {
		seed = 1
	}
	return fmt.Sprintf(`experiment "simulate" {
  seed = %d
}

cluster "machine" {
  %s
}

workload "trace" {
  trace = %q
  %s
}

policy %q {
  %s
}

sweep {
  workloads = [workload.trace]
  policies  = [policy.%s]
  %s
}

output {
  %s
}
`, seed, cluster, trace, c.workload, policy, c.policyBody, policy, c.sweep, c.output)
}

// TestSimulateEqualsRun checks, for every option simulate and an
// experiment file accept, that simulate's schedule (--schedule) is the
// bytes of the schedule run writes for the equivalent one-run file, read
// back from its jobs file, and that simulate prints the metrics run
// records in runs.parquet. Each case also checks that its option changes
// the schedule or the metrics on this trace, so that both sides ignoring
// it would fail too.
func TestSimulateEqualsRun(t *testing.T) {
	for _, c := range sameCases(t) {
		t.Run(c.name, func(t *testing.T) {
			trace := optionsTrace
			if c.trace != "" {
				trace = c.trace
			}
			abs, err := filepath.Abs(trace)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			schedule, summary, errOut := simulateCase(t, dir, c.flags, abs)
			if errOut != "" {
				t.Fatalf("simulate %v: %s", c.flags, errOut)
			}
			file := filepath.Join(dir, "one.hcl")
			if err := os.WriteFile(file, []byte(c.file(abs)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			if code, _, errOut := runCLI("run", "--quiet", "--jobs", "1", "--out", out, file); code != exitOK {
				t.Fatalf("run of\n%s\nexit %d: %s", c.file(abs), code, errOut)
			}
			jobs, filled := runSchedule(t, out)
			if diff := cmp.Diff(jobs, schedule); diff != "" {
				t.Errorf("simulate %v and run of\n%s\ngive other schedules (-run +simulate):\n%s", c.flags, c.file(abs), diff)
			}
			want := runSummary(t, filepath.Join(out, "runs.parquet"), filled, summary["utilization"])
			for label, value := range want {
				if summary[label] != value {
					t.Errorf("simulate %v prints %s %q; run records %q", c.flags, label, summary[label], value)
				}
			}
			if c.base == nil {
				return
			}
			baseSchedule, baseSummary, baseErr := simulateCase(t, dir, c.base, abs)
			delete(baseSummary, "simulated in")
			delete(summary, "simulated in")
			if baseErr == "" && baseSchedule == schedule && cmp.Equal(baseSummary, summary) {
				t.Errorf("simulate %v gives the schedule and metrics of %v: the case shows nothing", c.flags, c.base)
			}
		})
	}
}

// simulateCase runs simulate with flags on trace, and returns its
// schedule (--schedule), its summary by label (summaryLines) and, if it
// failed, its error output.
func simulateCase(t *testing.T, dir string, flags []string, trace string) (schedule string, summary map[string]string, errOut string) {
	t.Helper()
	path := filepath.Join(dir, "simulate.csv")
	os.Remove(path)
	args := append(append([]string{"simulate", "--schedule", path}, flags...), trace)
	code, stdout, errOut := runCLI(args...)
	if code != exitOK {
		return "", nil, fmt.Sprintf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), summaryLines(stdout), ""
}

// summaryLines splits simulate's summary into its values by label: the
// text before and after the run of spaces the table aligns.
func summaryLines(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		label, value, ok := strings.Cut(line, "  ")
		if ok && !strings.HasPrefix(line, " ") {
			m[label] = strings.TrimSpace(value)
		}
	}
	return m
}

// runSchedule reads the one jobs file of the results folder out as
// simulate --schedule writes a schedule, and counts the estimates filled.
func runSchedule(t *testing.T, out string) (string, int) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "jobs", "*", "*", "*", "*", "*.parquet"))
	if len(files) != 1 {
		t.Fatalf("%s holds jobs files %v; want one", out, files)
	}
	tbl := readParquet(t, files[0])
	var b strings.Builder
	// On nodes, the nodes each job ran on, as simulate's --schedule writes
	// them (writeScheduleCSV), and on a cluster of partitions (every job
	// has one) each job's partition.
	nodes := len(tbl.Schema().FieldIndices("nodes")) == 1
	parts := nodes && tbl.NumRows() > 0 && cellText(t, tbl, "partition", 0) != ""
	switch {
	case parts:
		b.WriteString("job_id,submit,start,end,procs,status,nodes,partition\n")
	case nodes:
		b.WriteString("job_id,submit,start,end,procs,status,nodes\n")
	default:
		b.WriteString("job_id,submit,start,end,procs,status\n")
	}
	filled := 0
	for i := range int(tbl.NumRows()) {
		cell := func(name string) string { return cellText(t, tbl, name, i) }
		status := cell("status")
		if status == "rejected" {
			status += ":" + cell("reason")
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s", cell("job_id"), cell("submit"), cell("start"), cell("end"), cell("procs"), status)
		if nodes {
			b.Write(appendCSVField([]byte{','}, cell("nodes")))
		}
		if parts {
			b.Write(appendCSVField([]byte{','}, cell("partition")))
		}
		b.WriteByte('\n')
		if cell("estimate_filled") == "true" {
			filled++
		}
	}
	return b.String(), filled
}

// runSummary returns the lines simulate prints of the metrics the runs
// table at path records for its one run, by label; filled is how many
// estimates the run filled. utilization is what simulate printed, whose
// memory part is compared only if it has one.
func runSummary(t *testing.T, path string, filled int, utilization string) map[string]string {
	t.Helper()
	tbl := readParquet(t, path)
	if tbl.NumRows() != 1 {
		t.Fatalf("%s has %d rows; want 1", path, tbl.NumRows())
	}
	num := func(name string) float64 {
		f, err := strconv.ParseFloat(cellText(t, tbl, name, 0), 64)
		if err != nil {
			t.Fatalf("%s: column %s: %v", path, name, err)
		}
		return f
	}
	util := fmt.Sprintf("%.2f%% of processors", 100*num("utilization"))
	if strings.Contains(utilization, "of memory") {
		util += fmt.Sprintf(", %.2f%% of memory", 100*num("memory_utilization"))
	}
	want := map[string]string{
		"jobs": fmt.Sprintf("%d finished, %d killed at their requested time, %d rejected",
			int(num("finished")), int(num("killed")), int(num("rejected"))),
		"mean wait":             fmt.Sprintf("%.1f s", num("wait_mean")),
		"mean response":         fmt.Sprintf("%.1f s", num("response_mean")),
		"mean bounded slowdown": fmt.Sprintf("%.3f (tau = 10 s)", num("bounded_slowdown_mean")),
		"utilization":           util,
		"makespan":              fmt.Sprintf("%d s (%s)", int64(num("makespan")), humanSpan(sim.Time(num("makespan")))),
	}
	if jobs, measured := int(num("jobs")), int(num("jobs_measured")); measured != jobs {
		want["measured"] = fmt.Sprintf("%d of %d jobs (warmup %g, cooldown %g); makespan and utilization count all",
			measured, jobs, num("warmup"), num("cooldown"))
	}
	if filled > 0 {
		want["estimates"] = fmt.Sprintf("%d missing, set to the job's run time", filled)
	}
	return want
}

// readParquet reads a whole Parquet file.
func readParquet(t *testing.T, path string) arrow.Table {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

// cellText returns row i of column name of tbl as text, "" for NULL.
func cellText(t *testing.T, tbl arrow.Table, name string, i int) string {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %s", name)
	}
	for _, chunk := range tbl.Column(idx[0]).Data().Chunks() {
		if i >= chunk.Len() {
			i -= chunk.Len()
			continue
		}
		if chunk.IsNull(i) {
			return ""
		}
		if d, ok := chunk.(*array.Dictionary); ok {
			return d.Dictionary().ValueStr(d.GetValueIndex(i))
		}
		return chunk.ValueStr(i)
	}
	t.Fatalf("column %s has no row %d", name, i)
	return ""
}

// TestSimulateCutErrors checks the messages of simulate's flags that an
// experiment file's workload block also takes, and of a cut that keeps no
// job, which the runner reports as it does for a sweep.
func TestSimulateCutErrors(t *testing.T) {
	tests := []struct {
		flags []string
		code  int
		msg   string
	}{
		{[]string{"--window", "5,1"}, exitUsage, "--window: [5, 1) is empty"},
		{[]string{"--window", "5"}, exitUsage, `--window: "5" is not FROM,TO`},
		{[]string{"--users", "1,x"}, exitUsage, `--users: "x" is not a user ID`},
		{[]string{"--jobs", "-2"}, exitUsage, "--jobs: -2 is negative"},
		{[]string{"--missing-estimate", "rejct"}, exitUsage, `--missing-estimate: "rejct" is not runtime or reject (did you mean "reject"?)`},
		{[]string{"--cpu-usage", "half"}, exitUsage, `--cpu-usage: "half" is not none, default or full`},
		{[]string{"--estimates", "tsafri"}, exitUsage, `--estimates: There is no estimate model "tsafri"`},
		{[]string{"--load-factor", "0"}, exitUsage, "--load-factor: 0 is not a positive number"},
		{[]string{"--load-factor", "2", "--offered-load", "0.5"}, exitUsage, "give one of them"},
		{[]string{"--warmup", "1"}, exitUsage, "--warmup: 1 is not a share of the jobs"},
		{[]string{"--warmup", "0.5", "--cooldown", "0.5"}, exitUsage, "leave out every job"},
		{[]string{"--window", "100000,200000"}, exitFailure,
			"workload trace selects no job: of the 60 jobs of trace options.swf, its window [100000, 200000) keeps none"},
		{[]string{"--users", "2", "--window", "0,2000"}, exitFailure, "its window [0, 2000) keeps 14 and its user 2 keeps none"},
	}
	for _, tc := range tests {
		args := append(append([]string{"simulate"}, tc.flags...), optionsTrace)
		code, _, errOut := runCLI(args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.flags, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestSimulateReportsTsafrirCut checks that simulate says when the Tsafrir
// estimate model cut run times to its largest estimate, as a sweep counts
// them in runtimes_cut: the jobs simulated are then not the trace's.
func TestSimulateReportsTsafrirCut(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "plain.swf")
	if code, _, errOut := runCLI("trace", "generate", "lublin", "--jobs", "1000", "--out", plain); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	text, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	long := 0
	for _, l := range strings.Split(string(text), "\n") {
		if f := strings.Fields(l); len(f) >= 18 && !strings.HasPrefix(l, ";") {
			if run, _ := strconv.Atoi(f[3]); run > 36000 {
				long++
			}
		}
	}
	if long == 0 {
		t.Fatal("no job runs past 36000 s; pick another workload")
	}
	code, out, errOut := runCLI("simulate", "--estimates", "tsafrir", plain)
	want := fmt.Sprintf("note: the tsafrir estimates cut the run times of %d jobs to the largest estimate\n", long)
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
	if _, out, _ := runCLI("simulate", plain); strings.Contains(out, "cut the run times") {
		t.Errorf("without tsafrir estimates, simulate says it cut run times:\n%s", out)
	}
}

// TestSimulateReportsReading checks that simulate, reading its trace
// through the runner, still lists the values it read as missing and warns
// of lines with fields past SWF's 18.
func TestSimulateReportsReading(t *testing.T) {
	code, out, errOut := runCLI("simulate", "--negative-as-missing", optionsNegative)
	want := "read as missing (--negative-as-missing): 1 values\n  options-negative.swf:13: field 9 (requested time): \"-5\" is negative\n"
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
	code, _, errOut = runCLI("simulate", optionsNegative)
	if code != exitFailure || !strings.Contains(errOut, "options-negative.swf:13: field 9 (requested time)") || !strings.Contains(errOut, negativeHint) {
		t.Errorf("without --negative-as-missing: exit %d, stderr %q; want exit 1 naming line 13, and the hint", code, errOut)
	}
	trace := filepath.Join(t.TempDir(), "alea.swf")
	lines := "; MaxProcs: 4\n"
	for i := 1; i <= 3; i++ {
		lines += fmt.Sprintf("%d %d -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 1:ppn=1 q1 x\n", i, 5*i)
	}
	if err := os.WriteFile(trace, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("simulate", trace)
	if code != exitOK || strings.Count(out, "warning:") != 1 || !strings.Contains(out, "warning: alea.swf:2: has 21 fields") {
		t.Errorf("exit %d, stdout %q, stderr %q; want one warning naming alea.swf:2", code, out, errOut)
	}
}
