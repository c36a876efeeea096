package jupyter

import (
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// TestPublisherNeverBlocks: with a send that is stuck, put returns at once,
// memory stays bounded and the oldest messages are dropped and counted.
func TestPublisherNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var sent []string
	p := newPublisher(8, func(f [][]byte) error {
		<-release
		mu.Lock()
		sent = append(sent, string(f[0]))
		mu.Unlock()
		return nil
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	go p.run()
	start := time.Now()
	for i := 0; i < 1000; i++ {
		p.put([][]byte{{byte('0' + i%10)}})
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("1000 puts with a stuck subscriber took %v, want no blocking", d)
	}
	p.mu.Lock()
	n := len(p.q)
	p.mu.Unlock()
	if n > 8 {
		t.Errorf("queue holds %d messages, want at most 8", n)
	}
	if d := p.droppedCount(); d < 1000-8-1 {
		t.Errorf("dropped %d, want at least %d", d, 1000-8-1)
	}
	close(release)
	p.flush(time.Second)
	p.close()
	mu.Lock()
	defer mu.Unlock()
	if len(sent) == 0 || sent[len(sent)-1] != "9" {
		t.Errorf("sent %v, want the newest message (9) last", sent)
	}
}

// TestPublisherByteBound: big messages are bounded by bytes, not only by
// count; a message larger than the bound still goes out alone.
func TestPublisherByteBound(t *testing.T) {
	p := newPublisher(1000, func([][]byte) error { return nil }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	p.maxBytes = 100
	for i := 0; i < 10; i++ {
		p.put([][]byte{make([]byte, 30)})
	}
	if len(p.q) != 3 || p.bytes != 90 || p.droppedCount() != 7 {
		t.Errorf("after 10 puts of 30 bytes with a 100-byte bound: %d queued, %d bytes, %d dropped; want 3, 90, 7", len(p.q), p.bytes, p.droppedCount())
	}
	p.put([][]byte{make([]byte, 500)})
	if len(p.q) != 1 || p.bytes != 500 {
		t.Errorf("an oversized message: %d queued, %d bytes; want it alone (1, 500)", len(p.q), p.bytes)
	}
}
