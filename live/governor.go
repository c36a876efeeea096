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
	priorCounters = 0.001 // reading the program's counters
)

// recentCosts is how many measured costs of a kind its prediction looks at.
const recentCosts = 4

// horizon bounds what one collection may reserve: more than the whole
// budget pays in a minute, and the budget can never pay for it (the agent
// draws the same line).
const horizon = time.Minute

// jobWeight is a triggered collection's priority: above every kind's.
const jobWeight = 2

// kindState is one kind's schedule and account, or a triggered
// collection's; the governor owns it.
type kindState struct {
	kind    Kind
	weight  float64       // priority: 1, 1/2, 1/3, … in the order given; jobWeight for a job
	job     string        // why a triggered collection was asked for; "" for the kind's own schedule
	want    time.Duration // a job's length; 0 for the kind's default
	manual  bool          // the kind was not asked for: only triggered collections of it run
	rate    float64       // allocated share of the budget, seconds per second
	credit  float64       // seconds of cost the kind may spend now
	running bool
	held    float64       // reservation of the collection in flight
	length  time.Duration // on time of the collection in flight
	retryAt time.Duration // no new collection before
	started bool          // a collection has started
	last    time.Duration // when the last collection started
	fails   int           // consecutive failures
	dropped string        // why the kind stopped collecting; "" while it runs
	never   string        // why the budget can never pay for it; "" when it can

	windows   int
	triggered int     // of its windows, those triggers asked for
	seconds   float64 // on time of its windows, triggered ones aside
	cost      float64 // seconds accounted
	observed  float64 // its main value over its windows (mainValue), triggered ones aside
	lastSeen  float64 // its main value in its last window
}

// governor schedules collections within the budget. Its times are offsets
// since the attachment began, so its decisions are a pure function of them
// and of what it was told; Run owns it.
type governor struct {
	budget  float64
	window  time.Duration
	end     time.Duration // when collection must be over; 0 for none
	cpus    int
	kinds   []*kindState       // triggered collections first, then the kinds in priority order
	recent  map[Kind][]float64 // the last measured costs per kind: per second on for timed kinds
	at      time.Duration      // when the credits were brought up to date
	spent   float64            // seconds accounted, reservations in flight included
	allowed float64            // what the budget allowed up to at: budget × time, as the budget changed
	paused  bool

	busy      int // collections in flight
	busySince time.Duration
	duty      time.Duration // time with some collection running
}

func newGovernor(p Plan, cpus int) *governor {
	g := &governor{budget: p.Budget, window: p.Window, end: p.For, cpus: max(cpus, 1), recent: map[Kind][]float64{}}
	for i, k := range p.Kinds {
		g.kinds = append(g.kinds, &kindState{kind: k, weight: 1 / float64(i+1)})
	}
	g.reallocate()
	return g
}

// unit is what one unit of k's collections is expected to cost: the
// costliest of its kind's recent collections, per second on for a timed
// kind; before the first, a CPU window at its bound (every CPU sampled at
// 100 Hz) plus a prior for encoding it, other kinds at their prior.
func (g *governor) unit(k Kind) float64 {
	if r := g.recent[k]; len(r) > 0 {
		return slices.Max(r)
	}
	switch k {
	case CPU:
		return agent.Hz*float64(g.cpus)*agent.PerSample.Seconds() + priorEncode/g.window.Seconds()
	case Trace:
		return priorTrace
	case Counters:
		return priorCounters
	}
	return priorSnapshot
}

// costOf is what a collection of k on for d is expected to cost.
func (g *governor) costOf(k Kind, d time.Duration) float64 {
	if k.timed() {
		return g.unit(k) * d.Seconds()
	}
	return g.unit(k)
}

// length is how long k's next collection is on: a job's as asked (a trace
// at most its CPU window's); the kind's default, but for a trace, which is
// as long as the kind's share pays for once a window, between minTrace and
// its default.
func (g *governor) length(k *kindState) time.Duration {
	full := k.kind.length(g.window)
	switch {
	case k.want > 0 && k.kind == Trace:
		return min(k.want, full)
	case k.want > 0:
		return k.want
	case k.kind != Trace:
		return full
	}
	d := time.Duration(k.rate * g.window.Seconds() / g.unit(Trace) * float64(time.Second))
	return min(max(d, minTrace), full)
}

// factor is how many times its expected cost a collection reserves: three
// after its kind has been measured (the answer times of a target on a busy
// machine vary that much), twice before (a prior is already a bound). A
// larger reservation only delays the first collection: what a collection
// does not spend of its reservation comes back.
func (g *governor) factor(k Kind) float64 {
	if len(g.recent[k]) == 0 {
		return 2
	}
	return 3
}

