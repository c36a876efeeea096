package live

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestGovernorKindsChange: kinds set while collecting take effect at
// once: a kind left out starts no collection afterwards (it keeps its
// windows), a new one starts collecting, the order sets the weights, and
// the accounted cost stays within the budget throughout (sim checks).
func TestGovernorKindsChange(t *testing.T) {
	p := Plan{Budget: 0.10, Kinds: []Kind{CPU, Goroutine}, Window: time.Second, For: 120 * time.Second}
	change := 60 * time.Second
	var cpuBefore int
	s := &sim{p: p, cost: costs, jitter: func() float64 { return 1 }, at: func(g *governor, now time.Duration) {
		if now >= change && !slices.Contains(g.asked(), Heap) {
			change, cpuBefore = now, g.find(CPU).windows
			g.setKinds(now, []Kind{Heap, Goroutine})
		}
	}}
	g := s.run(t)
	if got := g.asked(); !slices.Equal(got, []Kind{Heap, Goroutine}) {
		t.Errorf("asked %v after the change, want [heap goroutine]", got)
	}
	var heap, cpuAfter int
	for _, st := range s.starts {
		switch {
		case st.kind == Heap && st.at < change:
			t.Errorf("heap collected at %v, before it was asked for at %v", st.at, change)
		case st.kind == Heap:
			heap++
		case st.kind == CPU && st.at >= change:
			cpuAfter++
		}
	}
	if cpuAfter > 0 || heap < 30 {
		t.Errorf("after the change: %d cpu collections started (want 0), %d heap (want one a window or so)", cpuAfter, heap)
	}
	c := g.find(CPU)
	if c == nil || !c.manual || c.windows < cpuBefore || cpuBefore == 0 {
		t.Errorf("cpu after being left out: %+v, %d windows before", c, cpuBefore)
	}
	if h, r := g.find(Heap), g.find(Goroutine); h.weight != 1 || r.weight != 0.5 {
		t.Errorf("weights heap %g, goroutine %g: want 1 and 1/2, in the order given", h.weight, r.weight)
	}
}

// TestDeafTrigger: a kinds change that leaves out the kind a trigger's
// condition reads says that the trigger cannot fire; one that keeps it
// says nothing of the trigger.
func TestDeafTrigger(t *testing.T) {
	g := newGovernor(Plan{Budget: 0.05, Kinds: []Kind{CPU, Goroutine}, Window: time.Second, For: time.Minute}, 2)
	r := &runner{t: &Target{URL: "http://x"}, g: g, wall: time.Now(), report: func(Event) {}}
	when, err := ParseCondition("goroutines>100")
	if err != nil {
		t.Fatal(err)
	}
	r.apply(Control{Trigger: &Trigger{When: when, Then: []Request{{Kind: Trace}}}})
	r.apply(Control{Kinds: []Kind{Goroutine}})
	deaf := func() bool {
		return slices.ContainsFunc(r.notes, func(n string) bool { return strings.Contains(n, "reads goroutine windows, which are not collected") })
	}
	if deaf() {
		t.Fatalf("a trigger said deaf while goroutine is collected: %q", r.notes)
	}
	r.apply(Control{Kinds: []Kind{CPU}})
	if !deaf() {
		t.Errorf("notes %q: want one saying trigger 1 cannot fire without goroutine windows", r.notes)
	}
	if st := r.status(r.since()); len(st.Triggers) != 1 || st.Triggers[0].Deaf != Goroutine {
		t.Errorf("trigger status %+v: want it deaf for want of goroutine windows", st.Triggers)
	}
	r.apply(Control{Kinds: []Kind{CPU, Goroutine}})
	if st := r.status(r.since()); st.Triggers[0].Deaf != "" {
		t.Errorf("trigger status %+v once goroutine is collected again: want it not deaf", st.Triggers)
	}
}
