package live

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/agent"
)

// sim is a governor run on a simulated clock: each collection of kind k
// costs cost[k] (per second on for cpu and trace; times jitter) and lasts
// its length (snapshots 10 ms). At every step it checks that the cost
// accounted, reservations in flight included, never exceeds what the
// budget allowed so far. at, when set, runs before each step (to change
// the budget, or make a kind wait).
type sim struct {
	p      Plan
	cost   map[Kind]float64
	jitter func() float64
	at     func(g *governor, now time.Duration)
	fail   func(k *kindState) bool // a collection fails, its cost unknown
	starts []start                 // every collection, in order
}

// start is one collection of a simulation: when it started, what it
// reserved and what it cost.
type start struct {
	kind     Kind
	at, end  time.Duration
	length   time.Duration // on time asked for
	reserved float64
	cost     float64
	failed   bool
}

func (s *sim) run(t *testing.T) *governor {
	t.Helper()
	g := newGovernor(s.p, 2)
	type flight struct {
		k   *kindState
		i   int
		end time.Duration
	}
	var flying []flight
	for now := time.Duration(0); now < s.p.For; {
		if s.at != nil {
			s.at(g, now)
		}
		for _, k := range g.due(now) {
			g.start(k, now)
			end := now + max(k.length, 10*time.Millisecond)
			flying = append(flying, flight{k, len(s.starts), end})
			s.starts = append(s.starts, start{kind: k.kind, at: now, end: end, length: k.length, reserved: k.held})
		}
		if limit := g.allowedAt(now); g.spent > limit+1e-12 {
			t.Fatalf("at %v: spent %g s, more than the budget allowed, %g s", now, g.spent, limit)
		}
		n := g.next(now)
		if n <= now && (g.end == 0 || now < g.end) || n > now+g.window || g.end > 0 && n > max(g.end, now) {
			t.Fatalf("at %v: next look at %v, want one later (all that can start has), within a window and not past the end %v", now, n, g.end)
		}
		next := max(n, now+time.Millisecond) // as Run waits
		for _, f := range flying {
			next = min(next, f.end)
		}
		now = next
		flying = slices.DeleteFunc(flying, func(f flight) bool {
			if f.end > now {
				return false
			}
			c := s.cost[f.k.kind] * s.jitter()
			if f.k.kind.timed() {
				c *= f.k.length.Seconds()
			}
			if s.fail != nil && s.fail(f.k) {
				s.starts[f.i].cost, s.starts[f.i].failed = f.k.held, true
				g.done(f.k, now, -1, false)
				return true
			}
			s.starts[f.i].cost = c
			g.done(f.k, now, c, false)
			return true
		})
	}
	return g
}

// simulate runs p on a simulated clock (see sim).
func simulate(t *testing.T, p Plan, cost map[Kind]float64, jitter func() float64) *governor {
	t.Helper()
	return (&sim{p: p, cost: cost, jitter: jitter}).run(t)
}

func windows(g *governor) map[Kind]int {
	out := map[Kind]int{}
	for _, k := range g.kinds {
		out[k.kind] = k.windows
	}
	return out
}

// costs are those the demo target's plain server was measured at, per
// collection (cpu and trace: per second on).
var costs = map[Kind]float64{CPU: 0.0035, Goroutine: 0.003, Heap: 0.008, Mutex: 0.0025, Block: 0.0025, Trace: 0.008}

// TestGovernorSchedules: a generous budget runs every kind once a window;
// a tight one serves kinds in priority order, the lower ones less often
// but not never, or says when they will come; the accounted cost stays
// within the budget throughout (sim checks) and reaches at least 70% of
// what the kinds can use, the budget or less.
func TestGovernorSchedules(t *testing.T) {
	one := func() float64 { return 1 }
	for _, tt := range []struct {
		budget  float64
		minCPU  int // of 1200 one-second windows
		ordered bool
	}{
		{0.10, 1190, false},
		{0.01, 1000, false},
		{0.001, 140, true},
	} {
		p := Plan{Budget: tt.budget, Kinds: Kinds, Window: time.Second, For: 1200 * time.Second}
		g := simulate(t, p, costs, one)
		n := windows(g)
		t.Logf("budget %g: windows %v, spent %.3g%%, usable %.3g%%", tt.budget, n, 100*g.spent/1200, 100*g.usable())
		if n[CPU] < tt.minCPU {
			t.Errorf("budget %g: %d CPU windows of 1200, want at least %d (all: %v)", tt.budget, n[CPU], tt.minCPU, n)
		}
		g.end = 0 // when would they come, had the attachment gone on?
		for _, k := range g.kinds {
			if _, ok := g.eta(k, p.For); k.windows == 0 && !ok && k.never == "" {
				t.Errorf("budget %g: no %s window, no time it will come and no word that it never will (all: %v)", tt.budget, k.kind, n)
			}
		}
		if tt.ordered && !(n[CPU] > n[Goroutine] && n[Goroutine] >= n[Block]) {
			t.Errorf("budget %g: windows %v: want fewer windows down the priority order", tt.budget, n)
		}
		if spent, can := g.spent/1200, min(tt.budget, g.usable()); spent < 0.7*can {
			t.Errorf("budget %g: spent %.3g%% of the time, less than 70%% of the %.3g%% the kinds can use", tt.budget, 100*spent, 100*can)
		}
	}
}

