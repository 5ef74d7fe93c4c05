package nodeoracle

import (
	"cmp"
	"fmt"
	"slices"
)

// Node is one node's capacity and the name of its node group.
type Node struct {
	Cores, Mem, GPUs int64
	Group            string
}

// Job is one job: its times in seconds and its shape.
type Job struct {
	Submit, Run, Estimate int64

	Tasks          int64 // cores anywhere, when Nodes is 0
	Nodes, PerNode int64 // node count and cores on each, when Nodes > 0
	Exclusive      bool
	MemPerNode     int64
	GPUsPerNode    int64
	Groups         []string // node groups the job may use; empty: any
	NotGroups      []string // node groups it may not use
	MaxNodes       int64    // the most nodes it may use (its partition's limit); 0: no limit
}

// Outcome is what became of the job of the same index.
type Outcome struct {
	Rejected   bool
	Start, End int64
	Nodes      []int   // the nodes used, ascending
	Cores      []int64 // cores used on each of Nodes
}

// Policy selects FCFS or EASY.
type Policy int

const (
	// FCFS starts jobs in arrival order and nothing past the first that
	// does not fit.
	FCFS Policy = iota
	// EASY is FCFS plus backfilling that keeps the first waiting job's
	// shadow time feasible (see the package comment).
	EASY
)

// use is one node's share of a placement.
type use struct {
	node  int
	cores int64
}

// running is a started job, for rebuilding the machine state.
type running struct {
	estEnd    int64 // start + estimate
	end       int64 // start + min(run, estimate)
	placed    []use
	exclusive bool
	mem, gpus int64 // per node used
}

// runningOf is job j started at now on placed.
func runningOf(j Job, placed []use, now int64) running {
	return running{
		estEnd: now + j.Estimate, end: now + min(j.Run, j.Estimate), placed: placed,
		exclusive: j.Exclusive, mem: j.MemPerNode, gpus: j.GPUsPerNode,
	}
}

// state is the machine's free resources, rebuilt from scratch each time.
type state struct {
	cores, mem, gpus []int64
	jobs             []int  // jobs on each node
	held             []bool // held whole by an exclusive job
	group            []string
}

// Simulate runs policy over jobs on nodes and returns an outcome per job.
// It returns an error for a job without positive cores, nodes or run time,
// or with negative memory, GPUs or submit time.
func Simulate(nodes []Node, jobs []Job, policy Policy) ([]Outcome, error) {
	for i, j := range jobs {
		if err := check(j); err != nil {
			return nil, fmt.Errorf("job %d: %w", i, err)
		}
	}
	out := make([]Outcome, len(jobs))
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })
	var run []running
	var waiting []int
	next := 0
	for next < len(order) || len(waiting) > 0 || len(run) > 0 {
		now := nextTime(jobs, order[next:], run)
		run = finish(run, now)
		for ; next < len(order) && jobs[order[next]].Submit == now; next++ {
			i := order[next]
			if _, ok := place(fresh(nodes), jobs[i]); !ok {
				out[i].Rejected = true
				continue
			}
			waiting = append(waiting, i)
		}
		waiting, run = pass(nodes, jobs, waiting, run, now, policy, out)
	}
	return out, nil
}

func check(j Job) error {
	switch {
	case j.Submit < 0 || j.Run < 1 || j.Estimate < 1:
		return fmt.Errorf("submit %d, run %d, estimate %d: want submit ≥ 0 and run, estimate ≥ 1", j.Submit, j.Run, j.Estimate)
	case j.Nodes < 0 || j.Nodes == 0 && j.Tasks < 1 || j.Nodes > 0 && j.PerNode < 1:
		return fmt.Errorf("shape tasks %d, nodes %d × %d cores: want tasks ≥ 1 or nodes, cores ≥ 1", j.Tasks, j.Nodes, j.PerNode)
	case j.MemPerNode < 0 || j.GPUsPerNode < 0 || j.MaxNodes < 0:
		return fmt.Errorf("memory %d, GPUs %d per node, at most %d nodes: want ≥ 0", j.MemPerNode, j.GPUsPerNode, j.MaxNodes)
	}
	return nil
}

// nextTime is the earliest pending arrival or completion.
func nextTime(jobs []Job, pending []int, run []running) int64 {
	t := int64(-1)
	if len(pending) > 0 {
		t = jobs[pending[0]].Submit
	}
	for _, r := range run {
		if t < 0 || r.end < t {
			t = r.end
		}
	}
	return t
}

// finish drops the jobs that end at or before now.
func finish(run []running, now int64) []running {
	return slices.DeleteFunc(run, func(r running) bool { return r.end <= now })
}

