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
	New     func() sim.Policy
}

var builtin = [...]Entry{
	{"fcfs", "strict first-come first-served: nothing passes a blocked head",
		func() sim.Policy { return NewFCFS() }},
	{"sjf", "strict shortest-job-first by requested time, ties by arrival",
		func() sim.Policy { return NewSJF() }},
	{"easy", "EASY backfilling: a reservation for the head job, backfill around it",
		func() sim.Policy { return NewEASY(Arrival{}) }},
	{"conservative", "conservative backfilling: every waiting job holds a reservation",
		func() sim.Policy { return NewConservative(Arrival{}) }},
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
