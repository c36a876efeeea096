package live

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// record is what a Run reported.
type record struct {
	windows []*Window
	notes   []string
	final   Status
}

func (r *record) count(k Kind) int {
	n := 0
	for _, w := range r.windows {
		if w.Kind == k {
			n++
		}
	}
	return n
}

func (r *record) noted(s string) bool {
	return slices.ContainsFunc(r.notes, func(n string) bool { return strings.Contains(n, s) })
}

// collect probes url and runs p against it; onWindow, when set, sees each
// window as it comes (to cause faults).
func collect(t *testing.T, ctx context.Context, url string, p Plan, onWindow func(*Window)) *record {
	t.Helper()
	tg, err := Probe(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	rec := &record{}
	rec.final = Run(ctx, tg, p, func(e Event) {
		if e.Window != nil {
			rec.windows = append(rec.windows, e.Window)
			if onWindow != nil {
				onWindow(e.Window)
			}
		}
		if e.Note != "" {
			rec.notes = append(rec.notes, e.Note)
		}
		if c := e.Status.Cost(); c > p.Budget && e.Status.Overruns == 0 {
			t.Errorf("at %v: cost %.4g%% above the budget %g%% with no collection over its reservation", e.Status.Elapsed, 100*c, 100*p.Budget)
		}
	})
	t.Logf("stopped: %s", rec.final.Stopped)
	t.Logf("%s: %d windows, cost %.3f%% of %g%%, duty %.1f%%, %d overruns, notes %q", rec.final.Server, rec.final.Windows,
		100*rec.final.Cost(), 100*p.Budget, 100*rec.final.DutyCycle(), rec.final.Overruns, rec.notes)
	return rec
}

var plan = Plan{Budget: 0.01, Kinds: []Kind{CPU, Goroutine, Heap}, Window: time.Second, For: 8 * time.Second}

// TestRun: against net/http/pprof and against the agent, at 1%: the
// accounted cost stays within the budget at every report (unless a
// collection overran its reservation, and then it is back within at the
// end), CPU windows come, each window is a profile placed
// on proflens's clock, the account is the sum of the windows' costs, and
// the status has the json bundle.
func TestRun(t *testing.T) {
	for _, tt := range []struct{ name, server string }{{"", "net/http/pprof"}, {"1%", "proflens agent"}} {
		t.Run(tt.server, func(t *testing.T) {
			var args []string
			if tt.name != "" {
				args = []string{"-agent", tt.name}
			}
			d := startDemo(t, args...)
			rec := collect(t, context.Background(), d.URL, plan, nil)
			s := rec.final
			if s.Server != tt.server || s.Stopped != "for=8s elapsed" || s.Failed || s.Cost() > plan.Budget || s.Cost() == 0 {
				t.Errorf("status %+v: want %s, stopped after for=6s, cost within the budget", s, tt.server)
			}
			if n := rec.count(CPU); n < 1 { // how many is the schedule's business: TestGovernorSchedules
				t.Errorf("no CPU window in 8s at 1%%")
			}
			checkWindows(t, rec)
			if got := slices.Sorted(maps.Keys(s.JSON())); !slices.Equal(got, []string{"agent", "budget", "cost", "duty_cycle", "estimated_slowdown", "kinds", "target", "windows"}) {
				t.Errorf("json keys %v", got)
			}
		})
	}
}

// checkWindows: every window is a profile whose start is proflens's, in
// order per kind; the account is the sum of their costs, and of
// proflens's own work on them after they were reported (for a target on
// this machine).
func checkWindows(t *testing.T, rec *record) {
	t.Helper()
	var sum float64
	last := map[Kind]time.Duration{}
	for _, w := range rec.windows {
		sum += w.Cost
		if w.Profile == nil || w.End < w.Start || w.Start < last[w.Kind] || w.Cost < 0 {
			t.Errorf("window %+v out of order or empty", w)
		}
		last[w.Kind] = w.Start
	}
	if extra := rec.final.Spent - sum; rec.final.Dropped == 0 && !rec.final.Failed && (extra < -1e-9 || extra > rec.final.Observer+1e-9) {
		t.Errorf("spent %g, want the sum of the windows' costs %g plus at most proflens's own work %g", rec.final.Spent, sum, rec.final.Observer)
	}
}

func diff(a, b float64) float64 { return max(a-b, b-a) }

// TestInterrupt: the end of the context stops collection at once; the
// window in flight is dropped, the finished ones are kept.
func TestInterrupt(t *testing.T) {
	d := startDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	var at time.Time // written before cancel, read after Run returns
	p := plan
	p.For, p.Kinds, p.Budget = 0, []Kind{CPU}, 1 // back to back
	rec := collect(t, ctx, d.URL, p, func(w *Window) {
		if w.Seq == 1 { // the next window has started when the interrupt comes
			time.AfterFunc(500*time.Millisecond, func() {
				at = time.Now()
				cancel()
			})
		}
	})
	if took := time.Since(at); took > 500*time.Millisecond && !rec.noted("for the account to balance") {
		t.Errorf("Run returned %v after the interrupt, want at once", took)
	}
	if s := rec.final; s.Stopped != "interrupted" || rec.count(CPU) != 2 || s.Dropped != 1 {
		t.Errorf("status %+v with %d windows: want interrupted, 2 windows kept, 1 dropped", s, len(rec.windows))
	}
	// The dropped window is no window of the kind's, and its reservation
	// stays charged: what the target may have spent on it is not known.
	if ks := rec.final.Kinds; len(ks) != 1 || ks[0].Windows != 2 {
		t.Errorf("kinds %+v: want cpu with the 2 windows kept", ks)
	}
}
