package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/gotrace" // trace windows
	_ "github.com/proflens/proflens/analysis/pprof"   // every other window
)

// DefaultMaxWindows is how many windows of all kinds an attachment keeps
// at most when the plan sets no limit.
const DefaultMaxWindows = 3600

// Plan is what to collect and within what.
type Plan struct {
	Budget     float64       // share of the target's run time, 0.01 for 1%
	Kinds      []Kind        // in priority order
	Window     time.Duration // length of CPU windows and deltas: whole seconds, at least one
	For        time.Duration // how long to collect; 0 until ctx ends
	MaxWindows int           // most windows of all kinds; 0 for DefaultMaxWindows
	// Patience is how long past its window an answer may take before the
	// target counts as slow; 0 for DefaultPatience.
	Patience time.Duration
	Triggers []*Trigger
	// Control, when set, changes the collection while it runs (see
	// Control). Without it, Run ends at once when the budget can never pay
	// for any collection; with it, Run waits for a budget that can.
	Control <-chan Control
}

// DefaultPatience is how long past its window an answer may take.
const DefaultPatience = 10 * time.Second

// Check reports a plan Run cannot follow.
func (p Plan) Check() error {
	switch {
	case !(p.Budget > 0 && p.Budget <= 1):
		return fmt.Errorf("budget %s: want a share of the target's time above 0%% and at most 100%%", Percent(p.Budget))
	case len(p.Kinds) == 0:
		return errors.New("no kinds to collect")
	case p.Window < time.Second || p.Window%time.Second != 0:
		return fmt.Errorf("window %v: want whole seconds (net/http/pprof takes seconds=N), at least 1s", p.Window)
	case p.For < 0 || p.MaxWindows < 0 || p.Patience < 0:
		return fmt.Errorf("for=%v, maxwindows=%d, patience=%v: want positive values (0 for the default)", p.For, p.MaxWindows, p.Patience)
	}
	return nil
}

// Window is one finished collection: an interval of the live series.
type Window struct {
	Kind       Kind
	Seq        int           // per kind, from 0
	Start, End time.Duration // since the attachment began, on proflens's monotonic clock
	Cost       float64       // seconds of the target's time accounted
	Profile    *analysis.Profile
	Trigger    string // why a trigger asked for it; "" for the kind's own schedule
}

// Event is what Run reports as it goes: a finished window or a note, and
// the status after it.
type Event struct {
	Window *Window
	Note   string
	Status Status
}

// result is what a collection's goroutine hands back to Run.
type result struct {
	st         *kindState
	kind       Kind
	start, end time.Duration
	ans        answer
	profile    *analysis.Profile
	parse      float64 // proflens's CPU seconds reading the answer
}

// Retries: a kind whose collection fails (an error status, no answer in
// time) waits backoff(n) after its n-th failure in a row, and stops after
// maxFails of them; the other kinds go on.
const maxFails = 5

func backoff(n int) time.Duration { return min(time.Second<<(n-1), 30*time.Second) }

// clockTolerance is how far the target's clock may drift from proflens's
// between two CPU windows before a jump is reported.
const clockTolerance = 2 * time.Second

// Run collects from t following p until p.For has passed, ctx ends (an
// interrupt, or the cause given to context.WithCancelCause: the
// collections in flight are dropped, everything finished is kept), the target stops answering, every kind has stopped, or
// p.MaxWindows windows are in. It calls report after each window and each
// note, from the caller's goroutine, and returns the final status, whose
// Stopped says why collection ended. Each collection runs on a goroutine
// of its own; Run returns after all of them have.
//
// Faults: a refusal of the agent (429) waits its Retry-After; a 403 of the
// agent (the collection never fits its budget), a 404 or an answer that
// is not a profile stops that kind; an error status or no answer within
// the window plus p.Patience retries that kind after 1 s, 2 s, 4 s, … and
// stops it after five in a row; a connection refused or broken stops
// everything when the target does not answer /debug/pprof/ either (it
// died), and is retried like an error status when it does.
func Run(ctx context.Context, t *Target, p Plan, report func(Event)) Status {
	r := &runner{t: t, p: p, g: newGovernor(p, t.CPUs), report: report, wall: time.Now(),
		results: make(chan result), seqs: map[Kind]int{}, refusals: map[Kind]bool{}, counters: map[string]int64{}}
	for _, tr := range p.Triggers {
		r.arm(tr)
	}
	if k := r.g.find(Counters); k != nil && t.Agent == nil {
		r.drop(k, "the program's counters need the proflens agent (agent.Count, agent.Gauge); "+t.URL+" is a plain net/http/pprof server")
	}
	if r.p.MaxWindows == 0 {
		r.p.MaxWindows = DefaultMaxWindows
	}
	if r.p.Patience == 0 {
		r.p.Patience = DefaultPatience
	}
	r.loop(ctx)
	r.settle()
	return r.status(r.since())
}

