package jupyter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// The wire guard: every channel's listener. zmq4 v0.17.0 trusts its peers
// (it performs each handshake inline in its accept loop with no deadline,
// allocates a frame's declared size before reading it, indexes past a short
// READY property, sends to every connection that claims an identity, with
// no write deadline, and leaves failed handshakes open until garbage
// collection), so the kernel speaks ZMTP itself on its side of the five
// channels. The guard accepts each connection, seats it (admission: a cap
// per channel, evicting first the connections that have not signed
// anything), does the whole handshake on a goroutine per connection within
// handshakeTimeout (greetings both ways, the peer's READY read and checked,
// ours sent), closes at once what fails, and hands on a peer, whose frame
// headers then pass through a framer that refuses a frame over the
// channel's limits before anything is allocated for it. ZMTP:
// rfc.zeromq.org/spec/23 (3.0) and /37 (3.1).

const (
	handshakeTimeout = 5 * time.Second // greeting and READY must arrive within this
	acceptBackoff    = 50 * time.Millisecond
)

// greeting is ours: ZMTP 3.0, mechanism NULL, as-server 0.
var greeting = func() []byte {
	g := make([]byte, greetingLen)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:32], "NULL")
	return g
}()

// policy is what one channel accepts: who may connect and how much they may send.
type policy struct {
	channel string
	typ     string   // our socket type, sent in READY
	peers   []string // socket types allowed in the peer's READY
	limits
}

// guardListener accepts connections whose handshake passed; the handshakes
// run off the accept loop, so a slow or idle peer delays nobody else. It
// owns the peers it hands on: Close closes them all.
type guardListener struct {
	ln    net.Listener
	pol   policy
	adm   *admission
	log   *slog.Logger
	ready chan *peer
	done  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	peers map[*peer]struct{}
}

func guard(ln net.Listener, pol policy, adm *admission, log *slog.Logger) *guardListener {
	g := &guardListener{ln: ln, pol: pol, adm: adm, log: log.With("channel", pol.channel),
		ready: make(chan *peer), done: make(chan struct{}), peers: map[*peer]struct{}{}}
	go g.serve()
	return g
}

func (g *guardListener) serve() {
	for {
		c, err := g.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			g.log.Warn("accept failed", "err", err)
			time.Sleep(acceptBackoff) // e.g. out of descriptors: do not spin
			continue
		}
		t, err := g.adm.admit(g.pol.channel, func() { resetConn(c) })
		if err != nil {
			g.log.Debug("connection refused", "remote", c.RemoteAddr().String(), "err", err)
			resetConn(c)
			continue
		}
		go g.handshake(c, t)
	}
}

// Addr returns the listening address.
func (g *guardListener) Addr() net.Addr { return g.ln.Addr() }

