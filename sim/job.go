package sim

// JobID is a job's identifier as the workload gives it (SWF field 1).
type JobID int64

// Job is what a scheduler may know about a job: who submitted it, when, and what
// it asked for. It never carries the true run time; that lives in Record, which
// only the engine reads. Policies receive *Job from the View and must treat it as
// read-only.
type Job struct {
	ID        JobID
	Seq       int   // position in arrival order, from 0; set by the engine
	User      int32 // SWF field 12; -1 if unknown
	Group     int32 // SWF field 13; -1 if unknown
	Queue     int32 // SWF field 15; -1 if unknown
	Partition int32 // SWF field 16; -1 if unknown
	Submit    Time
	// Estimate is the user's requested (wall-clock) time. Once the engine has
	// accepted the job it is never negative: a missing estimate has been
	// replaced as Options.MissingEstimate says.
	Estimate Time
	Need     Resources // what the job holds while it runs
	// Shape is how Need[Procs] is laid out on a machine of nodes; the
	// zero shape is the pool's aggregate request.
	Shape Shape
	// CPUUsage is the mean per-process CPU usage, normally in (0, 1], for
	// models that produce it (the two-tier policies use it); 0 means not
	// known. In SWF it travels as field 6, average CPU time per processor,
	// divided by the run time; a real log may give slightly more than 1.
	CPUUsage float64
}

// Status is the SWF completion status of a job in the original log (field 11):
// 1 completed, 0 failed, 5 cancelled, -1 unknown. The simulator keeps it for
// output and analysis; it does not change how a job runs.
type Status int8

// Record is a job as a workload describes it: the request a scheduler sees plus
// the facts only the simulation may use. Sources produce Records.
type Record struct {
	Job
	// Runtime is how long the job runs when started; -1 if the trace does not
	// say (such a job is rejected with ReasonNoRuntime).
	Runtime   Time
	Status    Status
	Preceding JobID // SWF field 17: the job this one depends on; -1 if none
	Think     Time  // SWF field 18: think time after Preceding ends; -1 if none
}

// Missing is the SWF marker for an unknown value.
const Missing = -1
