package workloads

import (
	"bufio"
	"compress/gzip"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// wagapJob is what the studies below need of a wagap-2013 line.
type wagapJob struct {
	line          int
	start, end    int64 // submit + wait, start + run time (negative run times count as 0)
	procs         int64 // field 5
	alea          AleaFields
	requestErr    error
	rawRequest    string
	labelClusters []string
}

// readWagap reads wagap-2013 from the shared traces, skipping the test when
// they are not there.
func readWagap(t *testing.T) []wagapJob {
	t.Helper()
	f, err := os.Open(sharedTraces + "/wagap-2013.swf.gz")
	if err != nil {
		t.Skipf("shared traces not found: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	var jobs []wagapJob
	for n := 1; sc.Scan(); n++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], ";") {
			continue
		}
		if len(fs) != 21 {
			t.Fatalf("wagap-2013.swf:%d: %d fields; want 21", n, len(fs))
		}
		num := func(k int) int64 {
			v, err := strconv.ParseInt(fs[k-1], 10, 64)
			if err != nil {
				t.Fatalf("wagap-2013.swf:%d: field %d: %v", n, k, err)
			}
			return v
		}
		j := wagapJob{line: n, start: num(2) + num(3), procs: num(5), rawRequest: fs[20]}
		j.end = j.start + max(num(4), 0)
		j.alea, err = ParseAleaFields(fs[18:20], "wagap-2013.swf", n)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := ParseRequest(fs[20]); err != nil {
			j.requestErr = err
		} else {
			j.alea.Request, j.alea.HasRequest = r, true
		}
		jobs = append(jobs, j)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return jobs
}

// TestWagapRequests parses field 21 of every wagap-2013 job: all parse but
// the 20 asking for "ppn=1.5", and Σ nodes × ppn equals field 5 for all
// others. docs/design/nodes.md quotes the counts it logs (go test
// ./workloads -run TestWagapRequests -v).
func TestWagapRequests(t *testing.T) {
	jobs := readWagap(t)
	var failed, multi, excl, withClusters, withNot, oneNode int
	for _, j := range jobs {
		if j.requestErr != nil {
			failed++
			if !strings.Contains(j.rawRequest, "ppn=1.5") {
				t.Errorf("line %d: %v", j.line, j.requestErr)
			}
			continue
		}
		r := j.alea.Request
		if r.Procs() != j.procs {
			t.Errorf("line %d: request %q asks for %d processors; field 5 is %d", j.line, j.rawRequest, r.Procs(), j.procs)
		}
		if len(r.Chunks) > 1 {
			multi++
		}
		if r.Exclusive {
			excl++
		}
		if len(r.Clusters) > 0 {
			withClusters++
		}
		if len(r.NotClusters) > 0 {
			withNot++
		}
		if r.Nodes() == 1 {
			oneNode++
		}
	}
	t.Logf("jobs %d; requests that do not parse %d (ppn=1.5); several chunks %d; #excl %d; cl_X %d; ^cl_X %d; one node %d (%.1f %%)",
		len(jobs), failed, multi, excl, withClusters, withNot, oneNode, 100*float64(oneNode)/float64(len(jobs)))
	if len(jobs) != 17900 || failed != 20 || multi != 12 || excl != 231 {
		t.Errorf("got jobs %d, failed %d, multi-chunk %d, #excl %d; want 17900, 20, 12, 231", len(jobs), failed, multi, excl)
	}
}

// nodeUse is what field 19 says of one node id.
type nodeUse struct {
	id        int64
	jobs      int
	maxInJob  int64 // most processors one job had on it
	peak      int64 // most processors in use at once, from start and run time
	labels    map[string]int
	class     string
	wideSpans int // jobs that used it and a node of the other class
}

// TestWagapNodes is the study of docs/design/nodes.md: from field 19 (the
// node of each processor a job ran on) it counts the distinct nodes, the
// most processors one job and all jobs at once used on each, and sorts the
// nodes into classes: a node where more than 12 processors were ever used
// at once is one of zewura's 80-processor nodes, every other one a zegox
// node of 12. Run: go test ./workloads -run TestWagapNodes -v.
func TestWagapNodes(t *testing.T) {
	jobs := readWagap(t)
	use := map[int64]*nodeUse{}
	type event struct {
		at, delta int64
		id        int64
	}
	var events []event
	for _, j := range jobs {
		per := map[int64]int64{}
		for _, id := range j.alea.Ran {
			per[id]++
		}
		for id, k := range per {
			u := use[id]
			if u == nil {
				u = &nodeUse{id: id, labels: map[string]int{}}
				use[id] = u
			}
			u.jobs++
			u.maxInJob = max(u.maxInJob, k)
			for _, c := range j.alea.Request.Clusters {
				u.labels[c]++
			}
			if j.end > j.start {
				events = append(events, event{j.start, k, id}, event{j.end, -k, id})
			}
		}
	}
	// Ends before starts at equal times: a node freed and refilled at one
	// instant is not double-counted.
	slices.SortFunc(events, func(a, b event) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.delta - b.delta)
	})
	cur := map[int64]int64{}
	for _, e := range events {
		cur[e.id] += e.delta
		use[e.id].peak = max(use[e.id].peak, cur[e.id])
	}
	ids := make([]int64, 0, len(use))
	count := map[string]int{}
	for id, u := range use {
		ids = append(ids, id)
		u.class = "12"
		if u.peak > 12 || u.maxInJob > 12 {
			u.class = "80"
		}
		count[u.class]++
	}
	slices.Sort(ids)
	for _, id := range ids {
		u := use[id]
		t.Logf("node %d: class %s, %4d jobs, most in one job %2d, peak at once %2d, cl_zewura jobs %3d, cl_zegox jobs %3d",
			id, u.class, u.jobs, u.maxInJob, u.peak, u.labels["zewura"], u.labels["zegox"])
		if u.class == "80" && u.labels["zegox"] > 0 || u.class == "12" && u.labels["zewura"] > 0 {
			t.Errorf("node %d of class %s ran a job asking for the other cluster", id, u.class)
		}
	}
	spans := 0
	for _, j := range jobs {
		classes := map[string]bool{}
		for _, id := range j.alea.Ran {
			classes[use[id].class] = true
		}
		if len(classes) > 1 {
			spans++
			if spans <= 3 {
				t.Logf("line %d spans both classes: %d processors, request %q", j.line, j.procs, j.rawRequest)
			}
		}
	}
	cpus := 80*count["80"] + 12*count["12"]
	t.Logf("distinct nodes %d: %d of 80 processors and %d of 12 = %d processors; jobs on both classes %d",
		len(use), count["80"], count["12"], cpus, spans)
	if len(use) != 44 || count["80"] != 18 || count["12"] != 26 || spans != 31 {
		t.Errorf("got %d nodes, %d of class 80, %d of class 12, %d spanning; want 44, 18, 26, 31", len(use), count["80"], count["12"], spans)
	}
}
