package nodeoracle

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func machine(n int, nd Node) []Node {
	nodes := make([]Node, n)
	for i := range nodes {
		nodes[i] = nd
	}
	return nodes
}

// on is a job of nodes × perNode cores submitted at submit, running run
// seconds with an exact estimate.
func on(submit, run, nodes, perNode int64) Job {
	return Job{Submit: submit, Run: run, Estimate: run, Nodes: nodes, PerNode: perNode}
}

func tasks(submit, run, n int64) Job {
	return Job{Submit: submit, Run: run, Estimate: run, Tasks: n}
}

func excl(j Job) Job { j.Exclusive = true; return j }

func mem(j Job, m int64) Job { j.MemPerNode = m; return j }

func gpus(j Job, g int64) Job { j.GPUsPerNode = g; return j }

func ran(start, end int64, nodes []int, cores []int64) Outcome {
	return Outcome{Start: start, End: end, Nodes: nodes, Cores: cores}
}

var rejected = Outcome{Rejected: true}

// Every case is worked out by hand; the comments give the reasoning.
func TestHandWorked(t *testing.T) {
	tests := []struct {
		name   string
		nodes  []Node
		jobs   []Job
		policy Policy
		want   []Outcome
	}{{
		// Jobs 0 and 1 leave one core on each node. Job 2 needs two on
		// one node: two cores are free in aggregate, but it waits for
		// job 0's node at 10. Strict FCFS holds job 3 behind it, though
		// job 3's two tasks could take the two scattered cores.
		name: "fits in aggregate but on no node, FCFS", nodes: machine(2, Node{Cores: 4}), policy: FCFS,
		jobs: []Job{on(0, 10, 1, 3), on(0, 20, 1, 3), on(1, 5, 1, 2), tasks(2, 5, 2)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{3}), ran(0, 20, []int{1}, []int64{3}),
			ran(10, 15, []int{0}, []int64{2}), ran(10, 15, []int{0}, []int64{2}),
		},
	}, {
		// The same under EASY: job 2's shadow time is 10 (node 0 frees);
		// job 3 ends at 7 ≤ 10, so it backfills at 2 on one core of each
		// node.
		name: "fits in aggregate but on no node, EASY", nodes: machine(2, Node{Cores: 4}), policy: EASY,
		jobs: []Job{on(0, 10, 1, 3), on(0, 20, 1, 3), on(1, 5, 1, 2), tasks(2, 5, 2)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{3}), ran(0, 20, []int{1}, []int64{3}),
			ran(10, 15, []int{0}, []int64{2}), ran(2, 7, []int{0, 1}, []int64{1, 1}),
		},
	}, {
		// Job 1 is exclusive: node 0 is busy, so it takes idle node 1 and
		// holds it whole. Job 2 goes to node 0, not to node 1's three
		// free cores. Job 3 wants two idle nodes: node 1 is idle at 6,
		// node 0 only at 12. Job 4 waits behind it and then finds both
		// nodes held, so it starts when job 3 ends.
		name: "exclusive nodes", nodes: machine(2, Node{Cores: 4}), policy: FCFS,
		jobs: []Job{on(0, 10, 1, 1), excl(on(1, 5, 1, 1)), on(2, 10, 1, 1), excl(on(3, 4, 2, 1)), on(4, 1, 1, 1)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{1}), ran(1, 6, []int{1}, []int64{1}), ran(2, 12, []int{0}, []int64{1}),
			ran(12, 16, []int{0, 1}, []int64{1, 1}), ran(16, 17, []int{0}, []int64{1}),
		},
	}, {
		// An exclusive tasks job takes up to every core of idle nodes.
		name: "exclusive tasks", nodes: machine(3, Node{Cores: 4}), policy: FCFS,
		jobs: []Job{on(0, 10, 1, 1), excl(tasks(1, 5, 6))},
		want: []Outcome{ran(0, 10, []int{0}, []int64{1}), ran(1, 6, []int{1, 2}, []int64{4, 2})},
	}, {
		// Memory binds, not cores: after jobs 0 and 1 each node has 20 of
		// 100 free, so job 2 (30) waits for job 0 to end at 10.
		name: "memory per node binds", nodes: machine(2, Node{Cores: 8, Mem: 100}), policy: FCFS,
		jobs: []Job{mem(on(0, 10, 1, 1), 80), mem(on(0, 20, 1, 1), 80), mem(on(1, 5, 1, 1), 30)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{1}), ran(0, 20, []int{1}, []int64{1}), ran(10, 15, []int{0}, []int64{1}),
		},
	}, {
		// GPUs bind the same way: node 1 keeps one of two GPUs free, job 2
		// needs two and waits for node 0.
		name: "GPUs per node bind", nodes: machine(2, Node{Cores: 4, GPUs: 2}), policy: FCFS,
		jobs: []Job{gpus(on(0, 10, 1, 1), 2), gpus(on(0, 20, 1, 1), 1), gpus(on(1, 5, 1, 1), 2)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{1}), ran(0, 20, []int{1}, []int64{1}), ran(10, 15, []int{0}, []int64{1}),
		},
	}, {
		// Node 0 is full (jobs A, B), node 1 has one core free (C). The
		// head H needs 3 cores on one node. In aggregate 3 cores are free
		// at 50 when A ends, but they are 2 on node 0 and 1 on node 1: H
		// fits only at 80, when C frees node 1. So D (ends 70 ≤ 80)
		// backfills at 2 on node 1; a pool's shadow time of 50 would have
		// refused it. At 50 E fits on node 0 and, though it runs past 80,
		// leaves node 1 for H at 80, so it backfills too.
		name: "EASY shadow time depends on which nodes free up", nodes: machine(2, Node{Cores: 4}), policy: EASY,
		jobs: []Job{on(0, 50, 1, 2), on(0, 100, 1, 2), on(0, 80, 1, 3), on(1, 10, 1, 3), on(2, 68, 1, 1), on(3, 200, 1, 1)},
		want: []Outcome{
			ran(0, 50, []int{0}, []int64{2}), ran(0, 100, []int{0}, []int64{2}), ran(0, 80, []int{1}, []int64{3}),
			ran(80, 90, []int{1}, []int64{3}), ran(2, 70, []int{1}, []int64{1}), ran(50, 250, []int{0}, []int64{1}),
		},
	}, {
		// The same jobs under FCFS: D and E wait behind H; at 80 H takes
		// node 1, and D and E, first fit, node 0's two free cores.
		name: "the same under FCFS", nodes: machine(2, Node{Cores: 4}), policy: FCFS,
		jobs: []Job{on(0, 50, 1, 2), on(0, 100, 1, 2), on(0, 80, 1, 3), on(1, 10, 1, 3), on(2, 68, 1, 1), on(3, 200, 1, 1)},
		want: []Outcome{
			ran(0, 50, []int{0}, []int64{2}), ran(0, 100, []int{0}, []int64{2}), ran(0, 80, []int{1}, []int64{3}),
			ran(80, 90, []int{1}, []int64{3}), ran(80, 148, []int{0}, []int64{1}), ran(80, 280, []int{0}, []int64{1}),
		},
	}, {
		// A backfill candidate that would take the head's only node at its
		// shadow time is refused. Node 0 runs A (2 cores to 10); node 1
		// runs B (4 cores to 100). H needs 4 on a node: shadow 10, on node
		// 0. D fits now on node 0 but ends at 30 > 10 and would leave node
		// 0 short at 10, so it waits; H fills node 0 from 10 to 15, and D
		// starts there when H ends.
		name: "EASY refuses a backfill that takes the head's node", nodes: machine(2, Node{Cores: 4}), policy: EASY,
		jobs: []Job{on(0, 10, 1, 2), on(0, 100, 1, 4), on(1, 5, 1, 4), on(2, 28, 1, 1)},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{2}), ran(0, 100, []int{1}, []int64{4}),
			ran(10, 15, []int{0}, []int64{4}), ran(15, 43, []int{0}, []int64{1}),
		},
	}, {
		// Jobs no node can ever hold are rejected at arrival; nine tasks
		// exceed the machine, eight fit across both nodes.
		name: "rejections", nodes: machine(2, Node{Cores: 4, Mem: 10}), policy: FCFS,
		jobs: []Job{on(0, 1, 1, 5), on(0, 1, 3, 1), tasks(0, 1, 9), mem(on(0, 1, 1, 1), 11), tasks(0, 1, 8)},
		want: []Outcome{rejected, rejected, rejected, rejected, ran(0, 1, []int{0, 1}, []int64{4, 4})},
	}, {
		// Node groups: node 0 is "a", node 1 "b". Job 1 may use only "b",
		// job 2 anything but "b": it waits for node 0 though node 1 has
		// room.
		name: "node groups", nodes: []Node{{Cores: 4, Group: "a"}, {Cores: 4, Group: "b"}}, policy: FCFS,
		jobs: []Job{on(0, 10, 1, 3), {Submit: 0, Run: 5, Estimate: 5, Nodes: 1, PerNode: 1, Groups: []string{"b"}},
			{Submit: 1, Run: 5, Estimate: 5, Nodes: 1, PerNode: 2, NotGroups: []string{"b"}}, {Submit: 1, Run: 1, Estimate: 1, Tasks: 2, Groups: []string{"c"}}},
		want: []Outcome{
			ran(0, 10, []int{0}, []int64{3}), ran(0, 5, []int{1}, []int64{1}), ran(10, 15, []int{0}, []int64{2}), rejected,
		},
	}, {
		// A job running past its estimate is killed at the estimate.
		name: "killed at the estimate", nodes: machine(1, Node{Cores: 1}), policy: FCFS,
		jobs: []Job{{Submit: 0, Run: 20, Estimate: 10, Tasks: 1}, tasks(0, 5, 1)},
		want: []Outcome{ran(0, 10, []int{0}, []int64{1}), ran(10, 15, []int{0}, []int64{1})},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Simulate(tc.nodes, tc.jobs, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
			if err := verify(tc.nodes, tc.jobs, got); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSimulateErrors(t *testing.T) {
	nodes := machine(1, Node{Cores: 4})
	for _, j := range []Job{
		{Submit: -1, Run: 1, Estimate: 1, Tasks: 1}, {Run: 0, Estimate: 1, Tasks: 1}, {Run: 1, Estimate: 0, Tasks: 1},
		{Run: 1, Estimate: 1}, {Run: 1, Estimate: 1, Nodes: 1}, {Run: 1, Estimate: 1, Nodes: -1, PerNode: 1},
		{Run: 1, Estimate: 1, Tasks: 1, MemPerNode: -1}, {Run: 1, Estimate: 1, Tasks: 1, GPUsPerNode: -1},
	} {
		if _, err := Simulate(nodes, []Job{j}, FCFS); err == nil {
			t.Errorf("Simulate(%+v): want an error", j)
		}
	}
}

// TestRandom runs both policies on seeded random workloads and checks
// every outcome with verify, and FCFS's order.
func TestRandom(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 15))
		nodes := make([]Node, 1+r.IntN(4))
		for i := range nodes {
			nodes[i] = Node{Cores: 1 + r.Int64N(8), Mem: r.Int64N(100), GPUs: r.Int64N(3), Group: string(rune('a' + r.IntN(2)))}
		}
		jobs := make([]Job, 25)
		var at int64
		for i := range jobs {
			at += r.Int64N(20)
			jobs[i] = randomJob(r, at)
		}
		for _, p := range []Policy{FCFS, EASY} {
			got, err := Simulate(nodes, jobs, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := verify(nodes, jobs, got); err != nil {
				t.Fatalf("seed %d, policy %d: %v", seed, p, err)
			}
			if p == FCFS {
				if err := fcfsOrder(jobs, got); err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
			}
		}
	}
}

