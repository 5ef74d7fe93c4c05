package tier

import (
	"fmt"
	"math"

	"github.com/schedsweep/schedsweep/sim"
)

// Tier is one of a processor's two VMs: sim.Tier.
type Tier = sim.Tier

// The tiers. A job that is not running has tier 0.
const (
	Foreground = sim.Foreground // the high-priority VM
	Background = sim.Background // the low-priority VM: it gets the cycles the foreground leaves
)

// Move is what an Action does to a job: sim.Move.
type Move = sim.Move

// The moves a two-tier policy may ask for (sim.Move's, here read on two
// tiers).
const (
	// Start places a waiting job on Procs in Tier.
	Start = sim.Start
	// Swap promotes a background job where it runs: the priorities of its
	// processors' two VMs are swapped, so it runs in the foreground on the
	// same processors, keeping its progress, at no cost. Every one of those
	// foreground VMs must be idle.
	Swap = sim.Swap
	// Restart kills a background job and starts it again from scratch in
	// the foreground VMs of Procs; its progress is lost (KEASY).
	Restart = sim.Restart
	// Migrate moves a background job to the foreground VMs of Procs,
	// keeping its progress; it makes no progress for the migration cost
	// (MEASY). Its background VMs are free at once.
	Migrate = sim.Migrate
)

// Action is one move of a decision (sim.Action): a two-tier policy puts
// its moves in sim.Decision.Actions, with Tier set for a Start and Procs
// naming one processor per process, 0 ≤ p < View.Procs(), no processor
// twice (nil for Swap). Actions are applied in order; each must be valid
// once those before it have been applied, or the run fails with a
// *sim.DecisionError. Promises (sim.Decision.Promise) say a job will be
// in the foreground (or have ended) by then.
type Action = sim.Action

// ViewOf returns the two-tier view of a pass's sim.View: ok is false when
// the run is not on a two-tier Machine. A two-tier policy calls it at the
// start of Schedule.
func ViewOf(v sim.View) (View, bool) {
	tv, ok := v.Model().(View)
	return tv, ok
}

// Running is a job in the foreground and when the engine believes it ends.
type Running struct {
	Job *sim.Job
	End sim.Time
}

// View is the two-tier machine's state as a policy sees it: what
// sim.View.Model returns on a Machine (tier.ViewOf asserts it), with the
// loop's waiting queue. Like sim.View it exposes estimates, never run
// times or progress. Slices belong to the machine: read them, never modify
// or keep them.
type View interface {
	// Procs returns the number of processors.
	Procs() int
	// Waiting returns the waiting jobs in arrival order.
	Waiting() []*sim.Job
	// Background returns the jobs running in background VMs, in arrival
	// order.
	Background() []*sim.Job
	// Foreground returns the jobs running in foreground VMs by believed end
	// (End), then arrival.
	Foreground() []Running
	// ForegroundVMs and BackgroundVMs return, by processor, the job in
	// that VM, nil if it is idle.
	ForegroundVMs() []*sim.Job
	BackgroundVMs() []*sim.Job
	// IdleForeground counts the idle foreground VMs.
	IdleForeground() int
	// OpenBackground counts the background VMs that accept a process now:
	// free, and the foreground VM's usage below the threshold.
	OpenBackground() int
	// Threshold returns the foreground usage from which a processor's
	// background VM accepts no process.
	Threshold() float64
	// Tier returns where j runs; 0 if it is waiting.
	Tier(j *sim.Job) Tier
	// Where returns the processors of a running job, one per process; nil
	// for a waiting job.
	Where(j *sim.Job) []int
	// End returns when the engine believes a foreground job ends.
	End(j *sim.Job) sim.Time
	// Span returns how long the engine would believe j runs in the
	// foreground if move m put it there now: see Machine for the rule.
	Span(j *sim.Job, m Move) sim.Time
}

// Usage returns the CPU usage of j's processes as the engine and the
// policies take it: Job.CPUUsage capped at 1, and 1 (a process that keeps
// its processor busy) when it is unknown.
func Usage(j *sim.Job) float64 {
	u := j.CPUUsage
	if !(u > 0) || u > 1 {
		return 1
	}
	return u
}

// Config is the machine model of a two-tier run.
type Config struct {
	// MigrationCost is how long a migrated job makes no progress, in
	// seconds: 20 in the paper (section 3).
	MigrationCost sim.Time `hcl:"migration_cost,optional" doc:"seconds a migrating job makes no progress (measy only); 20 in the paper"`
	// Threshold is the foreground usage from which a processor's
	// background VM accepts no process: 0.96 in the paper (section 2.1,
	// finding 3). A process already in the background stays when a busier
	// job starts in front of it.
	Threshold float64 `hcl:"threshold,optional" doc:"a background VM accepts a process only while its foreground usage is below this share of the processor"`
	// PaperParams are the constants of the paper's progress model.
	PaperParams
	// Model, if set, replaces the paper's model: it is called once per run
	// with the run's seed (sim.Options.Seed). Tests use it to impose
	// progress rates.
	Model func(seed uint64) Model
}

// DefaultConfig returns the paper's machine model.
func DefaultConfig() Config {
	return Config{MigrationCost: 20, Threshold: 0.96, PaperParams: DefaultPaperParams()}
}

// Validate checks c; each error names the parameter by its registry name
// and quotes the value.
func (c Config) Validate() error {
	switch {
	case !(c.Threshold > 0 && c.Threshold <= 1):
		return fmt.Errorf("parameter \"threshold\": %v is not in (0, 1]", c.Threshold)
	case c.MigrationCost < 0:
		return fmt.Errorf("parameter \"migration_cost\": %d is negative", c.MigrationCost)
	}
	if c.Model != nil {
		return nil
	}
	return c.PaperParams.Validate()
}

// NewModel returns the run's progress model for seed: Model's, or the
// paper's.
func (c Config) NewModel(seed uint64) Model {
	if c.Model != nil {
		return c.Model(seed)
	}
	return NewPaperModel(c.PaperParams, seed)
}

// span returns ceil(est / min) in seconds for a foreground rate of at
// least min: the longest a job of estimate est can take there.
func span(est sim.Time, min Rate) sim.Time {
	if est <= 0 {
		return 0
	}
	if min <= 0 {
		return math.MaxInt64 / 4 // a model that may stall the foreground promises nothing
	}
	w := int64(est) * int64(FullRate)
	return sim.Time((w + int64(min) - 1) / int64(min))
}
