package agent

import (
	"math"
	"runtime/metrics"
	"syscall"
	"time"
)

// The cost model of what the agent cannot time directly.
const (
	// PerSample is charged per CPU-profile sample: the SIGPROF handler's
	// stack walk and the profile writer's aggregation. A single-threaded
	// loop on a 2-vCPU VM measured below 5 µs per sample (about 0.2% of
	// its CPU time at 100 Hz, within the noise); PerSample doubles that.
	PerSample = 10 * time.Microsecond
	// PerTraceByte is charged per byte of execution trace: a ping-pong of
	// goroutines measured 11 ns of extra CPU per byte; PerTraceByte is
	// that with a margin.
	PerTraceByte = 25 * time.Nanosecond
	// Hz is the CPU profiler's rate, fixed in net/http/pprof.
	Hz = 100
)

// pauseMetrics are the stop-the-world pause histograms: other (every
// non-GC stop, such as a goroutine profile's) and gc.
var pauseMetrics = []string{"/sched/pauses/total/other:seconds", "/sched/pauses/total/gc:seconds"}

// pauses returns the total stop-the-world time so far, non-GC and, when
// gc, GC pauses too. Each pause counts at its histogram bucket's upper
// bound (its lower bound in the last, open bucket), so the total errs high.
func pauses(gc bool) float64 {
	s := []metrics.Sample{{Name: pauseMetrics[0]}, {Name: pauseMetrics[1]}}
	if !gc {
		s = s[:1]
	}
	metrics.Read(s)
	var total float64
	for _, m := range s {
		if m.Value.Kind() != metrics.KindFloat64Histogram {
			continue
		}
		h := m.Value.Float64Histogram()
		for i, n := range h.Counts {
			b := h.Buckets[i+1]
			if math.IsInf(b, 1) {
				b = h.Buckets[i]
			}
			total += float64(n) * b
		}
	}
	return total
}

// goroutines returns the number of live goroutines.
func goroutines() int {
	s := []metrics.Sample{{Name: "/sched/goroutines:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int(s[0].Value.Uint64())
}

// processCPU returns the process's user and system CPU time so far.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

var started = time.Now()

// monotonic returns the time since the package was loaded, on the
// monotonic clock.
func monotonic() time.Duration { return time.Since(started) }
