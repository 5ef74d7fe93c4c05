package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/sim/nodes"
	"github.com/schedsweep/schedsweep/workloads"
)

// sources builds runs' workloads. A trace is read once and shared, read-only,
// by every run that uses it; models are generated per run (they are cheap
// and depend on the run's workload seed).
type sources struct {
	cacheDir string
	mu       sync.Mutex
	traces   map[traceKey]*trace
	loads    map[loadKey]*measured
}

// loadKey is what a workload's Load at factor 1 depends on: its jobs (the
// workload key and the replicate's seed) and the machine that admits them.
type loadKey struct {
	workload string
	seed     uint64
	capacity sim.Resources
}

// measured is a workload's Load at factor 1, measured once.
type measured struct {
	once sync.Once
	load workloads.Load
	err  error
}

// traceKey is what a trace's records depend on: the file and how it is read.
type traceKey struct {
	trace string
	swf   workloads.SWFOptions
	// format and zone are the workload's Format and TimeZone: a sacct
	// dump's records depend on its zone.
	format, zone string
	// aleaMaxPE is, for a trace read by alea.Read (compat = "alea"), the
	// largest cluster's processors it cuts jobs to; 0 for the SWF reader.
	aleaMaxPE int64
}

type trace struct {
	once sync.Once
	recs []sim.Record
	err  error
	// warnings are what the SWF reader noticed and read past (extra
	// fields, once per file), for Options.Notice.
	warnings []string
	// noticed and repaired are the reader's Warnings and Repaired (the
	// values SWFOptions.NegativeAsMissing read as missing), for
	// SimulateOne.
	noticed, repaired []*workloads.ParseError
	// notes say, for a sacct dump, what its reader skipped, for
	// SimulateOne (warnings carries the same for Options.Notice).
	notes []string
	// alea is the trace as alea.Read read it, under compat = "alea"; its
	// Jobs are recs.
	alea *alea.Trace
}

func newSources(cacheDir string) *sources {
	return &sources{cacheDir: cacheDir, traces: make(map[traceKey]*trace), loads: make(map[loadKey]*measured)}
}

// read returns the records of trace workload w for cluster cl, reading it
// on first use: as Alea reads it when cl has compat = "alea" (readAlea).
func (s *sources) read(w *spec.Workload, cl *spec.Cluster) ([]sim.Record, error) {
	if cl.Compat == spec.CompatAlea {
		t, err := s.readAlea(w, cl)
		if err != nil {
			return nil, err
		}
		return t.recs, nil
	}
	t := s.entry(keyOf(w))
	t.once.Do(func() {
		path, err := tracePath(s.cacheDir, w)
		if err != nil {
			t.err = err
			return
		}
		f, err := workloads.OpenTrace(path)
		if err != nil {
			t.err = fmt.Errorf("workload %s: %w", w.Name, err)
			return
		}
		defer f.Close()
		if w.Format == "sacct" {
			t.recs, t.notes, t.err = readSacct(f, path, w)
			t.warnings = t.notes
			return
		}
		r := workloads.NewSWFReader(f, filepath.Base(path), w.SWF)
		t.recs, t.err = sim.ReadAll(r)
		t.noticed, t.repaired = r.Warnings(), r.Repaired()
		for _, warn := range r.Warnings() {
			t.warnings = append(t.warnings, fmt.Sprintf("workload %s: warning: %v", w.Name, warn))
		}
		switch {
		case t.err != nil:
			t.err = fmt.Errorf("workload %s: %w", w.Name, t.err)
		case len(t.recs) == 0:
			t.err = fmt.Errorf("workload %s: %s: the trace has no jobs", w.Name, path)
		}
	})
	return t.recs, t.err
}

// keyOf returns the cache key of trace workload w.
func keyOf(w *spec.Workload) traceKey {
	return traceKey{trace: w.Trace, swf: w.SWF, format: w.Format, zone: w.TimeZone}
}

