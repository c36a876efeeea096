package live

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFaultsRetry: an error status or a slow answer retries its kind after
// 1 s, 2 s, 4 s, 8 s and stops it at the fifth in a row; a refusal of the
// agent waits what it asks, however many come, and is noted once.
func TestFaultsRetry(t *testing.T) {
	for _, kind := range []FaultKind{FaultServer, FaultSlow} {
		r := bareRunner(Plan{Budget: 1, Kinds: []Kind{CPU}, Window: time.Second})
		k := r.g.kinds[0]
		now := time.Duration(0)
		for n := 1; n <= maxFails; n++ {
			r.g.start(k, now)
			r.fault(k, &Fault{Kind: kind, Msg: "no"}, now)
			if n < maxFails {
				want := now + time.Second<<(n-1)
				if k.retryAt != want || k.dropped != "" || !strings.HasSuffix(r.notes[len(r.notes)-1], fmt.Sprintf("cpu: no; retrying in %v", time.Second<<(n-1))) {
					t.Errorf("fault %d of kind %d: retry at %v (want %v), dropped %q, notes %q", n, kind, k.retryAt, want, k.dropped, r.notes)
				}
				now = want
			} else if k.dropped != fmt.Sprintf("no (%d failures in a row)", maxFails) {
				t.Errorf("fault %d of kind %d: dropped %q, want the kind stopped", n, kind, k.dropped)
			}
		}
	}
	r := bareRunner(Plan{Budget: 1, Kinds: []Kind{Goroutine}, Window: time.Second})
	k := r.g.kinds[0]
	now := time.Second
	for range 2 * maxFails {
		r.g.start(k, now)
		r.fault(k, &Fault{Kind: FaultRefused, Msg: "busy", RetryAfter: 3 * time.Second}, now)
		if k.retryAt != now+3*time.Second || k.dropped != "" {
			t.Fatalf("a refusal at %v: retry at %v, dropped %q; want a retry 3s later", now, k.retryAt, k.dropped)
		}
		now = k.retryAt
	}
	if len(r.notes) != 1 || r.notes[0] != "goroutine: the agent refused (busy); waiting as it asks" {
		t.Errorf("notes %q: want the refusal noted once", r.notes)
	}
}

// TestClockTolerance: the target's clock may drift from proflens's by up
// to 2 s between two CPU windows before a jump is noted, either way; a
// profile without a start time says nothing.
func TestClockTolerance(t *testing.T) {
	r := bareRunner(Plan{Budget: 1, Kinds: []Kind{CPU}, Window: time.Second})
	at := func(start, drift time.Duration) { r.checkClock(r.wall.Add(start+drift), start) }
	at(0, time.Hour) // the first window sets the skew
	at(time.Second, time.Hour+clockTolerance)
	at(2*time.Second, time.Hour)
	r.checkClock(time.Time{}, 3*time.Second)
	if len(r.notes) != 0 {
		t.Fatalf("drifts within 2s noted: %q", r.notes)
	}
	at(4*time.Second, time.Hour-clockTolerance-time.Millisecond)
	if len(r.notes) != 1 || !strings.HasPrefix(r.notes[0], "the target's clock jumped by -2s against proflens's before the cpu window at 4.0s") {
		t.Errorf("notes %q: want the jump back noted", r.notes)
	}
}

// TestDropFollows: stopping cpu stops trace (a trace starts with a CPU
// window), and a stopped kind's triggered collections that have not
// started go with it.
func TestDropFollows(t *testing.T) {
	r := bareRunner(Plan{Budget: 1, Kinds: []Kind{CPU, Trace, Heap}, Window: time.Second})
	job := r.g.request(0, Heap, 0, "when x then heap")
	r.drop(r.g.find(Heap), "gone")
	if job.dropped != "gone" || slices.Contains(r.g.kinds, job) {
		t.Errorf("the triggered heap collection after heap stopped: dropped %q, still among the kinds: %v", job.dropped, slices.Contains(r.g.kinds, job))
	}
	if tr := r.g.find(Trace); tr.dropped != "" {
		t.Fatalf("trace stopped with heap: %q", tr.dropped)
	}
	r.drop(r.g.find(CPU), "no")
	if tr := r.g.find(Trace); tr.dropped != "it needs cpu windows, which stopped" {
		t.Errorf("trace after cpu stopped: %q", tr.dropped)
	}
	if want := []string{"heap: stopped: gone", "cpu: stopped: no", "trace: stopped: it needs cpu windows, which stopped"}; !slices.Equal(r.notes, want) {
		t.Errorf("notes %q, want %q", r.notes, want)
	}
}

