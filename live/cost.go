package live

import (
	"time"

	"github.com/proflens/proflens/agent"
	"github.com/proflens/proflens/analysis"
)

// pace charges the time a target takes to answer. That time bounds the
// work of the one goroutine that answers, but on a busy machine most of it
// can be waiting for a CPU, which costs the target nothing. So it is
// charged at the best pace the target has shown for the kind: the lowest
// answer time per unit of work (bytes of profile; goroutines for a
// goroutine snapshot) seen so far, times this answer's units. A wall time
// is never less than the CPU time within it, so while the work per unit
// stays the same, the charge still bounds the work. The first answer of a
// kind is charged in full.
type pace struct {
	best float64 // seconds per unit; 0 before the first answer
}

// charge returns the charge of an answer of units that took t seconds.
func (p *pace) charge(t, units float64) float64 {
	if units <= 0 {
		return t
	}
	if r := t / units; p.best == 0 || r < p.best {
		p.best = r
	}
	return p.best * units
}

// outsideCost is a window's cost when the target does not say it (a plain
// net/http/pprof server), from what proflens sees: a CPU window's samples
// at agent.PerSample, plus the time its answer took after the window (the
// profile's encoding; the window is the duration the profile states when
// longer than asked, which leaves out the target's delay in waking up from
// it); a trace's bytes at agent.PerTraceByte plus the same; a goroutine
// snapshot its whole answer time (one goroutine walks the stacks, and the
// pauses happen within it); a delta's two snapshots each the time its
// answer took after the window. Answer times are charged at p's pace.
func (p *pace) outsideCost(k Kind, w time.Duration, res result) float64 {
	prof, bytes := res.profile, float64(len(res.ans.body))
	tail := max(0, res.ans.latency-max(k.on(w), prof.Duration)).Seconds()
	switch k {
	case CPU:
		return total(prof, "samples")*agent.PerSample.Seconds() + p.charge(tail, bytes)
	case Trace:
		return bytes*agent.PerTraceByte.Seconds() + p.charge(tail, bytes)
	case Goroutine:
		return p.charge(res.ans.latency.Seconds(), total(prof, "goroutine"))
	}
	return 2 * p.charge(tail, bytes)
}

// total returns the sum of value typ over p's samples, 0 when p has none.
func total(p *analysis.Profile, typ string) float64 {
	if v := p.ValueIndex(typ); v >= 0 {
		return float64(p.Total(v))
	}
	return 0
}
