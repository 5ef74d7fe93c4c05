package main

// This file turns simulate's flags into the one-run experiment that
// schedsweep run would read from the equivalent file: the same spec types,
// so that both go through the same runner code.

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/internal/size"
	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// The names simulate gives its experiment's blocks: the file
//
//	experiment "simulate" { seed = SEED }
//	cluster "machine" { … }
//	workload "trace" { trace = "TRACE" … }
//	policy "POLICY" { params = { … } }
//	sweep { workloads = [workload.trace] policies = [policy.POLICY] seeds = [REPLICATE] }
//
// is the same run, jobs and random streams alike (the streams derive from
// the seed and these names).
const (
	simulateExperiment = "simulate"
	simulateCluster    = "machine"
	simulateWorkload   = "trace"
)

// oneRun is the experiment simulate builds from its flags.
type oneRun struct {
	exp *spec.Experiment
	// header is the trace's header, which --swf repeats; source says
	// where the machine's size came from.
	header *workloads.Header
	source string
	// warnings are those of --slurm-conf's file.
	warnings []string
}

// machine returns the capacity of the experiment's one cluster.
func (o *oneRun) machine() sim.Resources { return o.exp.Sweep.Cluster.Capacity }

// experiment builds the one-run experiment of the flags c on the trace
// file path (t: its registry entry, nil for a plain path). It reads the
// trace's header: the machine's size comes from it unless a flag gives it.
func (c *simulateConfig) experiment(path string, t *workloads.ArchiveTrace) (*oneRun, error) {
	sc, err := c.readSlurmConf() // simulate_slurm.go
	if err != nil {
		return nil, err
	}
	p, err := c.policySpec(sc)
	if err != nil {
		return nil, err
	}
	name := path
	if t != nil {
		name = t.Name // as a workload block stores a registered trace
	}
	w, err := c.workload(name)
	if err != nil {
		return nil, err
	}
	cl, source, err := c.cluster(w.SWF.Memory != workloads.NoMemory, sc)
	if err != nil {
		return nil, err
	}
	if err := c.checkCompat(); err != nil {
		return nil, err
	}
	if cl.Nodes != nil {
		if err := spec.NodeAware(p.Type, p.Params); err != nil {
			return nil, usagef("--policy: %v", err)
		}
	}
	h := &workloads.Header{} // a sacct dump has none
	if w.Format == "" {
		if h, err = traceHeader(path, w.SWF); err != nil {
			return nil, err
		}
	} else if cl.Capacity[sim.Procs] == 0 {
		return nil, usagef("%s: a sacct dump does not give the machine's size; set --procs or --machines", filepath.Base(path))
	}
	if cl.Capacity[sim.Procs] == 0 {
		if cl.Capacity[sim.Procs], source = traceMachine(h, t); source == "" {
			return nil, usagef("%s: the header gives neither MaxProcs nor MaxNodes; set --procs", filepath.Base(path))
		}
	}
	sw := spec.Sweep{Cluster: cl, Workloads: []*spec.Workload{w}, Policies: []*spec.Policy{p}, Seeds: []uint64{c.replicate}}
	switch {
	case c.offeredLoad != 0 && c.loadFactor != 1:
		return nil, usagef("--offered-load and --load-factor: give one of them")
	case c.offeredLoad < 0 || math.IsNaN(c.offeredLoad) || math.IsInf(c.offeredLoad, 0):
		return nil, usagef("--offered-load: %v is not a positive number", c.offeredLoad)
	case c.offeredLoad > 0:
		sw.OfferedLoads = []float64{c.offeredLoad}
	case !(c.loadFactor > 0) || math.IsInf(c.loadFactor, 0):
		return nil, usagef("--load-factor: %v is not a positive number", c.loadFactor)
	default:
		sw.LoadFactors = []float64{c.loadFactor}
	}
	if err := checkTrim(c.warmup, c.cooldown); err != nil {
		return nil, err
	}
	exp := &spec.Experiment{
		Name: simulateExperiment, Seed: c.seed,
		Clusters: []*spec.Cluster{cl}, Workloads: sw.Workloads, Policies: sw.Policies, Sweep: sw,
		Output: spec.Output{Warmup: c.warmup, Cooldown: c.cooldown},
	}
	one := &oneRun{exp: exp, header: h, source: source}
	if sc != nil {
		for _, w := range sc.Warnings {
			one.warnings = append(one.warnings, w.String())
		}
	}
	return one, nil
}