// predict is the reservation of k's next collection.
func (g *governor) predict(k *kindState) float64 {
	return g.factor(k.kind) * g.costOf(k.kind, g.length(k))
}

// cheapest is the reservation of k's shortest collection.
func (g *governor) cheapest(k *kindState) float64 {
	d := g.length(k)
	if k.kind == Trace {
		d = min(d, minTrace)
	}
	return g.factor(k.kind) * g.costOf(k.kind, d)
}

// need is what k uses when it runs once a window (a job: its reservation
// within a window).
func (g *governor) need(k *kindState) float64 {
	if k.job != "" {
		return g.predict(k) / g.window.Seconds()
	}
	return g.costOf(k.kind, k.kind.length(g.window)) / g.window.Seconds()
}

// scheduled says whether k takes part in the schedule: not stopped, not
// beyond the budget, and asked for.
func (k *kindState) scheduled() bool { return k.dropped == "" && k.never == "" && !k.manual }

// reallocate marks the kinds the budget can never pay for, and shares the
// budget among the others by weighted max-min fairness, each needing what
// it uses running once a window. What the needs leave over is shared by
// weight too: a kind runs at most one collection at a time, so the extra
// credit only pays a first reservation sooner and a debt back faster.
func (g *governor) reallocate() {
	for _, k := range g.kinds {
		k.never = ""
		if k.dropped == "" && !k.manual && g.cheapest(k) > g.budget*horizon.Seconds() {
			k.never = neverWhy(g.cheapest(k))
		}
	}
	need, weight := make([]float64, len(g.kinds)), make([]float64, len(g.kinds))
	var wsum float64
	for i, k := range g.kinds {
		if k.scheduled() {
			need[i], weight[i] = g.need(k), k.weight
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

// neverWhy says what a collection reserving cost would need.
func neverWhy(cost float64) string {
	return "each collection reserves " + seconds(cost) + ", more than the budget pays in " + horizon.String() +
		"; budget=" + percentUp(cost/horizon.Seconds()) + " would pay for one a minute"
}

// percentUp shows x as Percent does, rounded up at the digits shown: a
// budget said to pay for something does, once read back.
func percentUp(x float64) string {
	v := 100 * x
	if !(v > 0) || math.IsInf(v, 1) {
		return Percent(x)
	}
	scale := math.Pow(10, float64(decimals(v)))
	return Percent(math.Ceil(v*scale) / scale / 100)
}

// seconds shows a cost in seconds at a readable precision.
func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Microsecond).String()
}

// usable is the share of the run the kinds asked for would cost if each
// ran once a window: what the budget can buy of them.
func (g *governor) usable() float64 {
	var u float64
	for _, k := range g.kinds {
		if k.scheduled() && k.job == "" {
			u += g.need(k)
		}
	}
	return u
}

// advance brings every kind's credit, and what the budget allowed, up to
// now. A kind holds at most two reservations' worth, so that credit it
// cannot use is not hoarded: a kind that waited long does not then burst
// past its share. Nothing accrues while collection is paused.
func (g *governor) advance(now time.Duration) {
	if now <= g.at {
		return
	}
	dt := (now - g.at).Seconds()
	g.allowed += g.budget * dt
	g.at = now
	if g.paused {
		return
	}
	for _, k := range g.kinds {
		k.credit = min(k.credit+k.rate*dt, max(k.credit, 2*g.predict(k)))
	}
}

// allowedAt is what the budget allowed up to now.
func (g *governor) allowedAt(now time.Duration) float64 {
	return g.allowed + g.budget*max(now-g.at, 0).Seconds()
}

// ready reports whether k may start a collection at now: it is scheduled
// and not running or waiting to retry, a window of time has passed since
// its last start (one collection per window: snapshots come no oftener
// than CPU windows), its credit pays its reservation, and its window ends
// before the attachment does.
func (g *governor) ready(k *kindState, now time.Duration) bool {
	return !k.running && (k.scheduled() || (k.job != "" && k.dropped == "")) && now >= g.earliest(k) &&
		k.credit >= g.predict(k) && (g.end == 0 || now+g.length(k) <= g.end)
}

// earliest is when k may start again, credit aside.
func (g *governor) earliest(k *kindState) time.Duration {
	if !k.started {
		return k.retryAt
	}
	return max(k.retryAt, k.last+g.window)
}

// due returns the collections that start at now, triggered ones first,
// then in priority order. One collection of a kind runs at a time (the CPU
// profiler and the tracer are the process's one each), and a kind's own
// schedule waits while a triggered collection of it waits. A trace starts
// only with a CPU window, which its samples need, and ends inside it.
func (g *governor) due(now time.Duration) []*kindState {
	g.advance(now)
	if g.paused {
		return nil
	}
	busy, waiting := g.occupied()
	var out []*kindState
	var cpu time.Duration // the length of the CPU window starting, 0 for none
	for _, traces := range []bool{false, true} {
		for _, k := range g.kinds {
			if (k.kind == Trace) != traces || busy[k.kind] || (k.job == "" && waiting[k.kind]) || !g.ready(k, now) ||
				(traces && g.length(k) > cpu-traceMargin) {
				continue
			}
			busy[k.kind] = true
			if k.kind == CPU {
				cpu = g.length(k)
			}
			out = append(out, k)
		}
	}
	return out
}

// occupied returns the kinds with a collection in flight and those with a
// triggered collection waiting.
func (g *governor) occupied() (busy, waiting map[Kind]bool) {
	busy, waiting = map[Kind]bool{}, map[Kind]bool{}
	for _, k := range g.kinds {
		busy[k.kind] = busy[k.kind] || k.running
		waiting[k.kind] = waiting[k.kind] || (k.job != "" && !k.running)
	}
	return busy, waiting
}

// start reserves k's collection.
func (g *governor) start(k *kindState, now time.Duration) {
	k.held = g.predict(k)
	k.length = g.length(k)
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
// passed it (0 when it did not). A triggered collection's account joins
// its kind's.
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
		g.measured(k, measured)
	}
	held, over = k.held, max(0, cost-k.held)
	k.credit += k.held - cost
	g.spent += cost - k.held
	k.cost += cost
	k.held = 0
	if k.job != "" && (measured >= 0 || refund || k.dropped != "") {
		g.retire(k)
	}
	g.reallocate()
	return held, over
}

