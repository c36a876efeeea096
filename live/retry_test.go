package live

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// bareRunner is a Run's state without a target, for booking results by
// hand.
func bareRunner(p Plan) *runner {
	return &runner{t: &Target{}, p: p, g: newGovernor(p, 2), report: func(Event) {}, wall: time.Now(),
		seqs: map[Kind]int{}, refusals: map[Kind]bool{}, counters: map[string]int64{}}
}

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