func randomJob(r *rand.Rand, at int64) Job {
	j := Job{Submit: at, Run: 1 + r.Int64N(60)}
	j.Estimate = j.Run + r.Int64N(30)
	if r.IntN(4) == 0 {
		j.Estimate = 1 + r.Int64N(j.Run) // killed at its estimate
	}
	if r.IntN(2) == 0 {
		j.Tasks = 1 + r.Int64N(12)
	} else {
		j.Nodes, j.PerNode = 1+r.Int64N(3), 1+r.Int64N(6)
	}
	j.Exclusive = r.IntN(6) == 0
	if r.IntN(3) == 0 {
		j.MemPerNode = r.Int64N(60)
	}
	if r.IntN(4) == 0 {
		j.GPUsPerNode = r.Int64N(2)
	}
	switch r.IntN(6) {
	case 0:
		j.Groups = []string{"a"}
	case 1:
		j.NotGroups = []string{"a"}
	}
	return j
}

// verify checks outcomes without the oracle's code: times, shapes, and at
// every start instant, per node, cores, memory, GPUs and exclusivity; and
// that a job is rejected exactly when it cannot fit on the empty machine.
func verify(nodes []Node, jobs []Job, out []Outcome) error {
	for i, o := range out {
		if err := verifyJob(nodes, jobs[i], o); err != nil {
			return fmt.Errorf("job %d: %w", i, err)
		}
	}
	for i, o := range out {
		if o.Rejected {
			continue
		}
		if err := verifyInstant(nodes, jobs, out, o.Start); err != nil {
			return fmt.Errorf("at %d (start of job %d): %w", o.Start, i, err)
		}
	}
	return nil
}

