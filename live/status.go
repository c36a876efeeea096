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
	// Unpayable says collection ended because the budget pays for no
	// collection (Stopped says what budget would).
	Unpayable bool
	Dropped   int // collections in flight when an interrupt came, dropped
	// Overruns counts collections that cost more than they reserved: until
	// the target has run long enough unprofiled, the cost accounted may
	// then pass the budget; nothing starts meanwhile, and collection ends
	// only once it is back within.
	Overruns int
	Notes    []string
	Kinds    []KindStatus // in priority order, then the kinds only triggers collect
	// Allowed is what the budget allowed so far (seconds): Budget × Elapsed
	// while the budget stays; the integral of the budgets set otherwise.
	// The guarantee is Spent ≤ Allowed.
	Allowed float64
	Changes []BudgetChange // budgets set while collecting
	Paused  bool
	// Usable is what the kinds asked for cost, as a share of the time, when
	// each runs once a window: the most of the budget they can use.
	Usable float64
	// Observer is proflens's own CPU time (seconds) on the windows of a
	// target on this machine, part of Spent: reading the answers, and what
	// the caller did with each window.
	Observer float64
	Local    bool // the target runs on this machine
	Triggers []TriggerStatus
	// Credit is what the kinds may spend now, and Held what the
	// collections in flight reserved (seconds): from now on, collections
	// started cost at most Credit + Held + the budget's share of the time.
	Credit, Held float64
	// AgentBudget is the budget the target's agent keeps by itself (the
	// one its program started it with), 0 for a target without the agent:
	// the agent refuses what would pass it, whatever Budget says.
	AgentBudget float64
}

// KindStatus is one kind's part of a Status.
type KindStatus struct {
	Kind     Kind
	Windows  int
	Seconds  float64 // on time of its windows
	Spent    float64 // seconds accounted
	Observed float64 // its main value (mainValues) over its windows, triggered ones aside
	Last     float64 // its main value in its last window
	// Triggered counts the windows triggers asked for, part of Windows:
	// they stay out of Seconds, Observed and the projection.
	Triggered int
	// Waiting counts the collections triggers asked for that wait for
	// their credit; WaitNext is when the first can start as far as its
	// credit says (-1: not known).
	Waiting  int
	WaitNext time.Duration
	Stopped  string // why it stopped before the others, or ""
	// Never says why the budget can never pay for it and what budget would;
	// "" when it can.
	Never string
	// Next is when its next collection can start as far as its credit says
	// (since the attachment began), when it waits; -1 when it will not (it
	// runs, stopped, never or has no share), or collection is paused.
	Next   time.Duration
	Manual bool // not asked for: only triggers collect it
}

// status returns the runner's status at now.
func (r *runner) status(now time.Duration) Status {
	s := Status{Target: r.t.URL, Server: r.t.Kind(), Budget: r.g.budget, Elapsed: now, Spent: r.g.spent,
		Duty: r.g.dutyAt(now), Windows: r.windows, Stopped: r.stopped, Failed: r.failed, Unpayable: r.unpaid, Dropped: r.dropped, Overruns: r.overruns,
		Notes: slices.Clone(r.notes), Allowed: r.g.allowedAt(now), Changes: slices.Clone(r.changes), Paused: r.g.paused,
		Usable: r.g.usable(), Observer: r.observer, Local: r.t.Local, Credit: r.g.credits()}
	if r.t.Agent != nil {
		s.AgentBudget = r.t.Agent.Budget
	}
	jobs := map[Kind]KindStatus{} // what triggered collections in flight or waiting hold
	for _, k := range r.g.kinds {
		s.Held += k.held
		if k.job != "" {
			j := jobs[k.kind] // its windows join its kind's as it is settled (retire)
			j.Spent += k.cost + k.held
			if !k.running && k.dropped == "" {
				if j.Waiting++; j.Waiting == 1 {
					j.WaitNext = -1
				}
				if t, ok := r.g.eta(k, now); ok && !r.g.paused && (j.WaitNext < 0 || t < j.WaitNext) {
					j.WaitNext = max(t, now)
				}
			}
			jobs[k.kind] = j
		}
	}
	for _, k := range r.g.kinds {
		if k.job != "" {
			continue
		}
		ks := KindStatus{Kind: k.kind, Windows: k.windows, Seconds: k.seconds, Spent: k.cost + k.held, Observed: k.observed,
			Last: k.lastSeen, Triggered: k.triggered, Stopped: k.dropped, Never: k.never, Next: -1, Manual: k.manual}
		if t, ok := r.g.eta(k, now); ok && !r.g.paused && r.stopped == "" {
			ks.Next = max(t, now)
		}
		j := jobs[k.kind]
		ks.Spent += j.Spent
		ks.Waiting, ks.WaitNext = j.Waiting, j.WaitNext
		delete(jobs, k.kind)
		s.Kinds = append(s.Kinds, ks)
	}
	for _, k := range Kinds { // triggered collections of kinds nobody asked for, still waiting
		if j, ok := jobs[k]; ok {
			j.Kind, j.Next, j.Manual = k, -1, true
			s.Kinds = append(s.Kinds, j)
		}
	}
	for _, a := range r.triggers {
		s.Triggers = append(s.Triggers, TriggerStatus{Trigger: a.t.String(), Fired: a.fired, Last: a.last, Why: a.why, Deaf: r.deaf(a.t)})
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
// budget (at most Allowed over the time attached when the budget changed),
// which the governor guarantees.
func (s Status) Cost() float64 { return share(s.Spent, s.Elapsed.Seconds()) }

// Within is what the budgets allowed as a share of the time attached: the
// budget, when it never changed.
func (s Status) Within() float64 {
	if len(s.Changes) == 0 {
		return s.Budget
	}
	return share(s.Allowed, s.Elapsed.Seconds())
}

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
	n := k.Windows - k.Triggered
	if n <= 0 {
		return 0 // no window of its own schedule: triggered windows are no sample of the run
	}
	if !k.Kind.additive() {
		return k.Observed / float64(n)
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
