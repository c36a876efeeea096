package live

import (
	"time"

	"github.com/proflens/proflens/agent"
	"github.com/proflens/proflens/analysis"
)

// The model of what a plain net/http/pprof server spends on answering,
// from what its answer holds. Answer times cannot serve: on a busy
// machine most of them is waiting for a CPU, which costs the target
// nothing, and they vary tenfold from one answer to the next. The
// constants are about twice what a 2-vCPU VM measured (encoding a CPU
// profile: 0.4 ms for 1.1 KB; a goroutine snapshot: about 3 µs per
// goroutine), and the overhead benchmark checks them against the target's
// CPU time.
const (
	perAnswer    = time.Millisecond     // handling a request, starting and ending a profile
	perByte      = time.Microsecond     // building, compressing and sending a byte of profile
	perGoroutine = 5 * time.Microsecond // walking one goroutine's stack
	perSample    = agent.PerSample      // a CPU-profile sample: the signal handler's work
	perTraceByte = agent.PerTraceByte   // a byte of execution trace: the tracer's work
)

// outsideCost is a window's cost when the target does not say it (a plain
// net/http/pprof server): each answer perAnswer plus its bytes at perByte;
// a CPU window also its samples at perSample; a trace its bytes at
// perTraceByte; a goroutine snapshot also its goroutines at perGoroutine;
// a delta is two snapshots and their difference, twice an answer.
func outsideCost(k Kind, p *analysis.Profile, bytes int) float64 {
	answer := (perAnswer + time.Duration(bytes)*perByte).Seconds()
	switch k {
	case CPU:
		return answer + total(p, "samples")*perSample.Seconds()
	case Trace:
		return answer + float64(bytes)*perTraceByte.Seconds()
	case Goroutine:
		return answer + total(p, "goroutine")*perGoroutine.Seconds()
	}
	return 2 * answer
}

// total returns the sum of value typ over p's samples, 0 when p has none.
func total(p *analysis.Profile, typ string) float64 {
	if v := p.ValueIndex(typ); v >= 0 {
		return float64(p.Total(v))
	}
	return 0
}
