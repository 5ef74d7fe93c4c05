package nodes_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/sim/simtest"
)

// runEASY runs EASY on a new cluster of groups and on the pool of the
// same capacity; it returns each job's "start-end@nodes" on the cluster,
// the promises made there ("job@when→start") and each job's start on the
// pool, after checking both runs with simtest.Verify and the cluster's
// with Cluster.Verify.
func runEASY(t *testing.T, groups []nodes.Group, recs []sim.Record) (sched, promises []string, pool []sim.Time) {
	t.Helper()
	c, err := nodes.New(groups, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	rec := &simtest.Recorder{}
	res, err := sim.Run(c, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := simtest.Verify(res, rec, simtest.Checks{Jobs: len(recs), MaxOpen: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	for i, o := range res.Jobs {
		s := fmt.Sprintf("%d-%d@", o.Start, o.End)
		for _, u := range c.Where(i) {
			for n := u.Node; n < u.Node+u.Nodes; n++ {
				s += fmt.Sprintf("%s:%d,", c.NodeName(int(n)), u.Cores)
			}
		}
		sched = append(sched, s)
	}
	for _, e := range rec.Events {
		if e.Kind == simtest.Promise {
			promises = append(promises, fmt.Sprintf("%d@%d→%d", res.Jobs[e.Seq].ID, e.Time, e.At))
		}
	}
	pres, _ := simtest.Run(t, c.Capacity(), policies.NewEASY(policies.Arrival{}), recs, sim.Options{}, simtest.Checks{MaxOpen: 1})
	for _, o := range pres.Jobs {
		pool = append(pool, o.Start)
	}
	return sched, promises, pool
}

// TestEASYGoldens are EASY schedules on nodes worked out by hand, each
// beside what the pool of the same processors does.
func TestEASYGoldens(t *testing.T) {
	two4 := []nodes.Group{{Name: "n", Count: 2, Cores: 4}}
	tests := []struct {
		name     string
		recs     []sim.Record
		want     []string
		promises []string
		pool     []sim.Time
	}{{
		// Jobs 1 and 2 fill n1 (2 + 2 cores, ending at 10 and 20), job 3
		// takes 3 cores of n2 until 30. The head, job 4 (one node of 3),
		// sees 3 free cores at 10 in aggregate (the pool's shadow time),
		// but on the nodes n1 has 2 and n2 1 then: it fits only at 20,
		// when n1 is idle.
		name: "shadow time set by which node frees",
		recs: []sim.Record{shaped(1, 0, 10, 1, 2, false, 0), shaped(2, 0, 20, 1, 2, false, 0),
			shaped(3, 0, 30, 1, 3, false, 0), shaped(4, 1, 5, 1, 3, false, 0)},
		want:     []string{"0-10@n1:2,", "0-20@n1:2,", "0-30@n2:3,", "20-25@n1:3,"},
		promises: []string{"4@1→20"},
		pool:     []sim.Time{0, 0, 0, 10},
	}, {
		// A head of 3 tasks anywhere is blocked by an exclusive job of one
		// core, which holds n1 whole until 10: 5 cores are free in
		// aggregate (the pool starts the head at once), 2 usable on the
		// nodes. At 10 n1 is idle again and the head takes 3 of it.
		name:     "tasks head behind an exclusive job",
		recs:     []sim.Record{shaped(1, 0, 10, 1, 1, true, 0), shaped(2, 0, 20, 1, 2, false, 0), tasks(3, 1, 5, 3, false)},
		want:     []string{"0-10@n1:1,", "0-20@n2:2,", "10-15@n1:3,"},
		promises: []string{"3@1→10"},
		pool:     []sim.Time{0, 0, 1},
	}, {
		// n1 has 2 cores free until job 1 ends at 10, n2 1 until 30. The
		// head (job 3, one whole node of 4) reserves n1 at 10, in
		// aggregate too (5 free then, 1 to spare). Job 4 (one core for
		// 100 s) fits now, on n1 by first fit, and the pool admits it in
		// the spare core; on the nodes it would leave n1 three cores at
		// 10 and the head nowhere to go, so it is refused and starts at
		// 10 on n2, beside the head.
		name: "backfill refused on the nodes, admitted by the pool",
		recs: []sim.Record{shaped(1, 0, 10, 1, 2, false, 0), shaped(2, 0, 30, 1, 3, false, 0),
			shaped(3, 1, 5, 1, 4, false, 0), shaped(4, 2, 100, 1, 1, false, 0)},
		want:     []string{"0-10@n1:2,", "0-30@n2:3,", "10-15@n1:4,", "10-110@n2:1,"},
		promises: []string{"3@1→10"},
		pool:     []sim.Time{0, 0, 10, 2},
	}, {
		// The same, job 4 running 8 s: it ends at 10, by the shadow time,
		// so it backfills on n1 at 2 although the head needs n1 then.
		name: "backfill that ends by the shadow time",
		recs: []sim.Record{shaped(1, 0, 10, 1, 2, false, 0), shaped(2, 0, 30, 1, 3, false, 0),
			shaped(3, 1, 5, 1, 4, false, 0), shaped(4, 2, 8, 1, 1, false, 0)},
		want:     []string{"0-10@n1:2,", "0-30@n2:3,", "10-15@n1:4,", "2-10@n1:1,"},
		promises: []string{"3@1→10"},
		pool:     []sim.Time{0, 0, 10, 2},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, promises, pool := runEASY(t, two4, tc.recs)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("schedule (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.promises, promises); d != "" {
				t.Errorf("promises (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.pool, pool); d != "" {
				t.Errorf("starts on the pool (-want +got):\n%s", d)
			}
		})
	}
}

// TestLookaheadFreeCost checks, by hand, the node-level free resources
// and costs BB and IBB balance over: an exclusive job holds its node
// whole, memory and GPUs count once per node used.
func TestLookaheadFreeCost(t *testing.T) {
	c, err := nodes.New([]nodes.Group{{Name: "n", Count: 2, Cores: 4, Memory: 10, GPUs: 1}}, nodes.FirstFit)
	if err != nil {
		t.Fatal(err)
	}
	lk, ok := c.Trial().(sim.Lookahead)
	if !ok {
		t.Fatal("the cluster's trial is not a sim.Lookahead")
	}
	res := func(procs, mem, gpus int64) sim.Resources {
		return sim.Resources{sim.Procs: procs, sim.Memory: mem, sim.GPUs: gpus}
	}
	excl := shaped(1, 0, 10, 1, 1, true, 2) // one core, exclusive: n1 whole
	zero := simtest.J(2, 0, 10, 10, 2, simtest.Mem(3))
	gpu := shaped(3, 0, 10, 1, 1, false, 1)
	gpu.Shape.GPUsPerNode = 1
	steps := []struct {
		job        *sim.Job
		cost, left sim.Resources
	}{
		{&excl.Job, res(4, 10, 1), res(4, 10, 1)},
		{&zero.Job, res(2, 3, 0), res(2, 7, 1)}, // on n2: 2 cores, 3 bytes there
		{&gpu.Job, res(1, 1, 1), res(1, 6, 0)},
	}
	if got := lk.Free(); got != res(8, 20, 2) {
		t.Fatalf("Free() = %v on the idle cluster; want %v", got, res(8, 20, 2))
	}
	for i, s := range steps {
		if !lk.Fits(s.job) {
			t.Fatalf("step %d: job %d does not fit", i, s.job.ID)
		}
		if got := lk.Cost(s.job); got != s.cost {
			t.Errorf("step %d: Cost = %v; want %v", i, got, s.cost)
		}
		lk.Take(s.job)
		if got := lk.Free(); got != s.left {
			t.Errorf("step %d: Free() after Take = %v; want %v", i, got, s.left)
		}
	}
	if lk.Full() {
		t.Errorf("Full() with a core free on n2")
	}
}

// TestEASYPartitionTasks: a job of cores anywhere in a partition that
// holds one node group may not count the free cores of the others, as
// the head (job 2 waits for b1 although a1 is idle) or as a job that
// would backfill (job 3 in q may not take a1 either); job 4, in the
// default partition, backfills onto a1.
func TestEASYPartitionTasks(t *testing.T) {
	c, err := nodes.NewConfig(nodes.Config{
		Groups:     []nodes.Group{{Name: "a", Count: 1, Cores: 4}, {Name: "b", Count: 1, Cores: 4}},
		Partitions: []nodes.Partition{{Name: "p"}, {Name: "q", Groups: []string{"b"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	q := &sim.Where{Partition: "q"}
	inQ := func(r sim.Record) sim.Record { r.Shape.Where = q; return r }
	recs := []sim.Record{inQ(tasks(1, 0, 10, 4, false)), inQ(tasks(2, 1, 10, 2, false)),
		inQ(tasks(3, 2, 5, 1, false)), tasks(4, 3, 5, 2, false)}
	res, err := sim.Run(c, policies.NewEASY(policies.Arrival{}), sim.NewSliceSource(recs), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Verify(res); err != nil {
		t.Fatal(err)
	}
	var got []sim.Time
	for _, o := range res.Jobs {
		got = append(got, o.Start)
	}
	if d := cmp.Diff([]sim.Time{0, 10, 10, 3}, got); d != "" {
		t.Errorf("starts (-want +got):\n%s", d)
	}
}
