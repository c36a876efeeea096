package jupyter

import (
	"log/slog"
	"sync"
	"time"
)

// rank orders iopub messages for dropping: when a subscriber's queue is
// full, the oldest message of the lowest rank goes first.
type rank int

const (
	rankStream rank = iota // stream text
	rankOutput             // displays, results, errors, comm messages
	rankInput              // execute_input
	rankStatus             // busy and idle, which front ends wait for
	ranks
)

func rankOf(msgType string) rank {
	switch msgType {
	case "stream":
		return rankStream
	case "execute_input":
		return rankInput
	case "status":
		return rankStatus
	}
	return rankOutput
}

// outgoing is one iopub message and what a queue needs to drop it wisely.
type outgoing struct {
	frames [][]byte
	rank   rank
	cell   *Message // the execute_request it belongs to; nil for other requests
	idle   bool     // the request's status idle: nothing of it follows
	seq    uint64   // order of arrival in the queue
	size   int
}

// statusSlack is how many times its count bound a queue may hold when all
// it holds is status messages, small and needed.
const statusSlack = 16

// publisher is one iopub subscriber's bounded queue (see fanout). put never
// blocks: when the queue is full it drops by rank, status last (a front end
// that misses an idle shows its cell running forever), counts what each
// cell lost and logs at powers of two. One goroutine
// (run) sends, and just before a cell's idle it sends notice(cell, n): a
// stderr line in the cell saying that n of its messages were dropped.
type publisher struct {
	mu       sync.Mutex
	cond     *sync.Cond
	q        [ranks][]outgoing // one queue per rank; seq orders them all
	n        int               // messages queued
	seq      uint64
	max      int
	maxBytes int
	bytes    int // total size of the queued frames
	dropped  uint64
	lost     map[*Message]int // messages dropped per cell whose idle is not sent yet
	closed   bool
	busy     bool // a message is being handed to the socket
	send     func([][]byte) error
	notice   func(cell *Message, n int) [][]byte
	log      *slog.Logger
}

func newPublisher(max int, send func([][]byte) error, notice func(*Message, int) [][]byte, log *slog.Logger) *publisher {
	p := &publisher{max: max, maxBytes: queueBytes, lost: map[*Message]int{}, send: send, notice: notice, log: log}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// put queues o for sending; it never blocks.
func (p *publisher) put(o outgoing) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	o.size = size(o.frames)
	for p.n > 0 && p.full(o) {
		if o.rank < p.lowest() {
			p.count(o)
			return
		}
		p.count(p.take(p.lowest()))
	}
	p.seq++
	o.seq = p.seq
	p.q[o.rank] = append(p.q[o.rank], o)
	p.n++
	p.bytes += o.size
	p.cond.Broadcast()
}

// full reports whether o must wait for a message to be dropped: the queue
// holds maxBytes bytes, or max messages not all status (o included), or
// statusSlack times max messages.
func (p *publisher) full(o outgoing) bool {
	return p.bytes+o.size > p.maxBytes || p.n >= statusSlack*p.max ||
		p.n >= p.max && min(o.rank, p.lowest()) < rankStatus
}

// lowest is the lowest rank queued; the caller holds mu and the queue is not empty.
func (p *publisher) lowest() rank {
	r := rank(0)
	for len(p.q[r]) == 0 {
		r++
	}
	return r
}

// count records that o was dropped.
func (p *publisher) count(o outgoing) {
	p.dropped++
	if p.dropped&(p.dropped-1) == 0 { // log at 1, 2, 4, 8, ...
		p.log.Warn("iopub queue full, dropped messages", "dropped", p.dropped, "capacity", p.max, "capacity_bytes", p.maxBytes)
	}
	switch {
	case o.cell == nil:
	case o.idle:
		delete(p.lost, o.cell) // nothing left to tell it in
	default:
		p.lost[o.cell]++
	}
}

// take removes the oldest message of rank r; the caller holds mu.
func (p *publisher) take(r rank) outgoing {
	o := p.q[r][0]
	p.q[r][0] = outgoing{}
	p.q[r] = p.q[r][1:]
	p.n--
	p.bytes -= o.size
	return o
}

// first removes the message queued first, whatever its rank.
func (p *publisher) first() outgoing {
	best := rank(-1)
	for r := range ranks {
		if len(p.q[r]) > 0 && (best < 0 || p.q[r][0].seq < p.q[best][0].seq) {
			best = r
		}
	}
	return p.take(best)
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
		for p.n == 0 && !p.closed {
			p.cond.Wait()
		}
		if p.n == 0 && p.closed {
			p.mu.Unlock()
			return
		}
		o := p.first()
		lost := 0
		if o.idle {
			lost = p.lost[o.cell]
			delete(p.lost, o.cell)
		}
		p.busy = true
		p.mu.Unlock()
		if lost > 0 {
			p.write(p.notice(o.cell, lost))
		}
		p.write(o.frames)
		p.mu.Lock()
		p.busy = false
		p.cond.Broadcast()
		p.mu.Unlock()
	}
}

func (p *publisher) write(frames [][]byte) {
	if err := p.send(frames); err != nil {
		p.log.Warn("iopub send failed", "err", err)
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
	for (p.n > 0 || p.busy) && time.Now().Before(deadline) {
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
	p.q, p.n, p.bytes = [ranks][]outgoing{}, 0, 0
	p.lost = map[*Message]int{}
	p.cond.Broadcast()
	p.mu.Unlock()
}

// droppedCount returns how many messages were dropped because the queue was full.
func (p *publisher) droppedCount() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dropped
}
