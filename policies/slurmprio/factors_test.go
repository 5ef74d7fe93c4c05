package slurmprio

import (
	"math"
	"strings"
	"testing"

	"github.com/schedsweep/schedsweep/internal/psp"
	"github.com/schedsweep/schedsweep/sim"
)

// job returns a waiting job: arrival seq, submit time, processors, user
// and account (SWF group); no queue, partition or shape.
func job(seq int, submit sim.Time, procs int64, user, group int32) *sim.Job {
	j := &sim.Job{ID: sim.JobID(seq + 1), Seq: seq, User: user, Group: group, Queue: -1, Partition: -1, Submit: submit, Estimate: 3600}
	j.Need[sim.Procs] = procs
	return j
}

// only returns parameters with one weight, w, and every other weight 0.
func only(set func(*Params)) Params {
	p := Defaults()
	p.WeightAge = 0
	set(&p)
	return p
}

func newCalc(t *testing.T, p Params, m Machine) *Calculator {
	t.Helper()
	c, err := New(p, m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestFactors checks each factor and its normalisation on one job, with
// its weight 1000 and every other weight 0, at submission.
func TestFactors(t *testing.T) {
	nodes := Machine{Procs: 64, Nodes: 8}
	pool := Machine{Procs: 64}
	shaped := func(nodes, perNode int32) func(*sim.Job) {
		return func(j *sim.Job) {
			j.Shape.Nodes, j.Shape.PerNode = nodes, perNode
			j.Need[sim.Procs] = int64(nodes * perNode)
		}
	}
	procs := func(n int64) func(*sim.Job) { return func(j *sim.Job) { j.Need[sim.Procs] = n } }
	part := func(n int32) func(*sim.Job) { return func(j *sim.Job) { j.Partition = n } }
	named := func(s string) func(*sim.Job) {
		return func(j *sim.Job) { j.Shape.Where = &sim.Where{Partition: s} }
	}
	queue := func(q int32) func(*sim.Job) { return func(j *sim.Job) { j.Queue = q } }
	js := func(p *Params) { p.WeightJobSize = 1000 }
	small := func(p *Params) { p.WeightJobSize, p.FavorSmall = 1000, true }
	parts := func(list string) func(*Params) {
		return func(p *Params) { p.WeightPartition, p.PartitionFactor = 1000, list }
	}
	qos := func(list string) func(*Params) {
		return func(p *Params) { p.WeightQOS, p.QOSPriority = 1000, list }
	}
	tests := []struct {
		name string
		p    func(*Params)
		m    Machine
		j    func(*sim.Job)
		want uint32
	}{
		// Job size, favour large: (min_nodes/nodes + cpus/procs)/2.
		// (2/8 + 8/64)/2 = (0.25 + 0.125)/2 = 0.1875 → 187.5 → 187.
		{"size 2 nodes of 8, 8 of 64 cpus", js, nodes, shaped(2, 4), 187},
		// No node count: min_nodes 1: (1/8 + 8/64)/2 = 0.125 → 125.
		{"size 8 cpus anywhere", js, nodes, procs(8), 125},
		// (8/8 + 64/64)/2 = 1 → 1000.
		{"size whole machine", js, nodes, shaped(8, 8), 1000},
		// Favour small: ((8−2)/8 + (64−8)/64)/2 = (0.75 + 0.875)/2 =
		// 0.8125 → 812.5 → 812.
		{"favour small 2 nodes, 8 cpus", small, nodes, shaped(2, 4), 812},
		// ((8−8)/8 + (64−64)/64)/2 = 0 → 0, raised to the minimum 1.
		{"favour small whole machine", small, nodes, shaped(8, 8), 1},
		// The pool: CPUs only: 16/64 = 0.25 → 250; small: 0.75 → 750.
		{"pool size 16 of 64", js, pool, procs(16), 250},
		{"pool favour small 16 of 64", small, pool, procs(16), 750},
		// No machine known (0 processors): factor 0 → the minimum 1.
		{"size on no machine", js, Machine{}, procs(4), 1},
		// Partition: its PriorityJobFactor over the largest, 4: 2/4.
		{"partition 20 of 10:4,20:2", parts("10:4,20:2"), pool, part(20), 500},
		// Unlisted partition: 1/4 → 250.
		{"partition unlisted of 10:4,20:2", parts("10:4,20:2"), pool, part(30), 250},
		// Factor 0: no partition term → the minimum 1.
		{"partition factor 0", parts("10:0"), pool, part(10), 1},
		// Unlisted (1) while every listed one is 0: the largest is 1.
		{"partition unlisted of 10:0", parts("10:0"), pool, part(7), 1000},
		// A named partition on a cluster of nodes: 3/3 → 1000.
		{"partition by name", parts("gpu:3,cpu:1"), nodes, named("gpu"), 1000},
		// 1/3 → 333.33… → 333.
		{"partition by name, cpu", parts("gpu:3,cpu:1"), nodes, named("cpu"), 333},
		// QOS: priority over the largest, 100: 50/100 → 500.
		{"qos 2 of 1:100,2:50", qos("1:100,2:50"), pool, queue(2), 500},
		// Unlisted: 0 → the minimum 1.
		{"qos unlisted", qos("1:100,2:50"), pool, queue(3), 1},
		// Every QOS 0: factor 0.
		{"qos all zero", qos("1:0"), pool, queue(1), 1},
		// No weights: 0, raised to 1 (0 is Slurm's held priority).
		{"no weights", func(*Params) {}, pool, procs(1), 1},
		// Age at submission is 0: 1.
		{"age at submission", func(p *Params) { p.WeightAge = 1000 }, pool, procs(1), 1},
		// A new user's accuracy class is 5: (5−1)/4 = 1 → 1000.
		{"accuracy new user", func(p *Params) { p.WeightAccuracy = 1000 }, pool, procs(1), 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCalc(t, only(tc.p), tc.m)
			j := job(0, 0, 1, 1, 1)
			tc.j(j)
			c.Submitted(0, j)
			if got := c.Priority(j); got != tc.want {
				t.Errorf("got priority %d; want %d", got, tc.want)
			}
		})
	}
}

// TestAge follows one job's age factor over calculation periods:
// PriorityMaxAge 1000 s, weight 1000, period 300 s, submitted at 100.
func TestAge(t *testing.T) {
	p := only(func(p *Params) { p.WeightAge, p.MaxAge, p.CalcPeriod = 1000, 1000, 300 })
	c := newCalc(t, p, Machine{Procs: 8})
	j := job(0, 100, 1, 1, 1)
	c.Submitted(100, j)
	want := []struct {
		at   sim.Time
		prio uint32
	}{
		{100, 1},   // age 0 → 0, raised to 1
		{300, 200}, // (300−100)/1000 · 1000
		{600, 500}, // 500/1000 · 1000
		{900, 800},
		{1200, 1000}, // 1100 s, capped at PriorityMaxAge: 1
		{1500, 1000},
	}
	for _, w := range want {
		c.Update(w.at, nil, []*sim.Job{j})
		if got := c.Priority(j); got != w.prio {
			t.Errorf("at %d: got priority %d; want %d", w.at, got, w.prio)
		}
	}
}

// TestWeightedSum checks the sum of weighted factors and its truncation
// and clamping.
func TestWeightedSum(t *testing.T) {
	// Age 1000 of 3000 s: 1/3 · 1000 = 333.333…; job size (2/8 +
	// 8/64)/2 = 0.1875 · 333 = 62.4375; sum 395.7708… → 395.
	p := only(func(p *Params) {
		p.WeightAge, p.MaxAge, p.CalcPeriod = 1000, 3000, 1000
		p.WeightJobSize = 333
	})
	c := newCalc(t, p, Machine{Procs: 64, Nodes: 8})
	j := job(0, 0, 8, 1, 1)
	j.Shape.Nodes, j.Shape.PerNode = 2, 4
	c.Submitted(0, j)
	// At submission: 0 + 62.4375 → 62.
	if got := c.Priority(j); got != 62 {
		t.Errorf("at submission: got %d; want 62", got)
	}
	c.Update(1000, nil, []*sim.Job{j})
	if got := c.Priority(j); got != 395 {
		t.Errorf("at 1000: got %d; want 395", got)
	}

	// Every weight at its largest (2³²−1) and three factors at 1 (age,
	// job size of the whole pool, new user's accuracy): 3·(2³²−1)
	// clamps to 2³²−1.
	p = only(func(p *Params) {
		p.WeightAge, p.MaxAge, p.CalcPeriod = math.MaxUint32, 10, 10
		p.WeightJobSize, p.WeightAccuracy = math.MaxUint32, math.MaxUint32
	})
	c = newCalc(t, p, Machine{Procs: 4})
	j = job(0, 0, 4, 1, 1)
	c.Submitted(0, j)
	c.Update(10, nil, []*sim.Job{j})
	if got := c.Priority(j); got != math.MaxUint32 {
		t.Errorf("clamped: got %d; want %d", got, uint32(math.MaxUint32))
	}
}

// TestStaleness checks that priorities move only at PriorityCalcPeriod
// boundaries, multiples of the period, and that a late update computes
// them as at the last boundary passed.
func TestStaleness(t *testing.T) {
	p := only(func(p *Params) { p.WeightAge, p.MaxAge, p.CalcPeriod = 1000, 1000, 300 })
	c := newCalc(t, p, Machine{Procs: 8})
	a := job(0, 0, 1, 1, 1)
	c.Submitted(0, a)
	steps := []struct {
		at      sim.Time
		changed bool
		prio    uint32
		next    sim.Time
	}{
		{0, true, 1, 300},     // boundary 0, computed at submission's time
		{100, false, 1, 300},  // stale: still age 0
		{299, false, 1, 300},  // stale
		{300, true, 300, 600}, // boundary: age 300
		{301, false, 300, 600},
		// Late: boundaries 600 and 900 passed; computed as at 900.
		{950, true, 900, 1200},
	}
	for _, s := range steps {
		changed := c.Update(s.at, nil, []*sim.Job{a})
		if changed != s.changed || c.Priority(a) != s.prio || c.Next() != s.next {
			t.Errorf("Update(%d): got changed %v, priority %d, next %d; want %v, %d, %d",
				s.at, changed, c.Priority(a), c.Next(), s.changed, s.prio, s.next)
		}
	}
	// A job submitted at 960, after boundary 900, keeps its submission
	// priority through the next update before 1200.
	b := job(1, 960, 1, 1, 1)
	c.Submitted(960, b)
	c.Update(1000, nil, []*sim.Job{a, b})
	if got := c.Priority(b); got != 1 {
		t.Errorf("job submitted at 960: got %d at 1000; want 1", got)
	}
	c.Update(1200, nil, []*sim.Job{a, b})
	// At 1200: a capped at 1000; b (1200−960)/1000 · 1000 = 240.
	if c.Priority(a) != 1000 || c.Priority(b) != 240 {
		t.Errorf("at 1200: got %d, %d; want 1000, 240", c.Priority(a), c.Priority(b))
	}
}

// TestAccuracyFactor checks the PSP accuracy class of a user after ended
// jobs: (class − 1)/4 · 1000.
func TestAccuracyFactor(t *testing.T) {
	p := only(func(p *Params) { p.WeightAccuracy = 1000 })
	c := newCalc(t, p, Machine{Procs: 8})
	seq := 0
	end := func(run, est sim.Time) {
		j := job(seq, 0, 1, 7, 1)
		j.Estimate = est
		seq++
		c.Submitted(0, j)
		c.Started(0, j)
		c.Finished(run, j, run)
	}
	prio := func() uint32 {
		j := job(seq, 100, 1, 7, 1)
		seq++
		c.Submitted(100, j)
		return c.Priority(j)
	}
	// One job ran 30 of 100 s: accuracy 0.3, class 2 → 1/4 → 250.
	end(30, 100)
	if got := prio(); got != 250 {
		t.Errorf("after 30/100: got %d; want 250", got)
	}
	// Then 90 of 100: mean (0.3 + 0.9)/2 = 0.6, class 4 → 3/4 → 750.
	end(90, 100)
	if got := prio(); got != 750 {
		t.Errorf("after 30/100, 90/100: got %d; want 750", got)
	}
	// Then psp.Window jobs of 10/100: the window holds only those, mean
	// 0.1, class 1 → 0 → the minimum 1.
	for range psp.Window {
		end(10, 100)
	}
	if got := prio(); got != 1 {
		t.Errorf("after a window of 10/100: got %d; want 1", got)
	}
	// Another user is new: class 5 → 1000.
	j := job(seq, 100, 1, 8, 1)
	c.Submitted(100, j)
	if got := c.Priority(j); got != 1000 {
		t.Errorf("new user: got %d; want 1000", got)
	}
}

// TestParamErrors checks that each bad parameter is named, with the bad
// entry of a list.
func TestParamErrors(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Params)
		want []string // substrings of the error
	}{
		{"negative weight", func(p *Params) { p.WeightQOS = -1 }, []string{`"priority_weight_qos"`, "-1"}},
		{"weight over 32 bits", func(p *Params) { p.WeightAge = 1 << 32 }, []string{`"priority_weight_age"`, "4294967296"}},
		{"max age 0", func(p *Params) { p.MaxAge = 0 }, []string{`"priority_max_age"`}},
		{"calc period 0", func(p *Params) { p.CalcPeriod = 0 }, []string{`"priority_calc_period"`}},
		{"negative half-life", func(p *Params) { p.DecayHalfLife = -5 }, []string{`"priority_decay_half_life"`, "-5"}},
		{"unknown fairshare", func(p *Params) { p.Fairshare = "fair-tree" }, []string{`"priority_fairshare"`, `"fair-tree"`}},
		{"shares not a number", func(p *Params) { p.Shares = "1:4, 2:x" }, []string{`"fairshare_shares"`, `"2:x"`}},
		{"shares no colon", func(p *Params) { p.Shares = "1:4,2" }, []string{`"fairshare_shares"`, `"2"`}},
		{"shares bad account", func(p *Params) { p.Shares = "ops:4" }, []string{`"fairshare_shares"`, `"ops"`}},
		{"shares bad user", func(p *Params) { p.Shares = "1/bob:4" }, []string{`"fairshare_shares"`, `"bob"`}},
		{"shares twice", func(p *Params) { p.Shares = "1/2:4,1/2:5" }, []string{`"fairshare_shares"`, `"1/2:5"`, "twice"}},
		{"shares negative", func(p *Params) { p.Shares = "1:-4" }, []string{`"fairshare_shares"`, `"-4"`}},
		{"partition no name", func(p *Params) { p.PartitionFactor = ":3" }, []string{`"partition_job_factor"`, `":3"`}},
		{"partition too large", func(p *Params) { p.PartitionFactor = "a:70000" }, []string{`"partition_job_factor"`, `"70000"`}},
		{"partition twice", func(p *Params) { p.PartitionFactor = "a:1,a:2" }, []string{`"partition_job_factor"`, `"a:2"`}},
		{"qos not a queue", func(p *Params) { p.QOSPriority = "high:10" }, []string{`"qos_priority"`, `"high"`}},
		{"qos negative", func(p *Params) { p.QOSPriority = "1:-10" }, []string{`"qos_priority"`, `"-10"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			tc.set(&p)
			_, err := New(p, Machine{Procs: 8})
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q; want it to contain %s", err, w)
				}
			}
		})
	}
	// The policy checks its parameters with the zero Machine.
	p := Defaults()
	p.WeightJobSize = 1
	if _, err := New(p, Machine{}); err != nil {
		t.Errorf("defaults and a job size weight, zero machine: got %v", err)
	}
}
