//go:build unix

package simtest

import (
	"syscall"
	"time"
)

// CPUTime returns the processor time, user and system, the process has
// used so far, and true; false where the platform does not say. Benchmarks
// report it per operation: on a machine shared with other work it varies
// far less than wall-clock time.
func CPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// ReportCPU reports the processor time per operation of b since start
// (a CPUTime reading taken before the loop), as "cpu-ns/op".
func ReportCPU(b interface {
	ReportMetric(float64, string)
}, start time.Duration, ops int) {
	if now, ok := CPUTime(); ok && ops > 0 {
		b.ReportMetric(float64(now-start)/float64(ops), "cpu-ns/op")
	}
}
