package runner

import (
	"context"
	"time"

	"github.com/schedsweep/schedsweep/runner/spec"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/alea"
	"github.com/schedsweep/schedsweep/workloads"
)

// Single is what SimulateOne gives back for one run.
type Single struct {
	Result *sim.Result
	// Model is the machine model the run was simulated on, as it stands
	// after the run: a *nodes.Cluster keeps where each job ran
	// (results.PlacementOf).
	Model sim.Model
	// Wall is how long the simulation took (sources.simulate says what
	// is counted).
	Wall time.Duration
	// RuntimesCut counts the run times the Tsafrir estimate model cut to
	// its largest estimate.
	RuntimesCut int
	// Warnings are what the SWF readers of the run's traces read past
	// (workloads.SWFReader.Warnings), and Repaired the values they read
	// as missing (SWFOptions.NegativeAsMissing), in file order, a merge's
	// parts in turn.
	Warnings, Repaired []*workloads.ParseError
	// Notes say what the readers of the run's sacct dumps skipped.
	Notes []string
	// Alea is, for a run under compat = "alea", its trace as alea.Read
	// read it: the lines Alea drops and what it raised or cut; nil
	// otherwise. The machine (Model, an *alea.Machine) keeps the jobs it
	// rejected and why (Rejections).
	Alea *alea.Trace
}

// SimulateOne simulates run r as Execute simulates each run of a sweep,
// through the same code: it reads the run's traces (from the cache
// cacheDir for a registered name), refuses a workload whose cuts keep no
// job (an error wrapping ErrNoJobs), builds the job stream (cuts,
// estimate model, CPU usage, load factor or target offered load), the
// cluster and the policy, and runs the engine with the workload's
// options. It writes nothing. Its errors do not name the run, which is the
// caller's to describe. Cancelling ctx ends the run within a few thousand
// jobs. For schedsweep simulate.
func SimulateOne(ctx context.Context, r *Run, cacheDir string) (*Single, error) {
	srcs := newSources(cacheDir)
	sel := []*Run{r}
	if _, err := readTraces(srcs, sel); err != nil {
		return nil, err
	}
	if err := checkWorkloads(srcs, sel); err != nil {
		return nil, err
	}
	sr, err := srcs.run(ctx, r)
	if err != nil {
		return nil, err
	}
	one := &Single{Result: sr.res, Model: sr.model, Wall: sr.wall, RuntimesCut: sr.runtimesCut, Alea: srcs.aleaTrace(r)}
	srcs.mu.Lock()
	defer srcs.mu.Unlock()
	for _, w := range append([]*spec.Workload{r.Workload}, r.Workload.Merge...) {
		if t := srcs.traces[keyOf(w)]; w.Trace != "" && t != nil {
			one.Warnings = append(one.Warnings, t.noticed...)
			one.Repaired = append(one.Repaired, t.repaired...)
			one.Notes = append(one.Notes, t.notes...)
		}
	}
	return one, nil
}
