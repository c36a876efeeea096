package jupyter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/user"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// ProtocolVersion is the messaging protocol version the kernel speaks.
const ProtocolVersion = "5.3"

const (
	sendTimeout  = 5 * time.Second // a stuck front end cannot block replies longer
	replayMemory = 65536           // signatures remembered for replay detection
	shellBacklog = 1024            // decoded shell requests waiting to run
)

// Kernel serves a Handler over the five Jupyter channels. Create it with
// Listen, run it with Serve.
type Kernel struct {
	h       Handler
	log     *slog.Logger
	conn    ConnectionInfo
	sign    signer
	replay  *replayGuard
	session string // fresh per process: clients detect restarts by it
	user    string

	shell, control, stdin, hb zmq4.Socket
	iopub                     *fanout

	shellQ chan *Message
	done   chan struct{} // closed on shutdown
	once   sync.Once

	mu      sync.Mutex
	cancel  context.CancelFunc // cancels the running execution, if any
	restart bool

	count int // execution count; owned by the shell goroutine
	hist  history
}

// Listen binds the five sockets described by ci and returns a kernel ready
// to Serve h. Ports given as 0 are chosen by the system; Conn reports them.
func Listen(ci ConnectionInfo, h Handler, log *slog.Logger) (*Kernel, error) {
	if err := ci.check(); err != nil {
		return nil, fmt.Errorf("connection info: %w", err)
	}
	k := &Kernel{
		h: h, log: log, conn: ci, sign: signer{key: []byte(ci.Key)},
		replay: newReplayGuard(replayMemory), session: newID(), user: userName(),
		shellQ: make(chan *Message, shellBacklog), done: make(chan struct{}),
	}
	if err := k.bind(); err != nil {
		k.closeSockets()
		return nil, err
	}
	if !k.sign.on() {
		log.Warn("the connection file has an empty key: messages are not signed, so anyone who can reach the kernel's ports can run commands as this user")
	}
	return k, nil
}

// What each channel accepts (see guard.go): the socket types of the front
// ends' side and the largest message, like libzmq's ZMQ_MAXMSGSIZE. Shell and
// stdin carry cells of any reasonable size; control, heartbeat and iopub
// (subscriptions only) carry small messages.
var (
	routerPeers   = []string{"DEALER", "REQ", "ROUTER"}
	shellPolicy   = policy{"shell", routerPeers, limits{message: 256 << 20, frames: maxFrames, command: maxCommand}}
	stdinPolicy   = policy{"stdin", routerPeers, limits{message: 256 << 20, frames: maxFrames, command: maxCommand}}
	controlPolicy = policy{"control", routerPeers, limits{message: 1 << 20, frames: maxFrames, command: maxCommand}}
	hbPolicy      = policy{"hb", []string{"REQ", "DEALER"}, limits{message: 64 << 10, frames: maxFrames, command: maxCommand}}
	iopubPolicy   = policy{"iopub", []string{"SUB", "XSUB"}, limits{message: 64 << 10, frames: maxFrames, command: maxCommand}}
)

const (
	maxFrames  = 4096     // frames in one message: identities, delimiter, five parts, buffers
	maxCommand = 64 << 10 // octets in one ZMTP command (READY's metadata, PING)
)

// bind listens on the five endpoints, each behind the wire guard, and
// records the ports actually bound.
func (k *Kernel) bind() error {
	ctx := context.Background()
	// zmq4's own log lines (a peer leaving mid-message) at debug level.
	opts := []zmq4.Option{zmq4.WithTimeout(sendTimeout), zmq4.WithLogger(slog.NewLogLogger(k.log.Handler(), slog.LevelDebug))}
	g := func(p policy) context.Context { return withGuard(ctx, p, k.log) }
	k.shell, k.control = zmq4.NewRouter(g(shellPolicy), opts...), zmq4.NewRouter(g(controlPolicy), opts...)
	k.stdin, k.hb = zmq4.NewRouter(g(stdinPolicy), opts...), zmq4.NewRep(g(hbPolicy), opts...)
	for _, b := range []struct {
		name string
		s    zmq4.Socket
		port *int
	}{{"shell", k.shell, &k.conn.ShellPort}, {"control", k.control, &k.conn.ControlPort},
		{"stdin", k.stdin, &k.conn.StdinPort}, {"hb", k.hb, &k.conn.HBPort}} {
		if err := b.s.Listen(guardedPrefix + k.conn.endpoint(*b.port)); err != nil {
			return fmt.Errorf("listen %s: %w", b.name, err)
		}
		boundPort(b.s.Addr(), b.port)
	}
	f, err := listenFanout(k.conn.endpoint(k.conn.IOPubPort), k.log, k.dropNotice)
	if err != nil {
		return fmt.Errorf("listen iopub: %w", err)
	}
	k.iopub = f
	boundPort(f.Addr(), &k.conn.IOPubPort)
	return nil
}