// readSacct reads the sacct dump f at path of workload w: its records, and
// a notice of the lines it skipped.
func readSacct(f io.Reader, path string, w *spec.Workload) ([]sim.Record, []string, error) {
	opt := workloads.SacctOptions{Memory: w.SWF.Memory == workloads.RequestedMemory}
	if w.TimeZone != "" {
		loc, err := time.LoadLocation(w.TimeZone)
		if err != nil {
			return nil, nil, fmt.Errorf("workload %s: timezone: %w", w.Name, err)
		}
		opt.Location = loc
	}
	r := workloads.NewSacctReader(f, filepath.Base(path), opt)
	recs, err := sim.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("workload %s: %w", w.Name, err)
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("workload %s: %s: the sacct dump has no finished jobs", w.Name, path)
	}
	skipped, _ := r.Skipped() // read without error above
	var parts []string
	for _, c := range skipped {
		parts = append(parts, fmt.Sprintf("%s: %d", c.Reason, c.Lines))
	}
	var notes []string
	if len(parts) > 0 {
		notes = append(notes, fmt.Sprintf("workload %s: %s: %d jobs; lines skipped: %s", w.Name, filepath.Base(path), len(recs), strings.Join(parts, "; ")))
	}
	return recs, notes, nil
}

// traceWarnings returns what the reader of trace workload w warned of,
// once read by read; a trace two workloads share warns once, for the first.
func (s *sources) traceWarnings(w *spec.Workload) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.traces[keyOf(w)]
	if t == nil {
		return nil
	}
	warnings := t.warnings
	t.warnings = nil
	return warnings
}

// tracePath returns the file of trace workload w: its path, or where the
// cache holds the registered trace it names.
func tracePath(cacheDir string, w *spec.Workload) (string, error) {
	path, _, err := workloads.ResolveTrace(cacheDir, w.Trace)
	if err != nil {
		return "", fmt.Errorf("workload %s: %w", w.Name, err)
	}
	return path, nil
}

// source returns the job stream of run r: its workload's jobs, then the
// load factor; and how many jobs it gives at most, 0 if unknown (a size
// hint for the engine). For a run of a target offered load it first
// solves the factor (solve), setting r.LoadFactor.
func (s *sources) source(r *Run, tally *cutTally) (sim.Source, int, error) {
	if r.TargetLoad > 0 {
		if err := s.solve(r); err != nil {
			return nil, 0, err
		}
	}
	src, size, err := s.jobs(r.Workload, r.Cluster, r.WorkloadSeed, tally)
	if err != nil {
		return nil, 0, err
	}
	if r.LoadFactor != 1 {
		if src, err = workloads.LoadFactor(src, r.LoadFactor); err != nil {
			return nil, 0, fmt.Errorf("workload %s: %w", r.Workload.Name, err)
		}
	}
	return workloads.Bounded(src, "workload "+r.Workload.Name), size, nil
}

// solve sets the load factor of run r, a run of a target offered load, to
// the one that takes its workload to r.TargetLoad on its cluster
// (workloads.SolveLoadFactor). The workload's Load at factor 1 is
// measured once per workload, replicate and cluster, reading its jobs
// through to the end: a trace's are in memory, a model's are drawn again
// by the run itself.
func (s *sources) solve(r *Run) error {
	key := loadKey{r.WorkloadKey, r.WorkloadSeed, r.Cluster.Capacity}
	s.mu.Lock()
	m, ok := s.loads[key]
	if !ok {
		m = &measured{}
		s.loads[key] = m
	}
	s.mu.Unlock()
	m.once.Do(func() {
		src, _, err := s.jobs(r.Workload, r.Cluster, r.WorkloadSeed, nil)
		if err != nil {
			m.err = err // it names the workload
			return
		}
		if m.load, err = workloads.MeasureLoad(src, r.Cluster.Capacity); err != nil {
			m.err = fmt.Errorf("workload %s: %w", r.Workload.Name, err)
		}
	})
	if m.err != nil {
		return m.err
	}
	f, _, err := workloads.SolveLoadFactor(m.load, r.Cluster.Capacity[sim.Procs], r.TargetLoad)
	if err != nil {
		return fmt.Errorf("workload %s, replicate %d, offered load %s: %w", r.Workload.Name, r.Replicate, formatFloat(r.TargetLoad), err)
	}
	r.LoadFactor = f
	return nil
}

