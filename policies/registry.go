package policies

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// ErrUnknownPolicy is returned (wrapped) by Lookup for a name it does not know.
var ErrUnknownPolicy = errors.New("unknown policy")

// Entry describes a built-in policy.
type Entry struct {
	Name    string // as used on the command line and in experiment files
	Summary string // one line for listings
	// Params returns a pointer to a new parameter struct holding the
	// defaults, its fields tagged `hcl` and `doc` (internal/params); nil for
	// a policy without parameters.
	Params func() any
	// New builds the policy. params is what Params returned, possibly
	// changed, or nil for a policy without parameters. A policy value serves
	// one run.
	New func(params any) (sim.Policy, error)
}

// OrderParams are the parameters of the disciplines that take a queue
// order. The fairshare knobs are checked whatever the order but used only
// with order = "fairshare", so a sweep may vary the order and keep them;
// likewise the accuracy knobs with order = "accuracy".
type OrderParams struct {
	Order    string   `hcl:"order,optional" doc:"queue order: arrival (first come, first served), sjf (shortest requested time first), fairshare (least decayed usage per target share first, re-ordered at every pass) or accuracy (PSP: users with accurate recent estimates first)"`
	HalfLife sim.Time `hcl:"half_life,optional" doc:"fairshare: seconds for a user's usage to decay by half; default one day, the half_life of TORQUE's pbs_sched"`
	Usage    string   `hcl:"usage,optional" doc:"fairshare: what a running job is charged per second: procs (processors) or dominant (its largest share of any resource kind)"`
	Shares   string   `hcl:"shares,optional" doc:"fairshare: target weights as \"user:weight,user:weight\" (SWF user numbers); unlisted users weigh 1; empty: equal shares"`
	Window   int      `hcl:"accuracy_window,optional" doc:"accuracy: a user's accuracy is the mean runtime/requested time of their last N ended jobs; the paper's N is 10"`
	NewUser  int      `hcl:"new_user_priority,optional" doc:"accuracy: priority, 1 (lowest) to 5, of a user none of whose jobs has ended yet"`
}

// order returns the Order named by p. Each fault names its parameter.
func (p *OrderParams) order() (Order, error) {
	switch p.Order {
	case "arrival", "", "sjf", "fairshare", "accuracy":
	default:
		return nil, fmt.Errorf("parameter \"order\": %q is not arrival, sjf, fairshare or accuracy", p.Order)
	}
	fc, err := fairshareParams(p.HalfLife, p.Usage, p.Shares)
	if err != nil {
		return nil, err
	}
	acc, err := NewAccuracy(AccuracyConfig{Window: p.Window, NewUser: p.NewUser})
	if err != nil {
		return nil, err
	}
	switch p.Order {
	case "accuracy":
		return acc, nil
	case "sjf":
		return ShortestFirst{}, nil
	case "fairshare":
		return NewFairshare(fc)
	}
	return Arrival{}, nil
}

// fairshareParams checks the fairshare knobs half_life, usage and shares,
// which more than one parameter struct carries; each fault names its
// parameter.
func fairshareParams(halfLife sim.Time, usage, shares string) (FairshareConfig, error) {
	if halfLife <= 0 {
		return FairshareConfig{}, fmt.Errorf("parameter \"half_life\": %d is not a positive number of seconds", halfLife)
	}
	u, err := ParseUsage(usage)
	if err != nil {
		return FairshareConfig{}, fmt.Errorf("parameter \"usage\": %w", err)
	}
	s, err := ParseShares(shares)
	if err != nil {
		return FairshareConfig{}, fmt.Errorf("parameter \"shares\": %w", err)
	}
	return FairshareConfig{HalfLife: halfLife, Usage: u, Shares: s}, nil
}

func orderParams() *OrderParams {
	acc := DefaultAccuracyConfig()
	return &OrderParams{Order: "arrival", HalfLife: DefaultHalfLife, Usage: UsageProcs.String(), Window: acc.Window, NewUser: acc.NewUser}
}

