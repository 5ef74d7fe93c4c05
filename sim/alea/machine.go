package alea

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/internal/jobs"
)

// Group is one cluster of identical nodes, a line of Alea's ".machines"
// file (speed must be 1 there; see New).
type Group struct {
	Name   string
	Nodes  int
	CPUs   int64 // processors per node
	Memory int64 // bytes per node (the file's KB × 1024)
}

// Options are what New needs beyond the clusters.
type Options struct {
	// Props is each job's request string (Trace.Props), by job id: the
	// cluster names it asks for or refuses. A job missing from it asks for
	// no cluster in particular.
	Props map[sim.JobID]string
}

// Rejection is a job the machine refused at arrival, with why.
type Rejection struct {
	ID  sim.JobID
	Why string
}

// Machine is the sim.Model of Alea's node-level space sharing with RAM
// (see the package comment for its rules). A Machine serves one run.
type Machine struct {
	cl    []cluster // largest first
	cpu   []int64   // free processors per node, nodes cluster by cluster
	mem   []int64   // free memory per node
	props map[sim.JobID]string

	capacity, free sim.Resources
	suit           []uint64 // by Seq: the clusters a job may ever use, a bit each
	where          []place  // by Seq
	running        []sim.Allocation
	report         jobs.Queue[sim.Time, *sim.Outcome] // ends by second, for the loop
	release        jobs.Queue[sim.Time, *sim.Outcome] // ends by tick, for the nodes
	ended          []*sim.Outcome
	rejected       []Rejection
	tr             trial

	rt    []int64   // by Seq: the run time Alea plans with, min(run time, limit), in ticks
	at    []int64   // by Seq: when placed, in ticks (set by a take)
	procs []int64   // by Seq: processors asked
	rsv   int       // EASY's reserved cluster at its last pick
	pes   peBook    // EASY's view of processors, as Alea's ResourceInfo keeps it
	onCl  [][]int32 // by cluster: the Seqs of the jobs holding its nodes

	fresh  bool     // an event is due at the machine's clock: an arrival, a completion, a placement
	sec    sim.Time // the second the loop is at
	tau    int64    // the machine's own clock, in ticks, within sec
	starts int      // jobs placed so far
}

// Ticks is the machine's own clock rate: ticks per second. Alea's
// simulation clock is a float; every event on wagap-2013 falls on a
// multiple of SubmitDelay ticks.
const Ticks = 10000

// SubmitDelay is, in ticks, how long after Alea's scheduler picks a job
// the cluster places it (GridSim's message delay at Alea's default baud
// rate: 0.0008 s); the scheduler picks the next job only then.
const SubmitDelay = 8

// FirstSubmitDelay is, in ticks, the delay of the first job of a run,
// longer as GridSim sets up (0.2424 s in Alea's run of wagap-2013).
const FirstSubmitDelay = 2424

type cluster struct {
	Group
	first int   // its first node in cpu and mem
	free  int64 // free processors, all nodes
}

// place is where a job runs: a cluster and its nodes.
type place struct {
	cl    int32
	nodes []int32
	at    int64 // when placed, in ticks
}

// req is a job's request as Alea keeps it.
type req struct {
	nodes, ppn, mem int64
	excl            bool
}

var (
	_ sim.Model  = (*Machine)(nil)
	_ sim.Placer = (*Machine)(nil)
)

