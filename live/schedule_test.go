package live

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/proflens/proflens/agent"
	"github.com/proflens/proflens/analysis"
)

// TestTracesInsideCPUWindows: a trace starts only with a CPU window, whose
// samples it needs, and ends inside it, a margin before its end, also
// beside a short triggered CPU window.
func TestTracesInsideCPUWindows(t *testing.T) {
	for _, budget := range []float64{0.05, 0.1, 0.2, 0.3, 0.5, 1} { // traces as long as their share pays, and at their longest
		testTracesInside(t, budget)
	}
}

func testTracesInside(t *testing.T, budget float64) {
	var asked time.Duration
	s := &sim{p: Plan{Budget: budget, Kinds: []Kind{CPU, Trace}, Window: 2 * time.Second, For: 60 * time.Second}, cost: costs, jitter: func() float64 { return 1 },
		at: func(g *governor, now time.Duration) { // short triggered CPU windows now and then
			if now-asked >= 3*time.Second {
				asked = now
				g.request(now, CPU, 400*time.Millisecond, "short")
			}
		}}
	s.run(t)
	traces := 0
	for _, tr := range s.starts {
		if tr.kind != Trace {
			continue
		}
		traces++
		i := slices.IndexFunc(s.starts, func(c start) bool { return c.kind == CPU && c.at == tr.at })
		if i < 0 || tr.length > s.starts[i].length-traceMargin {
			t.Errorf("trace at %v of %v: want it with a CPU window and ending %v before it (all: %v)", tr.at, tr.length, traceMargin, s.starts)
		}
	}
	if traces == 0 {
		t.Errorf("no trace in a minute at budget %g", budget)
	}
}

// TestDutyIsTimeCollecting: the duty the status reports is the time with
// at least one collection in flight: the union of the collections' spans.
func TestDutyIsTimeCollecting(t *testing.T) {
	union := func(starts []start, now time.Duration) time.Duration {
		var u, reach time.Duration
		spans := slices.Clone(starts)
		slices.SortFunc(spans, func(a, b start) int { return int(a.at - b.at) })
		for _, c := range spans {
			from, end := max(c.at, reach), min(c.end, now)
			if end > from {
				u += end - from
			}
			reach = max(reach, end)
		}
		return u
	}
	var s *sim
	during := 0
	s = &sim{p: Plan{Budget: 0.05, Kinds: Kinds, Window: time.Second, For: 30 * time.Second}, cost: costs, jitter: func() float64 { return 1 },
		at: func(g *governor, now time.Duration) {
			if g.running() {
				during++
			}
			if got, want := g.dutyAt(now), union(s.starts, now); got != want {
				t.Fatalf("at %v: duty %v, want the collections' union %v", now, got, want)
			}
		}}
	g := s.run(t)
	if got, want := g.dutyAt(s.p.For), union(s.starts, s.p.For); got != want || want == 0 || during == 0 {
		t.Errorf("duty %v, want the collections' union %v (looked %d times during one)", got, want, during)
	}
	if g.running() {
		t.Fatal("collections still in flight at the end of the simulation")
	}
}

