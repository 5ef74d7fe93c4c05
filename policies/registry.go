package policies

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedsweep/schedsweep/internal/params"
	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/sim"
	"github.com/schedsweep/schedsweep/sim/tier"
)

// ErrUnknownPolicy is returned (wrapped) by Lookup for a name it does not know.
var ErrUnknownPolicy = errors.New("unknown policy")

// Entry says everything the rest of schedsweep needs about a policy: its
// name, its parameters, how to build it, the machine model it runs on and
// the invariants its schedules keep. A test of this package fails for an
// entry without golden cases, a property-test row and a differential
// oracle (coverage_test.go).
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
	// Model is the machine model the policy runs on; Supports tells
	// whether a cluster fits it.
	Model MachineModel
	// Invariants returns what Verify must check of the policy's schedules
	// beyond what every schedule keeps, for params as New takes them (nil:
	// the defaults).
	Invariants func(params any) Invariants
}

// Invariants are the checks of simtest.Checks and tier.Checks that depend
// on the policy.
type Invariants struct {
	// MaxOpen bounds the promises open at once: 1 for EASY, whose only
	// reservation is its head's; 0 means no bound.
	MaxOpen int
	// PromiseOnWait requires every job that does not start at once to be
	// promised a start in the pass of its arrival: conservative
	// backfilling.
	PromiseOnWait bool
}

// MachineModel is a machine model a policy runs on.
type MachineModel uint8

// The machine models.
const (
	// PoolModel is sim.NewPool's aggregate pool: each resource kind a
	// total, with any kinds.
	PoolModel MachineModel = iota + 1
	// TwoTierModel is the board of package sim/tier: processors each split
	// into a foreground and a background VM; it models processors only.
	TwoTierModel
)

func (m MachineModel) String() string {
	switch m {
	case PoolModel:
		return "pool"
	case TwoTierModel:
		return "two-tier"
	}
	return fmt.Sprintf("MachineModel(%d)", int(m))
}

// Accepts returns nil if a cluster of capacity c can be modelled by m, and
// otherwise an error that says why not.
func (m MachineModel) Accepts(c sim.Resources) error {
	switch m {
	case PoolModel:
		return nil
	case TwoTierModel:
		return tier.CheckCapacity(c)
	}
	return fmt.Errorf("unknown machine model %d", int(m))
}

// Supports returns nil if the policy called name can run on a cluster of
// capacity c, and otherwise an error naming the policy and saying why (an
// unknown name wraps ErrUnknownPolicy, as Lookup's). runner/spec calls it
// for every policy and cluster a sweep pairs, so that validate and plan
// reject an impossible pairing before run meets it.
func Supports(name string, c sim.Resources) error {
	e, err := Lookup(name)
	if err != nil {
		return err
	}
	if err := e.Model.Accepts(c); err != nil {
		return fmt.Errorf("policy %q: %w", name, err)
	}
	return nil
}

// entry is the Entry of a policy whose parameters are a P on the pool:
// Params returns defaults(), and New hands build its params as a *P, the
// defaults when params is nil; so does Invariants inv.
func entry[P any](name, summary string, defaults func() *P, build func(*P) (sim.Policy, error), inv func(*P) Invariants) Entry {
	typed := func(params any) *P {
		p, _ := params.(*P)
		if p == nil {
			p = defaults()
		}
		return p
	}
	return Entry{
		Name: name, Summary: summary,
		Params:     func() any { return defaults() },
		New:        func(params any) (sim.Policy, error) { return build(typed(params)) },
		Model:      PoolModel,
		Invariants: func(params any) Invariants { return inv(typed(params)) },
	}
}

// typedParams returns params as a *P, the defaults when it is nil.
func typedParams[P any](params any, defaults func() *P) *P {
	p, _ := params.(*P)
	if p == nil {
		p = defaults()
	}
	return p
}

// plain is the Entry of a policy without parameters on the pool.
func plain(name, summary string, f func() sim.Policy, inv Invariants) Entry {
	return Entry{
		Name: name, Summary: summary,
		New:        func(any) (sim.Policy, error) { return f(), nil },
		Model:      PoolModel,
		Invariants: func(any) Invariants { return inv },
	}
}