// New returns an empty machine of the given clusters, ordered as Alea's
// scheduler orders them: by total processors, largest first, the file's
// order on ties (the groups all run at speed 1). It fails on a cluster
// without nodes or processors, with negative memory, on a repeated name,
// and on more than 64 clusters.
func New(groups []Group, opt Options) (*Machine, error) {
	if len(groups) == 0 || len(groups) > 64 {
		return nil, fmt.Errorf("%d clusters: want 1 to 64", len(groups))
	}
	m := &Machine{props: opt.Props}
	m.tr.m = m
	seen := map[string]bool{}
	for i, g := range groups {
		if g.Nodes < 1 || g.CPUs < 1 || g.Memory < 0 || g.Name == "" {
			return nil, fmt.Errorf("cluster %d (%q): %d nodes, %d processors, %d bytes per node: want a name, nodes and processors ≥ 1, memory ≥ 0",
				i, g.Name, g.Nodes, g.CPUs, g.Memory)
		}
		if seen[g.Name] {
			return nil, fmt.Errorf("cluster %d: name %q repeats an earlier cluster's", i, g.Name)
		}
		seen[g.Name] = true
		m.cl = append(m.cl, cluster{Group: g})
	}
	sort.SliceStable(m.cl, func(i, j int) bool {
		return int64(m.cl[i].Nodes)*m.cl[i].CPUs > int64(m.cl[j].Nodes)*m.cl[j].CPUs
	})
	for i := range m.cl {
		c := &m.cl[i]
		c.first = len(m.cpu)
		c.free = int64(c.Nodes) * c.CPUs
		for range c.Nodes {
			m.cpu = append(m.cpu, c.CPUs)
			m.mem = append(m.mem, c.Memory)
		}
		m.capacity = m.capacity.Add(sim.Resources{sim.Procs: c.free, sim.Memory: int64(c.Nodes) * c.Memory})
	}
	m.free = m.capacity
	return m, nil
}

// Clusters returns the cluster names in the order jobs try them.
func (m *Machine) Clusters() []string {
	s := make([]string, len(m.cl))
	for i, c := range m.cl {
		s[i] = c.Name
	}
	return s
}

// Where returns the cluster and the nodes (numbered from 0 within the
// cluster) the job of sequence number seq ran on; ok is false if it never
// started.
func (m *Machine) Where(seq int) (clusterName string, nodes []int, ok bool) {
	if seq < 0 || seq >= len(m.where) || m.where[seq].nodes == nil {
		return "", nil, false
	}
	p := m.where[seq]
	c := &m.cl[p.cl]
	for _, n := range p.nodes {
		nodes = append(nodes, int(n)-c.first)
	}
	return c.Name, nodes, true
}

// Rejections returns the jobs refused at arrival, in arrival order.
func (m *Machine) Rejections() []Rejection { return m.rejected }

func reqOf(j *sim.Job) req {
	s := j.Shape
	if s.Nodes == 0 { // not read by Read: one node with everything
		return req{nodes: 1, ppn: j.Need[sim.Procs], mem: j.Need[sim.Memory], excl: s.Exclusive}
	}
	return req{nodes: int64(s.Nodes), ppn: int64(s.PerNode), mem: s.MemPerNode, excl: s.Exclusive}
}

// Capacity returns the machine's total processors and memory.
func (m *Machine) Capacity() sim.Resources { return m.capacity }

// Free returns the capacity less the Need of every running job.
func (m *Machine) Free() sim.Resources { return m.free }

// Running returns the running jobs by estimated end, then arrival.
func (m *Machine) Running() []sim.Allocation { return m.running }

// View returns the machine itself, for EASY; the List policies see it
// through View.Trial.
func (m *Machine) View() any { return m }

// Open ignores the run's options: Alea always cuts a job at its limit.
func (m *Machine) Open(sim.View, sim.Options) error { return nil }

// Admit notes the run time Alea's EASY plans the job with: its true run
// time, cut at its limit (Alea's configuration estimate=false).
func (m *Machine) Admit(o *sim.Outcome) {
	m.fresh = true // jobs arrive at the start of the second
	for len(m.rt) <= o.Seq {
		m.rt = append(m.rt, 0)
	}
	m.rt[o.Seq] = int64(max(min(o.Runtime, o.Estimate), 1)) * Ticks
	for len(m.procs) <= o.Seq {
		m.procs = append(m.procs, 0)
	}
	m.procs[o.Seq] = o.Need[sim.Procs]
	m.pes.admit(o)
}