func verifyJob(nodes []Node, j Job, o Outcome) error {
	if o.Rejected != !fitsEmpty(nodes, j) {
		return fmt.Errorf("rejected %v; but fits on the empty machine: %v", o.Rejected, fitsEmpty(nodes, j))
	}
	if o.Rejected {
		return nil
	}
	if o.Start < j.Submit || o.End != o.Start+min(j.Run, j.Estimate) {
		return fmt.Errorf("runs [%d, %d); submitted %d, run %d, estimate %d", o.Start, o.End, j.Submit, j.Run, j.Estimate)
	}
	var total int64
	for k, c := range o.Cores {
		total += c
		if !inGroups(nodes[o.Nodes[k]].Group, j) {
			return fmt.Errorf("runs on node %d of group %q; allowed %q, refused %q", o.Nodes[k], nodes[o.Nodes[k]].Group, j.Groups, j.NotGroups)
		}
		if j.Nodes > 0 && c != j.PerNode {
			return fmt.Errorf("%d cores on node %d; want %d", c, o.Nodes[k], j.PerNode)
		}
		if k > 0 && o.Nodes[k] <= o.Nodes[k-1] {
			return fmt.Errorf("nodes %v not ascending", o.Nodes)
		}
	}
	if want := max(j.Tasks, j.Nodes*j.PerNode); total != want {
		return fmt.Errorf("%d cores in all; want %d", total, want)
	}
	return nil
}

