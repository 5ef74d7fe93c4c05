// Package psp holds the estimate-accuracy measure and the accuracy classes
// of the Penalty Scheduling Policy (N. Rocchetti, S. Iturriaga and
// S. Nesmachnow, "Including accurate user estimates in HPC schedulers: an
// empirical analysis", 2015, section 4 and Table 1). Three packages need
// the same definitions and may not import one another: workloads (which
// generates the paper's users), policies (the PSP queue order) and results
// (each user's accuracy in users.parquet, by which the study groups users).
package psp

import (
	"math"
	"math/big"

	"github.com/schedsweep/schedsweep/sim"
)

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

// Ended is a job that has ended, as the accuracy measure sees it: how long
// it ran and how long it asked for.
type Ended struct {
	Run, Estimate sim.Time
}

// MeanClass returns the class 1–5 of the mean accuracy (Accuracy) of jobs
// by Table 1, exactly: a mean on a class boundary is in the class above
// it, as the intervals say, although float64 may round it below
// ((0.2 + 0 + 1)/3 comes to 0.3999…). The mean is summed in float64, and
// summed again in exact rational arithmetic only when it falls within a
// rounding margin of a boundary, so the class does not depend on the
// order of jobs. jobs must not be empty. O(len(jobs)).
func MeanClass(jobs []Ended) int {
	sum, near := floatSum(jobs)
	if !near {
		return Class(sum / float64(len(jobs)))
	}
	// Class k is [(k−1)/5, k/5): k − 1 is the whole part of 5·mean.
	exact := exactSum(jobs)
	exact.Mul(exact, big.NewRat(5, int64(len(jobs))))
	whole := new(big.Int).Quo(exact.Num(), exact.Denom())
	return int(min(whole.Int64()+1, Classes))
}

// Mean returns the mean accuracy of jobs, which must not be empty. Near a
// class boundary it is the float64 nearest the exact mean, so a mean that
// is exactly on a boundary reads as the boundary (0.4, not 0.3999…) and
// Class gives Table 1's class for it. O(len(jobs)).
func Mean(jobs []Ended) float64 {
	sum, near := floatSum(jobs)
	if !near {
		return sum / float64(len(jobs))
	}
	exact := exactSum(jobs)
	exact.Quo(exact, big.NewRat(int64(len(jobs)), 1))
	f, _ := exact.Float64()
	return f
}

// floatSum returns the float64 sum of the jobs' accuracies and whether
// their mean is within a rounding margin of a class boundary inside
// (0, 1): 0.2, 0.4, 0.6 or 0.8.
func floatSum(jobs []Ended) (float64, bool) {
	sum := 0.0
	for _, j := range jobs {
		sum += Accuracy(j.Run, j.Estimate)
	}
	n := float64(len(jobs))
	// Each accuracy is rounded once and each partial sum, at most n, once
	// more, so the float64 sum is within about n²·2⁻⁵³ of the sum and
	// 5·mean within n·6e-16 of its value: the margin n·1e-12 is far
	// wider. Near 0 and 5 (a mean near 0 or 1) the class is 1 or 5
	// whichever way it rounds.
	five := 5 * sum / n
	r := math.Round(five)
	return sum, r >= 1 && r <= 4 && math.Abs(five-r) <= n*1e-12
}

// exactSum returns the sum of the jobs' accuracies as a fraction.
func exactSum(jobs []Ended) *big.Rat {
	exact := new(big.Rat)
	for _, j := range jobs {
		if j.Run >= j.Estimate {
			exact.Add(exact, big.NewRat(1, 1))
		} else {
			exact.Add(exact, big.NewRat(int64(j.Run), int64(j.Estimate)))
		}
	}
	return exact
}