// policySpec returns the policy block of --policy and --policy-param,
// built once to check its parameters, as an experiment file's is. The
// parameters of --slurm-conf's file (sc, nil without it) come first,
// --policy-param over them.
func (c *simulateConfig) policySpec(sc *spec.SlurmConf) (*spec.Policy, error) {
	e, err := policies.Lookup(c.policy)
	if err != nil {
		return nil, usageError{fmt.Errorf("--policy: %w", err)}
	}
	var pp any
	if e.Params != nil {
		pp = e.Params()
		if sc != nil && sc.Params != nil {
			if err := spec.ApplySlurmParams(pp, sc.Params); err != nil {
				return nil, usageError{fmt.Errorf("--slurm-conf: %w", err)}
			}
		}
		if err := params.SetAll(pp, c.policyParams); err != nil {
			return nil, usageError{fmt.Errorf("--policy-param: %w", err)}
		}
	} else if len(c.policyParams) > 0 {
		return nil, usagef("--policy-param: policy %s has no parameters", e.Name)
	}
	check := pp // e.New may keep its argument; the run builds its own
	if pp != nil {
		check = params.Clone(pp)
	}
	if _, err := e.New(check); err != nil {
		return nil, usageError{fmt.Errorf("--policy %s: %w", e.Name, err)}
	}
	return &spec.Policy{Name: e.Name, Type: e.Name, Params: pp}, nil
}

// choose returns the value that --FLAG's name selects, FLAG being the
// workload argument arg with hyphens (spec.Choose).
func choose(arg, name string) (int, error) {
	i, err := spec.Choose(arg, name)
	if err != nil {
		return 0, usagef("--%s: %v", strings.ReplaceAll(arg, "_", "-"), err)
	}
	return i, nil
}

// workload returns the workload block of the flags, reading trace (a
// path, or a registered name as the registry spells it).
func (c *simulateConfig) workload(trace string) (*spec.Workload, error) {
	w := &spec.Workload{Name: simulateWorkload, Trace: trace, Take: c.jobs, AllowOverrun: c.allowOverrun}
	w.SWF.NegativeAsMissing = c.negativeMissing
	w.SWF.AleaFields = c.aleaFields
	m, err := workloads.ParseShapeMode(c.shape)
	if err != nil {
		return nil, usagef("--shape: %v", err)
	}
	w.SWF.Shape = m
	named := []struct {
		arg, value string
		set        func(int)
	}{
		{"procs_field", c.procsField, func(i int) { w.SWF.Procs = workloads.ProcsField(i) }},
		{"memory_field", c.memoryField, func(i int) { w.SWF.Memory = workloads.MemoryField(i) }},
		{"memory_unit", c.memoryUnit, func(i int) { w.SWF.MemoryUnit = workloads.MemoryUnit(i) }},
		{"missing_estimate", c.missingEstimate, func(i int) { w.MissingEstimate = sim.MissingEstimate(i) }},
		{"cpu_usage", c.cpuUsage, func(i int) { w.CPUUsage = spec.Names("cpu_usage")[i] }},
	}
	for _, n := range named {
		i, err := choose(n.arg, n.value)
		if err != nil {
			return nil, err
		}
		n.set(i)
	}
	if err := c.sacct(w); err != nil {
		return nil, err
	}
	if err := spec.CheckEstimates(c.estimates); err != nil {
		return nil, usagef("--estimates: %v", err)
	}
	w.Estimates = c.estimates
	if c.jobs < 0 {
		return nil, usagef("--jobs: %d is negative", c.jobs)
	}
	if w.From, w.To, err = parseWindow(c.window); err != nil {
		return nil, err
	}
	if w.Users, err = parseUsers(c.users); err != nil {
		return nil, err
	}
	return w, nil
}

// sacct sets w's format and time zone from --format and --timezone, and
// refuses the SWF flags on a sacct dump.
func (c *simulateConfig) sacct(w *spec.Workload) error {
	i, err := choose("format", c.format)
	if err != nil {
		return err
	}
	if i == 0 {
		if c.timezone != "" {
			return usagef("--timezone applies to --format sacct")
		}
		return nil
	}
	w.Format = "sacct"
	for _, f := range []struct {
		name  string
		given bool
	}{
		{"procs-field", w.SWF.Procs != workloads.RequestedProcs}, {"memory-unit", w.SWF.MemoryUnit != workloads.KBPerProc},
		{"negative-as-missing", w.SWF.NegativeAsMissing}, {"shape", w.SWF.Shape != workloads.ShapeMode{}},
		{"alea-fields", w.SWF.AleaFields}, {"memory-field used", w.SWF.Memory == workloads.UsedMemory},
	} {
		if f.given {
			return usagef("--%s applies to SWF traces, not to --format sacct", f.name)
		}
	}
	if c.timezone != "" {
		if _, err := importZone(c.timezone, func(string) string { return "" }); err != nil {
			return usageError{err}
		}
		w.TimeZone = c.timezone
	}
	return nil
}

// parseWindow reads --window FROM,TO; "" is no window (0, 0).
func parseWindow(s string) (from, to sim.Time, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, ",")
	f, ferr := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	t, terr := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	switch {
	case !ok || ferr != nil || terr != nil || f < 0:
		return 0, 0, usagef("--window: %q is not FROM,TO, two times in seconds of the trace such as 0,604800", s)
	case t <= f:
		return 0, 0, usagef("--window: [%d, %d) is empty: its end must come after its start", f, t)
	}
	return sim.Time(f), sim.Time(t), nil
}

