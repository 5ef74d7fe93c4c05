// Package simtest holds what tests of the simulator and its policies share:
// job and cluster builders, a recorder of a run's promises, Verify, which checks
// every invariant a schedule must keep, and Run, which does all three (with
// tier.Verify for two-tier policies, so it imports sim/tier as well as sim).
// Only _test.go files import it.
package simtest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// Opt adjusts a record built by J.
type Opt func(*sim.Record)

// Mem sets the job's memory need in bytes.
func Mem(bytes int64) Opt { return func(r *sim.Record) { r.Need[sim.Memory] = bytes } }

// User sets the job's user.
func User(u int32) Opt { return func(r *sim.Record) { r.User = u } }

// J builds a job record: id, submit time, true run time, estimate and
// processors; everything else unknown (-1) unless an Opt sets it.
func J(id int64, submit, run, est sim.Time, procs int64, opts ...Opt) sim.Record {
	r := sim.Record{
		Job: sim.Job{
			ID: sim.JobID(id), User: -1, Group: -1, Queue: -1, Partition: -1,
			Submit: submit, Estimate: est,
		},
		Runtime: run, Status: 1, Preceding: -1, Think: -1,
	}
	r.Need[sim.Procs] = procs
	for _, o := range opts {
		o(&r)
	}
	return r
}

// Cluster returns a capacity of procs processors and mem bytes of memory.
func Cluster(procs, mem int64) sim.Resources {
	var c sim.Resources
	c[sim.Procs], c[sim.Memory] = procs, mem
	return c
}

// EventKind tells a promise from a withdrawal.
type EventKind uint8

// Recorded event kinds.
const (
	Promise EventKind = iota + 1
	Withdraw
)

// Event is one promise or withdrawal, as the engine applied it.
type Event struct {
	Kind EventKind
	Time sim.Time // when it was made
	Seq  int      // the job's arrival index
	At   sim.Time // the promised start (Promise only)
}

// Recorder is a sim.Tracer that keeps every event.
type Recorder struct {
	Events []Event
}

var _ sim.Tracer = (*Recorder)(nil)

// Promised records a promise.
func (r *Recorder) Promised(now sim.Time, j *sim.Job, start sim.Time) {
	r.Events = append(r.Events, Event{Kind: Promise, Time: now, Seq: j.Seq, At: start})
}

// Withdrawn records a withdrawal.
func (r *Recorder) Withdrawn(now sim.Time, j *sim.Job) {
	r.Events = append(r.Events, Event{Kind: Withdraw, Time: now, Seq: j.Seq})
}

// Run simulates p on a pool of capacity c over recs with a recorder attached,
// then checks the result with Verify; any violation fails the test. It
// returns the result and the recorder.
//
// A policy that runs on the two-tier machine (a sim.ModelMaker whose model
// is a *tier.Machine) is checked with tier.Verify instead, with
// chk.MaxOpen and a fresh model of the run to recompute its rates; the
// recorder then holds its promises and withdrawals.
func Run(t testing.TB, c sim.Resources, p sim.Policy, recs []sim.Record, opt sim.Options, chk Checks) (*sim.Result, *Recorder) {
	t.Helper()
	if mm, ok := p.(sim.ModelMaker); ok {
		m, err := mm.NewModel(c, opt.Seed)
		if err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		if tm, ok := m.(*tier.Machine); ok {
			return runTiers(t, tm, p, recs, opt, chk)
		}
	}
	rec := &Recorder{}
	opt.Tracer = rec
	res, err := sim.Run(sim.NewPool(c), p, sim.NewSliceSource(recs), opt)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	chk.Jobs = len(recs)
	chk.AllowOverrun = opt.AllowOverrun
	if err := Verify(res, rec, chk); err != nil {
		t.Fatalf("%s: schedule breaks invariants:\n%v", p.Name(), err)
	}
	return res, rec
}

func runTiers(t testing.TB, m *tier.Machine, p sim.Policy, recs []sim.Record, opt sim.Options, chk Checks) (*sim.Result, *Recorder) {
	t.Helper()
	trec := &tier.Recorder{}
	opt.Tracer = trec
	res, err := sim.Run(m, p, sim.NewSliceSource(recs), opt)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	cfg := m.Config()
	tchk := tier.Checks{Jobs: len(recs), Config: cfg, Model: cfg.NewModel(opt.Seed), AllowOverrun: opt.AllowOverrun, MaxOpen: chk.MaxOpen}
	if err := tier.Verify(res, trec, tchk); err != nil {
		t.Fatalf("%s: two-tier schedule breaks invariants:\n%v", p.Name(), err)
	}
	rec := &Recorder{}
	for _, e := range trec.Events {
		switch e.Kind {
		case tier.Promised:
			rec.Events = append(rec.Events, Event{Kind: Promise, Time: e.Time, Seq: e.Seq, At: e.At})
		case tier.Withdrawn:
			rec.Events = append(rec.Events, Event{Kind: Withdraw, Time: e.Time, Seq: e.Seq})
		}
	}
	return res, rec
}

// Bytes renders a schedule canonically, one line per job, for comparing
// runs byte for byte.
func Bytes(res *sim.Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %v %d %d %d %d %d %+v\n", res.Policy, res.Capacity, res.Finished, res.Killed,
		res.Rejected, res.EstimatesFilled, res.Passes, res.Tiers)
	for i := range res.Jobs {
		o := &res.Jobs[i]
		fmt.Fprintf(&b, "%d %d %d %d %d %v %s %s\n", o.ID, o.Submit, o.Start, o.End, o.Estimate, o.Need, o.State, o.Reason)
	}
	return b.Bytes()
}

// RateTable is a tier.Model for hand-worked cases: it imposes progress
// rates by job ID instead of drawing them. A job's foreground rate is
// Foreground[id], 1 if absent. Its background rate behind foreground job f
// is Background[{id, f's ID}], and behind an idle foreground
// Background[{id, 0}]; absent, it is the share of cycles f leaves,
// 1 − tier.Usage(f) (1 behind an idle foreground).
type RateTable struct {
	Foreground map[sim.JobID]float64
	Background map[[2]sim.JobID]float64
}

var _ tier.Model = RateTable{}

// Admit does nothing: the table draws nothing.
func (RateTable) Admit(*sim.Job) {}

// Rate looks the rate up.
func (m RateTable) Rate(j *sim.Job, t tier.Tier, other *sim.Job) float64 {
	if t == tier.Foreground {
		if r, ok := m.Foreground[j.ID]; ok {
			return r
		}
		return 1
	}
	var o sim.JobID
	if other != nil {
		o = other.ID
	}
	if r, ok := m.Background[[2]sim.JobID{j.ID, o}]; ok {
		return r
	}
	if other == nil {
		return 1
	}
	return 1 - tier.Usage(other)
}

// MinForeground returns the lowest foreground rate of the table, at most 1.
func (m RateTable) MinForeground() float64 {
	low := 1.0
	for _, r := range m.Foreground {
		low = min(low, r)
	}
	return low
}

// Usage sets the job's CPU usage.
func Usage(u float64) Opt { return func(r *sim.Record) { r.CPUUsage = u } }
