package jupyter

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// routeQueueBytes is how many octets of replies a connection may leave
// unread before it counts as stalled.
const routeQueueBytes = 64 << 20

// router is the ROUTER side of shell, control and stdin. zmq4's ROUTER
// routes a reply to every connection whose peer claimed the identity it
// names, writing to each in turn with no deadline while it holds its lock:
// anyone who reads a client's session id on iopub can take copies of its
// replies and, by not reading them, freeze the channel for everyone.
// router instead gives every connection a routing id of its own (the first
// frame of what it receives; libzmq's ROUTER does the same for peers that
// claim no identity), whatever identity the peer claims, so a reply goes to
// the connection its request came on and to no other; two clients that
// claim one identity are two routes. Each connection has its own reader and
// its own writer: send never blocks, and a connection whose writes block for
// writeTimeout, or that leaves routeQueueBytes of replies unread, is reset.
type router struct {
	g      *guardListener
	check  func(frames [][]byte) (*Message, error) // decode and verify; nil error vouches for the connection
	in     chan *Message
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	next   uint64
	routes map[string]*route
}

// route is one connection of a router.
type route struct {
	*peer
	id    []byte
	start sync.Once // the writer, started at the first send
	wake  chan struct{}
	quit  chan struct{}
	mu    sync.Mutex
	out   [][][]byte // messages to write, in order
	bytes int        // their octets
	busy  bool       // the writer holds a message
}

var errGone = errors.New("the connection the request came on is closed")

func newRouter(g *guardListener, check func([][]byte) (*Message, error)) *router {
	r := &router{g: g, check: check, in: make(chan *Message), done: make(chan struct{}), routes: map[string]*route{}}
	go r.accept()
	return r
}

func (r *router) accept() {
	for {
		p, err := r.g.accept()
		if err != nil {
			return
		}
		go r.serve(p)
	}
}

// serve reads p's messages and passes on the verified ones, in order; a
// message is checked before the next is read, so what an unsigned peer
// holds is one message.
func (r *router) serve(p *peer) {
	q := r.add(p)
	defer r.remove(q)
	for {
		frames, err := p.read()
		if err != nil {
			p.fail(err)
			return
		}
		m, err := r.check(append([][]byte{q.id}, frames...))
		p.settle(err == nil)
		if err != nil {
			continue
		}
		select {
		case r.in <- m:
		case <-r.done:
			return
		}
	}
}

func (r *router) add(p *peer) *route {
	q := &route{peer: p, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	q.id = binary.BigEndian.AppendUint64([]byte{0}, r.next)
	r.routes[string(q.id)] = q
	return q
}

func (r *router) remove(q *route) {
	r.mu.Lock()
	delete(r.routes, string(q.id))
	r.mu.Unlock()
	close(q.quit)
	q.close()
}

// write sends q's queue in order until q is removed.
func (q *route) write() {
	for {
		f := q.take()
		if f == nil {
			select {
			case <-q.wake:
				continue
			case <-q.quit:
				return
			}
		}
		err := q.peer.write(f)
		q.mu.Lock()
		q.busy = false
		q.mu.Unlock()
		if err != nil {
			q.fail(fmt.Errorf("write: %w", err))
			return
		}
	}
}

// take removes the first message queued, or returns nil.
func (q *route) take() [][]byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.out) == 0 {
		return nil
	}
	f := q.out[0]
	q.out[0] = nil
	q.out = q.out[1:]
	q.bytes -= size(f)
	q.busy = true
	return f
}

// put queues f unless that would leave more than routeQueueBytes unread.
func (q *route) put(f [][]byte) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.bytes+size(f) > routeQueueBytes {
		return fmt.Errorf("%d octets of replies not read: the limit is %d", q.bytes+size(f), routeQueueBytes)
	}
	q.out = append(q.out, f)
	q.bytes += size(f)
	return nil
}

// pending reports whether q has messages queued or being written.
func (q *route) pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.out) > 0 || q.busy
}

// recv returns the next verified message, or false once the router is closed.
func (r *router) recv() (*Message, bool) {
	select {
	case m := <-r.in:
		return m, true
	case <-r.done:
		return nil, false
	}
}

// send queues frames for the connection named by the routing id in
// frames[0]; it never blocks. A connection that cannot take them is reset.
func (r *router) send(frames [][]byte) error {
	r.mu.Lock()
	q := r.routes[string(frames[0])]
	r.mu.Unlock()
	if q == nil {
		return errGone
	}
	q.start.Do(func() { go q.write() })
	if err := q.put(frames[1:]); err != nil {
		q.fail(err)
		return err
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// flush waits until every connection has written what is queued for it,
// or the deadline passes.
func (r *router) flush(deadline time.Time) {
	for time.Now().Before(deadline) {
		r.mu.Lock()
		busy := false
		for _, q := range r.routes {
			busy = busy || q.pending()
		}
		r.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Close stops listening and closes every connection.
func (r *router) Close() error {
	r.once.Do(func() { close(r.done) })
	return r.g.Close()
}

// Addr returns the listening address.
func (r *router) Addr() net.Addr { return r.g.Addr() }