// entry is the Entry of a policy whose parameters are a P: Params returns
// defaults(), and New hands build its params as a *P, the defaults when
// params is nil.
func entry[P any](name, summary string, defaults func() *P, build func(*P) (sim.Policy, error)) Entry {
	return Entry{name, summary, func() any { return defaults() }, func(params any) (sim.Policy, error) {
		p, _ := params.(*P)
		if p == nil {
			p = defaults()
		}
		return build(p)
	}}
}

// plain adapts a constructor without parameters.
func plain(f func() sim.Policy) func(any) (sim.Policy, error) {
	return func(any) (sim.Policy, error) { return f(), nil }
}

// ordered adapts a constructor that takes a queue order.
func ordered[P sim.Policy](f func(Order) P) func(*OrderParams) (sim.Policy, error) {
	return func(p *OrderParams) (sim.Policy, error) {
		o, err := p.order()
		if err != nil {
			return nil, err
		}
		return f(o), nil
	}
}

// TierParams are the parameters of the two-tier policies: the machine
// model of Liu et al. 2012 (package sim/tier), defaults from the paper.
type TierParams struct {
	MigrationCost  sim.Time `hcl:"migration_cost,optional" doc:"seconds a migrating job makes no progress (measy only); 20 in the paper"`
	Threshold      float64  `hcl:"threshold,optional" doc:"a background VM accepts a process only while its foreground usage is below this share of the processor"`
	LossMin        float64  `hcl:"loss_min,optional" doc:"lowest foreground loss: a foreground process progresses at 1 - loss, loss uniform per job"`
	LossMax        float64  `hcl:"loss_max,optional" doc:"highest foreground loss"`
	AlphaSingleMin float64  `hcl:"alpha_single_min,optional" doc:"lowest share alpha of the idle cycles a one-process background job turns into progress (uniform per job)"`
	AlphaSingleMax float64  `hcl:"alpha_single_max,optional" doc:"highest alpha of a one-process job"`
	AlphaMultiMean float64  `hcl:"alpha_multi_mean,optional" doc:"mean of the normal alpha of a multi-process job (the paper's value is lost: the middle of its range)"`
	AlphaMultiSD   float64  `hcl:"alpha_multi_sd,optional" doc:"deviation of the normal alpha of a multi-process job (lost: a sixth of the range)"`
	AlphaMultiMin  float64  `hcl:"alpha_multi_min,optional" doc:"lowest alpha of a multi-process job; draws outside [min, max] are drawn again"`
	AlphaMultiMax  float64  `hcl:"alpha_multi_max,optional" doc:"highest alpha of a multi-process job"`
	Progress       string   `hcl:"progress,optional" doc:"background progress per second: literal, alpha * min(usage, idle share) as the paper writes it, or normalised, alpha * min(1, idle share / usage)"`
}

func tierParams() *TierParams {
	c := tier.DefaultConfig()
	pp := c.Paper
	return &TierParams{
		MigrationCost: c.MigrationCost, Threshold: c.Threshold,
		LossMin: pp.LossMin, LossMax: pp.LossMax,
		AlphaSingleMin: pp.AlphaSingleMin, AlphaSingleMax: pp.AlphaSingleMax,
		AlphaMultiMean: pp.AlphaMultiMean, AlphaMultiSD: pp.AlphaMultiSD,
		AlphaMultiMin: pp.AlphaMultiMin, AlphaMultiMax: pp.AlphaMultiMax,
		Progress: pp.Progress,
	}
}

// Config returns the machine model p describes.
func (p *TierParams) Config() tier.Config {
	return tier.Config{
		Threshold: p.Threshold, MigrationCost: p.MigrationCost,
		Paper: tier.PaperParams{
			LossMin: p.LossMin, LossMax: p.LossMax,
			AlphaSingleMin: p.AlphaSingleMin, AlphaSingleMax: p.AlphaSingleMax,
			AlphaMultiMean: p.AlphaMultiMean, AlphaMultiSD: p.AlphaMultiSD,
			AlphaMultiMin: p.AlphaMultiMin, AlphaMultiMax: p.AlphaMultiMax,
			Progress: p.Progress,
		},
	}
}

