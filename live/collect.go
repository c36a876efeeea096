package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
)

// collect runs one collection of st's kind, on for length, started at
// start: the request, then parsing its answer (its CPU time measured, the
// observer's cost). It runs on a goroutine of its own and touches nothing
// of the runner but the target; st only names the collection.
func (r *runner) collect(ctx context.Context, st *kindState, k Kind, length, start time.Duration) result {
	path := k.path(length)
	res := result{st: st, kind: k, start: start, ans: r.t.get(ctx, path, length+r.p.Patience, maxBody)}
	res.end = r.since()
	if res.ans.err == nil && k != Counters { // counters are read in order, in accept
		name := fmt.Sprintf("%s window at %.1fs", k, start.Seconds())
		var p *analysis.Profile
		var err error
		res.parse = ThreadCPU(func() { p, err = analysis.Parse(ctx, name, res.ans.body, analysis.LoadOptions{}) })
		if err != nil && k == Trace && strings.Contains(err.Error(), idleTrace) {
			p, err = analysis.NewBuilder("gotrace", analysis.ValueType{Type: "samples", Unit: "count"}).Finish(), nil
			p.Comment = append(p.Comment, name+": no CPU samples (the target used no CPU)")
		}
		if err != nil {
			res.ans.err = &Fault{Kind: FaultNotPprof, Msg: fmt.Sprintf("the answer to %s is not a profile: %v", path, err)}
		}
		res.profile = p
	}
	var f *Fault
	if errors.As(res.ans.err, &f) && f.Kind == FaultDown && r.t.get(ctx, "/debug/pprof/", 2*time.Second, maxIndex).err == nil {
		f.Kind = FaultServer // it answers: a broken answer, not a dead target
	}
	return res
}

// idleTrace is what the Go trace loader says of a trace of Go 1.19 or
// later without CPU samples: the target used no CPU during the window (the
// demo's idle phase), an empty window rather than a fault.
const idleTrace = "go trace has no CPU samples: record it"

// finish books a collection's result.
func (r *runner) finish(res result) {
	r.inflight--
	now, k := r.since(), res.st
	var f *Fault
	switch {
	case res.ans.err == nil:
		r.accept(k, res, now)
	case errors.Is(res.ans.err, context.Canceled):
		r.g.done(k, now, -1, false)
		r.dropped++
	case errors.As(res.ans.err, &f):
		r.fault(k, f, now)
	default:
		r.g.done(k, now, -1, false)
		r.note(fmt.Sprintf("%s: %v", k.kind, res.ans.err))
	}
}

// accept books a window: its cost (the agent's, else the model's; for a
// target on this machine, proflens's own work on it too), its place on
// proflens's clock; hands it to report, then checks the triggers (a
// condition may read what report made of it: the phases).
func (r *runner) accept(k *kindState, res result, now time.Duration) {
	if res.kind == Counters {
		var err error
		res.parse = ThreadCPU(func() { res.profile, err = countersProfile(res.ans.body, r.counters) })
		if err != nil {
			r.g.done(k, now, 0, true)
			r.drop(k, err.Error())
			return
		}
	}
	cost := res.ans.cost
	if cost < 0 {
		cost = outsideCost(res.kind, res.profile, len(res.ans.body))
	}
	if r.t.Local {
		cost += res.parse
		r.observer += res.parse
	}
	p := res.profile
	if v := mainValue(p, res.kind); v >= 0 && k.job == "" {
		k.seconds += max(k.length, res.end-res.start).Seconds()
		k.observed += float64(p.Total(v))
		k.lastSeen = float64(p.Total(v))
	}
	if _, over := r.g.done(k, now, cost, false); over > 0 {
		r.overruns++
	}
	k.fails = 0
	if res.kind == CPU {
		r.checkClock(p.Start, res.start)
	}
	p.Start, p.Duration = r.wall.Add(res.start), res.end-res.start
	w := &Window{Kind: res.kind, Seq: r.seqs[res.kind], Start: res.start, End: res.end, Cost: cost, Profile: p, Trigger: k.job}
	r.seqs[res.kind]++
	r.windows++
	spent := ThreadCPU(func() {
		r.report(Event{Window: w, Status: r.status(now)})
		r.check(w, now)
	})
	r.chargeObserver(k, spent)
}

