package live

import (
	"math"
	"slices"
	"time"

	"github.com/proflens/proflens/agent"
)

// Priors: what a collection is predicted to cost (seconds of the target's
// time) before one of its kind has been measured.
const (
	priorEncode   = 0.005 // encoding and sending a CPU window's profile
	priorSnapshot = 0.010 // a goroutine snapshot, or the two snapshots of a delta
	priorTrace    = 1.0   // a trace window, per second on: a whole core
)

// recentCosts is how many measured costs of a kind its prediction looks at.
const recentCosts = 4

// kindState is one kind's schedule and account, owned by the governor.
type kindState struct {
	kind    Kind
	weight  float64   // priority: 1, 1/2, 1/4, … in the order given
	rate    float64   // allocated share of the budget, seconds per second
	credit  float64   // seconds of cost the kind may spend now
	recent  []float64 // the last measured costs of its collections
	running bool
	held    float64       // reservation of the collection in flight
	retryAt time.Duration // no new collection before
	started bool          // a collection has started
	last    time.Duration // when the last collection started
	fails   int           // consecutive failures
	dropped string        // why the kind stopped collecting; "" while it runs

	windows  int
	seconds  float64 // on time of its windows
	cost     float64 // seconds accounted
	observed float64 // its main value over its windows (mainValue)
}

// governor schedules collections within the budget. Its times are offsets
// since the attachment began, so its decisions are a pure function of them
// and of what it was told; Run owns it.
type governor struct {
	budget float64
	window time.Duration
	end    time.Duration // when collection must be over; 0 for none
	cpus   int
	kinds  []*kindState
	at     time.Duration // when the credits were brought up to date
	spent  float64       // seconds accounted, reservations in flight included

	busy      int // collections in flight
	busySince time.Duration
	duty      time.Duration // time with some collection running
}

func newGovernor(p Plan, cpus int) *governor {
	g := &governor{budget: p.Budget, window: p.Window, end: p.For, cpus: max(cpus, 1)}
	for i, k := range p.Kinds {
		g.kinds = append(g.kinds, &kindState{kind: k, weight: math.Pow(0.5, float64(i))})
	}
	g.reallocate()
	return g
}

// expected is what k's next collection is expected to cost: its costliest
// recent collection; before the first, a CPU window at its bound (every
// CPU sampled at 100 Hz for the whole window) plus a prior for encoding
// it, other kinds at their prior.
func (g *governor) expected(k *kindState) float64 {
	if len(k.recent) > 0 {
		return slices.Max(k.recent)
	}
	switch k.kind {
	case CPU:
		return g.window.Seconds()*agent.Hz*float64(g.cpus)*agent.PerSample.Seconds() + priorEncode
	case Trace:
		return priorTrace * k.kind.on(g.window).Seconds()
	}
	return priorSnapshot
}

// predict is the reservation of k's next collection: three times what its
// recent collections cost (the answer times of a target on a busy machine
// vary that much), twice its prior before the first (a prior is already a
// bound). A larger reservation only delays the first collection: credit
// accrues at the rate the expected cost needs, and what a collection does
// not spend of its reservation comes back.
func (g *governor) predict(k *kindState) float64 {
	if len(k.recent) == 0 {
		return 2 * g.expected(k)
	}
	return 3 * g.expected(k)
}

// reallocate shares the budget among the kinds still collecting, each
// needing what one collection is expected to cost per window of time.
// What the needs leave over is shared by weight too: a kind runs at most
// one collection at a time, so the extra credit only pays a first
// reservation sooner and a debt back faster.
func (g *governor) reallocate() {
	need, weight := make([]float64, len(g.kinds)), make([]float64, len(g.kinds))
	var wsum float64
	for i, k := range g.kinds {
		if k.dropped == "" {
			need[i], weight[i] = g.expected(k)/g.window.Seconds(), k.weight
			wsum += k.weight
		}
	}
	rate := allocate(g.budget, need, weight)
	left := g.budget
	for _, r := range rate {
		left -= r
	}
	for i, k := range g.kinds {
		k.rate = rate[i]
		if left > 0 && wsum > 0 {
			k.rate += left * weight[i] / wsum
		}
	}
}

// advance brings every kind's credit up to now. A kind holds at most two
// reservations' worth, so that credit it cannot use is not hoarded.
func (g *governor) advance(now time.Duration) {
	if now <= g.at {
		return
	}
	dt := (now - g.at).Seconds()
	for _, k := range g.kinds {
		k.credit = min(k.credit+k.rate*dt, max(k.credit, 2*g.predict(k)))
	}
	g.at = now
}

