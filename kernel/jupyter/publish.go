package jupyter

import (
	"log/slog"
	"sync"
	"time"
)

// publisher is one iopub subscriber's bounded queue (see fanout). put never
// blocks: when the queue holds max messages or maxBytes bytes it drops the
// oldest messages, counts them and logs at powers of two. One goroutine
// (run) does the sending.
type publisher struct {
	mu       sync.Mutex
	cond     *sync.Cond
	q        [][][]byte
	max      int
	maxBytes int
	bytes    int // total size of the queued frames
	dropped  uint64
	closed   bool
	busy     bool // a message is being handed to the socket
	send     func([][]byte) error
	log      *slog.Logger
}

func newPublisher(max int, send func([][]byte) error, log *slog.Logger) *publisher {
	p := &publisher{max: max, maxBytes: queueBytes, send: send, log: log}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// put queues frames for sending; it never blocks.
func (p *publisher) put(frames [][]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	n := size(frames)
	for len(p.q) > 0 && (len(p.q) >= p.max || p.bytes+n > p.maxBytes) {
		p.pop()
		p.dropped++
		if p.dropped&(p.dropped-1) == 0 { // log at 1, 2, 4, 8, ...
			p.log.Warn("iopub queue full, dropped oldest messages", "dropped", p.dropped, "capacity", p.max, "capacity_bytes", p.maxBytes)
		}
	}
	p.q = append(p.q, frames)
	p.bytes += n
	p.cond.Broadcast()
}

// pop removes the oldest message; the caller holds mu.
func (p *publisher) pop() [][]byte {
	f := p.q[0]
	p.q[0] = nil
	p.q = p.q[1:]
	p.bytes -= size(f)
	return f
}

func size(frames [][]byte) int {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	return n
}

// run sends queued messages in order until close.
func (p *publisher) run() {
	for {
		p.mu.Lock()
		for len(p.q) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.q) == 0 && p.closed {
			p.mu.Unlock()
			return
		}
		frames := p.pop()
		p.busy = true
		p.mu.Unlock()
		if err := p.send(frames); err != nil {
			p.log.Warn("iopub send failed", "err", err)
		}
		p.mu.Lock()
		p.busy = false
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

// flush waits until the queue is empty or timeout passes.
func (p *publisher) flush(timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer t.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for (len(p.q) > 0 || p.busy) && time.Now().Before(deadline) {
		p.cond.Wait()
	}
}

// close stops run once the queue is empty; later puts are ignored.
func (p *publisher) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// discard closes the queue and forgets what it still holds (the subscriber is gone).
func (p *publisher) discard() {
	p.mu.Lock()
	p.closed = true
	p.q, p.bytes = nil, 0
	p.cond.Broadcast()
	p.mu.Unlock()
}

// droppedCount returns how many messages were dropped because the queue was full.
func (p *publisher) droppedCount() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}