// mainValues name the value each kind's counts are read in, for the
// projection onto the whole run.
var mainValues = map[Kind]string{CPU: "cpu", Goroutine: "goroutine", Heap: "alloc_space", Mutex: "delay", Block: "delay", Trace: "samples"}

// mainValue returns the index of k's main value in p, or -1.
func mainValue(p *analysis.Profile, k Kind) int { return p.ValueIndex(mainValues[k]) }

// fault books a failed collection and decides what follows (see Run).
func (r *runner) fault(k *kindState, f *Fault, now time.Duration) {
	switch f.Kind {
	case FaultRefused:
		r.g.done(k, now, 0, true)
		k.retryAt = now + f.RetryAfter
		if !r.refusals[k.kind] {
			r.refusals[k.kind] = true
			r.note(fmt.Sprintf("%s: the agent refused (%s); waiting as it asks", k.kind, f.Msg))
		}
	case FaultNever, FaultNotPprof:
		r.g.done(k, now, 0, true)
		r.drop(k, f.Msg)
	case FaultDown:
		r.g.done(k, now, -1, false)
		r.stopped, r.failed = "the target stopped answering: "+f.Msg, true
	default:
		r.g.done(k, now, -1, false)
		if k.fails++; k.fails >= maxFails {
			r.drop(k, fmt.Sprintf("%s (%d failures in a row)", f.Msg, k.fails))
			return
		}
		k.retryAt = now + backoff(k.fails)
		r.note(fmt.Sprintf("%s: %s; retrying in %v", k.kind, f.Msg, backoff(k.fails)))
	}
}

// drop stops kind k for good (its own schedule and the collections
// triggers ask for), and trace with cpu: a trace starts only with a CPU
// window.
func (r *runner) drop(k *kindState, why string) {
	for _, s := range slices.Clone(r.g.kinds) {
		if s.kind == k.kind && s.dropped == "" {
			s.dropped = why
			if s.job != "" && !s.running {
				r.g.retire(s)
			}
		}
	}
	k.dropped = why
	r.note(fmt.Sprintf("%s: stopped: %s", k.kind, why))
	if t := r.g.find(Trace); k.kind == CPU && t != nil && t.dropped == "" {
		r.drop(t, "it needs cpu windows, which stopped")
	}
	r.g.reallocate()
}

// checkClock compares the target's clock (the start time its CPU profile
// carries) with proflens's, and notes a jump.
func (r *runner) checkClock(target time.Time, start time.Duration) {
	if target.IsZero() {
		return
	}
	skew := target.Sub(r.wall.Add(start))
	if r.skewSet && (skew-r.skew).Abs() > clockTolerance {
		r.note(fmt.Sprintf("the target's clock jumped by %v against proflens's before the cpu window at %.1fs; "+
			"windows stay placed on proflens's monotonic clock", (skew - r.skew).Round(time.Second), start.Seconds()))
	}
	r.skew, r.skewSet = skew, true
}

// note records and reports a message.
func (r *runner) note(msg string) {
	r.notes = append(r.notes, msg)
	r.report(Event{Note: msg, Status: r.status(r.since())})
}

// settle waits, once collection is over, until the account balances: a
// collection that cost more than it reserved can leave the cost accounted
// above the budget's share of the time so far, and the target then runs
// unprofiled until it is not.
func (r *runner) settle() {
	if d := r.g.debt(r.since()); d > 0 {
		r.note(fmt.Sprintf("waiting %v for the account to balance: a collection cost more than it reserved", d.Round(time.Millisecond)))
		time.Sleep(d)
	}
}
