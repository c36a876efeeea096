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
)

// ProtocolVersion is the messaging protocol version the kernel speaks.
const ProtocolVersion = "5.3"

const (
	replayMemory  = 65536    // signatures remembered for replay detection
	shellBacklog  = 1024     // decoded shell requests waiting to run
	unsignedBytes = 64 << 20 // octets all unsigned messages being read may hold (see admission)
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

	shell, control, stdin *router
	hb                    *guardListener
	iopub                 *fanout
	adm                   *admission

	shellQ chan *Message
	done   chan struct{} // closed on shutdown
	once   sync.Once

	mu      sync.Mutex
	cancel  context.CancelFunc // cancels the running execution, if any
	restart bool

	count int // execution count; owned by the shell goroutine
	hist  history
	comms *comms // open comms: widgets and control comms (comm.go)
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
		adm: newAdmission(seatsFor(), unsignedBytes), comms: newComms(),
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

// What each channel accepts (see guard.go): our socket type, the socket
// types of the front ends' side and the largest message, like libzmq's
// ZMQ_MAXMSGSIZE. Shell and stdin carry cells of any reasonable size;
// control, heartbeat and iopub (subscriptions only) carry small messages.
var (
	routerPeers   = []string{"DEALER", "REQ", "ROUTER"}
	shellPolicy   = policy{"shell", "ROUTER", routerPeers, limits{message: 256 << 20, frames: maxFrames, command: maxCommand}}
	stdinPolicy   = policy{"stdin", "ROUTER", routerPeers, limits{message: 256 << 20, frames: maxFrames, command: maxCommand}}
	controlPolicy = policy{"control", "ROUTER", routerPeers, limits{message: 1 << 20, frames: maxFrames, command: maxCommand}}
	hbPolicy      = policy{"hb", "REP", []string{"REQ", "DEALER"}, limits{message: 64 << 10, frames: maxFrames, command: maxCommand}}
	iopubPolicy   = policy{"iopub", "PUB", []string{"SUB", "XSUB"}, limits{message: 64 << 10, frames: maxFrames, command: maxCommand}}
)

const (
	maxFrames  = 4096     // frames in one message: identities, delimiter, five parts, buffers
	maxCommand = 64 << 10 // octets in one ZMTP command (READY's metadata, PING)
)

// bind listens on the five endpoints, each behind the wire guard, and
// records the ports actually bound.
func (k *Kernel) bind() error {
	listen := func(pol policy, port *int) (*guardListener, error) {
		g, err := listenGuarded(k.conn.endpoint(*port), pol, k.adm, k.log)
		if err != nil {
			return nil, fmt.Errorf("listen %s: %w", pol.channel, err)
		}
		boundPort(g.Addr(), port)
		return g, nil
	}
	for _, b := range []struct {
		pol  policy
		port *int
		r    **router
	}{{shellPolicy, &k.conn.ShellPort, &k.shell}, {controlPolicy, &k.conn.ControlPort, &k.control}, {stdinPolicy, &k.conn.StdinPort, &k.stdin}} {
		g, err := listen(b.pol, b.port)
		if err != nil {
			return err
		}
		*b.r = newRouter(g, k.check(b.pol.channel))
	}
	hb, err := listen(hbPolicy, &k.conn.HBPort)
	if err != nil {
		return err
	}
	k.hb = hb
	iopub, err := listen(iopubPolicy, &k.conn.IOPubPort)
	if err != nil {
		return err
	}
	k.iopub = newFanout(iopub, k.log, k.dropNotice)
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
	go k.readLoop(k.shell, func(m *Message) { k.queueShell(m) })
	go k.readLoop(k.control, func(m *Message) { k.dispatch(k.control, m, true) })
	go k.shellLoop()
	k.publishStatus(nil, "starting")
	select {
	case <-ctx.Done():
	case <-k.done:
	}
	k.Interrupt()
	deadline := time.Now().Add(time.Second)
	k.iopub.flush(time.Second)
	for _, r := range []*router{k.shell, k.control} {
		r.flush(deadline)
	}
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
	for _, r := range []*router{k.shell, k.control, k.stdin} {
		if r != nil {
			r.Close()
		}
	}
	if k.hb != nil {
		k.hb.Close()
	}
	if k.iopub != nil {
		k.iopub.Close()
	}
}

// check returns the decoder of channel's messages for its router: it
// verifies the signature and drops replays. Bad messages are logged and
// dropped; they never execute.
func (k *Kernel) check(channel string) func([][]byte) (*Message, error) {
	return func(frames [][]byte) (*Message, error) {
		m, err := k.sign.decode(frames)
		if err != nil {
			k.log.Warn("dropped message", "channel", channel, "err", err)
			return nil, err
		}
		if k.sign.on() && !k.replay.fresh(m.Signature) {
			k.log.Warn("dropped replayed message", "channel", channel, "msg_type", m.Header.MsgType, "msg_id", m.Header.MsgID)
			return nil, errReplay
		}
		return m, nil
	}
}

var errReplay = errors.New("replayed message")

// readLoop hands r's verified messages to handle until the kernel stops.
func (k *Kernel) readLoop(r *router, handle func(*Message)) {
	for {
		m, ok := r.recv()
		if !ok || k.stopped() {
			return
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

// heartbeat echoes every ping on the connection it came on, each connection
// on its own goroutine: a peer that does not read its echoes stops only its
// own, until writeTimeout resets it.
func (k *Kernel) heartbeat() {
	for {
		p, err := k.hb.accept()
		if err != nil {
			return
		}
		go echo(p)
	}
}

// echo sends each message back as it came, which is what a REP socket
// answers a REQ or DEALER peer.
func echo(p *peer) {
	for {
		frames, err := p.read()
		if err == nil {
			p.settle(false)
			err = p.write(frames)
		}
		if err != nil {
			p.fail(err)
			return
		}
	}
}

// drainStdin reads the stdin channel: proflens never asks for input, so any
// input_reply is unexpected and only logged.
func (k *Kernel) drainStdin() {
	k.readLoop(k.stdin, func(m *Message) {
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
