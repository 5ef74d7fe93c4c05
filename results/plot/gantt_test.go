package plot_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedsweep/schedsweep/results"
	"github.com/schedsweep/schedsweep/results/plot"
)

// readGanttJobs reads a hand-made schedule: a job a line, "id user submit
// start end procs status", "-" for NULL; # starts a comment.
func readGanttJobs(t *testing.T, path string) []plot.GanttJob {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []plot.GanttJob
	for n, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 7 {
			t.Fatalf("%s:%d: want 7 fields, got %d", path, n+1, len(f))
		}
		var v [6]int64
		for i := range v {
			if f[i] == "-" {
				v[i] = -1
				continue
			}
			if v[i], err = strconv.ParseInt(f[i], 10, 64); err != nil {
				t.Fatalf("%s:%d: field %d: %v", path, n+1, i+1, err)
			}
		}
		j := plot.GanttJob{ID: v[0], User: v[1], Submit: v[2], Procs: v[5], Status: f[6]}
		if f[3] != "-" {
			j.Start, j.End, j.Ran = v[3], v[4], true
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// writeGanttFolder writes a results folder of one run, key "hand", on a
// machine of procs processors, whose jobs file holds jobs.
func writeGanttFolder(t *testing.T, jobs []plot.GanttJob, procs int64) string {
	t.Helper()
	dir := t.TempDir()
	row := results.RunRow{RunInfo: results.RunInfo{Key: "hand", Experiment: "hand", Params: []results.Param{
		{Name: "workload", Value: results.StringValue("w")},
		{Name: "policy", Value: results.StringValue("easy")},
		{Name: "load_factor", Value: results.FloatValue(1)},
		{Name: "replicate", Value: results.IntValue(1)},
		{Name: "cluster_procs", Value: results.IntValue(procs)},
	}}, Jobs: len(jobs)}
	if err := results.WriteRuns(filepath.Join(dir, "runs.parquet"), []results.RunRow{row}, results.Metadata{}); err != nil {
		t.Fatal(err)
	}
	n := len(jobs)
	keys, ids, users, submit, start, end, procsCol := make([]string, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	status, noUser, notRun := make([]string, n), make([]bool, n), make([]bool, n)
	for i, j := range jobs {
		keys[i], ids[i], users[i], submit[i], procsCol[i], status[i] = "hand", j.ID, j.User, j.Submit, j.Procs, j.Status
		start[i], end[i] = j.Start, j.End
		noUser[i], notRun[i] = j.User < 0, !j.Ran
	}
	writeParquet(t, filepath.Join(dir, results.JobsDir, "workload=w", "policy=easy", results.PartFile("hand")),
		col{name: "run_key", values: keys}, col{name: "job_id", values: ids},
		col{name: "user", values: users, null: noUser}, col{name: "submit", values: submit},
		col{name: "start", values: start, null: notRun}, col{name: "end", values: end, null: notRun},
		col{name: "procs", values: procsCol}, col{name: "status", values: status})
	return dir
}

// TestGanttGolden checks the rectangles of a hand-made schedule, read
// back from a results folder, against testdata/gantt/small.golden,
// worked out by hand: the whole run and a window.
func TestGanttGolden(t *testing.T) {
	jobs := readGanttJobs(t, "testdata/gantt/small.jobs")
	dir := writeGanttFolder(t, jobs, 4)
	d, err := plot.GanttValues(load(t, dir), plot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows != 4 || d.Procs != 4 || d.Origin != 100 || d.Makespan != 12 {
		t.Errorf("got rows %d, procs %d, origin %d, makespan %d; want 4, 4, 100, 12", d.Rows, d.Procs, d.Origin, d.Makespan)
	}
	var got bytes.Buffer
	for _, w := range [][2]int64{{0, 0}, {5, 10}} {
		if w[1] > w[0] {
			fmt.Fprintf(&got, "window %d %d\n", w[0], w[1])
		} else {
			got.WriteString("window none\n")
		}
		for _, r := range d.Rects(w[0], w[1]) {
			fmt.Fprintf(&got, "%d %d %d %d %d\n", d.Jobs[r.Job].ID, r.X0, r.X1, r.Y0, r.Y1)
		}
	}
	golden, err := os.ReadFile("testdata/gantt/small.golden")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(golden))
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "#") {
			want.WriteString(sc.Text() + "\n")
		}
	}
	if diff := cmp.Diff(want.String(), got.String()); diff != "" {
		t.Errorf("rectangles differ from testdata/gantt/small.golden (-want +got):\n%s", diff)
	}
	checkPacking(t, "small.jobs", d.Jobs, 4)
	times, busy := d.Busy()
	wantTimes, wantBusy := []int64{100, 104, 106, 108, 109, 110, 112}, []int64{3, 4, 4, 3, 2, 4, 0}
	if !cmp.Equal(times, wantTimes) || !cmp.Equal(busy, wantBusy) {
		t.Errorf("Busy() = %v, %v; want %v, %v", times, busy, wantTimes, wantBusy)
	}
}

// checkPacking checks Pack's promises on jobs of a machine of procs
// processors: each job that ran holds bands adding up to its processors,
// within the machine, in increasing order; no two jobs whose runs overlap
// in time share a row; a job that did not run holds none.
func checkPacking(t *testing.T, name string, jobs []plot.GanttJob, procs int64) {
	t.Helper()
	for _, j := range jobs {
		var w int64
		for k, b := range j.Bands {
			if b.Lo >= b.Hi || b.Lo < 0 || b.Hi > procs || (k > 0 && j.Bands[k-1].Hi >= b.Lo) {
				t.Errorf("%s: job %d: bands %v are not disjoint, increasing, within %d rows", name, j.ID, j.Bands, procs)
			}
			w += b.Hi - b.Lo
		}
		if want := j.Procs; !j.Ran {
			want = 0
			if w != want {
				t.Errorf("%s: job %d did not run and holds bands %v", name, j.ID, j.Bands)
			}
		} else if w != want {
			t.Errorf("%s: job %d: bands %v hold %d rows; want its %d processors", name, j.ID, j.Bands, w, want)
		}
	}
	for a := range jobs {
		for b := a + 1; b < len(jobs); b++ {
			x, y := jobs[a], jobs[b]
			if x.Start >= y.End || y.Start >= x.End {
				continue // one ends when or before the other starts
			}
			for _, p := range x.Bands {
				for _, q := range y.Bands {
					if p.Lo < q.Hi && q.Lo < p.Hi {
						t.Errorf("%s: jobs %d [%d, %d) and %d [%d, %d) both hold rows %v and %v", name, x.ID, x.Start, x.End, y.ID, y.Start, y.End, p, q)
					}
				}
			}
		}
	}
}

// TestPackRandom packs random schedules that never use more than the
// machine (first come, first served on a list of processors counted,
// not named) and checks Pack's promises.
func TestPackRandom(t *testing.T) {
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 1))
		procs := int64(1 + rng.IntN(16))
		var jobs []plot.GanttJob
		var ends []int64 // running jobs' ends
		var widths []int64
		now := int64(0)
		for i := range 150 {
			j := plot.GanttJob{ID: int64(i + 1), User: int64(rng.IntN(4)), Submit: now, Procs: int64(rng.IntN(int(procs))) + 1, Status: "finished", Ran: true}
			if rng.IntN(10) == 0 {
				j.Procs = 0
			}
			// start when enough processors are free
			start := now
			for {
				var used int64
				for k, e := range ends {
					if e > start {
						used += widths[k]
					}
				}
				if used+j.Procs <= procs {
					break
				}
				next := int64(1) << 62
				for _, e := range ends {
					if e > start && e < next {
						next = e
					}
				}
				start = next
			}
			j.Start, j.End = start, start+int64(rng.IntN(20))
			jobs, ends, widths = append(jobs, j), append(ends, j.End), append(widths, j.Procs)
			now += int64(rng.IntN(3))
		}
		rows := plot.Pack(jobs)
		if rows > procs {
			t.Errorf("seed %d: Pack needs %d rows on a machine of %d", seed, rows, procs)
		}
		checkPacking(t, fmt.Sprintf("seed %d", seed), jobs, procs)
	}
}

// TestGanttFigure draws the hand-made schedule whole and in a window,
// coloured both ways, and refuses a selection of several runs.
func TestGanttFigure(t *testing.T) {
	jobs := readGanttJobs(t, "testdata/gantt/small.jobs")
	r := load(t, writeGanttFolder(t, jobs, 4))
	for _, g := range []plot.GanttOptions{{}, {From: 5, To: 10, ByStatus: true}} {
		f, err := plot.Gantt(r, plot.Options{}, g)
		if err != nil {
			t.Fatalf("%+v: %v", g, err)
		}
		var b bytes.Buffer
		if err := f.Write(&b, "svg"); err != nil {
			t.Fatalf("%+v: %v", g, err)
		}
	}
	if _, err := plot.Gantt(r, plot.Options{}, plot.GanttOptions{From: -5, To: 10}); err == nil {
		t.Error("a window from -5 s: got no error")
	}
	if _, err := plot.GanttValues(load(t, sweep(t)), plot.Options{}); err == nil || !strings.Contains(err.Error(), "draws one run") {
		t.Errorf("twelve runs: got %v; want an error saying a Gantt chart draws one run", err)
	}
}