// runner is one Run's state, owned by its goroutine; the collections'
// goroutines only send their results.
type runner struct {
	t        *Target
	p        Plan
	g        *governor
	report   func(Event)
	wall     time.Time // when collection began, with its monotonic reading
	results  chan result
	inflight int
	windows  int
	seqs     map[Kind]int
	notes    []string
	stopped  string
	failed   bool
	unpaid   bool // the budget pays for no collection
	dropped  int  // collections in flight dropped by an interrupt
	overruns int  // collections that cost more than they reserved
	skew     time.Duration
	skewSet  bool
	refusals map[Kind]bool
	triggers []*armed
	counters map[string]int64 // the program's counters at their last reading
	observer float64          // proflens's own CPU seconds charged, for a target on this machine
	changes  []BudgetChange
}

func (r *runner) since() time.Duration { return time.Since(r.wall) }

// loop starts what is due, then waits for a result, the next decision or
// the end, until collection stopped and nothing is in flight.
func (r *runner) loop(ctx context.Context) {
	reqs, cancel := context.WithCancel(context.Background())
	defer cancel()
	for {
		now := r.since()
		if r.stopped == "" {
			r.stopped = r.why(ctx, now)
		}
		if r.stopped != "" {
			if r.inflight == 0 {
				return
			}
			if ctx.Err() != nil {
				cancel() // an interrupt drops what is in flight
			}
			r.finish(<-r.results)
			continue
		}
		for _, k := range r.g.due(now) {
			r.launch(reqs, k, now)
		}
		r.wait(ctx, r.g.next(now)-now)
		r.settleControls()
	}
}

// why says why collection should stop at now, or "".
func (r *runner) why(ctx context.Context, now time.Duration) string {
	switch {
	case ctx.Err() != nil:
		if cause := context.Cause(ctx); cause != ctx.Err() {
			return cause.Error() // the reason the caller gave
		}
		return "interrupted"
	case r.p.For > 0 && now >= r.p.For:
		return fmt.Sprintf("for=%v elapsed", r.p.For)
	case r.windows >= r.p.MaxWindows:
		return fmt.Sprintf("the most windows (maxwindows=%d) are in", r.p.MaxWindows)
	case !r.g.collecting():
		return "every kind stopped"
	case r.p.Control == nil && !r.g.payable() && r.inflight == 0:
		r.unpaid = true
		return r.unpayable()
	}
	return ""
}

// unpayable says why a budget pays for no collection, and what would.
func (r *runner) unpayable() string {
	var cheapest float64
	var kind Kind
	for _, k := range r.g.kinds {
		if c := r.g.cheapest(k); k.never != "" && (kind == "" || c < cheapest) {
			cheapest, kind = c, k.kind
		}
	}
	if kind == "" {
		return "no kind can be collected"
	}
	return fmt.Sprintf("a budget of %s pays %s of the target's time in %v, less than any collection reserves "+
		"(the cheapest, %s, %s); budget=%s would pay for one a minute", Percent(r.g.budget),
		seconds(r.g.budget*horizon.Seconds()), horizon, kind, seconds(cheapest), percentUp(cheapest/horizon.Seconds()))
}

// wait blocks for d, a result, a control or the end of ctx, whichever
// comes first.
func (r *runner) wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(max(d, time.Millisecond))
	defer t.Stop()
	select {
	case res := <-r.results:
		r.finish(res)
	case c := <-r.p.Control:
		r.apply(c)
	case <-t.C:
	case <-ctx.Done():
	}
}

// settleControls applies the controls already waiting, so that a
// stream of windows does not delay them.
func (r *runner) settleControls() {
	for {
		select {
		case c := <-r.p.Control:
			r.apply(c)
		default:
			return
		}
	}
}

// launch reserves and starts a collection of k on its own goroutine.
func (r *runner) launch(ctx context.Context, k *kindState, now time.Duration) {
	r.g.start(k, now)
	r.inflight++
	kind, length := k.kind, k.length
	go func() { r.results <- r.collect(ctx, k, kind, length, now) }()
}