// measured remembers a collection's cost for the predictions of its kind.
func (g *governor) measured(k *kindState, cost float64) {
	if k.kind.timed() {
		cost /= max(k.length.Seconds(), minTrace.Seconds())
	}
	r := append(g.recent[k.kind], cost)
	if len(r) > recentCosts {
		r = r[1:]
	}
	g.recent[k.kind] = r
}

// charge adds cost to k's account after its collection was settled: the
// work proflens did on its window, which competes with a target on the
// same machine. It counts in the kind's next predictions.
func (g *governor) charge(k *kindState, cost float64) {
	k.credit -= cost
	k.cost += cost
	g.spent += cost
	if r := g.recent[k.kind]; len(r) > 0 {
		if k.kind.timed() {
			cost /= max(k.length.Seconds(), minTrace.Seconds())
		}
		r[len(r)-1] += cost
	}
}

// retire ends a triggered collection: its windows and cost join its
// kind's (a kind not asked for is kept, manual, to hold them), but not
// what it observed: a collection a condition asked for is no sample of
// the run, so it stays out of the projections.
func (g *governor) retire(j *kindState) {
	g.kinds = slices.DeleteFunc(g.kinds, func(k *kindState) bool { return k == j })
	k := g.find(j.kind)
	if k == nil && j.windows == 0 && j.cost == 0 {
		return
	}
	if k == nil {
		k = &kindState{kind: j.kind, manual: true}
		g.kinds = append(g.kinds, k)
	}
	k.windows += j.windows
	k.triggered += j.windows
	k.cost += j.cost
	k.credit += j.credit
}

// request queues a triggered collection of kind k on for d (0: the
// kind's default), for the reason why. It waits for its credit like any
// collection, at the highest priority.
func (g *governor) request(now time.Duration, k Kind, d time.Duration, why string) *kindState {
	g.advance(now)
	j := &kindState{kind: k, weight: jobWeight, job: why, want: d}
	g.kinds = append([]*kindState{j}, g.kinds...)
	g.reallocate()
	return j
}

