package agent

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// threadCPU returns the CPU time of the calling thread; the caller has
// locked its goroutine to it.
func threadCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &u); err != nil {
		return monotonic()
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