// SolveFactors sets the load factor of every run of a target offered load
// among runs (Run.TargetLoad) to the one solved for its workload and
// replicate, as Execute will: for plan. A run whose workload reads a
// registered trace that is not cached keeps factor 0; any other failure to
// read a workload, or to reach a target, is an error naming the run.
func SolveFactors(runs []Run, cacheDir string) error {
	s := newSources(cacheDir)
	for i := range runs {
		r := &runs[i]
		if r.TargetLoad == 0 {
			continue
		}
		err := s.solve(r)
		switch {
		case errors.Is(err, workloads.ErrNotCached):
			continue
		case err != nil:
			return fmt.Errorf("run %s: %w", r.Key, err)
		}
	}
	return nil
}

// jobs returns the job stream of workload w before the load factor: the
// model, the trace or the merge of its parts onto cluster cl, then
// the cuts, the estimate model and CPU usage. A merge's parts draw their
// seeds from seed and their names, so two parts drawn from one model give
// different jobs. tally, if not nil, collects the stream's Tsafrir
// estimate sources.
func (s *sources) jobs(w *spec.Workload, cl *spec.Cluster, seed uint64, tally *cutTally) (sim.Source, int, error) {
	src, size, _, err := s.base(w, cl, seed, tally)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range cuts(w) {
		src = c.apply(src)
	}
	if w.Take > 0 && (size == 0 || w.Take < size) {
		size = w.Take
	}
	src, err = workloads.ApplyEstimates(src, w.Estimates, seed)
	if err != nil {
		return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
	}
	tally.add(src)
	switch w.CPUUsage {
	case "", "none":
	case "default", "full":
		p := workloads.DefaultCPUUsageParams()
		if w.CPUUsage == "full" {
			p = workloads.FullCPUUsageParams()
		}
		if src, err = workloads.NewCPUUsage(src, p, seed); err != nil {
			return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
		}
	default:
		return nil, 0, fmt.Errorf("workload %s: cpu_usage %q is not none, default or full", w.Name, w.CPUUsage)
	}
	return src, size, nil
}

// base returns the job stream of workload w on cluster cl before its
// cuts: the model, the trace or the merge of its parts; how many jobs it gives, 0 if
// unknown (a model's); and what it is, as errors name it ("trace KTH-SP2").
func (s *sources) base(w *spec.Workload, cl *spec.Cluster, seed uint64, tally *cutTally) (sim.Source, int, string, error) {
	switch {
	case w.Model != "":
		m, err := workloads.LookupModel(w.Model)
		if err != nil {
			return nil, 0, "", err
		}
		src, err := m.New(w.Params, seed)
		if err != nil {
			return nil, 0, "", fmt.Errorf("workload %s: %w", w.Name, err)
		}
		return src, 0, "model " + w.Model, nil
	case len(w.Merge) > 0:
		parts := make([]workloads.Named, len(w.Merge))
		names := make([]string, len(w.Merge))
		size, known := 0, true // every part's size is known
		for i, p := range w.Merge {
			part, n, err := s.jobs(p, cl, deriveSeed(seed, p.Name, uint64(i)), tally)
			if err != nil {
				return nil, 0, "", fmt.Errorf("workload %s: %w", w.Name, err)
			}
			parts[i] = workloads.Named{Name: p.Name, Source: part}
			names[i] = p.Name
			size, known = size+n, known && n > 0
		}
		if !known {
			size = 0
		}
		m, err := workloads.Merge(cl.Capacity[sim.Procs], parts...)
		if err != nil {
			return nil, 0, "", fmt.Errorf("workload %s: %w", w.Name, err)
		}
		return m, size, "the merge of " + strings.Join(names, ", "), nil
	default:
		recs, err := s.read(w, cl)
		if err != nil {
			return nil, 0, "", err
		}
		return sim.NewSliceSource(recs), len(recs), "trace " + filepath.Base(w.Trace), nil
	}
}

