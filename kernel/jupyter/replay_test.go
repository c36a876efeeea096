package jupyter

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/go-zeromq/zmq4"
)

// TestReplayGuardWindow: on random signatures with repeats, the guard calls a
// signature a replay exactly when it is among the last max signatures it
// accepted; the oracle is a plain list of them.
func TestReplayGuardWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, max := range []int{1, 3, 64} {
		g := newReplayGuard(max)
		var recent []string // accepted signatures, oldest first, at most max
		for i := 0; i < 50*max+100; i++ {
			sig := fmt.Sprint(rng.IntN(3 * max))
			want := !slices.Contains(recent, sig)
			if got := g.fresh([]byte(sig)); got != want {
				t.Fatalf("max %d, step %d: fresh(%s) = %v, want %v (remembered: %v)", max, i, sig, got, want, recent)
			}
			if want {
				recent = append(recent, sig)
				if len(recent) > max {
					recent = recent[1:]
				}
			}
		}
	}
}

// TestReplayGuardKernelSize: at the kernel's size, replays are still caught
// after the ring has wrapped, and the oldest are forgotten in order.
func TestReplayGuardKernelSize(t *testing.T) {
	g := newReplayGuard(replayMemory)
	sig := func(i int) []byte { return fmt.Appendf(nil, "%064x", i) }
	n := replayMemory + replayMemory/2
	for i := range n {
		if !g.fresh(sig(i)) {
			t.Fatalf("signature %d: not fresh the first time", i)
		}
	}
	for _, i := range []int{n - 1, n - 2, replayMemory, replayMemory + 1, n - replayMemory} {
		if g.fresh(sig(i)) {
			t.Errorf("signature %d of %d replayed: fresh, want caught (it is among the last %d)", i, n, replayMemory)
		}
	}
	if !g.fresh(sig(n - replayMemory - 1)) {
		t.Errorf("signature %d: caught, want forgotten (older than the last %d)", n-replayMemory-1, replayMemory)
	}
}

// TestEmptyKey: a kernel with an empty key warns that messages are not
// signed, and keeps nothing of what clients send as signatures (4 MiB here).
func TestEmptyKey(t *testing.T) {
	var logged bytes.Buffer
	ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1"}
	k, err := Listen(ci, &fakeHandler{}, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logged.String(), "empty key") {
		t.Errorf("log at start: %q, want a warning about the empty key", logged.String())
	}
	served := make(chan struct{})
	go func() { k.Serve(t.Context()); close(served) }()
	defer func() { k.Shutdown(); <-served }()
	c := dial(t, k.Conn(), "c1")
	fake := bytes.Repeat([]byte("f"), 128<<10)
	for range 32 {
		f, _ := c.frames("kernel_info_request", map[string]any{})
		f[1] = fake
		c.shell.SendMulti(zmq4.NewMsgFrom(f...))
	}
	for range 32 {
		c.next(c.shellC, "kernel_info_reply")
	}
	k.replay.mu.Lock()
	defer k.replay.mu.Unlock()
	if len(k.replay.seen) != 0 {
		t.Errorf("the replay guard holds %d entries with signing off, want none", len(k.replay.seen))
	}
}