// pass is one scheduling pass at now.
func pass(nodes []Node, jobs []Job, waiting []int, run []running, now int64, policy Policy, out []Outcome) ([]int, []running) {
	for len(waiting) > 0 {
		i := waiting[0]
		placed, ok := place(build(nodes, run, -1), jobs[i])
		if !ok {
			break
		}
		run = start(run, jobs, i, placed, now, out)
		waiting = waiting[1:]
	}
	if policy != EASY || len(waiting) < 2 {
		return waiting, run
	}
	head := jobs[waiting[0]]
	shadow := shadowTime(nodes, run, head)
	kept := []int{waiting[0]}
	for _, i := range waiting[1:] {
		placed, ok := place(build(nodes, run, -1), jobs[i])
		if ok && backfills(nodes, run, head, shadow, jobs[i], placed, now) {
			run = start(run, jobs, i, placed, now, out)
			continue
		}
		kept = append(kept, i)
	}
	return kept, run
}

// backfills reports whether job, placed now, leaves the head's start at
// shadow feasible.
func backfills(nodes []Node, run []running, head Job, shadow int64, job Job, placed []use, now int64) bool {
	if now+job.Estimate <= shadow {
		return true
	}
	with := append(slices.Clone(run), runningOf(job, placed, now))
	_, ok := place(build(nodes, with, shadow), head)
	return ok
}

// shadowTime is the earliest estimated completion time at which head fits
// on the machine the jobs still running then leave.
func shadowTime(nodes []Node, run []running, head Job) int64 {
	times := make([]int64, 0, len(run))
	for _, r := range run {
		times = append(times, r.estEnd)
	}
	slices.Sort(times)
	for _, t := range slices.Compact(times) {
		if _, ok := place(build(nodes, run, t), head); ok {
			return t
		}
	}
	// Unreachable: head fits on the empty machine, which the last
	// estimated completion leaves.
	panic("nodeoracle: head fits at no completion time")
}

func start(run []running, jobs []Job, i int, placed []use, now int64, out []Outcome) []running {
	r := runningOf(jobs[i], placed, now)
	run = append(run, r)
	o := &out[i]
	o.Start, o.End = now, r.end
	for _, u := range placed {
		o.Nodes = append(o.Nodes, u.node)
		o.Cores = append(o.Cores, u.cores)
	}
	return run
}

func fresh(nodes []Node) *state {
	s := &state{
		cores: make([]int64, len(nodes)), mem: make([]int64, len(nodes)), gpus: make([]int64, len(nodes)),
		jobs: make([]int, len(nodes)), held: make([]bool, len(nodes)), group: make([]string, len(nodes)),
	}
	for n, nd := range nodes {
		s.cores[n], s.mem[n], s.gpus[n], s.group[n] = nd.Cores, nd.Mem, nd.GPUs, nd.Group
	}
	return s
}

// build is the state left by the running jobs; when at ≥ 0, only by those
// whose estimated end is after at.
func build(nodes []Node, run []running, at int64) *state {
	s := fresh(nodes)
	for _, r := range run {
		if at >= 0 && r.estEnd <= at {
			continue
		}
		for _, u := range r.placed {
			s.cores[u.node] -= u.cores
			s.mem[u.node] -= r.mem
			s.gpus[u.node] -= r.gpus
			s.jobs[u.node]++
			s.held[u.node] = s.held[u.node] || r.exclusive
		}
	}
	return s
}

// usable reports whether j may use node n of s at all.
func usable(s *state, n int, j Job) bool {
	if s.held[n] || j.Exclusive && s.jobs[n] > 0 || !allowed(s.group[n], j) {
		return false
	}
	return s.mem[n] >= j.MemPerNode && s.gpus[n] >= j.GPUsPerNode
}

// allowed reports whether j may run on a node of group g.
func allowed(g string, j Job) bool {
	return (len(j.Groups) == 0 || slices.Contains(j.Groups, g)) && !slices.Contains(j.NotGroups, g)
}

// place finds j's nodes on s by first fit in node order; a placement on
// more than j.MaxNodes nodes (when set) is no placement.
func place(s *state, j Job) ([]use, bool) {
	placed, ok := firstFit(s, j)
	if ok && j.MaxNodes > 0 && int64(len(placed)) > j.MaxNodes {
		return nil, false
	}
	return placed, ok
}

// firstFit finds j's nodes on s by first fit in node order, with no limit
// on their number.
func firstFit(s *state, j Job) ([]use, bool) {
	var placed []use
	if j.Nodes > 0 {
		for n := range s.cores {
			if usable(s, n, j) && s.cores[n] >= j.PerNode {
				placed = append(placed, use{n, j.PerNode})
				if int64(len(placed)) == j.Nodes {
					return placed, true
				}
			}
		}
		return nil, false
	}
	need := j.Tasks
	for n := range s.cores {
		if usable(s, n, j) && s.cores[n] > 0 {
			take := min(s.cores[n], need)
			placed = append(placed, use{n, take})
			need -= take
			if need == 0 {
				return placed, true
			}
		}
	}
	return nil, false
}
