package live

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// simulate runs a governor on a simulated clock: each collection of kind k
// costs cost[k] (times jitter) and lasts its window (snapshots 10 ms). It
// checks at every step that the cost accounted, reservations in flight
// included, never exceeds the budget's share of the time so far, and
// returns the governor at the end.
func simulate(t *testing.T, p Plan, cost map[Kind]float64, jitter func() float64) *governor {
	t.Helper()
	g := newGovernor(p, 2)
	type flight struct {
		k   *kindState
		end time.Duration
	}
	var flying []flight
	for now := time.Duration(0); now < p.For; {
		for _, k := range g.due(now) {
			g.start(k, now)
			flying = append(flying, flight{k, now + max(k.kind.on(p.Window), 10*time.Millisecond)})
		}
		if limit := p.Budget * now.Seconds(); g.spent > limit+1e-12 {
			t.Fatalf("at %v: spent %g s, more than budget × time = %g s", now, g.spent, limit)
		}
		next := max(g.next(now), now+time.Millisecond) // as Run waits
		for _, f := range flying {
			next = min(next, f.end)
		}
		now = next
		flying = slices.DeleteFunc(flying, func(f flight) bool {
			if f.end <= now {
				g.done(f.k, now, cost[f.k.kind]*jitter(), false)
			}
			return f.end <= now
		})
	}
	return g
}

func windows(g *governor) map[Kind]int {
	out := map[Kind]int{}
	for _, k := range g.kinds {
		out[k.kind] = k.windows
	}
	return out
}

var costs = map[Kind]float64{CPU: 0.003, Goroutine: 0.002, Heap: 0.002, Mutex: 0.001, Block: 0.001, Trace: 0.05}

// TestGovernorSchedules: a generous budget runs CPU windows back to back
// and every kind often; a tight one serves kinds in priority order, the
// lower ones less often but not never; the accounted cost stays within the
// budget throughout (simulate checks).
func TestGovernorSchedules(t *testing.T) {
	one := func() float64 { return 1 }
	for _, tt := range []struct {
		budget  float64
		minCPU  int // of 1200 one-second windows
		ordered bool
	}{
		{0.10, 1190, false},
		{0.01, 1000, false},
		{0.001, 180, true},
	} {
		p := Plan{Budget: tt.budget, Kinds: Kinds, Window: time.Second, For: 1200 * time.Second}
		g := simulate(t, p, costs, one)
		n := windows(g)
		t.Logf("budget %g: windows %v, spent %.3g%%", tt.budget, n, 100*g.spent/1200)
		if n[CPU] < tt.minCPU {
			t.Errorf("budget %g: %d CPU windows of 1200, want at least %d (all: %v)", tt.budget, n[CPU], tt.minCPU, n)
		}
		for _, k := range Kinds {
			if n[k] == 0 && k != Trace {
				t.Errorf("budget %g: no %s window: lower priorities wait, but get their share (all: %v)", tt.budget, k, n)
			}
		}
		if tt.ordered && !(n[CPU] > n[Goroutine] && n[Goroutine] >= n[Mutex]) {
			t.Errorf("budget %g: windows %v: want fewer windows down the priority order", tt.budget, n)
		}
		if spent := g.spent / 1200; spent < tt.budget/4 {
			t.Errorf("budget %g: spent %.3g%% of the time: the budget is mostly unused", tt.budget, 100*spent)
		}
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
