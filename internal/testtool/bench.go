package testtool

import (
	"syscall"
	"testing"
	"time"
)

// Loop runs f under b.Loop and reports, beside the wall time, the
// process's CPU time per iteration (cpu-ns/op): on a machine loaded by
// other work the wall time counts the waits for a core, the CPU time much
// less.
func Loop(b *testing.B, f func()) {
	start := cpuTime()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