// TestGovernorWakes: a kind that waits a long time (the agent asked it to
// retry in ten minutes) does not hoard the credit of its share meanwhile
// and then burst past it: over every stretch of time, one window long or
// thirty, the collections started within it cost at most the budget's
// share of the stretch plus three reservations per kind (the most credit
// the kinds may hold and have in flight).
func TestGovernorWakes(t *testing.T) {
	p := Plan{Budget: 0.01, Kinds: []Kind{CPU, Heap}, Window: time.Second, For: 900 * time.Second}
	cost := map[Kind]float64{CPU: 0.0035, Heap: 0.05} // a large heap profile: 5% if taken every window
	var most float64                                  // three reservations per kind, at the most they reached
	s := &sim{p: p, cost: cost, jitter: func() float64 { return 1 }, at: func(g *governor, now time.Duration) {
		if now == 0 {
			g.find(Heap).retryAt = 600 * time.Second
		}
		var r float64
		for _, k := range g.kinds {
			r += 3 * g.predict(k)
		}
		most = max(most, r)
	}}
	g := s.run(t)
	if n := windows(g)[Heap]; n < 5 {
		t.Fatalf("%d heap windows after waking: want it to collect again", n)
	}
	for _, stretch := range []time.Duration{p.Window, 30 * p.Window} {
		for a := time.Duration(0); a+stretch <= p.For; a += p.Window / 4 {
			var c float64
			for _, st := range s.starts {
				if st.at >= a && st.at < a+stretch {
					c += st.cost
				}
			}
			if bound := p.Budget*stretch.Seconds() + most; c > bound+1e-12 {
				t.Fatalf("collections started in [%v, %v) cost %.3f s, more than %.3f s (the budget's share plus three reservations per kind)",
					a, a+stretch, c, bound)
			}
		}
	}
}

// TestGovernorBudgetChange: a budget lowered while collecting takes
// effect at once: from a window after the change, collections cost at
// most the new budget's share plus the credit the kinds held (at most
// three reservations each); a budget raised is spent.
func TestGovernorBudgetChange(t *testing.T) {
	p := Plan{Budget: 0.10, Kinds: Kinds, Window: time.Second, For: 600 * time.Second}
	change := 300 * time.Second
	var most float64
	s := &sim{p: p, cost: costs, jitter: func() float64 { return 1 }, at: func(g *governor, now time.Duration) {
		if now >= change && g.budget == 0.10 {
			change = now
			g.setBudget(now, 0.001)
			for _, k := range g.kinds {
				most += 3 * g.predict(k)
			}
		}
	}}
	g := s.run(t)
	var before, after float64
	for _, st := range s.starts {
		switch {
		case st.at < change:
			before += st.cost
		case st.at >= change+p.Window:
			after += st.cost
		}
	}
	span := (p.For - change - p.Window).Seconds()
	t.Logf("before: %.3g%%, after: %.3g%%", 100*before/change.Seconds(), 100*after/span)
	if bound := 0.001*span + most; after > bound {
		t.Errorf("after lowering the budget to 0.1%%, collections cost %.3f s in %.0f s, more than %.3f s", after, span, bound)
	}
	if after < 0.7*0.001*span {
		t.Errorf("after lowering the budget to 0.1%%, collections cost %.3f s in %.0f s: the new budget is not spent", after, span)
	}
	if diff(g.allowedAt(p.For), 0.10*change.Seconds()+0.001*(p.For-change).Seconds()) > 1e-9 {
		t.Errorf("allowed %g s, want the budgets' integral", g.allowedAt(p.For))
	}
}

// TestGovernorNever: a budget too small for any collection marks every
// kind, saying what budget would pay for it; a larger budget revives them.
func TestGovernorNever(t *testing.T) {
	g := newGovernor(Plan{Budget: 1e-5, Kinds: Kinds, Window: time.Second}, 2)
	for _, k := range g.kinds {
		if k.never == "" || !strings.Contains(k.never, "budget=") {
			t.Errorf("%s at 0.001%%: never = %q, want why and what budget would pay", k.kind, k.never)
		}
		if _, ok := g.eta(k, 0); ok {
			t.Errorf("%s at 0.001%%: an eta, want none", k.kind)
		}
	}
	if g.payable() || len(g.due(time.Hour)) != 0 {
		t.Errorf("a budget of 0.001%% pays for something")
	}
	g.setBudget(time.Hour, 0.01)
	if !g.payable() || g.find(CPU).never != "" {
		t.Errorf("at 1%%, cpu is still never: %q", g.find(CPU).never)
	}
}