// cut is one of a workload's selections, as jobs applies it: what it
// does, in the words an error about it uses ("its window [0, 604800)
// keeps"), and the function that applies it.
type cut struct {
	what  string
	apply func(sim.Source) sim.Source
}

// cuts returns the selections of workload w in the order jobs applies
// them (spec.Workload): window, users, then take.
func cuts(w *spec.Workload) []cut {
	var cs []cut
	if w.To > 0 {
		cs = append(cs, cut{fmt.Sprintf("its window [%d, %d) keeps", w.From, w.To),
			func(src sim.Source) sim.Source { return workloads.Window(src, w.From, w.To) }})
	}
	if len(w.Users) > 0 {
		users := make([]string, len(w.Users))
		for i, u := range w.Users {
			users[i] = strconv.Itoa(int(u))
		}
		what := "its users " + strings.Join(users, ", ") + " keep"
		if len(users) == 1 {
			what = "its user " + users[0] + " keeps"
		}
		cs = append(cs, cut{what,
			func(src sim.Source) sim.Source { return workloads.Filter(src, workloads.Users(w.Users...)) }})
	}
	if w.Take > 0 {
		cs = append(cs, cut{fmt.Sprintf("its jobs = %d keeps", w.Take),
			func(src sim.Source) sim.Source { return workloads.Take(src, w.Take) }})
	}
	return cs
}

// ErrNoJobs is wrapped by the error for a workload whose selection
// (window, users, …) leaves no job: Execute refuses such a sweep before it
// writes anything, and JobCounts counts such a workload 0.
var ErrNoJobs = errors.New("selects no job")

// nonEmpty returns an error wrapping ErrNoJobs if workload w, or one of
// the parts it merges, gives no job, and any error building or reading it.
// It reads one job of each, or, for an empty one, the whole of its base
// for every cut in turn, to say which cut emptied it (whyEmpty).
func (s *sources) nonEmpty(w *spec.Workload, cl *spec.Cluster, seed uint64) error {
	for i, p := range w.Merge {
		if err := s.nonEmpty(p, cl, deriveSeed(seed, p.Name, uint64(i))); err != nil {
			return err // it names the part, the block to fix
		}
	}
	src, _, err := s.jobs(w, cl, seed, nil)
	if err != nil {
		return err
	}
	_, err = src.Next()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF):
		return s.whyEmpty(w, cl, seed)
	}
	return fmt.Errorf("workload %s: %w", w.Name, err)
}

// whyEmpty returns the error, wrapping ErrNoJobs, for workload w that
// gives no job: how many jobs its base gives, when known, and how many each
// of its cuts keeps, up to the one that keeps none. Each count reads the
// base again through the cuts so far; each ends, since the whole stream
// ended.
func (s *sources) whyEmpty(w *spec.Workload, cl *spec.Cluster, seed uint64) error {
	_, size, what, err := s.base(w, cl, seed, nil)
	if err != nil {
		return err
	}
	var steps []string
	cs := cuts(w)
	for k := range cs {
		src, _, _, err := s.base(w, cl, seed, nil)
		if err != nil {
			return err
		}
		for _, c := range cs[:k+1] {
			src = c.apply(src)
		}
		n, err := count(src)
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Name, err)
		}
		if n == 0 {
			steps = append(steps, cs[k].what+" none")
			break
		}
		steps = append(steps, fmt.Sprintf("%s %d", cs[k].what, n))
	}
	detail := what + " gives none"
	if len(steps) > 0 {
		detail = steps[len(steps)-1]
		if len(steps) > 1 {
			detail = strings.Join(steps[:len(steps)-1], ", ") + " and " + detail
		}
		if size > 0 {
			detail = fmt.Sprintf("of the %d jobs of %s, %s", size, what, detail)
		} else {
			detail = fmt.Sprintf("of what %s gives, %s", what, detail)
		}
	}
	return fmt.Errorf("workload %s %w: %s", w.Name, ErrNoJobs, detail)
}

