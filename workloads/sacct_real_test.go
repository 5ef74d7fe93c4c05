package workloads

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedsweep/schedsweep/sim"
)

// TestSacctReal reads the dump a real slurmctld 22.05.8 wrote
// (testdata/sacct/real-22.05.md says how) and checks every job against
// the file's own columns, read here by plain splitting: submit time from
// the first submit, run time End − Start, estimate TimelimitRaw minutes,
// processors AllocTRES's cpu=, users and accounts kept by name (numbered
// from 1), every .batch step skipped and counted.
func TestSacctReal(t *testing.T) {
	const name = "testdata/sacct/real-22.05.txt"
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewSacctReader(f, name, SacctOptions{})
	recs, err := sim.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}

	type job struct {
		submit, start, end time.Time
		limit, cpus        int64
		user, account      string
	}
	want := map[sim.JobID]job{}
	steps := 0
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Scan() // the header
	var first time.Time
	for sc.Scan() {
		c := strings.Split(sc.Text(), "|")
		if strings.Contains(c[0], ".") {
			steps++
			continue
		}
		at := func(s string) time.Time {
			v, err := time.Parse("2006-01-02T15:04:05", s)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		id, _ := strconv.ParseInt(c[0], 10, 64)
		limit, _ := strconv.ParseInt(c[12], 10, 64)
		var cpus int64
		for _, kv := range strings.Split(c[21], ",") {
			if v, ok := strings.CutPrefix(kv, "cpu="); ok {
				cpus, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		j := job{submit: at(c[7]), start: at(c[9]), end: at(c[10]), limit: limit, cpus: cpus, user: c[2], account: c[4]}
		if first.IsZero() || j.submit.Before(first) {
			first = j.submit
		}
		want[sim.JobID(id)] = j
	}
	if len(recs) != 250 || len(want) != 250 {
		t.Fatalf("got %d records of %d jobs in the file; want 250 of 250", len(recs), len(want))
	}
	names, err := r.Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		w, ok := want[rec.ID]
		if !ok {
			t.Fatalf("job %d is not in the file", rec.ID)
		}
		got := []int64{int64(rec.Submit), int64(rec.Runtime), int64(rec.Estimate), rec.Need[sim.Procs], int64(rec.Status)}
		exp := []int64{int64(w.submit.Sub(first) / time.Second), int64(w.end.Sub(w.start) / time.Second), w.limit * 60, w.cpus, 1}
		if !slices.Equal(got, exp) {
			t.Errorf("job %d: submit, runtime, estimate, procs, status %v; want %v", rec.ID, got, exp)
		}
		if u, a := names.Users[rec.User-1], names.Accounts[rec.Group-1]; u != w.user || a != w.account {
			t.Errorf("job %d: user %q account %q; want %q %q", rec.ID, u, a, w.user, w.account)
		}
	}
	skipped, err := r.Skipped()
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Reason != SkipStep || skipped[0].Lines != steps || steps != 250 {
		t.Errorf("skipped %+v; want the %d .batch steps (250) only", skipped, steps)
	}
	if len(names.Users) != 4 || len(names.Accounts) != 2 {
		t.Errorf("users %v, accounts %v; want 4 users in 2 accounts", names.Users, names.Accounts)
	}
}
