package live

import (
	"slices"
	"time"
)

// Status is an attachment's account at one moment: what is guaranteed
// (the schedule enforced, the cost accounted) and what is estimated (the
// slowdown, the projections).
type Status struct {
	Target  string
	Server  string // "net/http/pprof" or "proflens agent"
	Budget  float64
	Elapsed time.Duration
	Spent   float64       // seconds of the target's time accounted, reservations in flight included
	Duty    time.Duration // time with some collection running
	Windows int
	Stopped string // why collection ended; "" while it goes on
	Failed  bool   // a fault of the target ended it
	Dropped int    // collections in flight when an interrupt came, dropped
	// Overruns counts collections that cost more than they reserved: until
	// the target has run long enough unprofiled, the cost accounted may
	// then pass the budget; nothing starts meanwhile, and collection ends
	// only once it is back within.
	Overruns int
	Notes    []string
	Kinds    []KindStatus // in priority order
}

// KindStatus is one kind's part of a Status.
type KindStatus struct {
	Kind     Kind
	Windows  int
	Seconds  float64 // on time of its windows
	Spent    float64 // seconds accounted
	Observed float64 // its main value (mainValues) over its windows
	Stopped  string  // why it stopped before the others, or ""
}

// status returns the runner's status at now.
func (r *runner) status(now time.Duration) Status {
	s := Status{Target: r.t.URL, Server: r.t.Kind(), Budget: r.p.Budget, Elapsed: now, Spent: r.g.spent,
		Duty: r.g.dutyAt(now), Windows: r.windows, Stopped: r.stopped, Failed: r.failed, Dropped: r.dropped, Overruns: r.overruns,
		Notes: slices.Clone(r.notes)}
	for _, k := range r.g.kinds {
		s.Kinds = append(s.Kinds, KindStatus{Kind: k.kind, Windows: k.windows, Seconds: k.seconds,
			Spent: k.cost + k.held, Observed: k.observed, Stopped: k.dropped})
	}
	return s
}

// share is part/whole, 0 when whole is 0.
func share(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return part / whole
}

// Cost is the cost accounted as a share of the time attached: at most the
// budget, which the governor guarantees.
func (s Status) Cost() float64 { return share(s.Spent, s.Elapsed.Seconds()) }

// DutyCycle is the share of the time attached during which some
// collection ran.
func (s Status) DutyCycle() float64 { return share(s.Duty.Seconds(), s.Elapsed.Seconds()) }

// Agent reports whether the target is the proflens agent.
func (s Status) Agent() bool { return s.Server == "proflens agent" }

// Cores is how many CPUs the target kept busy during its CPU windows, on
// average; 0 without CPU windows.
func (s Status) Cores() float64 {
	for _, k := range s.Kinds {
		if k.Kind == CPU {
			return share(k.Observed/1e9, k.Seconds)
		}
	}
	return 0
}

// EstimatedSlowdown estimates how much longer the target's work takes:
// the cost accounted per second of the target's own CPU time, when it
// keeps more than one core busy (the profiling work is shared among its
// cores), else the cost itself (a target that keeps less than a core busy
// is slowed at most by that much in wall time). It assumes the profiling
// work competes with the target's for CPU, true on a busy machine, so it
// errs high on an idle one.
func (s Status) EstimatedSlowdown() float64 { return s.Cost() / max(s.Cores(), 1) }

// Projected projects a kind's counts onto the whole time attached, as DYPER
// does: additive counts (CPU time, allocations, contention delay, trace
// samples) seen during a share of the time scale by the inverse of that
// share; a goroutine snapshot counts what exists at one moment, and
// projects as the mean of the snapshots. 0 before any window.
func (s Status) Projected(k KindStatus) float64 {
	if k.Windows == 0 {
		return 0
	}
	if !k.Kind.additive() {
		return k.Observed / float64(k.Windows)
	}
	return k.Observed * share(s.Elapsed.Seconds(), k.Seconds)
}

// JSON is the status as the json bundle of attach: shares as fractions.
func (s Status) JSON() map[string]any {
	kinds := map[string]any{}
	for _, k := range s.Kinds {
		kinds[string(k.Kind)] = map[string]any{"windows": k.Windows, "seconds": k.Seconds,
			"cost": share(k.Spent, s.Elapsed.Seconds())}
	}
	return map[string]any{"target": s.Target, "agent": s.Agent(), "budget": s.Budget, "cost": s.Cost(),
		"duty_cycle": s.DutyCycle(), "windows": s.Windows, "estimated_slowdown": s.EstimatedSlowdown(), "kinds": kinds}
}
