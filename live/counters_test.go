package live

import (
	"context"
	"testing"
	"time"
)

// TestCountersWindows: the agent's counters come as windows within the
// budget, one value type per counter (a count's increase, a gauge's
// level); a plain server has none, and the kind stops saying so.
func TestCountersWindows(t *testing.T) {
	d := startDemo(t, "-agent", "10%")
	p := Plan{Budget: 0.1, Kinds: []Kind{CPU, Counters}, Window: time.Second, For: 6 * time.Second}
	rec := collect(t, context.Background(), d.URL, p, nil)
	var units int64
	n := 0
	for _, w := range rec.windows {
		if w.Kind != Counters {
			continue
		}
		n++
		u, work := w.Profile.ValueIndex("units"), w.Profile.ValueIndex("working")
		if u < 0 || work < 0 || len(w.Profile.Samples) != 1 {
			t.Fatalf("counters window %+v: want one sample with values units and working", w.Profile.ValueTypes)
		}
		s := &w.Profile.Samples[0]
		if v := w.Profile.Value(s, work); v != 0 && v != 1 {
			t.Errorf("working = %d, want 0 or 1", v)
		}
		if v := w.Profile.Value(s, u); v < 0 {
			t.Errorf("units grew by %d, want an increase", v)
		}
		units += w.Profile.Value(s, u)
	}
	if n < 2 || units <= 0 {
		t.Errorf("%d counters windows, units %d: want several, and the work counted", n, units)
	}
	plain := startDemo(t)
	p.For = 2 * time.Second
	rec = collect(t, context.Background(), plain.URL, p, nil)
	if !rec.noted("counters need the proflens agent") || rec.count(Counters) != 0 {
		t.Errorf("on a plain server: notes %q", rec.notes)
	}
}