// boundPort records the port of a TCP listener (the system's choice for port 0).
func boundPort(a net.Addr, port *int) {
	if t, ok := a.(*net.TCPAddr); ok {
		*port = t.Port
	}
}

// Conn returns the connection info with the ports actually bound.
func (k *Kernel) Conn() ConnectionInfo { return k.conn }

// Session returns the kernel's session id, fresh for every process.
func (k *Kernel) Session() string { return k.session }

// Serve runs the kernel until a shutdown_request arrives, Shutdown is called
// or ctx ends. It reports whether the front end asked for a restart.
func (k *Kernel) Serve(ctx context.Context) (restart bool) {
	go k.heartbeat()
	go k.drainStdin()
	go k.readLoop("shell", k.shell, func(m *Message) { k.queueShell(m) })
	go k.readLoop("control", k.control, func(m *Message) { k.dispatch(k.control, m, true) })
	go k.shellLoop()
	k.publishStatus(nil, "starting")
	select {
	case <-ctx.Done():
	case <-k.done:
	}
	k.Interrupt()
	k.iopub.flush(time.Second)
	k.closeSockets()
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.restart
}

// Shutdown stops Serve; it is safe to call more than once.
func (k *Kernel) Shutdown() { k.once.Do(func() { close(k.done) }) }

// Interrupt cancels the running execution, if any (interrupt_request and SIGINT).
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cancel != nil {
		k.cancel()
	}
}

func (k *Kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.hb} {
		if s != nil {
			s.Close()
		}
	}
	if k.iopub != nil {
		k.iopub.Close()
	}
}

// readLoop receives, decodes and verifies messages from s and hands the good
// ones to handle. Bad messages are logged and dropped; they never execute.
func (k *Kernel) readLoop(name string, s zmq4.Socket, handle func(*Message)) {
	for {
		raw, err := s.Recv()
		if err != nil {
			if k.stopped() {
				return
			}
			k.log.Warn("receive failed", "channel", name, "err", err)
			if errors.Is(err, context.Canceled) {
				return
			}
			continue
		}
		m, err := k.sign.decode(raw.Frames)
		if err != nil {
			k.log.Warn("dropped message", "channel", name, "err", err)
			continue
		}
		if k.sign.on() && !k.replay.fresh(m.Signature) {
			k.log.Warn("dropped replayed message", "channel", name, "msg_type", m.Header.MsgType, "msg_id", m.Header.MsgID)
			continue
		}
		handle(m)
	}
}

func (k *Kernel) stopped() bool {
	select {
	case <-k.done:
		return true
	default:
		return false
	}
}

// heartbeat echoes every ping, on its own goroutine, never blocked by execution.
func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv()
		if err != nil {
			if k.stopped() || errors.Is(err, context.Canceled) {
				return
			}
			continue
		}
		if err := k.hb.Send(msg); err != nil && !k.stopped() {
			k.log.Warn("heartbeat echo failed", "err", err)
		}
	}
}

// drainStdin reads the stdin channel: proflens never asks for input, so any
// input_reply is unexpected and only logged.
func (k *Kernel) drainStdin() {
	k.readLoop("stdin", k.stdin, func(m *Message) {
		k.log.Info("ignored stdin message", "msg_type", m.Header.MsgType)
	})
}

// newID returns a random 128-bit id in UUID form.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func userName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "proflens"
}