// TestGovernorOverrun: collections that cost up to three times their
// expectation (a target that got busier) leave debts; simulate checks the
// bound only for the kinds' reservations, so here the cost may pass the
// budget briefly, and debt says how long to wait for it to balance.
func TestGovernorDebt(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.01, Kinds: []Kind{Goroutine}, Window: time.Second}, 1)
	now := 2 * time.Second
	k := g.due(now)[0]
	g.start(k, now)
	g.done(k, now, 0.05, false) // reserved 10 ms, cost 50 ms
	want := time.Duration((0.05 - 0.01*2) / 0.01 * float64(time.Second))
	if d := g.debt(now); (d - want).Abs() > time.Millisecond {
		t.Errorf("debt = %v, want %v", d, want)
	}
	if len(g.due(now+time.Second)) != 0 {
		t.Errorf("a kind in debt started again")
	}
	if g.debt(now+want) != 0 {
		t.Errorf("debt after waiting %v = %v, want 0", want, g.debt(now+want))
	}
}

// TestGovernorJitter: with costs varying up to twice their last value,
// the reservations still cover them and the bound holds (simulate checks).
func TestGovernorJitter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, b := range []float64{0.1, 0.01, 0.001} {
		p := Plan{Budget: b, Kinds: Kinds, Window: 2 * time.Second, For: 300 * time.Second}
		prev := 1.0
		simulate(t, p, costs, func() float64 {
			prev = min(2*prev, 0.25+r.Float64())
			return prev
		})
	}
}

// TestGovernorJobs: collections a trigger asks for come first, within the
// budget: a trace within a few windows (with a CPU window, which its
// samples need), a longer CPU window in place of the kind's own, which
// waits meanwhile; once done, they count among their kind's windows as
// triggered, and the kind's own schedule goes on.
func TestGovernorJobs(t *testing.T) {
	p := Plan{Budget: 0.05, Kinds: Kinds, Window: time.Second, For: 60 * time.Second}
	var trace, cpu *kindState
	var asked time.Duration
	s := &sim{p: p, cost: costs, jitter: func() float64 { return 1 }, at: func(g *governor, now time.Duration) {
		if now >= 10*time.Second && trace == nil {
			asked = now
			trace = g.request(now, Trace, 0, "test")
			cpu = g.request(now, CPU, 5*time.Second, "test")
		}
	}}
	g := s.run(t)
	var traceAt, cpuAt time.Duration = -1, -1
	for _, st := range s.starts {
		if st.at >= asked && st.kind == Trace && traceAt < 0 {
			traceAt = st.at
		}
		if st.at >= asked && st.kind == CPU && cpuAt < 0 {
			cpuAt = st.at
		}
	}
	if traceAt < 0 || traceAt > asked+8*time.Second {
		t.Errorf("the trace asked for at %v started at %v: want within a few windows", asked, traceAt)
	}
	for _, st := range s.starts {
		if st.kind == CPU && st.at > cpuAt && st.at < cpuAt+5*time.Second {
			t.Errorf("a CPU window started at %v, inside the 5s one asked for (from %v)", st.at, cpuAt)
		}
	}
	if slices.Contains(g.kinds, trace) || slices.Contains(g.kinds, cpu) {
		t.Errorf("the jobs are still scheduled after they ran")
	}
	if k := g.find(CPU); k.triggered != 1 || k.windows < 40 {
		t.Errorf("cpu: %d windows, %d triggered: want the 5s one among them, and the kind's own going on", k.windows, k.triggered)
	}
	if k := g.find(Trace); k.triggered != 1 {
		t.Errorf("trace: %d triggered windows, want 1", k.triggered)
	}
}

// TestStatusWaitingJobs: a collection a trigger asked for that waits for
// its credit is in the status, with when it can start, and so is the
// budget the target's agent keeps by itself.
func TestStatusWaitingJobs(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.01, Kinds: []Kind{CPU}, Window: time.Second, For: time.Minute}, 2)
	r := &runner{t: &Target{URL: "http://x", Agent: &agent.Status{Budget: 0.005}}, g: g}
	now := 3 * time.Second
	g.request(now, Trace, 0, "test")
	st := r.status(now)
	if st.AgentBudget != 0.005 {
		t.Errorf("agent budget %g, want 0.005", st.AgentBudget)
	}
	var trace *KindStatus
	for i := range st.Kinds {
		if st.Kinds[i].Kind == Trace {
			trace = &st.Kinds[i]
		}
	}
	if trace == nil || trace.Waiting != 1 || trace.WaitNext <= now {
		t.Fatalf("trace status %+v: want one triggered collection waiting, startable after %v", trace, now)
	}
	for _, k := range g.kinds {
		if k.kind == Trace && k.job != "" {
			k.running = true
		}
	}
	if st := r.status(now); slices.ContainsFunc(st.Kinds, func(k KindStatus) bool { return k.Waiting > 0 }) {
		t.Errorf("a running collection counted as waiting: %+v", st.Kinds)
	}
}
