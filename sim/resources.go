package sim

import (
	"fmt"
	"strings"
)

// Time is a point or a span of simulated time in whole seconds. Trace times keep
// the trace's own origin (SWF submit times count from the log's start).
type Time int64

// Kind names one resource kind of a cluster.
type Kind int

// The resource kinds the simulator models. Their order is the layout of
// Resources and never changes.
const (
	Procs  Kind = iota // processors (cores)
	Memory             // memory in bytes
	GPUs               // accelerators
	// MaxKinds is the number of resource kinds.
	MaxKinds = 3
)

var kindNames = [MaxKinds]string{"procs", "memory", "gpus"}

// String returns the kind's lower-case name, as used in flags and messages.
func (k Kind) String() string {
	if k < 0 || int(k) >= MaxKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Resources is an amount of every resource kind, indexed by Kind. A job's
// need, a cluster's capacity and a free pool are all Resources.
type Resources [MaxKinds]int64

// FitsIn reports whether r fits in avail for every kind.
func (r Resources) FitsIn(avail Resources) bool {
	// Written out, not looped: the backfilling profiles ask it at every
	// step they pass (a third of Profile.fit's cost as a loop).
	return r[Procs] <= avail[Procs] && r[Memory] <= avail[Memory] && r[GPUs] <= avail[GPUs]
}

// threeKinds stops the build if a kind is added without the code that
// names the three (FitsIn, Profile.apply): its index is out of range
// unless MaxKinds is 3.
var _ = [1]struct{}{}[MaxKinds-3]

// Add returns r + o, kind by kind.
func (r Resources) Add(o Resources) Resources {
	for k := range r {
		r[k] += o[k]
	}
	return r
}

// Sub returns r − o, kind by kind. The result may be negative.
func (r Resources) Sub(o Resources) Resources {
	for k := range r {
		r[k] -= o[k]
	}
	return r
}

// Exceeds returns the first kind on which r is larger than limit, and
// whether there is one.
func (r Resources) Exceeds(limit Resources) (Kind, bool) {
	for k := range r {
		if r[k] > limit[k] {
			return Kind(k), true
		}
	}
	return 0, false
}

// String formats r as "procs=4 memory=1073741824"; kinds that are zero are left
// out, and all-zero resources print as "none".
func (r Resources) String() string {
	var b strings.Builder
	for k, v := range r {
		if v == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", Kind(k), v)
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}
