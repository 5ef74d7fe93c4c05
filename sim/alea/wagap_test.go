package alea_test

import (
	"bufio"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/workloads"
)

const sharedWorkloads = "../../../shared/workloads"

// wagap reads wagap-2013 and its .machines file as Alea does.
func wagap(t *testing.T) (*alea.Trace, []alea.Group) {
	t.Helper()
	if testing.Short() {
		t.Skip("reads a trace")
	}
	mf, err := os.Open(filepath.Join(sharedWorkloads, "wagap-2013.swf.machines"))
	if err != nil {
		t.Skip(err)
	}
	defer mf.Close()
	ng, err := workloads.ReadMachines(mf, "wagap-2013.swf.machines")
	if err != nil {
		t.Fatal(err)
	}
	var groups []alea.Group
	var maxPE int64
	for _, g := range ng {
		groups = append(groups, alea.Group{Name: g.Name, Nodes: int(g.Nodes), CPUs: g.CPUsPerNode, Memory: g.MemPerNode})
		maxPE = max(maxPE, g.Nodes*g.CPUsPerNode)
	}
	f, err := os.Open(filepath.Join(sharedWorkloads, "wagap-2013.swf.gz"))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := alea.Read(zr, "wagap-2013.swf", alea.ReadOptions{DataSet: "wagap-2013.swf", MaxPE: maxPE})
	if err != nil {
		t.Fatal(err)
	}
	return tr, groups
}

// runWagapFCFS runs strict FCFS on wagap-2013 under compat alea.
func runWagapFCFS(t *testing.T) (*sim.Result, *alea.Machine, *alea.Trace) {
	t.Helper()
	return runWagap(t, policies.NewFCFS())
}

// runWagap runs p on wagap-2013 under compat alea.
func runWagap(t *testing.T, p sim.Policy) (*sim.Result, *alea.Machine, *alea.Trace) {
	t.Helper()
	tr, groups := wagap(t)
	m, err := alea.New(groups, alea.Options{Props: tr.Props})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(m, p, sim.NewSliceSource(tr.Jobs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res, m, tr
}

// aleaJob is one line of Alea's per-job output (jobs_*.csv).
type aleaJob struct {
	arrival, start, end float64
}

// readAleaJobs reads Alea's jobs_<alg>_<data set>_exact_bez.csv.
func readAleaJobs(t *testing.T, path string) map[sim.JobID]aleaJob {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jobs := map[sim.JobID]aleaJob{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Split(sc.Text(), "\t")
		if n == 1 || len(fs) < 7 {
			continue
		}
		num := func(k int) float64 {
			v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(fs[k]), ",", "."), 64)
			if err != nil {
				t.Fatalf("%s:%d: column %d: %v", path, n, k+1, err)
			}
			return v
		}
		id, err := strconv.ParseInt(strings.TrimSpace(fs[0]), 10, 64)
		if err != nil {
			t.Fatalf("%s:%d: job id: %v", path, n, err)
		}
		jobs[sim.JobID(id)] = aleaJob{arrival: num(2), start: num(4), end: num(6)}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return jobs
}
