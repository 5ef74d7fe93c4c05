package policies

import (
	"errors"
	"fmt"
	"strings"

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
	if s := closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return Entry{}, fmt.Errorf("%w %s; known: %s", ErrUnknownPolicy, msg, strings.Join(names, ", "))
}

// closest returns the candidate within edit distance 2 of s, if any.
func closest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
