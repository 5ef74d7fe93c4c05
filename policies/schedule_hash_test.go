package policies_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
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
	"github.com/schedsweep/schedsweep/workloads"
)

var recordHashes = flag.Bool("record-hashes", false, "rewrite testdata/schedule-hashes.txt from the current engine (only to record a deliberate change)")

// hashFile holds one line per (trace, policy): the number of jobs and the
// SHA-256 of the schedule as hashSchedule renders it. It was recorded once
// from the engine before issue 14's refactor, so every later engine must
// reproduce it.
const hashFile = "testdata/schedule-hashes.txt"

// hashTrace is a shared trace with the machine it runs on.
type hashTrace struct {
	name     string
	file     string
	machines string // an Alea .machines file giving the capacity, if any
	procs    int64  // the capacity otherwise
	opt      workloads.SWFOptions
}

var hashTraces = []hashTrace{
	{name: "tiny", file: "tiny.swf", procs: 8},
	{name: "KTH-SP2", file: "KTH-SP2-1996-2.1-cln.swf.gz", procs: 100},
	{name: "lublin-256", file: "lublin_256.swf.gz", procs: 256},
	// wagap-2013 as experiments/toth2014.hcl reads it with machine =
	// "configured": the capacity and memory of its .machines file, each
	// job's requested memory.
	{name: "wagap-2013", file: "wagap-2013.swf.gz", machines: "wagap-2013.swf.machines",
		opt: workloads.SWFOptions{NegativeAsMissing: true, Memory: workloads.RequestedMemory, MemoryUnit: workloads.BytesPerJob}},
	// The same trace on its processors only, so the two-tier policies run on it.
	{name: "wagap-2013-procs", file: "wagap-2013.swf.gz", procs: 2176,
		opt: workloads.SWFOptions{NegativeAsMissing: true}},
	{name: "METACENTRUM-2009-2", file: "METACENTRUM-2009-2.swf.gz", procs: 806},
}

// hashPolicies are every registered policy with its defaults, and the
// three disciplines with fairshare order.
func hashPolicies() []goldenPolicy {
	var ps []goldenPolicy
	for _, e := range policies.Entries() {
		ps = append(ps, goldenPolicy{name: e.Name, entry: e.Name})
	}
	fs := []string{"order=fairshare"}
	return append(ps, goldenPolicy{name: "fairshare-fifo", entry: "fcfs", params: fs},
		goldenPolicy{name: "fairshare-easy", entry: "easy", params: fs},
		goldenPolicy{name: "fairshare-conservative", entry: "conservative", params: fs})
}

// hashSchedule renders every job's id, start, end and state (with the
// reason of a rejection), in order, and hashes the text.
func hashSchedule(res *sim.Result) string {
	h := sha256.New()
	w := bufio.NewWriter(h)
	for i := range res.Jobs {
		o := &res.Jobs[i]
		fmt.Fprintf(w, "%d %d %d %s", o.ID, o.Start, o.End, o.State)
		if o.State == sim.Rejected {
			fmt.Fprintf(w, ":%s", o.Reason)
		}
		w.WriteByte('\n')
	}
	w.Flush()
	return hex.EncodeToString(h.Sum(nil))
}

// capacity returns the machine the trace runs on.
func (tr hashTrace) capacity(t *testing.T) sim.Resources {
	t.Helper()
	if tr.machines == "" {
		return sim.Resources{tr.procs}
	}
	path := filepath.Join(sharedWorkloads, tr.machines)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	groups, err := workloads.ReadMachines(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return workloads.Capacity(groups)
}

// TestScheduleHashes simulates every policy on every shared trace and
// compares each schedule's hash with the one recorded before issue 14's
// engine refactor: no change to the engine may move any job. The whole
// matrix takes about 15 s on one core.
func TestScheduleHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole-trace schedule hashes are skipped under -short")
	}
	want := readHashes(t)
	got := map[string]string{}
	for _, tr := range hashTraces {
		if _, err := os.Stat(filepath.Join(sharedWorkloads, tr.file)); errors.Is(err, fs.ErrNotExist) {
			t.Logf("%s is absent: the shared workloads are not beside the checkout", tr.file)
			continue
		}
		recs := readTrace(t, tr.file, tr.opt)
		c := tr.capacity(t)
		for _, gp := range hashPolicies() {
			if !gp.runs(c) {
				continue
			}
			key := tr.name + " " + gp.name
			res, err := sim.Run(sim.NewPool(c), gp.new(t), sim.NewSliceSource(recs), sim.Options{})
			if err != nil {
				t.Errorf("%s: %v", key, err)
				continue
			}
			got[key] = strconv.Itoa(len(res.Jobs)) + " " + hashSchedule(res)
			if *recordHashes {
				continue
			}
			w, ok := want[key]
			switch {
			case !ok:
				t.Errorf("%s: no recorded hash in %s (record with -record-hashes)", key, hashFile)
			case w != got[key]:
				t.Errorf("%s: schedule hash %s differs from the recorded %s", key, got[key], w)
			}
		}
	}
	if *recordHashes {
		writeHashes(t, got)
		return
	}
	// A recorded pair that no longer runs is a lost check, unless its trace
	// is absent.
	for key := range want {
		if _, ok := got[key]; ok {
			continue
		}
		trace, _, _ := strings.Cut(key, " ")
		for _, tr := range hashTraces {
			if _, err := os.Stat(filepath.Join(sharedWorkloads, tr.file)); tr.name == trace && err == nil {
				t.Errorf("%s: recorded in %s but not run", key, hashFile)
			}
		}
	}
}

func readHashes(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(hashFile)
	if errors.Is(err, fs.ErrNotExist) && *recordHashes {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			t.Fatalf("%s:%d: %q has %d fields, want 4 (trace policy jobs sha256)", hashFile, n+1, line, len(f))
		}
		m[f[0]+" "+f[1]] = f[2] + " " + f[3]
	}
	return m
}

func writeHashes(t *testing.T, got map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("# trace policy jobs sha256(\"id start end state[:reason]\\n\" per job, in order)\n")
	b.WriteString("# recorded by TestScheduleHashes -record-hashes; see schedule_hash_test.go\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s %s\n", k, got[k])
	}
	tmp := hashFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, hashFile); err != nil {
		t.Fatal(err)
	}
}

// TestScheduleHashesDiffer: the hash sees a one-second move of one job.
func TestScheduleHashesDiffer(t *testing.T) {
	res := &sim.Result{Jobs: []sim.Outcome{{Start: 0, End: 10, State: sim.Finished}, {Start: 5, End: 8, State: sim.Killed}}}
	a := hashSchedule(res)
	res.Jobs[1].Start++
	if b := hashSchedule(res); a == b {
		t.Errorf("moving a job's start left the hash %s", a)
	}
	if diff := cmp.Diff(a, hashSchedule(&sim.Result{Jobs: []sim.Outcome{{Start: 0, End: 10, State: sim.Finished}, {Start: 5, End: 8, State: sim.Killed}}})); diff != "" {
		t.Errorf("the hash is not a function of the schedule (-first +second):\n%s", diff)
	}
}
