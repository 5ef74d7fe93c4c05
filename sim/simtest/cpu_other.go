//go:build !unix

package simtest

import "time"

// CPUTime returns false: this platform's processor time is not read.
func CPUTime() (time.Duration, bool) { return 0, false }

// ReportCPU does nothing: this platform's processor time is not read.
func ReportCPU(b interface {
	ReportMetric(float64, string)
}, start time.Duration, ops int) {
}
