// Package jobs holds the job bookkeeping that sim.Run's loop and the
// machine models (sim.Pool, sim/tier's Machine) share: the Store that keeps
// every job's outcome and record where pointers to it stay valid, and the
// Queue of events due for jobs (completions, wake-ups) in time order. It imports nothing, so
// that sim, which imports only the standard library, may import it.
package jobs