// parseUsers reads --users ID,ID,…; "" keeps every user (nil).
func parseUsers(s string) ([]int32, error) {
	if s == "" {
		return nil, nil
	}
	var users []int32
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 32)
		if err != nil || n < 0 {
			return nil, usagef("--users: %q is not a user ID (a whole number from 0)", f)
		}
		users = append(users, int32(n))
	}
	return users, nil
}

// cluster returns the cluster block of the flags, with 0 processors if
// none gives them (the trace's header will), and where the size came
// from. memoryRead says whether jobs have memory (--memory-field): the
// machine's memory is simulated only then. sc, when not nil, is
// --slurm-conf's file, which gives the cluster whole.
func (c *simulateConfig) cluster(memoryRead bool, sc *spec.SlurmConf) (*spec.Cluster, string, error) {
	cl := &spec.Cluster{Name: simulateCluster}
	if sc != nil {
		cl.Nodes, cl.Capacity, cl.SlurmConf = sc.Nodes, sc.Capacity, c.slurmConf
		return cl, "from " + c.slurmConf, nil
	}
	var source string
	switch {
	case c.procs < 0:
		return nil, "", usagef("--procs: %d is negative", c.procs)
	case c.gpus < 0:
		return nil, "", usagef("--gpus: %d is negative", c.gpus)
	}
	if c.machines != "" {
		capacity, err := spec.ReadMachines(c.machines)
		if err != nil {
			return nil, "", err
		}
		cl.Capacity, cl.Machines, source = capacity, c.machines, "from "+c.machines
	}
	if c.procs > 0 {
		cl.Capacity[sim.Procs], source = c.procs, "from --procs"
	}
	cl.Capacity[sim.GPUs] = c.gpus
	if c.memory != "" {
		if !memoryRead {
			return nil, "", usagef("--memory needs --memory-field to say which SWF field holds a job's memory")
		}
		m, err := size.Parse(c.memory)
		if err != nil {
			return nil, "", usagef("--memory: %v", err)
		}
		cl.Capacity[sim.Memory] = m
	}
	if err := c.nodes(cl); err != nil {
		return nil, "", err
	}
	if err := c.compatCluster(cl); err != nil { // simulate_alea.go
		return nil, "", err
	}
	switch {
	case cl.Nodes != nil || cl.Compat != "": // the nodes' own memory
	case memoryRead && cl.Capacity[sim.Memory] == 0:
		return nil, "", usagef("--memory-field %s needs the machine's memory: give --memory or --machines", c.memoryField)
	case !memoryRead:
		cl.Capacity[sim.Memory] = 0 // memory is not simulated
	}
	return cl, source, nil
}

// traceHeader reads the header of the trace file path, as opt reads its
// fields: a headerless file's first job line is read for it.
func traceHeader(path string, opt workloads.SWFOptions) (*workloads.Header, error) {
	f, err := workloads.OpenTrace(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := workloads.NewSWFReader(f, filepath.Base(path), opt)
	h, err := r.Header()
	if errors.Is(err, workloads.ErrNegative) { // a headerless file's first job line
		return nil, fmt.Errorf("%w%s", err, negativeHint)
	}
	if err != nil {
		return nil, err
	}
	if r.Empty() {
		return nil, fmt.Errorf("%s: the file is empty", path)
	}
	return h, nil
}

// checkTrim checks --warmup and --cooldown as an output block's warmup and
// cooldown are checked: each a share in [0, 1), their sum below 1.
func checkTrim(warmup, cooldown float64) error {
	for _, f := range []struct {
		flag  string
		value float64
	}{{"warmup", warmup}, {"cooldown", cooldown}} {
		if !(f.value >= 0 && f.value < 1) {
			return usagef("--%s: %v is not a share of the jobs from 0 up to but not including 1", f.flag, f.value)
		}
	}
	if warmup+cooldown >= 1 {
		return usagef("--warmup %v and --cooldown %v leave out every job; their sum must be under 1", warmup, cooldown)
	}
	return nil
}

// nodes makes cl a cluster of nodes when --model says so: the node groups
// of --machines, placed by --fit.
func (c *simulateConfig) nodes(cl *spec.Cluster) error {
	switch {
	case c.model != "pool" && c.model != "nodes":
		return usagef("--model: %q is not pool or nodes", c.model)
	case c.fit != "first" && c.fit != "best":
		return usagef("--fit: %q is not first or best", c.fit)
	case c.model == "pool":
		if c.fit != "first" {
			return usagef("--fit applies to --model nodes")
		}
		return nil
	case c.machines == "":
		return usagef("--model nodes needs --machines, the Alea .machines file of the nodes")
	case c.procs > 0 || c.memory != "" || c.gpus > 0:
		return usagef("--model nodes takes the machine's size from --machines: leave out --procs, --memory and --gpus")
	}
	fit := nodes.FirstFit
	if c.fit == "best" {
		fit = nodes.BestFit
	}
	cfg, capacity, err := spec.NodesFromMachines(c.machines, fit)
	if err != nil {
		return err
	}
	cl.Nodes, cl.Capacity = cfg, capacity
	return nil
}
