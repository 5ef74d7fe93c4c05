package nodes

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/schedsweep/schedsweep/sim"
)

// Group is a set of identical nodes.
type Group struct {
	Name     string
	Count    int
	Cores    int64
	Memory   int64 // bytes per node
	GPUs     int64
	Features []string // what jobs may ask of its nodes; see rules.go
	// Hosts, when not nil, names the group's nodes in node order (one
	// name each, as a slurm.conf's NodeName lists them); nil names them
	// by the group's name and their number in it, from 1 (NodeName).
	Hosts []string
}

// Fit is a placement rule.
type Fit uint8

// The placement rules.
const (
	// FirstFit takes the first nodes in node order that hold the job.
	FirstFit Fit = iota
	// BestFit takes the nodes that leave the fewest free cores.
	BestFit
)

// Use is a run of a job's placement: Nodes consecutive nodes from Node,
// with Cores cores of the job on each. A placement is its runs in node
// order, each as long as it can be (a job of 64 tasks on eight idle nodes
// of 8 cores is one run).
type Use struct {
	Node  int32 // index in node order: the groups' nodes, group by group
	Nodes int32
	Cores int32
}

// Cluster is the node-level sim.Model. A Cluster serves one run.
type Cluster struct {
	fit    Fit
	groups []Group
	group  []int32 // each node's group
	st     state   // the nodes' free resources, with the open trial's takes
	tr     trial
	lk     look // tr looking ahead, View.Trial's answer

	capacity, free sim.Resources
	overrun        bool
	runs           runList  // the running jobs by (estimated end, seq) (cluster_running.go)
	ends           endQueue // the running jobs' true ends (cluster_run_ends.go)
	ended          []*sim.Outcome
	where          [][]Use // each job's placement, by Seq
	block          []Use   // where's placements are cut from it (keep)

	refused refusal // Refuse's last answer

	prof   *Profile // the reservations of a policy that keeps them (profile.go)
	record bool     // prof keeps its log for Verify
}

var (
	_ sim.Model  = (*Cluster)(nil)
	_ sim.Placer = (*Cluster)(nil)
)

// New returns an empty cluster of the given node groups, in order, placing
// jobs by fit. It fails on a group without nodes or cores, or with
// negative memory or GPUs.
func New(groups []Group, fit Fit) (*Cluster, error) {
	if fit > BestFit {
		return nil, fmt.Errorf("placement %d: want first fit (0) or best fit (1)", fit)
	}
	c := &Cluster{fit: fit, groups: append([]Group(nil), groups...)}
	var cores, mem, gpus []int64
	for i, g := range groups {
		if g.Count < 1 || g.Cores < 1 || g.Cores > 1<<31-1 || g.Memory < 0 || g.GPUs < 0 {
			return nil, fmt.Errorf("node group %d (%q): count %d, cores %d, memory %d, gpus %d: want count and cores ≥ 1 (cores < 2³¹), memory and gpus ≥ 0",
				i, g.Name, g.Count, g.Cores, g.Memory, g.GPUs)
		}
		if g.Hosts != nil && len(g.Hosts) != g.Count {
			return nil, fmt.Errorf("node group %d (%q): %d host names for %d nodes", i, g.Name, len(g.Hosts), g.Count)
		}
		for range g.Count {
			c.group = append(c.group, int32(i))
			cores, mem, gpus = append(cores, g.Cores), append(mem, g.Memory), append(gpus, g.GPUs)
		}
		c.capacity = c.capacity.Add(sim.Resources{sim.Procs: int64(g.Count) * g.Cores,
			sim.Memory: int64(g.Count) * g.Memory, sim.GPUs: int64(g.Count) * g.GPUs})
	}
	if len(c.group) == 0 {
		return nil, fmt.Errorf("cluster has no nodes")
	}
	c.free = c.capacity
	c.st = newState(cores, mem, gpus)
	c.st.grp = c.group
	c.st.rs = baseRules(c.groups) // rules.go
	c.tr.c = c
	c.lk = look{c: c, t: &c.tr}
	c.lk.ms.newGen() // generation 0 means no answer (memo.go)
	return c, nil
}

