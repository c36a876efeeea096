package live

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// ThreadCPU runs f locked to its thread and returns the CPU seconds the
// thread spent on it: proflens's own work on a window.
func ThreadCPU(f func()) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadTime()
	f()
	return (threadTime() - t0).Seconds()
}

func threadTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