// twoTier adapts a two-tier policy's constructor: the policy runs on the
// two-tier engine with the machine model of its parameters.
func twoTier(f func() *TwoTier) func(*TierParams) (sim.Policy, error) {
	return func(p *TierParams) (sim.Policy, error) {
		s, err := tier.New(f(), p.Config())
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}

// newOrderedFCFS is strict list scheduling named "fcfs" in arrival order
// and "fcfs/<order>" otherwise: with Fairshare, the paper's "fairshare fifo".
func newOrderedFCFS(o Order) *List { return NewList(qualified("fcfs", o), o) }

var builtin = [...]Entry{
	entry("fcfs", "strict list scheduling, first-come first-served unless order says otherwise: nothing passes a blocked head",
		orderParams, ordered(newOrderedFCFS)),
	{"sjf", "strict shortest-job-first by requested time, ties by arrival",
		nil, plain(func() sim.Policy { return NewSJF() })},
	entry("easy", "EASY backfilling: a reservation for the head job, backfill around it",
		orderParams, ordered(NewEASY)),
	entry("conservative", "conservative backfilling: every waiting job holds a reservation",
		orderParams, ordered(NewConservative)),
	entry("psp", "Penalty Scheduling Policy: EASY backfilling, users with accurate recent estimates first",
		pspParams, newPSP),
	entry("backfill-balanced", "Backfill Balanced (Leinberger et al. 1999): EASY that backfills the candidate that best balances every resource kind first",
		balancedParams, newBB),
	{"improved-backfill-balanced", "Improved Backfill Balanced (Liu et al. 2016): EASY that backfills every candidate that does not worsen the balance of resource kinds",
		nil, plain(func() sim.Policy { return NewIBB() })},
	entry("pbs-fifo", "PBS's FIFO scheduler: first fit in arrival order, stopped by a job starving past max_starve",
		pbsParams, newPBSFIFO),
	entry("maui", "the Maui scheduler: weighted priorities, reservations for the top jobs, backfill around them",
		mauiParams, newMaui),
	entry("keasy", "two-tier EASY (foreground and background VM per processor); a background job moved to the foreground elsewhere is killed and restarted",
		tierParams, twoTier(NewKEASY)),
	entry("reasy", "two-tier EASY; a background job stays on its processors and gets a reservation there",
		tierParams, twoTier(NewREASY)),
	entry("measy", "two-tier EASY; a background job moved to the foreground elsewhere migrates, paying the migration cost",
		tierParams, twoTier(NewMEASY)),
}

// PBSParams are the parameters of "pbs-fifo", named as in PBS's
// sched_config.
type PBSParams struct {
	HelpStarving bool     `hcl:"help_starving_jobs,optional" doc:"stop starting other jobs while the first job of the queue has waited max_starve or more; false: plain first fit"`
	MaxStarve    sim.Time `hcl:"max_starve,optional" doc:"seconds a job waits before it starves; default one day, PBS's; 0 makes the policy FCFS"`
}

func pbsParams() *PBSParams { return &PBSParams{HelpStarving: true, MaxStarve: DefaultMaxStarve} }

func newPBSFIFO(p *PBSParams) (sim.Policy, error) {
	if p.MaxStarve < 0 {
		return nil, fmt.Errorf("parameter \"max_starve\": %d is a negative number of seconds", p.MaxStarve)
	}
	return NewPBSFIFO(p.HelpStarving, p.MaxStarve), nil
}

// MauiParams are the parameters of "maui". Weights and defaults are
// Maui's (its parameter names in capitals); see MauiWeights.
type MauiParams struct {
	QueueTimeWeight  float64  `hcl:"queue_time_weight,optional" doc:"QUEUETIMEWEIGHT: priority per minute waited; Maui's default 1, the only weight not 0, ranks jobs first come, first served"`
	XFactorWeight    float64  `hcl:"xfactor_weight,optional" doc:"XFACTORWEIGHT: priority per unit of expansion factor, (wait + requested time) / requested time"`
	ProcWeight       float64  `hcl:"proc_weight,optional" doc:"PROCWEIGHT: priority per processor requested; negative favours small jobs"`
	FairshareWeight  float64  `hcl:"fairshare_weight,optional" doc:"FSUSERWEIGHT: priority per percentage point by which the user's share of the decayed usage is below their target share"`
	QoSWeight        float64  `hcl:"qos_weight,optional" doc:"QOSWEIGHT: weight of the QoS priority that qos gives the job's queue"`
	QoS              string   `hcl:"qos,optional" doc:"QoS priorities by SWF queue number, \"queue:priority,queue:priority\"; unlisted queues have 0"`
	HalfLife         sim.Time `hcl:"half_life,optional" doc:"fairshare usage: seconds for it to decay by half; default one day"`
	Usage            string   `hcl:"usage,optional" doc:"fairshare usage: what a running job is charged per second: procs or dominant"`
	Shares           string   `hcl:"shares,optional" doc:"fairshare targets as \"user:weight,user:weight\" (SWF user numbers); unlisted users weigh 1"`
	ReservationDepth int      `hcl:"reservation_depth,optional" doc:"RESERVATIONDEPTH: how many of the highest-priority jobs that cannot start hold a reservation; Maui's default 1"`
	Backfill         bool     `hcl:"backfill,optional" doc:"BACKFILLPOLICY: true (FIRSTFIT, Maui's default) starts lower-priority jobs that delay no reservation; false (NONE) starts jobs only in priority order"`
}

func mauiParams() *MauiParams {
	c := DefaultMauiConfig()
	return &MauiParams{
		QueueTimeWeight:  c.Weights.QueueTime,
		HalfLife:         c.Fairshare.HalfLife,
		Usage:            c.Fairshare.Usage.String(),
		ReservationDepth: c.ReservationDepth,
		Backfill:         c.Backfill,
	}
}

func newMaui(p *MauiParams) (sim.Policy, error) {
	fc, err := fairshareParams(p.HalfLife, p.Usage, p.Shares)
	if err != nil {
		return nil, err
	}
	qos, err := parseTable(p.QoS, "queue", "priority", false)
	if err != nil {
		return nil, fmt.Errorf("parameter \"qos\": %w", err)
	}
	return NewMaui(MauiConfig{
		Weights: MauiWeights{QueueTime: p.QueueTimeWeight, XFactor: p.XFactorWeight, Procs: p.ProcWeight,
			Fairshare: p.FairshareWeight, QoS: p.QoSWeight},
		QoS:              qos,
		Fairshare:        fc,
		ReservationDepth: p.ReservationDepth,
		Backfill:         p.Backfill,
	})
}

// NewDefault builds the policy called name with its default parameters.
func NewDefault(name string) (sim.Policy, error) { return New(name) }

// New builds the policy called name with its default parameters changed by
// settings, each "name=value" as params.SetAll reads them.
func New(name string, settings ...string) (sim.Policy, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	var p any
	if e.Params != nil {
		p = e.Params()
		if err := params.SetAll(p, settings); err != nil {
			return nil, err
		}
	} else if len(settings) > 0 {
		return nil, fmt.Errorf("policy %s takes no parameters", name)
	}
	return e.New(p)
}

// Entries returns the built-in policies in a stable order.
func Entries() []Entry { return builtin[:] }

// Lookup returns the built-in policy called name. An unknown name gives an
// error wrapping ErrUnknownPolicy that lists the known names, suggesting the
// closest.
func Lookup(name string) (Entry, error) {
	names := make([]string, len(builtin))
	for i, e := range builtin {
		if e.Name == name {
			return e, nil
		}
		names[i] = e.Name
	}
	msg := fmt.Sprintf("%q", name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return Entry{}, fmt.Errorf("%w %s; known: %s", ErrUnknownPolicy, msg, strings.Join(names, ", "))
}