// TestEtaIsWhenCreditPays: a kind waiting for credit is told the moment
// its credit pays its reservation: it is ready then, and not a
// millisecond before.
func TestEtaIsWhenCreditPays(t *testing.T) {
	for _, budget := range []float64{0.001, 0.01, 0.2} {
		for _, kind := range []Kind{CPU, Heap} {
			g := newGovernor(Plan{Budget: budget, Kinds: []Kind{CPU, Heap}, Window: time.Second}, 2)
			k := g.find(kind)
			at, ok := g.eta(k, 0)
			if !ok || at <= time.Millisecond {
				t.Fatalf("budget %g, %s: eta %v, %v; want a time to wait for credit", budget, k.kind, at, ok)
			}
			before := newGovernor(Plan{Budget: budget, Kinds: []Kind{CPU, Heap}, Window: time.Second}, 2)
			before.advance(at - time.Millisecond)
			g.advance(at)
			half := newGovernor(Plan{Budget: budget, Kinds: []Kind{CPU, Heap}, Window: time.Second}, 2)
			half.advance(at / 2)
			if again, ok := half.eta(half.find(kind), at/2); !ok || again != at {
				t.Errorf("budget %g, %s: eta %v at the start, %v halfway; want the same", budget, kind, at, again)
			}
			if !g.ready(k, at) || before.ready(before.find(k.kind), at-time.Millisecond) {
				t.Errorf("budget %g, %s: eta %v: ready then %v, a millisecond before %v; want true, false", budget, k.kind, at, g.ready(k, at), before.ready(before.find(k.kind), at-time.Millisecond))
			}
		}
	}
}

// TestSettling: a collection that cost more than it reserved says by how
// much, and its kind's credit pays the difference; the reservation of a
// refused one comes back whole. The cost expected of a kind is the
// costliest of its last recentCosts collections.
func TestSettling(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{Heap}, Window: time.Second}, 2)
	k := g.kinds[0]
	now := time.Duration(0)
	for _, cost := range []float64{0.09, 0.06, 0.01, 0.02, 0.005} {
		for !g.ready(k, now) {
			now += time.Millisecond
			g.advance(now)
		}
		g.start(k, now)
		credit, spent, held := k.credit, g.spent, k.held
		gotHeld, over := g.done(k, now, cost, false)
		if gotHeld != held || math.Abs(over-max(0, cost-held)) > 1e-15 || math.Abs(k.credit-(credit+held-cost)) > 1e-15 || math.Abs(g.spent-(spent-held+cost)) > 1e-15 {
			t.Errorf("cost %g of %g reserved: held %g, over %g, credit %g → %g, spent %g → %g", cost, held, gotHeld, over, credit, k.credit, spent, g.spent)
		}
	}
	if got, want := g.unit(Heap), 0.06; got != want { // 0.09 is five collections back
		t.Errorf("expected heap cost %g, want %g, the costliest of the last %d", got, want, recentCosts)
	}
	g.start(k, now)
	credit, spent, held := k.credit, g.spent, k.held
	if _, over := g.done(k, now, -1, true); math.Abs(k.credit-(credit+held)) > 1e-15 || math.Abs(g.spent-(spent-held)) > 1e-15 || over != 0 {
		t.Errorf("refused: credit %g → %g, spent %g → %g, over %g; want the reservation %g back", credit, k.credit, spent, g.spent, over, held)
	}
}

// TestLooksAgain: with nothing to wait for, the governor looks again a
// window later, and never after the attachment ends.
func TestLooksAgain(t *testing.T) {
	g := newGovernor(Plan{Budget: 1e-7, Kinds: []Kind{CPU}, Window: time.Second}, 2)
	if n := g.next(0); n != time.Second {
		t.Errorf("nothing payable, no end: next look at %v, want 1s", n)
	}
	g.end = 1500 * time.Millisecond
	if n := g.next(time.Second); n != g.end {
		t.Errorf("nothing payable, end at 1.5s: next look at %v, want 1.5s", n)
	}
}

