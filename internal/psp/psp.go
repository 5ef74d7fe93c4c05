// Package psp holds the estimate-accuracy measure and the accuracy classes
// of the Penalty Scheduling Policy (N. Rocchetti, S. Iturriaga and
// S. Nesmachnow, "Including accurate user estimates in HPC schedulers: an
// empirical analysis", 2015, section 4 and Table 1). Three packages need
// the same definitions and may not import one another: workloads (which
// generates the paper's users), policies (the PSP queue order) and results
// (each user's accuracy in users.parquet, by which the study groups users).
package psp

import "github.com/schedsweep/schedsweep/sim"

// Window is the number of a user's most recently ended jobs whose mean
// accuracy gives the user's class: "the last ten completed jobs" (section 4).
const Window = 10

// Classes is the number of accuracy classes, a1 to a5 (Table 1).
const Classes = 5

// Accuracy returns the accuracy of a job that ran for run seconds having
// asked for estimate: run / estimate (section 4, A = t_r / t_e), capped at
// 1, the paper's upper bound, for a job that ran past its estimate. A job
// that asked for 0 s and ran 0 s estimated exactly: 1. Neither argument may
// be negative.
func Accuracy(run, estimate sim.Time) float64 {
	if run >= estimate {
		return 1
	}
	return float64(run) / float64(estimate)
}

// Class returns the accuracy class 1–5 (a1–a5, which is also the PSP
// priority) of an accuracy, by Table 1: a1 [0.0, 0.2), a2 [0.2, 0.4),
// a3 [0.4, 0.6), a4 [0.6, 0.8), a5 [0.8, 1.0]. An accuracy above 1 is
// class 5; a negative or NaN accuracy has no class, 0.
func Class(accuracy float64) int {
	switch {
	case !(accuracy >= 0):
		return 0
	case accuracy < 0.2:
		return 1
	case accuracy < 0.4:
		return 2
	case accuracy < 0.6:
		return 3
	case accuracy < 0.8:
		return 4
	}
	return 5
}
