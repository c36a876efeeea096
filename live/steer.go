package live

import (
	"fmt"
	"slices"
	"time"
)

// BudgetChange is a budget set while collecting.
type BudgetChange struct {
	At     time.Duration // since the attachment began
	Budget float64
}

// apply carries out a control (see Control).
func (r *runner) apply(c Control) {
	now := r.since()
	if c.Budget > 0 && c.Budget <= 1 && c.Budget != r.g.budget {
		old := r.g.budget
		r.g.setBudget(now, c.Budget)
		r.changes = append(r.changes, BudgetChange{At: now, Budget: c.Budget})
		r.note(fmt.Sprintf("budget %s from %.1fs on (it was %s)", Percent(c.Budget), now.Seconds(), Percent(old)))
	}
	if c.Pause != c.Resume && c.Pause != r.g.paused {
		r.g.pause(now, c.Pause)
		r.note(fmt.Sprintf("%s at %.1fs", map[bool]string{true: "paused", false: "resumed"}[c.Pause], now.Seconds()))
	}
	if len(c.Kinds) > 0 && !slices.Equal(c.Kinds, r.g.asked()) {
		old := r.g.asked()
		r.g.setKinds(now, c.Kinds)
		r.note(fmt.Sprintf("kinds %s from %.1fs on (they were %s)", joinKinds(c.Kinds), now.Seconds(), joinKinds(old)))
		for i, a := range r.triggers {
			r.noteDeaf(i, a.t)
		}
	}
	if c.Trigger != nil {
		r.arm(c.Trigger)
		r.note(fmt.Sprintf("trigger %d armed at %.1fs: %s", len(r.triggers), now.Seconds(), c.Trigger))
		r.noteDeaf(len(r.triggers)-1, c.Trigger)
	}
	for _, q := range c.Collect {
		r.queue(now, q, "asked at "+fmt.Sprintf("%.1fs", now.Seconds()))
	}
	if c.Charge > 0 {
		r.chargeObserver(nil, c.Charge)
	}
	if c.Reply != nil {
		c.Reply <- r.status(now)
	}
}

// noteDeaf notes that trigger i cannot fire while the kind its condition
// reads is not collected.
func (r *runner) noteDeaf(i int, t *Trigger) {
	if k := r.deaf(t); k != "" {
		r.note(fmt.Sprintf("trigger %d (%s) reads %s windows, which are not collected: it cannot fire until %s is among the kinds", i+1, t, k, k))
	}
}

// deaf returns the kind t's condition reads when it is not collected, ""
// when it is.
func (r *runner) deaf(t *Trigger) Kind {
	if k := t.When.Needs(); !slices.Contains(r.g.asked(), k) {
		return k
	}
	return ""
}

// arm adds a trigger.
func (r *runner) arm(t *Trigger) { r.triggers = append(r.triggers, &armed{t: t}) }

// check tests the triggers that read w's kind, and fires those whose
// condition starts to hold (it did not at their last test) and that are
// not waiting for what they asked before.
func (r *runner) check(w *Window, now time.Duration) {
	for i, a := range r.triggers {
		a.pending = slices.DeleteFunc(a.pending, func(j *kindState) bool { return !slices.Contains(r.g.kinds, j) })
		if a.t.When.Needs() != w.Kind {
			continue
		}
		why, ok := a.t.When.Check(w)
		was := a.holds
		a.holds = ok
		if !ok || was || len(a.pending) > 0 {
			continue
		}
		a.fired++
		a.last, a.why = now, why
		var asked []string
		for _, q := range a.t.Then {
			jobs := r.queue(now, q, fmt.Sprintf("trigger %d: %s", i+1, why))
			a.pending = append(a.pending, jobs...)
			asked = append(asked, q.String())
		}
		r.note(fmt.Sprintf("trigger %d fired at %.1fs: %s; queued %v", i+1, now.Seconds(), why, asked))
	}
}

// queue asks the governor for the collection q, for the reason why, and
// returns what it queued: a trace comes with a CPU window of its own when
// the CPU kind is not collected (a trace's samples need the CPU
// profiler). A collection the budget can never pay for is noted and not
// queued.
func (r *runner) queue(now time.Duration, q Request, why string) []*kindState {
	var out []*kindState
	if cpu := r.g.find(CPU); q.Kind == Trace && (cpu == nil || !cpu.scheduled()) {
		d := max(q.For, q.Kind.length(r.p.Window)) + traceMargin
		out = append(out, r.g.request(now, CPU, (d+time.Second-1)/time.Second*time.Second, why))
	}
	out = append(out, r.g.request(now, q.Kind, q.For, why))
	for _, j := range out {
		if j.never != "" {
			r.note(fmt.Sprintf("%s for %s: not queued: %s", j.kind, why, j.never))
			r.g.retire(j)
			r.g.reallocate()
			return nil
		}
	}
	return out
}

// chargeObserver adds proflens's own work (CPU seconds) to k's account
// (the first kind's when k is nil) when the target runs on this machine,
// where that work competes with it.
func (r *runner) chargeObserver(k *kindState, cost float64) {
	if !r.t.Local || cost <= 0 {
		return
	}
	kind := r.p.Kinds[0]
	if k != nil {
		kind = k.kind
	}
	if s := r.g.find(kind); s != nil {
		r.observer += cost
		r.g.charge(s, cost)
	}
}