// Nodes returns the number of nodes.
func (c *Cluster) Nodes() int { return len(c.group) }

// NodeName returns node n's name: its group's Hosts entry if the group
// has them, else its group's name and its number in the group, from 1
// (zewura3).
func (c *Cluster) NodeName(n int) string {
	g := c.group[n]
	first := sort.Search(len(c.group), func(i int) bool { return c.group[i] >= g })
	if hosts := c.groups[g].Hosts; hosts != nil {
		return hosts[n-first]
	}
	return fmt.Sprintf("%s%d", c.groups[g].Name, n-first+1)
}

// Where returns the placement of the job of sequence number seq, nil if it
// never started. It stays valid after the run.
func (c *Cluster) Where(seq int) []Use {
	if seq < 0 || seq >= len(c.where) {
		return nil
	}
	return c.where[seq]
}

// Capacity returns the cluster's total resources.
func (c *Cluster) Capacity() sim.Resources { return c.capacity }

// Free returns the capacity less the Need of every running job.
func (c *Cluster) Free() sim.Resources { return c.free }

// View returns a View, through which a backfilling policy gets the
// cluster's node profile (ProfileOf).
func (c *Cluster) View() any { return View{c} }

// Open takes the run's overrun rule.
func (c *Cluster) Open(_ sim.View, opt sim.Options) error {
	c.overrun = opt.AllowOverrun
	return nil
}

// Admit does nothing: the cluster keeps nothing of waiting jobs.
func (c *Cluster) Admit(*sim.Outcome) {}

// Refuse returns why o's job can never run on the cluster, or NoReason.
// The answer depends on the request alone (the job's shape and needs),
// and on the estimate for a job with a rule (a partition's time limit),
// so the last one stands for a job that asks the same: a trace's jobs
// often come in runs of one shape, and comparing the shape and needs
// costs less than working out the request.
func (c *Cluster) Refuse(o *sim.Outcome) sim.Reason {
	if p := &c.refused; p.set && o.Shape == p.shape && o.Need == p.need && (p.est == o.Estimate || p.plain) {
		return p.why
	}
	r := reqOf(&o.Job)
	why := sim.NegativeRequest
	if !(r.nodes > 0 && r.nodes*r.per != o.Need[sim.Procs] || r.mem < 0 || r.gpus < 0 || r.per < 0) {
		why = c.refuse(r, o.Estimate) // rules.go
	}
	c.refused = refusal{set: true, shape: o.Shape, need: o.Need, est: o.Estimate, plain: c.st.rs.plain(r.where), why: why}
	return why
}

// refusal is Refuse's last answer, for a job of the shape and needs, and
// the estimate when the job's nodes have rules (not plain).
type refusal struct {
	set   bool
	shape sim.Shape
	need  sim.Resources
	est   sim.Time
	plain bool
	why   sim.Reason
}

// Trial starts a trial on the cluster's nodes as they stand; it is a
// sim.Lookahead (ahead.go).
func (c *Cluster) Trial() sim.Trial {
	c.tr.rollback()
	c.lk.begin()
	return &c.lk
}

