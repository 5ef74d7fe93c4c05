package policies_test

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/simtest"
	"github.com/schedsweep/schedsweep/workloads"
)

var update = flag.Bool("update", false, "rewrite the data lines of golden schedules")

// sharedWorkloads is where the project's shared traces live, beside the
// checkout.
const sharedWorkloads = "../../shared/workloads"

// goldenPolicy is a policy with golden schedules in testdata/<name>, and
// the extra checks its schedules must pass. It is built from the registry:
// entry with params, then the parameters of a case's "; Params:" line.
type goldenPolicy struct {
	name   string
	entry  string
	params []string
	checks simtest.Checks
}

var goldenPolicies = []goldenPolicy{
	{"fcfs", "fcfs", nil, simtest.Checks{}},
	{"sjf", "sjf", nil, simtest.Checks{}},
	{"easy", "easy", nil, simtest.Checks{MaxOpen: 1}},
	{"conservative", "conservative", nil, simtest.Checks{PromiseOnWait: true}},
	// The three disciplines of Tóth & Klusáček (2014, section 4.1) with
	// fairshare priorities: "fairshare fifo", "fair. + backfill", and
	// fairshare under conservative backfilling.
	{"fairshare-fifo", "fcfs", []string{"order=fairshare"}, simtest.Checks{}},
	{"fairshare-easy", "easy", []string{"order=fairshare"}, simtest.Checks{MaxOpen: 1}},
	{"fairshare-conservative", "conservative", []string{"order=fairshare"}, simtest.Checks{PromiseOnWait: true}},
	// The Penalty Scheduling Policy of Rocchetti et al. (2015): EASY with
	// users ranked by the accuracy of their recent estimates.
	{"psp", "psp", nil, simtest.Checks{MaxOpen: 1}},
	// PSP with an age term (priority = class + min(wait, max_age) /
	// age_scale), waits counted up to 30 s and up to 10 s.
	{"psp-age", "psp", []string{"age_scale=2", "max_age=30"}, simtest.Checks{MaxOpen: 1}},
	{"psp-age-capped", "psp", []string{"age_scale=2", "max_age=10"}, simtest.Checks{MaxOpen: 1}},
	// Backfill Balanced, as Leinberger et al. and as Liu et al. (2016) read
	// it, and Improved Backfill Balanced: EASY's reservation, so EASY's
	// checks.
	{"bb", "backfill-balanced", nil, simtest.Checks{MaxOpen: 1}},
	{"bb-once", "backfill-balanced", []string{"backfill=once"}, simtest.Checks{MaxOpen: 1}},
	{"ibb", "improved-backfill-balanced", nil, simtest.Checks{MaxOpen: 1}},
	// IBB with jobs of at most 1/16 of every kind exempt from Formula 2.
	{"ibb-small", "improved-backfill-balanced", []string{"small=0.0625"}, simtest.Checks{MaxOpen: 1}},
	// Bode et al. (2000): PBS's FIFO scheduler with its starving-job guard.
	{"pbs-fifo", "pbs-fifo", nil, simtest.Checks{MaxOpen: 1}},
	// Maui (Bode et al. 2000, 4.3) with its defaults, without backfill,
	// with two reservations, and ranking by expansion factor.
	{"maui", "maui", nil, simtest.Checks{MaxOpen: 1}},
	{"maui-nobackfill", "maui", []string{"backfill=false"}, simtest.Checks{MaxOpen: 1}},
	{"maui-depth2", "maui", []string{"reservation_depth=2"}, simtest.Checks{MaxOpen: 2}},
	{"maui-xfactor", "maui", []string{"xfactor_weight=100"}, simtest.Checks{MaxOpen: 1}},
	// The two-tier policies of Liu et al. (2012): one promise at a time, for
	// the head of the merged list; tier.Verify checks the rest.
	{"keasy", "keasy", nil, simtest.Checks{MaxOpen: 1}},
	{"reasy", "reasy", nil, simtest.Checks{MaxOpen: 1}},
	{"measy", "measy", nil, simtest.Checks{MaxOpen: 1}},
	// MEASY with its merged list in fairshare order, which the one loop's
	// observers make possible.
	{"fairshare-measy", "fairshare-measy", nil, simtest.Checks{MaxOpen: 1}},
	// Slurm 22.05's main and backfill schedulers; each case sets its
	// parameters (every priority weight 0 but where the case says).
	{"slurm", "slurm", nil, simtest.Checks{}},
}