// count reads src to its end and returns how many jobs it gave.
func count(src sim.Source) (int, error) {
	n := 0
	for {
		_, err := src.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// policy builds a fresh policy value for run r: under compat = "alea",
// easy is Alea's EASY (alea.NewEASY) and fcfs the registry's, which is
// Alea's FCFS on its machine.
func policy(r *Run) (sim.Policy, error) {
	if r.Cluster.Compat == spec.CompatAlea {
		if err := spec.CheckAleaPolicy(r.Policy.Type, r.Policy.Params); err != nil {
			return nil, err
		}
		if r.Policy.Type == "easy" {
			return alea.NewEASY(), nil
		}
	}
	e, err := policies.Lookup(r.Policy.Type)
	if err != nil {
		return nil, err
	}
	p, err := e.New(cloneParams(r.Policy.Params))
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", r.Policy.Name, err)
	}
	return p, nil
}

// simulate runs r to its result and says how long the simulation took:
// from the start of sim.Run, which draws a model's jobs as it goes, to its
// end; building the policy and the job stream is not counted (Execute
// reads every trace before the runs start: readTraces). Cancelling ctx
// ends the run within a few thousand jobs.
func (s *sources) simulate(ctx context.Context, r *Run) (*simulated, error) {
	sr, err := s.run(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("run %s (workload %s, policy %s, %s, replicate %d): %w",
			r.Key, r.Workload.Name, r.Policy.Name, loadText(r), r.Replicate, err)
	}
	return sr, nil
}

// run is simulate without naming the run in its error, for SimulateOne.
func (s *sources) run(ctx context.Context, r *Run) (*simulated, error) {
	var tally cutTally
	src, size, err := s.source(r, &tally)
	if err != nil {
		return nil, err
	}
	src = &ctxSource{ctx: ctx, src: src}
	p, err := policy(r)
	if err != nil {
		return nil, err
	}
	props, err := s.aleaProps(r)
	if err != nil {
		return nil, err
	}
	m, err := model(r, props)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res, err := sim.Run(m, p, src, simOptions(r, size))
	wall := time.Since(start)
	if err == nil && len(res.Jobs) == 0 {
		// checkWorkloads read each workload under one replicate's seed; a
		// model's cut may keep none under another.
		err = fmt.Errorf("workload %s %w under this replicate's seed", r.Workload.Name, ErrNoJobs)
	}
	if err != nil {
		if w := r.Workload; w.Trace != "" && w.Format == "" && r.Cluster.Compat == "" {
			// A policy's fault about one job names the job's line.
			if path, perr := tracePath(s.cacheDir, w); perr == nil {
				err = workloads.WhereIs(err, path, w.SWF)
			}
		}
		return nil, err
	}
	return &simulated{res: res, model: m, wall: wall, runtimesCut: tally.total()}, nil
}

// model returns the machine model run r simulates on: Alea's machine
// (sim/alea) of its cluster's clusters under compat = "alea", given each
// job's request string props (nil when no job will run); else its
// cluster's nodes (sim/nodes) when it declares them, else the aggregate
// pool of its capacity.
func model(r *Run, props map[sim.JobID]string) (sim.Model, error) {
	if r.Cluster.Compat == spec.CompatAlea {
		m, err := alea.New(r.Cluster.Alea, alea.Options{Props: props})
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", r.Cluster.Name, err)
		}
		return m, nil
	}
	if cfg := r.Cluster.Nodes; cfg != nil {
		c, err := nodes.NewConfig(*cfg)
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", r.Cluster.Name, err)
		}
		return c, nil
	}
	return sim.NewPool(r.Cluster.Capacity), nil
}

// simOptions returns the engine options of run r, whose job stream gives
// at most size jobs (0: unknown): its workload's treatment of overruns
// and missing estimates, and its seed.
func simOptions(r *Run, size int) sim.Options {
	return sim.Options{
		SizeHint: size, Seed: r.WorkloadSeed,
		AllowOverrun: r.Workload.AllowOverrun, MissingEstimate: r.Workload.MissingEstimate,
	}
}

