package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
)

// TestSimulateCompatAlea runs wagap-2013 under simulate --compat alea,
// fcfs and easy: the mean waits over the 17,899 jobs run are those
// sim/alea's TestWagapFCFS and TestWagapEASY pin (whole seconds), the
// summary names the one job Alea rejects and why, and --schedule gives
// every job the start, end and nodes of a direct sim.Run of sim/alea on
// the same data set.
func TestSimulateCompatAlea(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a trace")
	}
	trace := filepath.Join(sharedWorkloads, "wagap-2013.swf.gz")
	machines := filepath.Join(sharedWorkloads, "wagap-2013.swf.machines")
	if _, err := os.Stat(trace); err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	for _, tc := range []struct {
		policy string
		mean   float64
	}{
		{"fcfs", 162008.404},
		{"easy", 20820.102},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			dir := t.TempDir()
			sched, swf := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.swf")
			var stdout bytes.Buffer
			err := runSimulate([]string{"--compat", "alea", "--machines", machines, "--policy", tc.policy, "--schedule", sched, "--swf", swf, trace}, &stdout, &stdout)
			if err != nil {
				t.Fatal(err)
			}
			checkSWF19(t, swf, 17900)
			for _, s := range []string{"alea: the data set as Alea reads it: 0 lines dropped", "alea: 1 job rejected at arrival", "job 8687: zewura:"} {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("summary lacks %q:\n%s", s, stdout.String())
				}
			}
			got := readScheduleRows(t, sched)
			want := directAlea(t, trace, machines, tc.policy)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("schedule (-direct +simulate):\n%s", d)
			}
			var sum, n int64
			for _, r := range got {
				if r[2] != "" {
					start, _ := strconv.ParseInt(r[2], 10, 64)
					submit, _ := strconv.ParseInt(r[1], 10, 64)
					sum += start - submit
					n++
				}
			}
			if mean := float64(sum) / float64(n); n != 17899 || math.Abs(mean-tc.mean) > 0.001 {
				t.Errorf("%d jobs run, mean wait %.3f s; want 17899, %.3f", n, mean, tc.mean)
			}
		})
	}
}

// TestSimulateCompatAleaRefuses: what --compat alea cannot run is a usage
// error that says why.
func TestSimulateCompatAleaRefuses(t *testing.T) {
	machines := filepath.Join("..", "..", "runner", "spec", "testdata", "tiny.machines")
	trace := filepath.Join("..", "..", "runner", "spec", "testdata", "tiny.swf")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--compat", "alea", "--policy", "fcfs"}, "needs --machines"},
		{[]string{"--compat", "batsim", "--machines", machines}, `"batsim" is not alea`},
		{[]string{"--compat", "alea", "--machines", machines, "--policy", "sjf"}, `policy "sjf" is not one of Alea's: compat alea runs "fcfs" or "easy"`},
		{[]string{"--compat", "alea", "--machines", machines, "--policy", "easy", "--policy-param", "order=sjf"}, "takes no parameters"},
		{[]string{"--compat", "alea", "--machines", machines, "--load-factor", "2"}, "leave out --load-factor"},
		{[]string{"--compat", "alea", "--machines", machines, "--alea-fields", "--estimates", "exact"}, "leave out --alea-fields, --estimates"},
		{[]string{"--compat", "alea", "--machines", machines, "--model", "nodes"}, "leave out --model and --fit"},
		{[]string{"--compat", "alea", "--machines", machines, "--procs", "8"}, "leave out --procs"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			err := runSimulate(append(tc.args, trace), &out, &out)
			if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v (%T); want a usage error containing %q", err, err, tc.want)
			}
		})
	}
}

// checkSWF19 checks that the --swf file at path has jobs lines, each of
// 19 fields, the last the nodes the job ran on ("{…}", -1 for none).
func checkSWF19(t *testing.T, path string, jobs int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, ";") {
			continue
		}
		n++
		f := strings.Fields(line)
		if len(f) != 19 || f[18] != "-1" && !strings.HasPrefix(f[18], "{") {
			t.Fatalf("%s: line %q: want 19 fields, the last the nodes", path, line)
		}
	}
	if n != jobs {
		t.Errorf("%s: %d jobs; want %d", path, n, jobs)
	}
}

// readScheduleRows reads a --schedule file: its rows without the header,
// each job_id, submit, start, end, nodes.
func readScheduleRows(t *testing.T, path string) [][5]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != "job_id,submit,start,end,procs,status,nodes" {
		t.Fatalf("%s: header %v", path, rows[:min(len(rows), 1)])
	}
	var out [][5]string
	for _, r := range rows[1:] {
		out = append(out, [5]string{r[0], r[1], r[2], r[3], r[6]})
	}
	return out
}

// directAlea runs policy on the whole trace under sim/alea, without the
// runner, and returns its schedule as readScheduleRows does.
func directAlea(t *testing.T, trace, machines, policy string) [][5]string {
	t.Helper()
	groups, err := spec.AleaGroups(machines)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := alea.Read(zr, "wagap-2013.swf", alea.ReadOptions{DataSet: "wagap-2013.swf", MaxPE: spec.AleaMaxPE(groups)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := alea.New(groups, alea.Options{Props: tr.Props})
	if err != nil {
		t.Fatal(err)
	}
	var p sim.Policy = policies.NewFCFS()
	if policy == "easy" {
		p = alea.NewEASY()
	}
	res, err := sim.Run(m, p, sim.NewSliceSource(tr.Jobs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out [][5]string
	for i := range res.Jobs {
		o := &res.Jobs[i]
		row := [5]string{strconv.FormatInt(int64(o.ID), 10), strconv.FormatInt(int64(o.Submit), 10)}
		if o.State != sim.Rejected {
			row[2], row[3] = strconv.FormatInt(int64(o.Start), 10), strconv.FormatInt(int64(o.End), 10)
			if row[4], _, err = results.JobNodes(m.Placement(), o.Seq, nil); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, row)
	}
	return out
}
