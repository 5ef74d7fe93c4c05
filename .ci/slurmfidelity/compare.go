package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// start is one job's submission and start, in seconds.
type start struct {
	id     int64
	submit int64
	start  int64
}

// compareConfig is what compare's flags resolve to.
type compareConfig struct {
	sacct, schedule string
	within          int64
	window          int
	minPairs        float64
	minContested    float64
	minWithin       float64
}

func compareMain(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var c compareConfig
	fs.StringVar(&c.sacct, "sacct", "", "Slurm's jobs: a `file` of sacct --parsable2 output with JobIDRaw, Submit and Start")
	fs.StringVar(&c.schedule, "schedule", "", "the simulated schedule: a `file` schedsweep simulate --schedule wrote")
	fs.Int64Var(&c.within, "within", 5, "a job agrees when its simulated wait is within this many `seconds` of its real one")
	fs.IntVar(&c.window, "window", 0, "also print the least, median and greatest figures over every run of this many `jobs` in submission order, to set a shorter run's bars by")
	fs.Float64Var(&c.minPairs, "min-pairs", 0, "fail if fewer than this `fraction` of job pairs are ordered alike")
	fs.Float64Var(&c.minContested, "min-contested", 0, "fail if fewer than this `fraction` of contested job pairs (both waiting at once in Slurm) are ordered alike")
	fs.Float64Var(&c.minWithin, "min-within", 0, "fail if fewer than this `fraction` of jobs start within -within")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if c.sacct == "" || c.schedule == "" {
		fmt.Fprintln(os.Stderr, "compare: -sacct and -schedule are required")
		return errUsage
	}
	real, err := readFile(c.sacct, readSacct)
	if err != nil {
		return err
	}
	simulated, err := readFile(c.schedule, readSchedule)
	if err != nil {
		return err
	}
	a, b, err := match(real, simulated)
	if err != nil {
		return fmt.Errorf("%s against %s: %w", c.sacct, c.schedule, err)
	}
	r := agreement(a, b, c.within)
	r.print(os.Stdout, c.within)
	if c.window > 0 {
		printWindows(os.Stdout, a, b, c.window, c.within)
	}
	var low []string
	if f := r.pairFraction(); f < c.minPairs {
		low = append(low, fmt.Sprintf("pairs ordered alike %.4f < -min-pairs %g", f, c.minPairs))
	}
	if f := r.contestedFraction(); f < c.minContested {
		low = append(low, fmt.Sprintf("contested pairs ordered alike %.4f < -min-contested %g", f, c.minContested))
	}
	if f := r.withinFraction(); f < c.minWithin {
		low = append(low, fmt.Sprintf("jobs within %d s %.4f < -min-within %g", c.within, f, c.minWithin))
	}
	if len(low) > 0 {
		return errors.New("agreement below the thresholds: " + strings.Join(low, "; "))
	}
	return nil
}

// readFile opens path and reads it with read, prefixing errors with path.
func readFile(path string, read func(io.Reader) ([]start, error)) ([]start, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return s, nil
}

// sacctTime is the layout of sacct's times (local time, no zone; both
// schedules are compared by differences, so the zone does not matter).
const sacctTime = "2006-01-02T15:04:05"

// readSacct reads the jobs of sacct --parsable2 output: the header names
// the columns, JobIDRaw, Submit and Start among them; steps (a JobIDRaw
// with a dot) and jobs that never started (Start "Unknown" or "None") are
// left out. Errors begin with the line number.
func readSacct(r io.Reader) ([]start, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	col := map[string]int{}
	var out []start
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "|")
		if n == 1 {
			for i, f := range fields {
				col[f] = i
			}
			for _, want := range []string{"JobIDRaw", "Submit", "Start"} {
				if _, ok := col[want]; !ok {
					return nil, fmt.Errorf("1: the header has no column %s", want)
				}
			}
			continue
		}
		if len(fields) != len(col) {
			return nil, fmt.Errorf("%d: %d fields; the header names %d", n, len(fields), len(col))
		}
		raw := fields[col["JobIDRaw"]]
		if strings.Contains(raw, ".") {
			continue
		}
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%d: JobIDRaw %q is not a number", n, raw)
		}
		st := fields[col["Start"]]
		if st == "Unknown" || st == "None" {
			continue
		}
		var j start
		j.id = id
		for _, f := range []struct {
			name string
			to   *int64
		}{{"Submit", &j.submit}, {"Start", &j.start}} {
			t, err := time.Parse(sacctTime, fields[col[f.name]])
			if err != nil {
				return nil, fmt.Errorf("%d: %s %q is not a time like %s", n, f.name, fields[col[f.name]], sacctTime)
			}
			*f.to = t.Unix()
		}
		out = append(out, j)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf(" %w", err)
	}
	if len(col) == 0 {
		return nil, errors.New("1: empty, not sacct output")
	}
	return out, nil
}

// readSchedule reads the CSV schedsweep simulate --schedule writes
// (job_id,submit,start,end,procs,status[,nodes]); rejected jobs, which
// have no start, are left out. Errors begin with the line number.
func readSchedule(r io.Reader) ([]start, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("1: %w", err)
	}
	if len(head) < 3 || head[0] != "job_id" || head[1] != "submit" || head[2] != "start" {
		return nil, fmt.Errorf("1: header %q is not job_id,submit,start,...", strings.Join(head, ","))
	}
	var out []start
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%d: %w", line, err)
		}
		if len(rec) < 3 {
			return nil, fmt.Errorf("%d: %d fields, want at least 3", line, len(rec))
		}
		if rec[2] == "" {
			continue
		}
		var v [3]int64
		for i := range v {
			if v[i], err = strconv.ParseInt(rec[i], 10, 64); err != nil {
				return nil, fmt.Errorf("%d: %s %q is not a whole number", line, head[i], rec[i])
			}
		}
		out = append(out, start{id: v[0], submit: v[1], start: v[2]})
	}
}

// match pairs the jobs of the two schedules by id and returns them in the
// same order (the real schedule's submission order). Every job must be in
// both.
func match(real, simulated []start) ([]start, []start, error) {
	byID := make(map[int64]start, len(simulated))
	for _, j := range simulated {
		byID[j.id] = j
	}
	a := slices.Clone(real)
	slices.SortFunc(a, func(x, y start) int {
		if x.submit != y.submit {
			return compareInt(x.submit, y.submit)
		}
		return compareInt(x.id, y.id)
	})
	b := make([]start, len(a))
	for i, j := range a {
		s, ok := byID[j.id]
		if !ok {
			return nil, nil, fmt.Errorf("job %d started in Slurm, not in the simulation", j.id)
		}
		b[i] = s
		delete(byID, j.id)
	}
	if len(byID) > 0 {
		ids := make([]int64, 0, len(byID))
		for id := range byID {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return nil, nil, fmt.Errorf("%d jobs started in the simulation, not in Slurm (job %d first)", len(ids), ids[0])
	}
	if len(a) == 0 {
		return nil, nil, errors.New("no job started")
	}
	return a, b, nil
}

func compareInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