// TestStatusAccounts: at every moment of a run with triggered collections
// (of a kind asked for, failing once, and two of one not asked for), the
// status gives every second
// accounted to some kind, and every settled window to one; a kind's
// triggered windows are among its windows; a time to wait for is now or
// later, or -1 for none.
func TestStatusAccounts(t *testing.T) {
	var s *sim
	checked, asked := 0, map[Kind]bool{}
	failed := 0
	s = &sim{p: Plan{Budget: 0.05, Kinds: []Kind{CPU, Heap}, Window: time.Second, For: 40 * time.Second}, cost: costs, jitter: func() float64 { return 1.5 },
		fail: func(k *kindState) bool { // the CPU job's first try, which then stays queued
			if k.job == "cpu job" {
				failed++
			}
			return k.job == "cpu job" && failed == 1
		},
		at: func(g *governor, now time.Duration) {
			if now >= 5*time.Second && !asked[CPU] {
				asked[CPU] = g.request(now, CPU, 300*time.Millisecond, "cpu job") != nil
			}
			if now >= 7*time.Second && !asked[Trace] {
				asked[Trace] = g.request(now, Trace, 200*time.Millisecond, "trace job") != nil
				g.request(now, Trace, 100*time.Millisecond, "second trace job")
			}
			st := (&runner{t: &Target{URL: "http://x"}, g: g}).status(now)
			var spent float64
			windows, settled := 0, 0
			for _, c := range s.starts {
				if c.end <= now && !c.failed {
					settled++
				}
			}
			stopped := (&runner{t: &Target{URL: "http://x"}, g: g, stopped: "stopped"}).status(now)
			for i, ks := range st.Kinds {
				first := time.Duration(-1)
				for _, k := range g.kinds {
					if t, ok := g.eta(k, now); ok && k.job != "" && k.kind == ks.Kind && !k.running && (first < 0 || max(t, now) < first) {
						first = max(t, now)
					}
				}
				if ks.Waiting > 0 && ks.WaitNext != first || stopped.Kinds[i].Next != -1 {
					t.Fatalf("at %v: %s waits for %v, first triggered start %v; stopped, next %v", now, ks.Kind, ks.WaitNext, first, stopped.Kinds[i].Next)
				}
				spent += ks.Spent
				windows += ks.Windows
				if ks.Triggered > ks.Windows || ks.Next != -1 && ks.Next < now || ks.Waiting > 0 && ks.WaitNext != -1 && ks.WaitNext < now {
					t.Fatalf("at %v: %+v", now, ks)
				}
			}
			if math.Abs(spent-st.Spent) > 1e-12 || windows != settled {
				t.Fatalf("at %v: kinds account for %g s of %g s and %d windows of %d settled (%+v)", now, spent, st.Spent, windows, settled, st.Kinds)
			}
			checked++
		}}
	g := s.run(t)
	// And with a triggered collection in flight, its reservation held.
	j := g.request(s.p.For, Heap, 0, "in flight")
	g.start(j, s.p.For)
	var spent float64
	for _, ks := range (&runner{t: &Target{URL: "http://x"}, g: g}).status(s.p.For).Kinds {
		spent += ks.Spent
	}
	if j.held == 0 || math.Abs(spent-g.spent) > 1e-12 {
		t.Errorf("a triggered collection in flight holding %g: kinds account for %g s of %g s", j.held, spent, g.spent)
	}
	if checked < 40 || failed != 2 || g.find(Trace) == nil || g.find(Trace).windows != 2 || !g.find(Trace).manual {
		t.Errorf("%d moments checked, the cpu job tried %d times, trace kept %+v; want two trace windows kept by a manual kind", checked, failed, g.find(Trace))
	}
}

// TestEtaAtTheEnd: a kind whose window would end after the attachment is
// given no time to start; one whose window ends exactly then is.
func TestEtaAtTheEnd(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU}, Window: time.Second, For: 1500 * time.Millisecond}, 2)
	k := g.kinds[0]
	if _, ok := g.eta(k, 500*time.Millisecond); !ok {
		t.Error("a window from 0.5s to the end at 1.5s: no eta, want one")
	}
	if at, ok := g.eta(k, 600*time.Millisecond); ok {
		t.Errorf("a window from 0.6s past the end at 1.5s: eta %v, want none", at)
	}
}