// always returns inv whatever the parameters.
func always[P any](inv Invariants) func(*P) Invariants {
	return func(*P) Invariants { return inv }
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

// twoTier is the Entry of a two-tier policy: it runs on the two-tier
// machine with the model of its parameters, and promises a start to the
// head of its merged list only.
func twoTier(name, summary string, f func() *TwoTier) Entry {
	e := entry(name, summary, tierParams, func(p *TierParams) (sim.Policy, error) {
		t, err := f().WithConfig(p.Config)
		if err != nil {
			return nil, err
		}
		return t, nil
	}, always[TierParams](Invariants{MaxOpen: 1}))
	e.Model = TwoTierModel
	return e
}

// newFairshareMEASY builds fairshare-measy from its parameters.
func newFairshareMEASY(p *FairTierParams) (sim.Policy, error) {
	fc, err := p.FairshareParams.Config()
	if err != nil {
		return nil, err
	}
	f, err := NewFairshare(fc)
	if err != nil {
		return nil, err
	}
	t, err := NewFairshareMEASY(f).WithConfig(p.Config)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// newOrderedFCFS is strict list scheduling named "fcfs" in arrival order
// and "fcfs/<order>" otherwise: with Fairshare, the paper's "fairshare fifo".
func newOrderedFCFS(o Order) *List { return NewList(qualified("fcfs", o), o) }

var (
	easyLike   = Invariants{MaxOpen: 1}
	reserveAll = Invariants{PromiseOnWait: true}
)

var builtin = [...]Entry{
	entry("fcfs", "strict list scheduling, first-come first-served unless order says otherwise: nothing passes a blocked head",
		orderParams, ordered(newOrderedFCFS), always[OrderParams](Invariants{})),
	plain("sjf", "strict shortest-job-first by requested time, ties by arrival",
		func() sim.Policy { return NewSJF() }, Invariants{}),
	entry("easy", "EASY backfilling: a reservation for the head job, backfill around it",
		orderParams, ordered(NewEASY), always[OrderParams](easyLike)),
	entry("conservative", "conservative backfilling: every waiting job holds a reservation",
		orderParams, ordered(NewConservative), always[OrderParams](reserveAll)),
	entry("psp", "Penalty Scheduling Policy: EASY backfilling, users with accurate recent estimates first",
		pspParams, newPSP, always[PSPParams](easyLike)),
	entry("backfill-balanced", "Backfill Balanced (Leinberger et al. 1999): EASY that backfills the candidate that best balances every resource kind first",
		balancedParams, newBB, always[BalancedParams](easyLike)),
	entry("improved-backfill-balanced", "Improved Backfill Balanced (Liu et al. 2016): EASY that backfills every candidate that does not worsen the balance of resource kinds",
		ibbParams, newIBB, always[IBBParams](easyLike)),
	entry("pbs-fifo", "PBS's FIFO scheduler: first fit in arrival order, stopped by a job starving past max_starve",
		pbsParams, newPBSFIFO, always[PBSParams](easyLike)),
	entry("maui", "the Maui scheduler: weighted priorities, reservations for the top jobs, backfill around them",
		mauiParams, newMaui, func(p *MauiParams) Invariants { return Invariants{MaxOpen: max(p.ReservationDepth, 0)} }),
	entry("slurm", "Slurm 22.05: multifactor priority, the main scheduler in priority order, backfill planning every job from scratch at bf_interval",
		DefaultSlurmParams, newSlurm, always[SlurmParams](Invariants{})),
	twoTier("keasy", "two-tier EASY (foreground and background VM per processor); a background job moved to the foreground elsewhere is killed and restarted",
		NewKEASY),
	twoTier("reasy", "two-tier EASY; a background job stays on its processors and gets a reservation there",
		NewREASY),
	twoTier("measy", "two-tier EASY; a background job moved to the foreground elsewhere migrates, paying the migration cost",
		NewMEASY),
	{
		Name:       "fairshare-measy",
		Summary:    "two-tier MEASY whose merged list of waiting and background jobs is in fairshare order (least decayed usage per share first) instead of arrival order",
		Params:     func() any { return fairTierParams() },
		New:        func(params any) (sim.Policy, error) { return newFairshareMEASY(typedParams(params, fairTierParams)) },
		Model:      TwoTierModel,
		Invariants: func(any) Invariants { return Invariants{MaxOpen: 1} },
	},
}

// registry holds the registered entries in registration order.
var registry []Entry

func init() {
	for _, e := range builtin {
		if err := Register(e); err != nil {
			panic(err) // a fault of the table above, which every test meets
		}
	}
}

// Register adds e to the registry. A name already registered, an empty
// name, a missing constructor, machine model or invariants are errors.
// Register is meant for init functions: it is not safe to call while
// other goroutines look policies up.
func Register(e Entry) error {
	switch {
	case e.Name == "":
		return errors.New("register a policy: empty name")
	case e.New == nil:
		return fmt.Errorf("register policy %q: no constructor", e.Name)
	case e.Model == 0:
		return fmt.Errorf("register policy %q: no machine model", e.Name)
	case e.Invariants == nil:
		return fmt.Errorf("register policy %q: no invariants", e.Name)
	}
	if slices.ContainsFunc(registry, func(o Entry) bool { return o.Name == e.Name }) {
		return fmt.Errorf("register policy %q: the name is taken", e.Name)
	}
	registry = append(registry, e)
	return nil
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

// Entries returns the registered policies in a stable order: the built-in
// ones first, in the order of the listings.
func Entries() []Entry { return slices.Clip(registry) }

// Lookup returns the registered policy called name. An unknown name gives
// an error wrapping ErrUnknownPolicy that lists the known names, suggesting
// the closest.
func Lookup(name string) (Entry, error) {
	names := make([]string, len(registry))
	for i, e := range registry {
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
