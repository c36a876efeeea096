//go:build !linux

package agent

import "time"

// threadCPU returns wall time where the system has no per-thread clock:
// a thread uses at most one second of CPU per second, so costs err high.
func threadCPU() time.Duration { return monotonic() }