// setKinds schedules kinds from now on, in priority order (weights 1,
// 1/2, …): a kind left out becomes manual (only triggered collections of
// it run; a collection in flight finishes), a new one starts with no
// credit. Triggered collections stay first.
func (g *governor) setKinds(now time.Duration, kinds []Kind) {
	g.advance(now)
	var jobs, out []*kindState
	for _, k := range g.kinds {
		if k.job != "" {
			jobs = append(jobs, k)
		}
	}
	for i, k := range kinds {
		s := g.find(k)
		if s == nil {
			s = &kindState{kind: k}
		}
		s.manual, s.weight = false, 1/float64(i+1)
		out = append(out, s)
	}
	for _, s := range g.kinds {
		if s.job == "" && !slices.Contains(kinds, s.kind) {
			s.manual = true
			out = append(out, s)
		}
	}
	g.kinds = append(jobs, out...)
	g.reallocate()
}

// asked returns the kinds scheduled, in priority order.
func (g *governor) asked() []Kind {
	var out []Kind
	for _, k := range g.kinds {
		if k.job == "" && !k.manual {
			out = append(out, k.kind)
		}
	}
	return out
}

// setBudget changes the budget from now on.
func (g *governor) setBudget(now time.Duration, b float64) {
	g.advance(now)
	g.budget = b
	g.reallocate()
	for _, k := range g.kinds {
		k.credit = min(k.credit, max(2*g.predict(k), 0))
	}
}

// pause stops or restarts collection: nothing starts and no credit
// accrues while paused; collections in flight finish.
func (g *governor) pause(now time.Duration, paused bool) {
	g.advance(now)
	g.paused = paused
}

// next returns when the governor should look again: the earliest time a
// kind's credit pays its reservation or its retry comes, and never later
// than a window from now (predictions change as collections end). A trace
// that can pay waits for the next CPU window, whose start is a decision
// anyway; a kind with a collection in flight waits for it to end (which
// wakes the run), and a kind's own schedule waiting for a triggered
// collection of it counts that collection's time; a kind whose window no
// longer ends before the attachment does never starts again.
func (g *governor) next(now time.Duration) time.Duration {
	at := now + g.window
	if g.end > 0 {
		at = min(at, max(g.end, now))
	}
	if g.paused {
		return at
	}
	busy, waiting := g.occupied()
	for _, k := range g.kinds {
		if busy[k.kind] || k.job == "" && waiting[k.kind] {
			continue // the collection in flight, or the triggered one waiting, decides
		}
		if t, ok := g.eta(k, now); ok && !(k.kind == Trace && t <= now) {
			at = min(at, max(t, now))
		}
	}
	return at
}

// eta returns when k can start next, as far as its credit and its retry
// say, and false when it will not: it runs, stopped, is beyond the budget,
// has no share, or its window would end after the attachment does.
func (g *governor) eta(k *kindState, now time.Duration) (time.Duration, bool) {
	short := g.predict(k) - k.credit
	if k.running || k.dropped != "" || k.never != "" || (k.manual && k.job == "") ||
		(g.end > 0 && now+g.length(k) > g.end) || (short > 0 && k.rate <= 0) {
		return 0, false
	}
	t := g.earliest(k)
	if short > 0 {
		t = max(t, now+time.Duration(math.Ceil(short/k.rate*float64(time.Second)))+1) // a nanosecond over the rounding
	}
	return t, true
}

// debt returns how long the account needs to balance at now: after a
// collection cost more than it reserved, the cost accounted can exceed
// what the budget allowed so far until the target has run that long
// unprofiled.
func (g *governor) debt(now time.Duration) time.Duration {
	over := g.spent - g.allowedAt(now)
	if over <= 0 || g.budget <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(over / g.budget * float64(time.Second)))
}

// find returns the state of kind k's own schedule, or nil when it is not
// collected.
func (g *governor) find(k Kind) *kindState {
	for _, s := range g.kinds {
		if s.kind == k && s.job == "" {
			return s
		}
	}
	return nil
}

// running reports whether collections are in flight.
func (g *governor) running() bool { return g.busy > 0 }

// collecting reports whether some kind still collects or may once the
// budget changes.
func (g *governor) collecting() bool {
	for _, k := range g.kinds {
		if k.dropped == "" && (!k.manual || k.job != "") {
			return true
		}
	}
	return false
}

// payable reports whether the budget pays for some collection.
func (g *governor) payable() bool {
	for _, k := range g.kinds {
		if k.scheduled() || (k.job != "" && k.dropped == "") {
			return true
		}
	}
	return false
}

// credits is the credit every kind holds.
func (g *governor) credits() float64 {
	var c float64
	for _, k := range g.kinds {
		c += k.credit
	}
	return c
}

// dutyAt returns the time with some collection running, up to now.
func (g *governor) dutyAt(now time.Duration) time.Duration {
	if g.busy > 0 {
		return g.duty + now - g.busySince
	}
	return g.duty
}