// Refuse returns TooLarge for a job no cluster can ever hold (Alea's
// isGridletExecutable: the request's cluster names allow the cluster and
// it has enough nodes of ≥ ppn processors and ≥ the memory), and notes
// the clusters the job may use. The reason in words is in Rejections.
func (m *Machine) Refuse(o *sim.Outcome) sim.Reason {
	r := reqOf(&o.Job)
	props := m.props[o.ID]
	var mask uint64
	var why []string
	for i, c := range m.cl {
		switch {
		case !allows(props, c.Name):
			why = append(why, fmt.Sprintf("%s: refused by the request", c.Name))
		case c.CPUs < r.ppn || c.Memory < r.mem || int64(c.Nodes) < r.nodes:
			why = append(why, fmt.Sprintf("%s: %d nodes of %d processors and %d bytes, asked %d nodes of %d processors and %d bytes",
				c.Name, c.Nodes, c.CPUs, c.Memory, r.nodes, r.ppn, r.mem))
		default:
			mask |= 1 << i
		}
	}
	for len(m.suit) <= o.Seq {
		m.suit = append(m.suit, 0)
	}
	m.suit[o.Seq] = mask
	if mask == 0 {
		m.rejected = append(m.rejected, Rejection{ID: o.ID, Why: strings.Join(why, "; ")})
		return sim.TooLarge
	}
	return sim.NoReason
}

// allows applies Alea's cluster matching (ResourceInfo.canExecuteEver) to
// one cluster: each ':'-token of the request that names a refusal
// ("^cl_", "=false", "=False", "=0") and contains the cluster's name
// refuses it; each other token with "cl_" and no '^' that does not
// contain the first five letters of the name refuses it too.
func allows(props, name string) bool {
	short := name[:min(len(name), 5)]
	for _, t := range strings.Split(props, ":") {
		neg := strings.Contains(t, "^cl_") || strings.Contains(t, "=False") || strings.Contains(t, "=false") || strings.Contains(t, "=0")
		if neg && strings.Contains(t, name) {
			return false
		}
		if !(strings.Contains(t, "=0") && strings.Contains(t, "cl_")) && !strings.Contains(t, "=false") &&
			!strings.Contains(t, "=False") && !strings.Contains(t, "^") && strings.Contains(t, "cl_") && !strings.Contains(t, short) {
			return false
		}
	}
	return true
}

// canStart is Alea's ResourceInfo.canExecuteNow with RAM: cluster c has a
// free processor and the job's node count of nodes with ≥ ppn free
// processors and ≥ its memory free, counting only fully idle nodes when it
// asks "excl".
func (m *Machine) canStart(c int, r req) bool {
	cl := &m.cl[c]
	if cl.free < 1 {
		return false
	}
	left := r.nodes
	for n := cl.first; n < cl.first+cl.Nodes; n++ {
		if r.excl && m.cpu[n] < cl.CPUs {
			continue
		}
		if m.cpu[n] >= r.ppn && m.mem[n] >= r.mem {
			left--
		}
		if left <= 0 {
			return true
		}
	}
	return false
}

// choose returns the first cluster, in order, the job may use and can
// start on now, or -1 (multi_queue/FCFS.selectJob).
func (m *Machine) choose(j *sim.Job, r req) int {
	mask := uint64(0)
	if j.Seq < len(m.suit) {
		mask = m.suit[j.Seq]
	}
	for c := range m.cl {
		if mask&(1<<c) != 0 && m.canStart(c, r) {
			return c
		}
	}
	return -1
}

// allocate takes nodes for r on cluster c as AdvancedSpaceSharedWithRAM's
// allocatePEtoGridlet does: every node, in order, with ≥ ppn free
// processors and ≥ the memory free, until the count is met; "excl" plays
// no part. canStart must have accepted the job.
func (m *Machine) allocate(c int, r req) place {
	cl := &m.cl[c]
	p := place{cl: int32(c), nodes: make([]int32, 0, r.nodes)}
	for n := cl.first; n < cl.first+cl.Nodes && int64(len(p.nodes)) < r.nodes; n++ {
		if m.cpu[n] >= r.ppn && m.mem[n] >= r.mem {
			m.cpu[n] -= r.ppn
			m.mem[n] -= r.mem
			p.nodes = append(p.nodes, int32(n))
		}
	}
	cl.free -= r.ppn * int64(len(p.nodes))
	return p
}

// hold notes that the job of sequence number seq holds nodes of cluster c.
func (m *Machine) hold(c int, seq int) {
	for len(m.onCl) < len(m.cl) {
		m.onCl = append(m.onCl, nil)
	}
	m.onCl[c] = append(m.onCl[c], int32(seq))
}