// fitsEmpty counts, independently of place, whether j fits on the empty
// machine.
func fitsEmpty(nodes []Node, j Job) bool {
	var count, cores int64
	for _, n := range nodes {
		if n.Mem < j.MemPerNode || n.GPUs < j.GPUsPerNode || !inGroups(n.Group, j) {
			continue
		}
		cores += n.Cores
		if n.Cores >= j.PerNode {
			count++
		}
	}
	if j.Nodes > 0 {
		return count >= j.Nodes
	}
	return cores >= j.Tasks
}

// inGroups is allowed, written again for the test.
func inGroups(g string, j Job) bool {
	for _, x := range j.NotGroups {
		if x == g {
			return false
		}
	}
	if len(j.Groups) == 0 {
		return true
	}
	for _, x := range j.Groups {
		if x == g {
			return true
		}
	}
	return false
}

func verifyInstant(nodes []Node, jobs []Job, out []Outcome, at int64) error {
	cores := make([]int64, len(nodes))
	mem := make([]int64, len(nodes))
	gpus := make([]int64, len(nodes))
	count := make([]int, len(nodes))
	held := make([]bool, len(nodes))
	for i, o := range out {
		if o.Rejected || at < o.Start || at >= o.End {
			continue
		}
		for k, n := range o.Nodes {
			cores[n] += o.Cores[k]
			mem[n] += jobs[i].MemPerNode
			gpus[n] += jobs[i].GPUsPerNode
			count[n]++
			held[n] = held[n] || jobs[i].Exclusive
		}
	}
	for n, nd := range nodes {
		if cores[n] > nd.Cores || mem[n] > nd.Mem || gpus[n] > nd.GPUs {
			return fmt.Errorf("node %d holds %d cores, %d memory, %d GPUs of %+v", n, cores[n], mem[n], gpus[n], nd)
		}
		if held[n] && count[n] > 1 {
			return fmt.Errorf("node %d is held by an exclusive job but runs %d jobs", n, count[n])
		}
	}
	return nil
}

// fcfsOrder checks that FCFS starts jobs in arrival order.
func fcfsOrder(jobs []Job, out []Outcome) error {
	last, lastSubmit := int64(-1), int64(-1)
	for i, o := range out {
		if o.Rejected {
			continue
		}
		if jobs[i].Submit < lastSubmit {
			return fmt.Errorf("test workload not in submit order")
		}
		if o.Start < last {
			return fmt.Errorf("job %d starts at %d, before an earlier job's start %d", i, o.Start, last)
		}
		last, lastSubmit = o.Start, jobs[i].Submit
	}
	return nil
}