// accept returns the next peer that completed its handshake.
func (g *guardListener) accept() (*peer, error) {
	select {
	case p := <-g.ready:
		return p, nil
	case <-g.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening and closes every peer handed on.
func (g *guardListener) Close() error {
	g.once.Do(func() { close(g.done) })
	err := g.ln.Close()
	g.mu.Lock()
	peers := make([]*peer, 0, len(g.peers))
	for p := range g.peers {
		peers = append(peers, p)
	}
	g.mu.Unlock()
	for _, p := range peers {
		p.close()
	}
	return err
}

func (g *guardListener) handshake(c net.Conn, t *ticket) {
	if err := g.open(c); err != nil {
		resetConn(c)
		g.adm.leave(t)
		g.log.Debug("handshake refused", "remote", c.RemoteAddr().String(), "err", err)
		return
	}
	p := &peer{conn: c, fr: frameReader{r: c, f: framer{lim: g.pol.limits}}, adm: g.adm, t: t, log: g.log, done: g.forget}
	g.mu.Lock()
	g.peers[p] = struct{}{}
	g.mu.Unlock()
	select {
	case g.ready <- p:
	case <-g.done:
		p.close()
	}
}

func (g *guardListener) forget(p *peer) {
	g.mu.Lock()
	delete(g.peers, p)
	g.mu.Unlock()
}

// open exchanges greetings and READY commands within handshakeTimeout.
func (g *guardListener) open(c net.Conn) error {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if _, err := c.Write(greeting); err != nil {
		return fmt.Errorf("send greeting: %w", err)
	}
	peer := make([]byte, greetingLen)
	if _, err := io.ReadFull(c, peer); err != nil {
		return fmt.Errorf("read greeting: %w", err)
	}
	if err := checkGreeting(peer); err != nil {
		return err
	}
	if err := readReady(c, g.pol); err != nil {
		return err
	}
	if err := writeFrames(c, flagCommand, [][]byte{readyBody(g.pol.typ)}); err != nil {
		return fmt.Errorf("send READY: %w", err)
	}
	return c.SetDeadline(time.Time{})
}

// readyBody is a READY command naming our socket type.
func readyBody(typ string) []byte {
	b := append([]byte("\x05READY\x0bSocket-Type"), 0, 0, 0, byte(len(typ)))
	return append(b, typ...)
}

// readReady reads the peer's first frame, which must be a READY command
// within the limits.
func readReady(r io.Reader, pol policy) error {
	fr := &frameReader{r: r, f: framer{lim: pol.limits}}
	flags, size, err := fr.next()
	if err != nil {
		return fmt.Errorf("read READY: %w", err)
	}
	if flags&flagCommand == 0 {
		return errors.New("first frame is not a command: want READY")
	}
	body, err := fr.body(size)
	if err != nil {
		return fmt.Errorf("read READY: %w", err)
	}
	return checkReady(body, pol.peers)
}

// checkGreeting accepts a ZMTP 3.x greeting with the NULL mechanism, as zmq4 does.
func checkGreeting(g []byte) error {
	switch {
	case g[0] != 0xff || g[9] != 0x7f:
		return errors.New("not a ZMTP greeting")
	case g[10] < 3:
		return fmt.Errorf("ZMTP %d.%d: want 3.0 or later", g[10], g[11])
	case !bytes.Equal(g[12:32], greeting[12:32]):
		return fmt.Errorf("security mechanism %q: want NULL", bytes.TrimRight(g[12:32], "\x00"))
	case g[32] > 1:
		return fmt.Errorf("as-server octet %d: want 0 or 1", g[32])
	}
	return nil
}

// checkReady accepts a READY command whose metadata is well formed (zmq4
// indexes past a short property) and whose Socket-Type is one of peers.
func checkReady(body []byte, peers []string) error {
	if len(body) < 6 || string(body[:6]) != "\x05READY" {
		return errors.New("first command is not READY")
	}
	typ := ""
	for p := body[6:]; len(p) > 0; {
		name, value, rest, err := property(p)
		if err != nil {
			return fmt.Errorf("READY metadata at octet %d: %w", len(body)-len(p), err)
		}
		if isSocketType(name) {
			typ = string(value)
		}
		p = rest
	}
	if !slices.Contains(peers, typ) {
		return fmt.Errorf("socket type %q: want one of %s", typ, strings.Join(peers, ", "))
	}
	return nil
}

// property splits one metadata property off p: a name of 1-255 characters
// from ZMTP's name-char set, then a value with a 4-octet size.
func property(p []byte) (name, value, rest []byte, err error) {
	n := int(p[0])
	if n == 0 || len(p) < 1+n+4 {
		return nil, nil, nil, errors.New("property cut short")
	}
	name = p[1 : 1+n]
	for _, c := range name {
		if !isNameChar(c) {
			return nil, nil, nil, fmt.Errorf("property name %q: character %q not allowed", name, c)
		}
	}
	v := binary.BigEndian.Uint32(p[1+n:])
	p = p[1+n+4:]
	if uint64(v) > uint64(len(p)) {
		return nil, nil, nil, fmt.Errorf("property %s: value of %d octets, %d left", name, v, len(p))
	}
	return name, p[:v], p[v:], nil
}

func isNameChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '+'
}

// isSocketType reports whether name is "Socket-Type", its two initials in
// either case (zmq4 capitalises them, libzmq sends them so).
func isSocketType(name []byte) bool {
	return len(name) == 11 && (name[0]|0x20) == 's' && string(name[1:7]) == "ocket-" && (name[7]|0x20) == 't' && string(name[8:]) == "ype"
}