// runs reports whether the policy runs on a machine of capacity c, as its
// registry entry's machine model says (the two-tier policies model
// processors only).
func (gp goldenPolicy) runs(c sim.Resources) bool {
	return policies.Supports(gp.entry, c) == nil
}

// new builds the policy, with the extra parameters after its own.
func (gp goldenPolicy) new(t testing.TB, extra ...string) sim.Policy {
	t.Helper()
	pol, err := policies.New(gp.entry, append(slices.Clip(gp.params), extra...)...)
	if err != nil {
		t.Fatalf("%s: %v", gp.name, err)
	}
	return pol
}

// testCase is a workload with the machine it runs on.
type testCase struct {
	capacity sim.Resources
	jobs     []sim.Record
	params   []string // policy parameters the case asks for
}

// loadCase reads an SWF test case. The machine is the header's MaxProcs and,
// if a "; Cluster: memory_kb=M" line is present, M KB of memory; then each
// job's memory need is its requested memory. A "; Params: k=v k=v" line
// gives policy parameters (registry names) for the golden policies that
// take them, such as a fairshare half-life.
func loadCase(t *testing.T, path string) testCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var memKB int64
	var opt workloads.SWFOptions
	if i := bytes.Index(data, []byte("; Cluster: memory_kb=")); i >= 0 {
		line, _, _ := bytes.Cut(data[i+len("; Cluster: memory_kb="):], []byte("\n"))
		if memKB, err = strconv.ParseInt(strings.TrimSpace(string(line)), 10, 64); err != nil {
			t.Fatalf("%s: bad Cluster line: %v", path, err)
		}
		opt.Memory = workloads.RequestedMemory
	}
	r := workloads.NewSWFReader(bytes.NewReader(data), filepath.Base(path), opt)
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if h.MaxProcs <= 0 {
		t.Fatalf("%s: the header gives no MaxProcs", path)
	}
	tc := testCase{capacity: simtest.Cluster(h.MaxProcs, memKB*1024)}
	if i := bytes.Index(data, []byte("; Params:")); i >= 0 {
		line, _, _ := bytes.Cut(data[i+len("; Params:"):], []byte("\n"))
		tc.params = strings.Fields(string(line))
	}
	for {
		rec, err := r.Next()
		if err != nil {
			if err == io.EOF {
				break
			}
			t.Fatal(err)
		}
		tc.jobs = append(tc.jobs, rec)
	}
	return tc
}

// casePath finds the workload of a golden file: the shared tiny trace, or
// testdata/cases/<case>.swf.
func casePath(name string) string {
	if name == "tiny" {
		return filepath.Join(sharedWorkloads, "tiny.swf")
	}
	return filepath.Join("testdata", "cases", name+".swf")
}

func TestGolden(t *testing.T) {
	for _, gp := range goldenPolicies {
		goldens, err := filepath.Glob(filepath.Join("testdata", gp.name, "*.golden"))
		if err != nil || len(goldens) == 0 {
			t.Fatalf("%s: no golden files (%v)", gp.name, err)
		}
		for _, golden := range goldens {
			name := strings.TrimSuffix(filepath.Base(golden), ".golden")
			t.Run(gp.name+"/"+name, func(t *testing.T) {
				path := casePath(name)
				if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && name == "tiny" {
					t.Skipf("%s is absent; shared workloads are not beside the checkout", path)
				}
				tc := loadCase(t, path)
				res, _ := simtest.Run(t, tc.capacity, gp.new(t, tc.params...), tc.jobs, sim.Options{}, gp.checks)
				got := append(scheduleLines(res), tierLine(res)...)
				comments, want := readGolden(t, golden)
				if *update {
					writeGolden(t, golden, comments, got)
					return
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s on %s: schedule differs from %s (-want +got):\n%s", gp.name, path, golden, diff)
				}
			})
		}
	}
}

// scheduleLines renders a result as golden data lines, in job order.
func scheduleLines(res *sim.Result) []string {
	lines := make([]string, len(res.Jobs))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		status := o.State.String()
		if o.State == sim.Rejected {
			status += ":" + o.Reason.String()
		}
		lines[i] = fmt.Sprintf("%d %d %d %d %d %s", o.ID, o.Submit, o.Start, o.End, o.Need[sim.Procs], status)
	}
	return lines
}

func readGolden(t *testing.T, path string) (comments, data []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "#"):
			comments = append(comments, s.Text())
		default:
			data = append(data, strings.Join(strings.Fields(line), " "))
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return comments, data
}

func writeGolden(t *testing.T, path string, comments, data []string) {
	t.Helper()
	var b strings.Builder
	for _, l := range append(comments, data...) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