// ready reports whether k may start a collection at now: it is not
// running, dropped or waiting to retry, a window of time has passed since
// its last start (one collection per window: snapshots come no oftener
// than CPU windows), its credit pays its reservation, and its window ends
// before the attachment does.
func (g *governor) ready(k *kindState, now time.Duration) bool {
	return !k.running && k.dropped == "" && now >= g.earliest(k) && k.credit >= g.predict(k) &&
		(g.end == 0 || now+k.kind.on(g.window) <= g.end)
}

// earliest is when k may start again, credit aside.
func (g *governor) earliest(k *kindState) time.Duration {
	if !k.started {
		return k.retryAt
	}
	return max(k.retryAt, k.last+g.window)
}

// due returns the kinds that start at now, in priority order. A trace
// starts only with a CPU window, which its samples need.
func (g *governor) due(now time.Duration) []*kindState {
	g.advance(now)
	var out []*kindState
	cpu := false
	for _, k := range g.kinds {
		if !g.ready(k, now) || (k.kind == Trace && !cpu) {
			continue
		}
		cpu = cpu || k.kind == CPU
		out = append(out, k)
	}
	return out
}

// start reserves k's collection.
func (g *governor) start(k *kindState, now time.Duration) {
	k.held = g.predict(k)
	k.credit -= k.held
	g.spent += k.held
	k.running, k.started, k.last = true, true, now
	if g.busy == 0 {
		g.busySince = now
	}
	g.busy++
}

// done settles k's collection: measured is its cost, or -1 when unknown
// (a failure that may have cost the target something: the reservation
// stays charged); refund gives the whole reservation back (the target did
// nothing: a refusal). It returns the reservation and by how much the cost
// passed it (0 when it did not).
func (g *governor) done(k *kindState, now time.Duration, measured float64, refund bool) (held, over float64) {
	g.advance(now)
	k.running = false
	if g.busy--; g.busy == 0 {
		g.duty += now - g.busySince
	}
	cost := k.held
	switch {
	case refund:
		cost = 0
	case measured >= 0:
		cost = measured
		k.windows++
		k.recent = append(k.recent, measured)
		if len(k.recent) > recentCosts {
			k.recent = k.recent[1:]
		}
	}
	held, over = k.held, max(0, cost-k.held)
	k.credit += k.held - cost
	g.spent += cost - k.held
	k.cost += cost
	k.held = 0
	g.reallocate()
	return held, over
}

// next returns when the governor should look again: the earliest time a
// kind's credit pays its reservation or its retry comes, and never later
// than a window from now (predictions change as collections end). A trace
// that can pay waits for the next CPU window, whose start is a decision
// anyway; a kind whose window no longer ends before the attachment does
// never starts again.
func (g *governor) next(now time.Duration) time.Duration {
	at := now + g.window
	if g.end > 0 {
		at = min(at, max(g.end, now))
	}
	for _, k := range g.kinds {
		short := g.predict(k) - k.credit
		if k.running || k.dropped != "" || (k.kind == Trace && short <= 0) ||
			(g.end > 0 && now+k.kind.on(g.window) > g.end) || (short > 0 && k.rate <= 0) {
			continue
		}
		t := g.earliest(k)
		if short > 0 {
			t = max(t, now+time.Duration(short/k.rate*float64(time.Second)))
		}
		at = min(at, max(t, now))
	}
	return at
}

// debt returns how long the account needs to balance at now: after a
// collection cost more than it reserved, the cost accounted can exceed the
// budget's share of the time so far until the target has run that long
// unprofiled.
func (g *governor) debt(now time.Duration) time.Duration {
	over := g.spent - g.budget*now.Seconds()
	if over <= 0 {
		return 0
	}
	return time.Duration(over / g.budget * float64(time.Second))
}

// find returns the state of kind k, or nil when it is not collected.
func (g *governor) find(k Kind) *kindState {
	for _, s := range g.kinds {
		if s.kind == k {
			return s
		}
	}
	return nil
}

// state returns the state of kind k, which is collected.
func (g *governor) state(k Kind) *kindState {
	if s := g.find(k); s != nil {
		return s
	}
	panic("live: no kind " + string(k))
}

// running reports whether collections are in flight.
func (g *governor) running() bool { return g.busy > 0 }

// collecting reports whether some kind still collects.
func (g *governor) collecting() bool {
	for _, k := range g.kinds {
		if k.dropped == "" {
			return true
		}
	}
	return false
}

// dutyAt returns the time with some collection running, up to now.
func (g *governor) dutyAt(now time.Duration) time.Duration {
	if g.busy > 0 {
		return g.duty + now - g.busySince
	}
	return g.duty
}