// unhold forgets it.
func (m *Machine) unhold(c int, seq int) {
	l := m.onCl[c]
	for i, s := range l {
		if int(s) == seq {
			m.onCl[c] = append(l[:i], l[i+1:]...)
			return
		}
	}
	panic("alea: a job lost its cluster") // broken internal invariant
}

func (m *Machine) free1(r req, p place) {
	for _, n := range p.nodes {
		m.cpu[n] += r.ppn
		m.mem[n] += r.mem
	}
	m.cl[p.cl].free += r.ppn * int64(len(p.nodes))
}

// Trial starts a trial on the machine as it stands.
func (m *Machine) Trial() sim.Trial {
	m.tr.rollback()
	return &m.tr
}

// freeUpTo frees the nodes of the jobs that end by tick at, in the order
// they end, and moves the machine's clock there if it is behind.
func (m *Machine) freeUpTo(at int64) {
	for m.release.Len() > 0 && int64(m.release.Min().At) <= at {
		o := m.release.Pop().V
		m.free1(reqOf(&o.Job), m.where[o.Seq])
		m.unhold(int(m.where[o.Seq].cl), o.Seq)
	}
	m.tau = max(m.tau, at)
}

// Apply starts o's job on the cluster the trial chose, or, if the trial
// did not take it, on the first cluster that can take it now; the machine
// knows no other move and chooses the placement itself.
func (m *Machine) Apply(now sim.Time, o *sim.Outcome, a sim.Action) error {
	switch {
	case a.Move != sim.Start:
		m.tr.rollback()
		return fmt.Errorf("the alea machine cannot %v a job", a.Move)
	case a.Procs != nil || a.Tier != 0:
		m.tr.rollback()
		return fmt.Errorf("the alea machine takes no placement from a policy")
	}
	p, ok := m.tr.commit(&o.Job)
	if !ok {
		m.tr.rollback()
		if !m.tr.Fits(&o.Job) {
			r := reqOf(&o.Job)
			return fmt.Errorf("%w: no cluster can start %d nodes of %d processors and %d bytes now", sim.ErrOvercommit, r.nodes, r.ppn, r.mem)
		}
		m.tr.Take(&o.Job)
		p, _ = m.tr.commit(&o.Job)
	}
	for len(m.where) <= o.Seq {
		m.where = append(m.where, place{})
	}
	m.where[o.Seq] = p
	m.free = m.free.Sub(o.Need)
	run := o.Runtime
	o.State = sim.Finished
	if run > o.Estimate { // gridletSubmit cuts the job at its limit
		run, o.State = o.Estimate, sim.Killed
	}
	end := p.at + int64(max(run, 1)+1)*Ticks // allocatePEtoGridlet: (int)(time + 1)
	o.End = sim.Time(end / Ticks)
	m.report.Push(o.End, o)
	m.release.Push(sim.Time(end), o)
	al := sim.Allocation{Job: &o.Job, Start: now}
	i := sort.Search(len(m.running), func(i int) bool { return allocBefore(al, m.running[i]) })
	m.running = append(m.running, sim.Allocation{})
	copy(m.running[i+1:], m.running[i:])
	m.running[i] = al
	return nil
}

// StartTick returns when, in ticks, the job of sequence number seq was
// placed on its nodes (Alea's start time × Ticks), -1 if it never started.
func (m *Machine) StartTick(seq int) int64 {
	if seq < 0 || seq >= len(m.where) || m.where[seq].nodes == nil {
		return -1
	}
	return m.where[seq].at
}

func allocBefore(a, b sim.Allocation) bool {
	ea, eb := a.EstimatedEnd(), b.EstimatedEnd()
	return ea < eb || ea == eb && a.Job.Seq < b.Job.Seq
}

// Next returns the second of the earliest completion not yet reported.
func (m *Machine) Next() (sim.Time, bool) {
	if m.report.Len() == 0 {
		return 0, false
	}
	return m.report.Min().At, true
}

