//go:build !linux

package live

import "time"

// ThreadCPU runs f and returns its wall time where the system has no
// per-thread clock: a thread uses at most one second of CPU per second,
// so the observer's cost errs high.
func ThreadCPU(f func()) float64 {
	t0 := time.Now()
	f()
	return time.Since(t0).Seconds()
}
