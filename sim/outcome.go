package sim

import "fmt"

// State is how a job left the simulation.
type State uint8

// Job states in a Result.
const (
	Finished State = iota + 1 // ran to its full run time
	Killed                    // stopped at its estimate (Options.AllowOverrun off)
	Rejected                  // never queued; Reason says why
)

var stateNames = [...]string{Finished: "finished", Killed: "killed", Rejected: "rejected"}

func (s State) String() string {
	if int(s) < len(stateNames) && stateNames[s] != "" {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// Reason says why a job was rejected at submission.
type Reason uint8

// Rejection reasons. A rejected job is counted in Result, never dropped.
const (
	NoReason        Reason = iota
	TooLarge               // its need exceeds the cluster's capacity on some kind; on nodes, no placement on the nodes it may use holds it
	NoProcessors           // it asks for no processors (no positive processor count in the trace)
	NoRuntime              // the trace does not give its run time
	NoEstimate             // it has no estimate and Options.MissingEstimate is RejectMissingEstimate
	NegativeRequest        // a need or the estimate is negative; on nodes, also a shape that does not hold its need
	// The reasons of a machine of nodes. They follow the others so that a
	// reason's number, and the jobs files of runs that meet none of them,
	// stay as they were.
	NoPartition // it asks for a partition the cluster does not have
	OverLimit   // its estimate or node count exceeds its partition's limit
	BadRequest  // its node request (Alea's field 21) could not be read
	numReasons
)

var reasonNames = [numReasons]string{
	NoReason:        "",
	TooLarge:        "too-large",
	NoProcessors:    "no-processors",
	NoRuntime:       "no-runtime",
	NoEstimate:      "no-estimate",
	NegativeRequest: "negative-request",
	NoPartition:     "no-partition",
	OverLimit:       "over-limit",
	BadRequest:      "bad-request",
}

func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", int(r))
}

// Outcome is one job's fate: the record it came from and what the simulation
// did with it.
type Outcome struct {
	Record
	Start, End Time // -1 for rejected jobs
	State      State
	Reason     Reason // set when State is Rejected
	// EstimateFilled is true when the trace gave no estimate and the engine
	// used the run time instead (Options.MissingEstimate).
	EstimateFilled bool
}

// Work returns how long the job runs on dedicated processors: its run time
// if it finished, its estimate if it was killed there, 0 if it was
// rejected. On the pool that is End − Start; on a machine whose jobs
// change speed (sim/tier) End − Start may be longer, and Work is what
// slowdown divides by.
func (o *Outcome) Work() Time {
	switch o.State {
	case Finished:
		return o.Runtime
	case Killed:
		return o.Estimate
	}
	return 0
}

// Result is everything a run produced.
type Result struct {
	Policy   string
	Capacity Resources
	// Jobs holds every job the source gave, in arrival order: Jobs[i].Seq == i.
	Jobs []Outcome
	// Counts by State, and rejections by Reason.
	Finished, Killed, Rejected int
	RejectedBy                 [numReasons]int
	// EstimatesFilled counts jobs whose missing estimate became their run time.
	EstimatesFilled int
	// Passes counts calls to Policy.Schedule.
	Passes int
	// Tiers counts what the two-tier machine (package sim/tier) did to
	// running jobs; all zero for runs on other models.
	Tiers TierCounts
}

// TierCounts are the two-tier machine's per-run counters: how often a job
// running in a background VM moved to the foreground, by which means, and
// the work thrown away.
type TierCounts struct {
	// Restarts counts background jobs killed and restarted from scratch in
	// the foreground (KEASY).
	Restarts int
	// Migrations counts background jobs moved to foreground VMs, keeping
	// their progress and paying the migration cost (MEASY).
	Migrations int
	// Swaps counts background jobs promoted where they run, by swapping the
	// priorities of their processors' two VMs.
	Swaps int
	// LostWork is the work restarts threw away, in processor-seconds: each
	// killed run's progress in dedicated-processor seconds times its
	// processes.
	LostWork float64
}

// RejectionReasons returns the reasons that occurred, in Reason order, with
// their counts.
func (r *Result) RejectionReasons() []ReasonCount {
	var out []ReasonCount
	for i, n := range r.RejectedBy {
		if n > 0 {
			out = append(out, ReasonCount{Reason(i), n})
		}
	}
	return out
}

// ReasonCount pairs a rejection reason with how many jobs it hit.
type ReasonCount struct {
	Reason Reason
	Count  int
}
