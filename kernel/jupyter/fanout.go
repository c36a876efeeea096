package jupyter

import (
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"
)

const (
	subscriberCapacity = 2048     // iopub messages queued per subscriber before dropping
	queueBytes         = 64 << 20 // and bytes
)

// fanout is the iopub PUB side. zmq4 v0.17.0's PUB sends every message to
// every subscriber in turn from one unbounded queue (go-zeromq/zmq4#151),
// so one stalled subscriber stalls all of them and memory grows. fanout
// gives each subscriber its own bounded queue and writer: broadcast never
// blocks, a slow subscriber loses messages (stream text first, status last;
// see publisher), and one whose writes block for writeTimeout is reset.
// Every subscriber receives every message: SUB sockets filter by topic
// themselves and Jupyter front ends subscribe to everything. Subscribers
// connect through the wire guard (guard.go) like the other channels.
type fanout struct {
	g      *guardListener
	log    *slog.Logger
	notice func(*Message, int) [][]byte // see publisher
	cap    int
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	done   bool
}

type subscriber struct {
	p    *peer
	q    *publisher
	once sync.Once
}

// newFanout publishes to the subscribers g accepts.
func newFanout(g *guardListener, log *slog.Logger, notice func(*Message, int) [][]byte) *fanout {
	f := &fanout{g: g, log: log, notice: notice, cap: subscriberCapacity, subs: map[*subscriber]struct{}{}}
	go f.accept()
	return f
}

// Addr returns the listening address.
func (f *fanout) Addr() net.Addr { return f.g.Addr() }

func (f *fanout) accept() {
	for {
		p, err := f.g.accept()
		if err != nil {
			return // a guard's accept fails only once it is closed
		}
		f.open(p)
	}
}

// open starts the subscriber's writer and reader.
func (f *fanout) open(p *peer) {
	s := &subscriber{p: p}
	s.q = newPublisher(f.cap, func(frames [][]byte) error {
		if err := p.write(frames); err != nil {
			f.drop(s, err)
			return err
		}
		return nil
	}, f.notice, f.log.With("subscriber", p.conn.RemoteAddr().String()))
	f.mu.Lock()
	if f.done {
		f.mu.Unlock()
		p.close()
		return
	}
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	go s.q.run()
	go f.read(s)
}

// read consumes what the subscriber sends (subscriptions) until it disconnects.
func (f *fanout) read(s *subscriber) {
	for {
		if _, err := s.p.read(); err != nil {
			f.drop(s, err)
			return
		}
		s.p.settle(false)
	}
}

// drop disconnects s; it is safe to call more than once.
func (f *fanout) drop(s *subscriber, why error) {
	s.once.Do(func() {
		f.mu.Lock()
		delete(f.subs, s)
		f.mu.Unlock()
		s.q.discard()
		s.p.fail(why)
		f.log.Debug("iopub subscriber left", "err", why)
	})
}

// broadcast queues o for every subscriber; it never blocks.
func (f *fanout) broadcast(o outgoing) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs {
		s.q.put(o)
	}
}

// flush waits up to timeout for every subscriber's queue to drain.
func (f *fanout) flush(timeout time.Duration) {
	f.mu.Lock()
	subs := make([]*subscriber, 0, len(f.subs))
	for s := range f.subs {
		subs = append(subs, s)
	}
	f.mu.Unlock()
	deadline := time.Now().Add(timeout)
	for _, s := range subs {
		s.q.flush(time.Until(deadline))
	}
}

// Close disconnects every subscriber and stops listening.
func (f *fanout) Close() error {
	f.mu.Lock()
	f.done = true
	subs := make([]*subscriber, 0, len(f.subs))
	for s := range f.subs {
		subs = append(subs, s)
	}
	f.mu.Unlock()
	for _, s := range subs {
		f.drop(s, errors.New("kernel closing"))
	}
	return f.g.Close()
}
