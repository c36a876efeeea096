package jupyter

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

const (
	writeTimeout = 10 * time.Second // a write blocked this long resets its connection
	bodyTimeout  = 10 * time.Second // an unsigned message must arrive whole within this
)

// peer is one connection that passed the guard's handshake. One goroutine
// reads (read, settle); writes carry a deadline (write); any goroutine may
// close or reset it.
type peer struct {
	conn    net.Conn
	fr      frameReader
	adm     *admission
	t       *ticket
	vouched bool // t vouched for; owned by the reading goroutine
	log     *slog.Logger
	done    func(*peer) // tells the guard the peer is gone
	once    sync.Once
}

// read returns the next message's frames, skipping commands (SUBSCRIBE,
// PING: Jupyter's front ends send no heartbeat commands). Until the peer is
// vouched for, its message counts against the admission's octets from each
// frame header on, and must arrive whole within bodyTimeout.
func (p *peer) read() ([][]byte, error) {
	var frames [][]byte
	for {
		flags, size, err := p.fr.next()
		if err != nil {
			return nil, err
		}
		command := flags&flagCommand != 0
		if !command && !p.vouched {
			if len(frames) == 0 {
				p.conn.SetReadDeadline(time.Now().Add(bodyTimeout))
			}
			if err := p.adm.reserve(p.t, size); err != nil {
				return nil, err
			}
		}
		body, err := p.fr.body(size)
		if err != nil {
			return nil, err
		}
		if command {
			continue
		}
		frames = append(frames, body)
		if flags&flagMore == 0 {
			p.conn.SetReadDeadline(time.Time{})
			return frames, nil
		}
	}
}

// settle ends the reading of a message: signed (correctly, and not a
// replay) vouches for the peer; either way its octets are released.
func (p *peer) settle(signed bool) {
	if signed && !p.vouched {
		p.adm.vouch(p.t)
		p.vouched = true
		return
	}
	p.adm.settle(p.t)
}

// write sends one message within writeTimeout.
func (p *peer) write(frames [][]byte) error {
	p.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	return writeFrames(p.conn, 0, frames)
}

// fail closes the peer after err, logging a refused frame as a warning and
// the rest (the peer left, a deadline passed) at debug level. A peer that
// broke a rule or a deadline is reset, so its descriptor and buffers go at once.
func (p *peer) fail(err error) {
	if errors.Is(err, io.EOF) {
		p.close()
		return
	}
	level := slog.LevelDebug
	var fe *FrameError
	if errors.As(err, &fe) {
		level = slog.LevelWarn
	}
	p.log.Log(context.Background(), level, "connection closed", "remote", p.conn.RemoteAddr().String(), "err", err)
	p.reset()
}

// reset closes the connection at once, discarding what it has not sent
// (a TCP reset), and frees its seat.
func (p *peer) reset() {
	noLinger(p.conn)
	p.close()
}

// close closes the connection and frees its seat; safe to call more than once.
func (p *peer) close() {
	p.once.Do(func() {
		p.conn.Close()
		p.adm.leave(p.t)
		if p.done != nil {
			p.done(p)
		}
	})
}

// resetConn closes c at once, discarding what it has not sent.
func resetConn(c net.Conn) {
	noLinger(c)
	c.Close()
}

// noLinger makes closing a TCP connection discard what it has not sent and
// send a reset; other connections are left alone.
func noLinger(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
}