// Apply places and starts o's job; the cluster knows no other move. It
// chooses the placement itself unless the action carries one (Place, a
// []Use), which it checks against the nodes' free resources and the job's
// shape.
func (c *Cluster) Apply(now sim.Time, o *sim.Outcome, a sim.Action) error {
	switch {
	case a.Move != sim.Start:
		c.tr.rollback()
		return fmt.Errorf("the node cluster cannot %v a job", a.Move)
	case a.Procs != nil || a.Tier != 0:
		c.tr.rollback()
		return fmt.Errorf("the node cluster takes no placement from a policy")
	case o.Seq > math.MaxInt32: // runKey's seq
		c.tr.rollback()
		return fmt.Errorf("job %d: the node cluster runs at most 2³¹ jobs", o.Seq)
	}
	var (
		uses      []Use
		ok        bool
		committed bool // the trial's take, kept
	)
	if a.Place != nil { // a policy's own placement, checked in apply.go
		c.tr.rollback()
		var err error
		if uses, err = c.takePlaced(o, a.Place); err != nil {
			return err
		}
		ok = true
	} else {
		uses, ok = c.tr.commit(&o.Job)
		committed = ok
	}
	if !ok {
		c.tr.rollback()
		r := reqOf(&o.Job)
		if uses, ok = c.st.place(r, c.fit); !ok {
			return fmt.Errorf("%w: no placement on the nodes for %v", sim.ErrOvercommit, o.Need)
		}
		c.st.take(r, uses, nil)
	}
	if o.Seq >= len(c.where) { // slots never written are nil
		c.where = growBySeq(c.where, o.Seq)
	}
	c.where[o.Seq] = c.keep(uses)
	c.lk.started(committed)
	c.free = c.free.Sub(o.Need)
	run := o.Runtime
	o.State = sim.Finished
	if !c.overrun && run > o.Estimate {
		run, o.State = o.Estimate, sim.Killed
	}
	o.End = now + run
	c.ends.push(o.End, int32(o.Seq))
	c.startRun(o)
	return nil
}

// useBlock is how many runs keep's blocks hold.
const useBlock = 1024

// keep returns a copy of uses that stays valid after the run, cut from a
// block that many placements share, so a start costs no allocation of its
// own; nil if uses is empty.
func (c *Cluster) keep(uses []Use) []Use {
	if len(uses) == 0 {
		return nil
	}
	if cap(c.block)-len(c.block) < len(uses) {
		c.block = make([]Use, 0, max(useBlock, len(uses)))
	}
	i := len(c.block)
	c.block = appendUses(c.block, uses)
	return c.block[i:len(c.block):len(c.block)]
}

// Next returns the earliest completion.
func (c *Cluster) Next() (sim.Time, bool) {
	if c.ends.len() == 0 {
		return 0, false
	}
	return c.ends.first(), true
}

// Advance releases the jobs that end at now, in the order they started.
func (c *Cluster) Advance(now sim.Time) []*sim.Outcome {
	c.tr.rollback()
	c.ended = c.ended[:0]
	for c.ends.len() > 0 && c.ends.first() == now {
		o := c.runs.out[c.ends.pop()]
		c.free = c.free.Add(o.Need)
		c.st.release(reqOf(&o.Job), c.where[o.Seq])
		c.lk.released(o)
		if !c.endRun(o) {
			panic("nodes: running list lost a job") // broken internal invariant
		}
		c.ended = append(c.ended, o)
	}
	return c.ended
}

// growBySeq returns s, of a length of at most seq, grown to index seq
// (the callers ask only then: storing the slice back at every start cost
// more than the test). It at least doubles s, so that the copies over a run add up to about the table's
// final size (append's own growth, a quarter at these sizes, allocated,
// cleared and copied about five times as much: 9.7 MB a run on
// wagap-2013's nodes against 7.6 MB). Slots never written are zero.
func growBySeq[T any](s []T, seq int) []T {
	s = slices.Grow(s, max(seq+1, 2*len(s))-len(s))
	return s[:cap(s)]
}

// Movable reports false: the cluster moves no running job.
func (c *Cluster) Movable() bool { return false }

// CheckPromise accepts a promise for a job started in this very pass only.
func (c *Cluster) CheckPromise(o *sim.Outcome, running bool, now sim.Time) error {
	if running && o.Start == now {
		return nil
	}
	return fmt.Errorf("%w: job is not waiting", sim.ErrBadPromise)
}

// Close does nothing: every job the cluster starts ends.
func (c *Cluster) Close(*sim.Result) error { return nil }