// TestWhyStops: a run stops at the caller's cause (or "interrupted"), when
// its time is up, when the most windows are in, when every kind has
// stopped, and, without controls, when the budget pays for nothing and no
// collection is in flight; not a moment before any of these.
func TestWhyStops(t *testing.T) {
	bg := context.Background()
	p := Plan{Budget: 1, Kinds: []Kind{CPU, Heap}, Window: time.Second, For: 5 * time.Second, MaxWindows: 3}
	r := bareRunner(p)
	if why := r.why(bg, 5*time.Second-time.Nanosecond); why != "" {
		t.Errorf("before its end: %q", why)
	}
	if why := r.why(bg, 5*time.Second); why != "for=5s elapsed" {
		t.Errorf("at its end: %q", why)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if why := r.why(ctx, 0); why != "interrupted" {
		t.Errorf("interrupted: %q", why)
	}
	ctx, stop := context.WithCancelCause(bg)
	stop(errors.New("detached"))
	if why := r.why(ctx, 0); why != "detached" {
		t.Errorf("stopped with a cause: %q", why)
	}
	r.windows = 2
	if why := r.why(bg, 0); why != "" {
		t.Errorf("2 windows of 3: %q", why)
	}
	r.windows = 3
	if why := r.why(bg, 0); why != "the most windows (maxwindows=3) are in" {
		t.Errorf("3 windows of 3: %q", why)
	}
	r.windows = 0
	r.drop(r.g.find(CPU), "no")
	if why := r.why(bg, 0); why != "" {
		t.Errorf("heap left: %q", why)
	}
	r.drop(r.g.find(Heap), "no")
	if why := r.why(bg, 0); why != "every kind stopped" {
		t.Errorf("every kind stopped: %q", why)
	}
	p.Budget, p.For = 1e-9, 0
	r = bareRunner(p)
	r.inflight = 1
	if why := r.why(bg, time.Hour); why != "" || r.unpaid {
		t.Errorf("a collection in flight on a budget that pays nothing more: %q", why)
	}
	r.inflight = 0
	if why := r.why(bg, time.Hour); !strings.HasPrefix(why, "a budget of 0.0000001% pays") || !r.unpaid {
		t.Errorf("a budget that pays nothing: %q", why)
	}
	p.Control = make(chan Control)
	if why := bareRunner(p).why(bg, time.Hour); why != "" {
		t.Errorf("a budget that pays nothing, with controls to raise it: %q", why)
	}
}

// TestCountersReadings: a reading of the agent's counters gives counts as
// their increase since the last reading (since the start, at the first)
// and gauges as their level; an answer that is not JSON, or lists no
// counters, is an error saying which.
func TestCountersReadings(t *testing.T) {
	prev := map[string]int64{}
	read := func(body string) []int64 {
		t.Helper()
		p, err := countersProfile([]byte(body), prev)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for v := range p.ValueTypes {
			out = append(out, p.Total(v))
		}
		return out
	}
	if got := read(`{"counters":[{"name":"served","value":10},{"name":"queue","gauge":true,"value":4}]}`); !slices.Equal(got, []int64{10, 4}) {
		t.Errorf("first reading: %v, want [10 4]", got)
	}
	if got := read(`{"counters":[{"name":"served","value":25},{"name":"queue","gauge":true,"value":1}]}`); !slices.Equal(got, []int64{15, 1}) {
		t.Errorf("second reading: %v, want [15 1]", got)
	}
	for body, want := range map[string]string{"<html>": "the agent's counters are not JSON", `{"counters":[]}`: "the program registered no counters"} {
		if _, err := countersProfile([]byte(body), prev); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// TestUnpayableTies: of kinds whose collections reserve the same, the
// message names the first of the plan's.
func TestUnpayableTies(t *testing.T) {
	for _, kinds := range [][]Kind{{Mutex, Block}, {Block, Mutex}} {
		r := bareRunner(Plan{Budget: 1e-9, Kinds: kinds, Window: time.Second})
		if a, b := r.g.cheapest(r.g.kinds[0]), r.g.cheapest(r.g.kinds[1]); a != b {
			t.Fatalf("%v: reservations %g and %g, want a tie", kinds, a, b)
		}
		if why := r.unpayable(); !strings.Contains(why, "(the cheapest, "+string(kinds[0])+",") {
			t.Errorf("%v: %q, want %s named", kinds, why, kinds[0])
		}
	}
}

// TestSettleWithoutDebt: a run whose account balances ends without
// waiting, and says nothing of it.
func TestSettleWithoutDebt(t *testing.T) {
	r := bareRunner(Plan{Budget: 0.01, Kinds: []Kind{CPU}, Window: time.Second})
	k := r.g.kinds[0]
	r.g.start(k, 0)
	r.g.done(k, 0, 0, false)
	r.settle()
	if len(r.notes) != 0 {
		t.Errorf("notes %q, want none", r.notes)
	}
}
