package jupyter

import (
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// TestStalledSubscriber: a subscriber that completes the handshake and then
// never reads must not stall execution or the other front ends, and its
// queue stays bounded (TestPublisherNeverBlocks checks the dropping).
func TestStalledSubscriber(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	k.iopub.mu.Lock()
	k.iopub.cap = 64 // applies to subscribers that connect from now on
	k.iopub.mu.Unlock()
	raw, err := net.Dial("tcp", k.iopub.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := zmq4.Open(raw, null.Security(), zmq4.Sub, nil, false, nil); err != nil {
		t.Fatalf("stalled subscriber handshake: %v", err)
	}
	var stalled *subscriber
	for deadline := time.Now().Add(2 * time.Second); stalled == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		k.iopub.mu.Lock()
		for s := range k.iopub.subs {
			if s.q.max == 64 {
				stalled = s
			}
		}
		k.iopub.mu.Unlock()
	}
	if stalled == nil {
		t.Fatal("the stalled subscriber never registered")
	}
	start := time.Now()
	id := c.execute("flood", true)
	if got := content(c.next(c.shellC, "flood reply")); got["status"] != "ok" {
		t.Fatalf("flood reply = %v", got)
	}
	types := c.iopubUntilIdle(id)
	if len(types) != 303 {
		t.Errorf("the live front end got %d iopub messages, want 303 (busy, input, 300 streams, idle)", len(types))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("flood took %v with a stalled subscriber", d)
	}
	stalled.q.mu.Lock()
	n := stalled.q.n
	stalled.q.mu.Unlock()
	if n > 64 {
		t.Errorf("stalled queue holds %d, want at most 64", n)
	}
	t.Logf("stalled subscriber: %d queued, %d dropped", n, stalled.q.droppedCount())
}
