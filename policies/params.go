package policies

import (
	"fmt"

	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// The parameter structs of the registry's entries. Knobs that several
// policies take are declared once, in FairshareParams, AccuracyConfig and
// tier.Config, and embedded: internal/params flattens embedded structs, so
// their fields are parameters of the embedding struct, in its place.

// FairshareParams are the fairshare knobs: how usage decays, what it
// charges, and the users' target shares.
type FairshareParams struct {
	HalfLife sim.Time `hcl:"half_life,optional" doc:"fairshare: seconds for a user's usage to decay by half; default one day, the half_life of TORQUE's pbs_sched"`
	Usage    string   `hcl:"usage,optional" doc:"fairshare: what a running job is charged per second: procs (processors) or dominant (its largest share of any resource kind)"`
	Shares   string   `hcl:"shares,optional" doc:"fairshare: target weights as \"user:weight,user:weight\" (SWF user numbers); unlisted users weigh 1; empty: equal shares"`
}

// DefaultFairshareParams returns the fairshare defaults: a half-life of
// DefaultHalfLife, usage charged by processors, equal shares.
func DefaultFairshareParams() FairshareParams {
	return FairshareParams{HalfLife: DefaultHalfLife, Usage: UsageProcs.String()}
}

// Config checks the knobs and returns the FairshareConfig they describe;
// each fault names its parameter.
func (p FairshareParams) Config() (FairshareConfig, error) {
	if p.HalfLife <= 0 {
		return FairshareConfig{}, fmt.Errorf("parameter \"half_life\": %d is not a positive number of seconds", p.HalfLife)
	}
	u, err := ParseUsage(p.Usage)
	if err != nil {
		return FairshareConfig{}, fmt.Errorf("parameter \"usage\": %w", err)
	}
	s, err := ParseShares(p.Shares)
	if err != nil {
		return FairshareConfig{}, fmt.Errorf("parameter \"shares\": %w", err)
	}
	return FairshareConfig{HalfLife: p.HalfLife, Usage: u, Shares: s}, nil
}

// OrderParams are the parameters of the disciplines that take a queue
// order. The fairshare knobs are checked whatever the order but used only
// with order = "fairshare", so a sweep may vary the order and keep them;
// likewise the accuracy knobs with order = "accuracy".
type OrderParams struct {
	Order string `hcl:"order,optional" doc:"queue order: arrival (first come, first served), sjf (shortest requested time first), fairshare (least decayed usage per target share first, re-ordered at every pass) or accuracy (PSP: users with accurate recent estimates first)"`
	FairshareParams
	AccuracyConfig
}

// order returns the Order named by p. Each fault names its parameter.
func (p *OrderParams) order() (Order, error) {
	switch p.Order {
	case "arrival", "", "sjf", "fairshare", "accuracy":
	default:
		return nil, fmt.Errorf("parameter \"order\": %q is not arrival, sjf, fairshare or accuracy", p.Order)
	}
	fc, err := p.FairshareParams.Config()
	if err != nil {
		return nil, err
	}
	acc, err := NewAccuracy(p.AccuracyConfig)
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

func orderParams() *OrderParams {
	return &OrderParams{Order: "arrival", FairshareParams: DefaultFairshareParams(), AccuracyConfig: DefaultAccuracyConfig()}
}

// PSPParams are the parameters of the "psp" entry, EASY over the accuracy
// order; they mean what OrderParams' accuracy knobs mean.
type PSPParams struct {
	AccuracyConfig
}

func pspParams() *PSPParams { return &PSPParams{DefaultAccuracyConfig()} }

// TierParams are the parameters of the two-tier policies: the machine
// model of Liu et al. 2012 (package sim/tier), defaults from the paper.
type TierParams struct {
	tier.Config
}

func tierParams() *TierParams { return &TierParams{tier.DefaultConfig()} }

// FairTierParams are the parameters of "fairshare-measy": the two-tier
// machine model and the fairshare knobs of its order.
type FairTierParams struct {
	tier.Config
	FairshareParams
}

func fairTierParams() *FairTierParams {
	return &FairTierParams{tier.DefaultConfig(), DefaultFairshareParams()}
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
// Maui's (its parameter names in capitals); see MauiWeights. The
// fairshare knobs feed the fairshare weight's usage.
type MauiParams struct {
	QueueTimeWeight float64 `hcl:"queue_time_weight,optional" doc:"QUEUETIMEWEIGHT: priority per minute waited; Maui's default 1, the only weight not 0, ranks jobs first come, first served"`
	XFactorWeight   float64 `hcl:"xfactor_weight,optional" doc:"XFACTORWEIGHT: priority per unit of expansion factor, (wait + requested time) / requested time"`
	ProcWeight      float64 `hcl:"proc_weight,optional" doc:"PROCWEIGHT: priority per processor requested; negative favours small jobs"`
	FairshareWeight float64 `hcl:"fairshare_weight,optional" doc:"FSUSERWEIGHT: priority per percentage point by which the user's share of the decayed usage is below their target share"`
	QoSWeight       float64 `hcl:"qos_weight,optional" doc:"QOSWEIGHT: weight of the QoS priority that qos gives the job's queue"`
	QoS             string  `hcl:"qos,optional" doc:"QoS priorities by SWF queue number, \"queue:priority,queue:priority\"; unlisted queues have 0"`
	FairshareParams
	ReservationDepth int  `hcl:"reservation_depth,optional" doc:"RESERVATIONDEPTH: how many of the highest-priority jobs that cannot start hold a reservation; Maui's default 1"`
	Backfill         bool `hcl:"backfill,optional" doc:"BACKFILLPOLICY: true (FIRSTFIT, Maui's default) starts lower-priority jobs that delay no reservation; false (NONE) starts jobs only in priority order"`
}

func mauiParams() *MauiParams {
	c := DefaultMauiConfig()
	return &MauiParams{
		QueueTimeWeight:  c.Weights.QueueTime,
		FairshareParams:  FairshareParams{HalfLife: c.Fairshare.HalfLife, Usage: c.Fairshare.Usage.String()},
		ReservationDepth: c.ReservationDepth,
		Backfill:         c.Backfill,
	}
}

func newMaui(p *MauiParams) (sim.Policy, error) {
	fc, err := p.FairshareParams.Config()
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
