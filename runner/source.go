package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/schedsweep/schedsweep/policies"
	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/workloads"
)

// sources builds runs' workloads. A trace is read once and shared, read-only,
// by every run that uses it; models are generated per run (they are cheap
// and depend on the run's workload seed).
type sources struct {
	cacheDir string
	mu       sync.Mutex
	traces   map[traceKey]*trace
}

// traceKey is what a trace's records depend on: the file and how it is read.
type traceKey struct {
	trace string
	swf   workloads.SWFOptions
}

type trace struct {
	once sync.Once
	recs []sim.Record
	err  error
}

func newSources(cacheDir string) *sources {
	return &sources{cacheDir: cacheDir, traces: make(map[traceKey]*trace)}
}

// read returns the records of trace workload w, reading it on first use.
func (s *sources) read(w *spec.Workload) ([]sim.Record, error) {
	key := traceKey{w.Trace, w.SWF}
	s.mu.Lock()
	t, ok := s.traces[key]
	if !ok {
		t = &trace{}
		s.traces[key] = t
	}
	s.mu.Unlock()
	t.once.Do(func() {
		path, err := tracePath(s.cacheDir, w)
		if err != nil {
			t.err = err
			return
		}
		f, err := os.Open(path)
		if err != nil {
			t.err = fmt.Errorf("workload %s: %w", w.Name, err)
			return
		}
		defer f.Close()
		t.recs, t.err = sim.ReadAll(workloads.NewSWFReader(f, filepath.Base(path), w.SWF))
		switch {
		case t.err != nil:
			t.err = fmt.Errorf("workload %s: %w", w.Name, t.err)
		case len(t.recs) == 0:
			t.err = fmt.Errorf("workload %s: trace %s has no jobs", w.Name, path)
		}
	})
	return t.recs, t.err
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
// hint for the engine).
func (s *sources) source(r *Run) (sim.Source, int, error) {
	src, size, err := s.jobs(r.Workload, r.Cluster.Capacity[sim.Procs], r.WorkloadSeed)
	if err != nil {
		return nil, 0, err
	}
	if r.LoadFactor != 1 {
		if src, err = workloads.LoadFactor(src, r.LoadFactor); err != nil {
			return nil, 0, fmt.Errorf("workload %s: %w", r.Workload.Name, err)
		}
	}
	return src, size, nil
}

// jobs returns the job stream of workload w before the load factor: the
// model, the trace or the merge of its parts onto procs processors, then
// the cuts, the estimate model and CPU usage. A merge's parts draw their
// seeds from seed and their names, so two parts drawn from one model give
// different jobs.
func (s *sources) jobs(w *spec.Workload, procs int64, seed uint64) (sim.Source, int, error) {
	var src sim.Source
	size := 0
	switch {
	case w.Model != "":
		m, err := workloads.LookupModel(w.Model)
		if err != nil {
			return nil, 0, err
		}
		if src, err = m.New(w.Params, seed); err != nil {
			return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
		}
	case len(w.Merge) > 0:
		parts := make([]workloads.Named, len(w.Merge))
		known := true // every part's size is known
		for i, p := range w.Merge {
			part, n, err := s.jobs(p, procs, deriveSeed(seed, p.Name, uint64(i)))
			if err != nil {
				return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
			}
			parts[i] = workloads.Named{Name: p.Name, Source: part}
			size, known = size+n, known && n > 0
		}
		if !known {
			size = 0
		}
		m, err := workloads.Merge(procs, parts...)
		if err != nil {
			return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
		}
		src = m
	default:
		recs, err := s.read(w)
		if err != nil {
			return nil, 0, err
		}
		src, size = sim.NewSliceSource(recs), len(recs)
	}
	if w.To > 0 {
		src = workloads.Window(src, w.From, w.To)
	}
	if len(w.Users) > 0 {
		src = workloads.Filter(src, workloads.Users(w.Users...))
	}
	if w.Take > 0 {
		src = workloads.Take(src, w.Take)
		if size == 0 || w.Take < size {
			size = w.Take
		}
	}
	src, err := workloads.ApplyEstimates(src, w.Estimates, seed)
	if err != nil {
		return nil, 0, fmt.Errorf("workload %s: %w", w.Name, err)
	}
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

// policy builds a fresh policy value for run r.
func policy(r *Run) (sim.Policy, error) {
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
func (s *sources) simulate(ctx context.Context, r *Run) (*sim.Result, time.Duration, error) {
	src, size, err := s.source(r)
	if err != nil {
		return nil, 0, err
	}
	src = &ctxSource{ctx: ctx, src: src}
	p, err := policy(r)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	res, err := sim.Run(sim.NewPool(r.Cluster.Capacity), p, src, sim.Options{SizeHint: size, Seed: r.WorkloadSeed})
	wall := time.Since(start)
	if err != nil {
		return nil, 0, fmt.Errorf("run %s (workload %s, policy %s, load factor %s, replicate %d): %w",
			r.Key, r.Workload.Name, r.Policy.Name, formatFloat(r.LoadFactor), r.Replicate, err)
	}
	return res, wall, nil
}

// JobCounts returns how many jobs each workload of runs gives, by workload
// key, building one source per workload (traces are read once). A workload
// reading a registered trace that is not cached is left out; any other
// failure to build or read a workload is an error. For plan.
func JobCounts(runs []Run, cacheDir string) (map[string]int, error) {
	s := newSources(cacheDir)
	counts := map[string]int{}
	for i := range runs {
		r := &runs[i]
		if _, ok := counts[r.WorkloadKey]; ok {
			continue
		}
		src, _, err := s.source(r)
		if errors.Is(err, workloads.ErrNotCached) {
			continue
		}
		if err != nil {
			return nil, err
		}
		recs, err := sim.ReadAll(src)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", r.Workload.Name, err)
		}
		counts[r.WorkloadKey] = len(recs)
	}
	return counts, nil
}
