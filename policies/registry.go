package policies

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedsweep/schedsweep/internal/suggest"
	"github.com/schedsweep/schedsweep/sim"
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
// order.
type OrderParams struct {
	Order string `hcl:"order,optional" doc:"queue order: arrival (first come, first served) or sjf (shortest requested time first)"`
}

// order returns the Order named by p.
func (p *OrderParams) order() (Order, error) {
	switch p.Order {
	case "arrival", "":
		return Arrival{}, nil
	case "sjf":
		return ShortestFirst{}, nil
	}
	return nil, fmt.Errorf("parameter \"order\": %q is not arrival or sjf", p.Order)
}

func orderParams() any { return &OrderParams{Order: "arrival"} }

// plain adapts a constructor without parameters.
func plain(f func() sim.Policy) func(any) (sim.Policy, error) {
	return func(any) (sim.Policy, error) { return f(), nil }
}

// ordered adapts a constructor that takes a queue order.
func ordered[P sim.Policy](f func(Order) P) func(any) (sim.Policy, error) {
	return func(params any) (sim.Policy, error) {
		o, err := params.(*OrderParams).order()
		if err != nil {
			return nil, err
		}
		return f(o), nil
	}
}

var builtin = [...]Entry{
	{"fcfs", "strict first-come first-served: nothing passes a blocked head",
		nil, plain(func() sim.Policy { return NewFCFS() })},
	{"sjf", "strict shortest-job-first by requested time, ties by arrival",
		nil, plain(func() sim.Policy { return NewSJF() })},
	{"easy", "EASY backfilling: a reservation for the head job, backfill around it",
		orderParams, ordered(NewEASY)},
	{"conservative", "conservative backfilling: every waiting job holds a reservation",
		orderParams, ordered(NewConservative)},
}

// NewDefault builds the policy called name with its default parameters.
func NewDefault(name string) (sim.Policy, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	var p any
	if e.Params != nil {
		p = e.Params()
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
