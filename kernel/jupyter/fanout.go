package jupyter

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

const (
	subscriberCapacity = 2048             // iopub messages queued per subscriber before dropping
	queueBytes         = 64 << 20         // and bytes
	subscriberTimeout  = 10 * time.Second // a write blocked this long drops the subscriber
)

// fanout is the iopub PUB socket. zmq4 v0.17.0's PUB sends every message
// to every subscriber in turn from one unbounded queue (go-zeromq/zmq4#151),
// so one stalled subscriber stalls all of them and memory grows. fanout
// speaks the same ZMTP (through zmq4.Open) but gives each subscriber its own
// bounded queue and writer: broadcast never blocks, a slow subscriber loses
// messages (stream text first, status last; see publisher), and one whose
// writes block for subscriberTimeout is disconnected. Every subscriber
// receives every message: SUB sockets filter by topic themselves and Jupyter
// front ends subscribe to everything. Subscribers connect through the wire
// guard (guard.go) like the other channels.
type fanout struct {
	ln     net.Listener
	log    *slog.Logger
	notice func(*Message, int) [][]byte // see publisher
	cap    int
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	done   bool
}

type subscriber struct {
	conn *zmq4.Conn
	raw  net.Conn
	q    *publisher
	once sync.Once
}

// listenFanout listens on a ZeroMQ endpoint (tcp://host:port or ipc://path).
func listenFanout(endpoint string, log *slog.Logger, notice func(*Message, int) [][]byte) (*fanout, error) {
	network, addr, err := splitEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	ln, err := listenGuarded(network, addr, iopubPolicy, log)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", endpoint, err)
	}
	f := &fanout{ln: ln, log: log, notice: notice, cap: subscriberCapacity, subs: map[*subscriber]struct{}{}}
	go f.accept()
	return f, nil
}

// Addr returns the listening address.
func (f *fanout) Addr() net.Addr { return f.ln.Addr() }

func (f *fanout) accept() {
	for {
		raw, err := f.ln.Accept()
		if err != nil {
			return // a guard's Accept fails only once it is closed
		}
		go f.open(raw)
	}
}

// open performs the ZMTP handshake and starts the subscriber's writer and reader.
func (f *fanout) open(raw net.Conn) {
	raw.SetDeadline(time.Now().Add(handshakeTimeout))
	c, err := zmq4.Open(raw, null.Security(), zmq4.Pub, nil, true, nil)
	if err != nil {
		f.log.Warn("iopub handshake failed", "remote", raw.RemoteAddr().String(), "err", err)
		raw.Close()
		return
	}
	raw.SetDeadline(time.Time{})
	s := &subscriber{conn: c, raw: raw}
	s.q = newPublisher(f.cap, func(frames [][]byte) error {
		raw.SetWriteDeadline(time.Now().Add(subscriberTimeout))
		if err := c.SendMsg(zmq4.NewMsgFrom(frames...)); err != nil {
			f.drop(s, err)
			return err
		}
		return nil
	}, f.notice, f.log.With("subscriber", raw.RemoteAddr().String()))
	f.mu.Lock()
	if f.done {
		f.mu.Unlock()
		raw.Close()
		return
	}
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	go s.q.run()
	go f.read(s)
}

// read consumes what the subscriber sends (subscriptions, pings) until it
// disconnects.
func (f *fanout) read(s *subscriber) {
	for {
		if _, err := s.conn.RecvMsg(); err != nil {
			f.drop(s, err)
			return
		}
	}
}

// drop disconnects s; it is safe to call more than once.
func (f *fanout) drop(s *subscriber, why error) {
	s.once.Do(func() {
		f.mu.Lock()
		delete(f.subs, s)
		f.mu.Unlock()
		s.q.discard()
		s.raw.Close()
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
	return f.ln.Close()
}
