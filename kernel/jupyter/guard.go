package jupyter

import (
	"bytes"
	"context"
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

// The wire guard. zmq4 v0.17.0 trusts its peers: it performs each handshake
// inline in its accept loop with no deadline (one idle connection locks out
// every new client), allocates a frame's declared size before reading it
// (2^62 panics, 64 GiB is a fatal out-of-memory), indexes past a short READY
// property (a panic), and leaves failed handshakes open until garbage
// collection. The guard stands between the network and zmq4: it accepts
// connections itself, does the whole handshake on a goroutine per connection
// within handshakeTimeout (our greeting out, the peer's greeting and READY
// in, checked), closes at once what fails, and only then hands zmq4 a
// connection that replays what was read. (It must send its greeting itself:
// a libzmq peer sends the rest of its greeting only after reading ours. It
// may wait for the peer's READY before zmq4 sends ours: with the NULL
// mechanism libzmq, zmq4 and the others send READY without waiting.) From there every frame header
// passes through a framer, which refuses a frame that would take its message
// or command over the channel's limits, so zmq4 never allocates for it; the
// guard then closes the connection. zmq4 sends its own greeting again; the
// connection swallows it (the same 64 octets, already sent).

const (
	handshakeTimeout = 5 * time.Second // greeting and READY must arrive within this
	acceptBackoff    = 50 * time.Millisecond
)

// greeting is ours, and zmq4's: ZMTP 3.0, mechanism NULL, as-server 0.
var greeting = func() []byte {
	g := make([]byte, greetingLen)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:32], "NULL")
	return g
}()

// policy is what one channel accepts: who may connect and how much they may send.
type policy struct {
	channel string
	peers   []string // socket types allowed in READY's Socket-Type
	limits
}

// guardListener accepts connections whose handshake passed; the handshakes
// run off the accept loop, so a slow or idle peer delays nobody else.
type guardListener struct {
	net.Listener
	pol   policy
	log   *slog.Logger
	ready chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func guard(ln net.Listener, pol policy, log *slog.Logger) *guardListener {
	g := &guardListener{Listener: ln, pol: pol, log: log.With("channel", pol.channel), ready: make(chan net.Conn), done: make(chan struct{})}
	go g.serve()
	return g
}

func (g *guardListener) serve() {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			g.log.Warn("accept failed", "err", err)
			time.Sleep(acceptBackoff) // e.g. out of descriptors: do not spin
			continue
		}
		go g.handshake(c)
	}
}

// Accept returns the next connection that completed its handshake.
func (g *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-g.ready:
		return c, nil
	case <-g.done:
		return nil, net.ErrClosed
	}
}

// Close stops listening; connections already handed out stay open.
func (g *guardListener) Close() error {
	g.once.Do(func() { close(g.done) })
	return g.Listener.Close()
}

func (g *guardListener) handshake(c net.Conn) {
	gc, err := g.open(c)
	if err != nil {
		c.Close()
		g.log.Debug("handshake refused", "remote", c.RemoteAddr().String(), "err", err)
		return
	}
	select {
	case g.ready <- gc:
	case <-g.done:
		c.Close()
	}
}

// open exchanges greetings and reads the peer's READY within handshakeTimeout.
func (g *guardListener) open(c net.Conn) (*guardedConn, error) {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	if _, err := c.Write(greeting); err != nil {
		return nil, fmt.Errorf("send greeting: %w", err)
	}
	peer := make([]byte, greetingLen)
	if _, err := io.ReadFull(c, peer); err != nil {
		return nil, fmt.Errorf("read greeting: %w", err)
	}
	if err := checkGreeting(peer); err != nil {
		return nil, err
	}
	ready, err := readReady(c, g.pol)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Time{})
	replay := io.MultiReader(bytes.NewReader(peer), bytes.NewReader(ready))
	frames := &frameReader{r: c, f: framer{lim: g.pol.limits}}
	return &guardedConn{Conn: c, in: io.MultiReader(replay, frames), echo: greeting, log: g.log}, nil
}

// readReady reads the peer's first frame, which must be a READY command
// within the limits, and returns it, header included.
func readReady(r io.Reader, pol policy) ([]byte, error) {
	fr := &frameReader{r: r, f: framer{lim: pol.limits}}
	if err := fr.next(); err != nil {
		return nil, fmt.Errorf("read READY: %w", err)
	}
	if fr.hdr[0]&flagCommand == 0 {
		return nil, errors.New("first frame is not a command: want READY")
	}
	frame := make([]byte, len(fr.pend)+int(fr.body))
	n := copy(frame, fr.pend)
	if _, err := io.ReadFull(r, frame[n:]); err != nil {
		return nil, fmt.Errorf("read READY: %w", err)
	}
	return frame, checkReady(frame[n:], pol.peers)
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

// isSocketType reports whether zmq4 files name under "Socket-Type": it
// capitalises the first letter of each word of a property name and nothing else.
func isSocketType(name []byte) bool {
	return len(name) == 11 && (name[0]|0x20) == 's' && string(name[1:7]) == "ocket-" && (name[7]|0x20) == 't' && string(name[8:]) == "ype"
}

// guardedConn is what zmq4 gets: reads replay the handshake then pass through
// a frameReader; the first writes must be zmq4's greeting, which was sent
// already and is swallowed.
type guardedConn struct {
	net.Conn
	in   io.Reader
	echo []byte // the part of our greeting zmq4 has not written yet
	log  *slog.Logger
	once sync.Once
}

// Read closes the connection on a refused frame or a header cut short, and
// returns an error zmq4 treats as a closed connection.
func (c *guardedConn) Read(p []byte) (int, error) {
	n, err := c.in.Read(p)
	var fe *FrameError
	switch {
	case errors.As(err, &fe):
		c.refuse(err, slog.LevelWarn)
	case errors.Is(err, io.ErrUnexpectedEOF):
		c.refuse(err, slog.LevelDebug)
	default:
		return n, err
	}
	return n, &refusedError{err}
}

func (c *guardedConn) refuse(err error, level slog.Level) {
	c.once.Do(func() {
		c.Conn.Close()
		c.log.Log(context.Background(), level, "connection closed", "remote", c.RemoteAddr().String(), "err", err)
	})
}

func (c *guardedConn) Write(p []byte) (int, error) {
	if len(c.echo) == 0 {
		return c.Conn.Write(p)
	}
	n := min(len(p), len(c.echo))
	if !bytes.Equal(p[:n], c.echo[:n]) {
		return 0, errors.New("zmq4 wrote a greeting unlike the one sent")
	}
	c.echo = c.echo[n:]
	if n == len(p) {
		return n, nil
	}
	m, err := c.Conn.Write(p[n:])
	return n + m, err
}

// refusedError is a net.Error that is not a timeout, so zmq4 marks the
// connection closed and removes it.
type refusedError struct{ err error }

func (e *refusedError) Error() string   { return "wire guard closed the connection: " + e.err.Error() }
func (e *refusedError) Unwrap() error   { return e.err }
func (e *refusedError) Timeout() bool   { return false }
func (e *refusedError) Temporary() bool { return false }