// Advance frees the nodes of the jobs that ended before second now,
// moves the machine's clock to its start, and reports the jobs that end
// within it, in the order they end; their nodes stay busy until their
// tick, which a trial reaches as Alea's scheduler would.
func (m *Machine) Advance(now sim.Time) []*sim.Outcome {
	m.tr.rollback()
	m.freeUpTo(int64(now)*Ticks - 1)
	m.sec, m.tau, m.fresh = now, int64(now)*Ticks, false
	m.ended = m.ended[:0]
	for m.report.Len() > 0 && m.report.Min().At == now {
		o := m.report.Pop().V
		m.free = m.free.Add(o.Need)
		al := sim.Allocation{Job: &o.Job, Start: o.Start}
		i := sort.Search(len(m.running), func(i int) bool { return !allocBefore(m.running[i], al) })
		if i == len(m.running) || m.running[i].Job != &o.Job {
			panic("alea: running list lost a job") // broken internal invariant
		}
		m.running = append(m.running[:i], m.running[i+1:]...)
		m.ended = append(m.ended, o)
	}
	return m.ended
}

// Movable reports false: the machine moves no running job.
func (m *Machine) Movable() bool { return false }

// CheckPromise accepts a promise for a job started in this very pass only.
func (m *Machine) CheckPromise(o *sim.Outcome, running bool, now sim.Time) error {
	if running && o.Start == now {
		return nil
	}
	return fmt.Errorf("%w: job is not waiting", sim.ErrBadPromise)
}

// Close does nothing: every job the machine starts ends.
func (m *Machine) Close(*sim.Result) error { return nil }

// trial is the machine's sim.Trial. It plays the loop's second as Alea's
// scheduler does, one job at a time: Fits tests a job on the nodes as
// they stand at the machine's clock and, while it does not fit, moves the
// clock to the next completion within the second; Take places the job
// SubmitDelay ticks later, after the completions due by then, and moves
// the clock there. Completions it passes stay passed; rollback undoes
// only the placements Apply has not committed.
type trial struct {
	m     *Machine
	taken []taken
	done  int // takes committed by Apply, in order
}

type taken struct {
	seq int
	r   req
	p   place
}

// Fits reports whether j can start within the loop's current second on a
// cluster it may use, and moves the machine's clock to when it can.
func (t *trial) Fits(j *sim.Job) bool {
	m := t.m
	r := reqOf(j)
	for {
		if m.choose(j, r) >= 0 {
			return true
		}
		if m.release.Len() == 0 || int64(m.release.Min().At) >= int64(m.sec+1)*Ticks {
			return false
		}
		m.freeUpTo(int64(m.release.Min().At))
	}
}

// Take places j as Alea's cluster does when the message reaches it.
func (t *trial) Take(j *sim.Job) {
	c := t.m.choose(j, reqOf(j))
	if c < 0 {
		panic("alea: Take of a job that does not fit") // programmer error: Fits said no
	}
	t.takeOn(j, c)
}

// takeOn places j on cluster c, which can start it now.
func (t *trial) takeOn(j *sim.Job, c int) {
	m := t.m
	r := reqOf(j)
	delay := int64(SubmitDelay)
	if m.starts == 0 {
		delay = FirstSubmitDelay
	}
	m.starts++
	m.freeUpTo(m.tau + delay)
	m.fresh = true // the cluster's acknowledgement: the scheduler picks again
	p := m.allocate(c, r)
	p.at = m.tau
	for len(m.at) <= j.Seq {
		m.at = append(m.at, 0)
	}
	m.at[j.Seq] = p.at
	m.hold(c, j.Seq)
	t.taken = append(t.taken, taken{seq: j.Seq, r: r, p: p})
}

// commit hands Apply the next take if it is j's.
func (t *trial) commit(j *sim.Job) (place, bool) {
	if t.done < len(t.taken) && t.taken[t.done].seq == j.Seq {
		t.done++
		return t.taken[t.done-1].p, true
	}
	return place{}, false
}

// rollback undoes the uncommitted takes, last first, and empties the trial.
func (t *trial) rollback() {
	for i := len(t.taken) - 1; i >= t.done; i-- {
		t.m.free1(t.taken[i].r, t.taken[i].p)
		t.m.unhold(int(t.taken[i].p.cl), t.taken[i].seq)
		t.m.starts--
	}
	t.taken, t.done = t.taken[:0], 0
}