// loadText describes a run's load for messages: "load factor 1.2", or
// "offered load 0.85" for a run of a target offered load.
func loadText(r *Run) string {
	if r.TargetLoad > 0 {
		return "offered load " + formatFloat(r.TargetLoad)
	}
	return "load factor " + formatFloat(r.LoadFactor)
}

// simulated is a run as simulate leaves it: its result, the simulation's
// wall time, and how many run times the Tsafrir estimate model cut to its
// largest estimate.
type simulated struct {
	res         *sim.Result
	model       sim.Model // the machine the run had, for what it placed where
	wall        time.Duration
	runtimesCut int
}

// cutTally collects the Tsafrir estimate sources of a run's job stream (one
// per workload, a merge's parts each their own), each of which counts the
// run times it cut.
type cutTally []*workloads.TsafrirSource

// add records src if it is a Tsafrir estimate source; a nil tally records
// nothing.
func (t *cutTally) add(src sim.Source) {
	if ts, ok := src.(*workloads.TsafrirSource); ok && t != nil {
		*t = append(*t, ts)
	}
}

// total returns how many run times the tally's sources cut, once the
// stream has been read to its end.
func (t cutTally) total() int {
	n := 0
	for _, ts := range t {
		n += ts.Cut()
	}
	return n
}

// JobCounts returns how many jobs each workload of runs gives, by workload
// key, building one source per workload (traces are read once). A workload
// reading a registered trace that is not cached is left out. A workload
// that selects no job, or merges one that does, is counted 0 and named in
// the error, which then wraps ErrNoJobs and comes with every count; any
// other failure to build or read a workload is an error, without counts.
// For plan.
func JobCounts(runs []Run, cacheDir string) (map[string]int, error) {
	s := newSources(cacheDir)
	counts := map[string]int{}
	var empty []error
	for i := range runs {
		r := &runs[i]
		if _, ok := counts[r.WorkloadKey]; ok {
			continue
		}
		err := s.nonEmpty(r.Workload, r.Cluster, r.WorkloadSeed)
		switch {
		case errors.Is(err, workloads.ErrNotCached):
			continue
		case errors.Is(err, ErrNoJobs):
			counts[r.WorkloadKey] = 0
			empty = appendNew(empty, err)
			continue
		case err != nil:
			return nil, err
		}
		src, _, err := s.source(r, nil)
		if err != nil {
			return nil, err
		}
		n, err := count(src)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", r.Workload.Name, err)
		}
		counts[r.WorkloadKey] = n
	}
	return counts, errors.Join(empty...)
}

// checkWorkloads returns an error, wrapping ErrNoJobs, naming every
// workload of the runs sel that selects no job, or that merges one that
// does (sources.nonEmpty), so that Execute refuses the sweep before it
// writes anything. Each workload is checked once, with the seed of its
// first run.
func checkWorkloads(srcs *sources, sel []*Run) error {
	seen := map[string]bool{}
	var errs []error
	for _, r := range sel {
		if seen[r.WorkloadKey] {
			continue
		}
		seen[r.WorkloadKey] = true
		if err := srcs.nonEmpty(r.Workload, r.Cluster, r.WorkloadSeed); err != nil {
			errs = appendNew(errs, err)
		}
	}
	return errors.Join(errs...)
}

// appendNew appends err to errs unless an error of the same message is
// there: a workload swept on its own and merged into another is named
// once.
func appendNew(errs []error, err error) []error {
	for _, e := range errs {
		if e.Error() == err.Error() {
			return errs
		}
	}
	return append(errs, err)
}

// entry returns the cache entry of the trace read as key says, adding an
// empty one (read by its once) the first time.
func (s *sources) entry(key traceKey) *trace {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.traces[key]
	if !ok {
		t = &trace{}
		s.traces[key] = t
	}
	return t
}
