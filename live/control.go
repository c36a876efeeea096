package live

import (
	"fmt"
	"strings"
	"time"
)

// Control changes a running collection: Run applies each as it comes on
// Plan.Control, between two decisions, so a change takes effect at once
// (a collection in flight finishes as it was paid for). Reply, when set,
// receives the status once the control is applied.
type Control struct {
	Budget  float64  // above 0: the budget from now on
	Pause   bool     // nothing starts and no credit accrues until Resume
	Resume  bool     //
	Trigger *Trigger // arm a trigger
	// Kinds, when not empty, are the kinds collected from now on, in
	// priority order; a kind left out stops (its windows stay, and
	// triggers may still ask for it), a new one starts with no credit.
	Kinds   []Kind
	Collect []Request
	// Charge is proflens's own work on the windows (seconds of CPU) done
	// outside Run, for a target on this machine: it joins the account.
	Charge float64
	Reply  chan<- Status
}

// Request asks for one collection of Kind on For (0: the kind's default
// length; CPU windows and deltas in whole seconds).
type Request struct {
	Kind Kind
	For  time.Duration
}

func (r Request) String() string {
	if r.For == 0 {
		return string(r.Kind)
	}
	return string(r.Kind) + ":" + r.For.String()
}

// ParseRequests reads what a trigger starts: KIND[:DURATION], comma
// separated ("trace", "cpu:10s", "mutex,block").
func ParseRequests(s string) ([]Request, error) {
	var out []Request
	for _, w := range strings.Split(s, ",") {
		name, dur, timed := strings.Cut(strings.TrimSpace(w), ":")
		r := Request{Kind: Kind(name)}
		if r.Kind == Goroutine || !isKind(r.Kind) {
			return nil, fmt.Errorf("then=%s: %q is not a collection a trigger starts; want cpu, heap, mutex, block or trace, with :DURATION if wanted", s, name)
		}
		if timed {
			d, err := time.ParseDuration(dur)
			if err != nil || d < minTrace || (r.Kind != Trace && d%time.Second != 0) || d > 10*time.Minute {
				return nil, fmt.Errorf("then=%s: %q: want a duration up to 10m (whole seconds but for a trace, which takes at least %v)", s, w, minTrace)
			}
			r.For = d
		}
		out = append(out, r)
	}
	return out, nil
}

// Trigger starts collections when a condition on the live data starts to
// hold: the DYPER requirement that analysis be turned on "automatically
// based on conditions in the program". It fires when its condition holds
// after a window where it did not (or at its first test), never while what
// it asked for before is waiting or running; its collections wait for
// their credit like any other, at the highest priority.
type Trigger struct {
	When Condition
	Then []Request
}

func (t *Trigger) String() string {
	then := make([]string, len(t.Then))
	for i, r := range t.Then {
		then[i] = r.String()
	}
	return "when " + t.When.String() + " then " + strings.Join(then, ",")
}

// Condition is a test on the live data, made on each window as it comes.
type Condition interface {
	// Check says whether the condition holds after window w, and why, in
	// words naming the figure it read.
	Check(w *Window) (why string, ok bool)
	String() string
	// Needs is the kind whose windows the condition reads.
	Needs() Kind
}

// armed is a trigger in a Run, and what it did.
type armed struct {
	t       *Trigger
	fired   int
	last    time.Duration // when it last fired
	why     string        // why it last fired
	holds   bool          // the condition held at its last test
	pending []*kindState  // the collections it asked for, not yet done
}

// TriggerStatus is a trigger's part of a Status.
type TriggerStatus struct {
	Trigger string
	Fired   int
	Last    time.Duration // when it last fired, since the attachment began
	Why     string        // why it last fired
	// Deaf names the kind its condition reads when that kind is not
	// collected: the trigger cannot fire until it is.
	Deaf Kind
}
