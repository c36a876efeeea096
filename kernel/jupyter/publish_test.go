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