// TestBudgetLoweredCapsCredit: when the budget falls, a kind keeps at most
// two reservations' worth of credit at the new budget: a trace, shorter
// now, cannot spend what the old budget saved.
func TestBudgetLoweredCapsCredit(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU, Trace}, Window: 10 * time.Second}, 2)
	g.advance(time.Minute)
	tr := g.find(Trace)
	high := tr.credit
	g.setBudget(time.Minute, 0.002)
	if limit := 2 * g.predict(tr); tr.credit > limit+1e-12 || limit >= high {
		t.Errorf("trace credit %g after the budget fell (was %g), want at most two reservations, %g", tr.credit, high, limit)
	}
}

// TestCharge: the work proflens did on a window is added to its kind's
// account and to the cost its next collections are expected to have (per
// second on for a CPU window).
func TestCharge(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU, Heap}, Window: 2 * time.Second}, 2)
	for _, k := range g.kinds {
		g.advance(time.Minute)
		g.start(k, time.Minute)
		g.done(k, time.Minute+k.length, 0.004, false)
		credit, cost, spent := k.credit, k.cost, g.spent
		g.charge(k, 0.002)
		per := 1.0
		if k.kind.timed() {
			per = k.length.Seconds()
		}
		if k.credit != credit-0.002 || k.cost != cost+0.002 || g.spent != spent+0.002 || math.Abs(g.unit(k.kind)-0.006/per) > 1e-15 {
			t.Errorf("%s: charged 0.002 s after a window of 0.004 s: credit %g → %g, cost %g → %g, spent %g → %g, expected cost %g; want %g",
				k.kind, credit, k.credit, cost, k.cost, spent, g.spent, g.unit(k.kind), 0.006/per)
		}
	}
}

// TestCollecting: an attachment collects while some kind it asks for is
// not stopped, or a triggered collection waits.
func TestCollecting(t *testing.T) {
	if g := newGovernor(Plan{Budget: 1e-7, Kinds: []Kind{CPU}, Window: time.Second}, 2); g.payable() {
		t.Error("a budget that pays for nothing: payable")
	} else if g.request(0, Heap, 0, "test"); !g.payable() {
		t.Error("a triggered collection waits: not payable")
	}
	g := newGovernor(Plan{Budget: 0.5, Kinds: []Kind{CPU}, Window: time.Second}, 2)
	if !g.collecting() {
		t.Error("a fresh attachment does not collect")
	}
	g.setKinds(0, nil)
	if g.collecting() {
		t.Error("no kind asked for: still collecting")
	}
	g.setKinds(0, []Kind{CPU})
	g.kinds[0].dropped = "the target refused it"
	if g.collecting() {
		t.Error("every kind stopped: still collecting")
	}
	g.request(0, Heap, 0, "test")
	if !g.collecting() {
		t.Error("a triggered heap collection waits: not collecting")
	}
}

// TestOutsideCost: what a plain net/http/pprof server is taken to spend
// on an answer, by the model's statement: an answer and its bytes, plus a
// CPU window's samples, a trace's bytes, a snapshot's goroutines; a delta
// is two answers.
func TestOutsideCost(t *testing.T) {
	prof := func(typ string, n int64) *analysis.Profile {
		b := analysis.NewBuilder("p", analysis.ValueType{Type: typ, Unit: "count"})
		b.Add(b.Stack([]int32{b.Frame(analysis.Frame{Name: "f"})}), []int64{n}, 0, false, "", nil)
		return b.Finish()
	}
	answer := 0.001 + 2000e-6 // 1 ms and 2,000 bytes at 1 µs
	for _, tc := range []struct {
		kind Kind
		p    *analysis.Profile
		want float64
	}{
		{CPU, prof("samples", 300), answer + 300*agent.PerSample.Seconds()},
		{Trace, prof("samples", 300), answer + 2000*agent.PerTraceByte.Seconds()},
		{Goroutine, prof("goroutine", 40), answer + 40*5e-6},
		{Heap, prof("inuse_space", 1<<20), 2 * answer},
	} {
		if got := outsideCost(tc.kind, tc.p, 2000); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s: %g s, want %g s", tc.kind, got, tc.want)
		}
	}
}
