package live

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// bareRunner is a runner for a target on this machine, its governor at
// plan p, without a run loop: controls, results and faults are fed by hand.
func bareRunner(p Plan) *runner {
	return &runner{t: &Target{URL: "http://x", Local: true}, p: p, g: newGovernor(p, 2), wall: time.Now(), report: func(Event) {},
		seqs: map[Kind]int{}, refusals: map[Kind]bool{}, counters: map[string]int64{}}
}

// TestApplyControls: a control changes what it says and notes it; a
// budget outside (0, 1] or equal to the current one, pause and resume
// together, the kinds already asked: nothing changes and nothing is noted.
func TestApplyControls(t *testing.T) {
	r := bareRunner(Plan{Budget: 0.01, Kinds: []Kind{CPU, Heap}, Window: time.Second})
	for _, c := range []Control{{Budget: 1.5}, {Budget: 0.01}, {Pause: true, Resume: true}, {Resume: true}, {Kinds: []Kind{CPU, Heap}}, {Charge: -1}} {
		r.apply(c)
	}
	if len(r.notes) != 0 || len(r.changes) != 0 || r.g.budget != 0.01 || r.g.paused || r.observer != 0 {
		t.Fatalf("controls that change nothing: notes %q, changes %v, budget %g, paused %v, observer %g", r.notes, r.changes, r.g.budget, r.g.paused, r.observer)
	}
	when, err := ParseCondition("goroutines>10")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Control{
		{Budget: 1}, {Pause: true}, {Resume: true}, {Kinds: []Kind{Heap}},
		{Trigger: &Trigger{When: when, Then: []Request{{Kind: CPU}}}}, {Charge: 0.003},
	} {
		r.apply(c)
	}
	want := []string{"budget 100% from", "paused at", "resumed at", "kinds heap from", "trigger 1 armed at", "trigger 1 (when goroutines>10 then cpu) reads goroutine windows"}
	if len(r.notes) != len(want) {
		t.Fatalf("notes %q, want %d", r.notes, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(r.notes[i], w) {
			t.Errorf("note %d = %q, want it to start %q", i+1, r.notes[i], w)
		}
	}
	if r.g.budget != 1 || len(r.changes) != 1 || r.changes[0].Budget != 1 || r.g.paused || !slices.Equal(r.g.asked(), []Kind{Heap}) || len(r.triggers) != 1 || r.observer != 0.003 {
		t.Errorf("budget %g, changes %v, paused %v, asked %v, %d triggers, observer %g", r.g.budget, r.changes, r.g.paused, r.g.asked(), len(r.triggers), r.observer)
	}
	r.t.Local = false
	if r.apply(Control{Charge: 0.003}); r.observer != 0.003 {
		t.Errorf("a target elsewhere: proflens's work charged (%g), want not", r.observer)
	}
}

// TestTriggerFiresOnEdges: a trigger fires when its condition starts to
// hold, not while it goes on holding, and not while what it asked before
// still waits; windows of other kinds do not test it.
func TestTriggerFiresOnEdges(t *testing.T) {
	r := bareRunner(Plan{Budget: 0.5, Kinds: []Kind{CPU, Goroutine}, Window: time.Second})
	when, _ := ParseCondition("goroutines>5")
	r.apply(Control{Trigger: &Trigger{When: when, Then: []Request{{Kind: Heap}}}})
	snap := func(n int64) *Window {
		w := window("goroutine", map[string]int64{"main": n})
		w.Kind = Goroutine
		return w
	}
	cpu := window("cpu", map[string]int64{"main": 10})
	cpu.Kind = CPU
	var fired []int
	for i, w := range []*Window{snap(3), snap(9), snap(9), cpu, snap(2), snap(8), snap(1), snap(7)} {
		if i == 5 { // the heap collection asked at the first firing ran
			for _, k := range slices.Clone(r.g.kinds) {
				if k.job != "" {
					r.g.start(k, 0)
					r.g.done(k, 0, 0.001, false)
				}
			}
		}
		r.check(w, time.Duration(i)*time.Second)
		fired = append(fired, r.triggers[0].fired)
	}
	// 9: fires; 9 again: still holds; cpu: not its kind; 2: stops; 8:
	// fires again (its heap collection ran); 1; 7: starts to hold, but the
	// second heap collection still waits.
	if want := []int{0, 1, 1, 1, 1, 2, 2, 2}; !slices.Equal(fired, want) {
		t.Errorf("fired after each window %v, want %v", fired, want)
	}
}

// TestQueueTrace: a trace asked for while CPU is not collected comes with
// a CPU window of its own, whole seconds covering the trace and its
// margin; a collection the budget can never pay for is noted and not
// queued.
func TestQueueTrace(t *testing.T) {
	for trace, cpu := range map[time.Duration]time.Duration{1500 * time.Millisecond: 2 * time.Second, 1900 * time.Millisecond: 2 * time.Second, 1950 * time.Millisecond: 3 * time.Second} {
		r := bareRunner(Plan{Budget: 0.5, Kinds: []Kind{Heap}, Window: time.Second})
		jobs := r.queue(0, Request{Kind: Trace, For: trace}, "test")
		if len(jobs) != 2 || jobs[0].kind != CPU || jobs[0].want != cpu || jobs[1].kind != Trace || jobs[1].want != trace {
			t.Fatalf("trace of %v: queued %+v, want a CPU window of %v and the trace", trace, jobs, cpu)
		}
	}
	r := bareRunner(Plan{Budget: 0.5, Kinds: []Kind{CPU}, Window: time.Second})
	if jobs := r.queue(0, Request{Kind: Trace}, "test"); len(jobs) != 1 || jobs[0].kind != Trace {
		t.Errorf("with CPU collected: queued %+v, want the trace alone", jobs)
	}
	r = bareRunner(Plan{Budget: 1e-6, Kinds: []Kind{CPU}, Window: time.Second})
	if jobs := r.queue(0, Request{Kind: Heap}, "test"); len(jobs) != 0 || len(r.notes) != 1 || !strings.Contains(r.notes[0], "not queued") || len(r.g.kinds) != 1 {
		t.Errorf("at budget 1e-6: queued %+v, notes %q, kinds %d; want nothing queued, and said", jobs, r.notes, len(r.g.kinds))
	}
}

// TestStatusFigures: the figures a status derives, worked by hand: cost
// and duty as shares of the time attached, the allowed share once the
// budget changed, cores busy in CPU windows, the slowdown estimate, DYPER's
// projections (additive counts scaled by the share of time observed,
// snapshots averaged over the kind's own windows).
func TestStatusFigures(t *testing.T) {
	cpu := KindStatus{Kind: CPU, Windows: 3, Triggered: 1, Seconds: 2, Observed: 3e9, Spent: 0.02}
	gor := KindStatus{Kind: Goroutine, Windows: 3, Triggered: 1, Observed: 300}
	s := Status{Server: "proflens agent", Budget: 0.01, Elapsed: 10 * time.Second, Spent: 0.05, Duty: 2 * time.Second, Allowed: 0.08, Windows: 6,
		Kinds: []KindStatus{cpu, gor, {Kind: Heap}}}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if !near(s.Cost(), 0.005) || !near(s.Within(), 0.01) || !near(s.DutyCycle(), 0.2) || !near(s.Cores(), 1.5) || !near(s.EstimatedSlowdown(), 0.005/1.5) || !s.Agent() {
		t.Errorf("cost %g, within %g, duty %g, cores %g, slowdown %g, agent %v; want 0.005, 0.01, 0.2, 1.5, 0.00333, true",
			s.Cost(), s.Within(), s.DutyCycle(), s.Cores(), s.EstimatedSlowdown(), s.Agent())
	}
	if !near(s.Projected(cpu), 15e9) || !near(s.Projected(gor), 150) || s.Projected(KindStatus{Kind: Goroutine, Windows: 2, Triggered: 2, Observed: 5}) != 0 {
		t.Errorf("projected cpu %g, goroutines %g; want 1.5e10, 150, and 0 without a window of the kind's own", s.Projected(cpu), s.Projected(gor))
	}
	j := s.JSON()
	if j["cost"] != s.Cost() || j["duty_cycle"] != s.DutyCycle() || j["windows"] != 6 || !near(j["kinds"].(map[string]any)["cpu"].(map[string]any)["cost"].(float64), 0.002) {
		t.Errorf("JSON %v", j)
	}
	s.Changes = []BudgetChange{{At: time.Second, Budget: 0.005}}
	s.Kinds[0].Observed = 1e9 // half a core: the slowdown is the cost itself
	if !near(s.Within(), 0.008) || !near(s.EstimatedSlowdown(), 0.005) {
		t.Errorf("within %g, slowdown %g; want 0.008 and 0.005", s.Within(), s.EstimatedSlowdown())
	}
	if (Status{}).Cost() != 0 || (Status{}).Cores() != 0 {
		t.Error("an empty status: want no cost and no cores")
	}
}

// TestPaths: each kind's request to a net/http/pprof server, as the Go
// documentation gives them: windows and deltas in whole seconds (at least
// one), a trace to the millisecond.
func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		k    Kind
		d    time.Duration
		want string
	}{
		{CPU, 2 * time.Second, "/debug/pprof/profile?seconds=2"},
		{CPU, 300 * time.Millisecond, "/debug/pprof/profile?seconds=1"},
		{Heap, 5 * time.Second, "/debug/pprof/heap?seconds=5"},
		{Mutex, 1500 * time.Millisecond, "/debug/pprof/mutex?seconds=1"},
		{Block, time.Second, "/debug/pprof/block?seconds=1"},
		{Goroutine, 0, "/debug/pprof/goroutine"},
		{Trace, 900 * time.Millisecond, "/debug/pprof/trace?seconds=0.9"},
	} {
		if got := tc.k.path(tc.d); got != tc.want {
			t.Errorf("%s for %v: %s, want %s", tc.k, tc.d, got, tc.want)
		}
	}
}
