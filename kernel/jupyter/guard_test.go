package jupyter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

// readyCmd is a READY command frame with the given metadata properties (name, value, ...).
func readyCmd(props ...string) []byte {
	body := []byte("\x05READY")
	for i := 0; i+1 < len(props); i += 2 {
		body = append(body, byte(len(props[i])))
		body = append(body, props[i]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(props[i+1])))
		body = append(body, props[i+1]...)
	}
	return zframe(flagCommand, body, false)
}

// peerGreeting is a client's greeting with octet i set to v.
func peerGreeting(i int, v byte) []byte {
	g := append([]byte(nil), greeting...)
	g[i] = v
	return g
}

// exchange connects to addr, writes stream, ends its side and reads until
// the server closes or a second passes; it reports what was read and whether
// the server closed.
func exchange(t *testing.T, addr string, stream []byte) ([]byte, bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(stream)
	c.(*net.TCPConn).CloseWrite()
	c.SetReadDeadline(time.Now().Add(time.Second))
	got, err := io.ReadAll(c)
	ne, ok := err.(net.Error)
	return got, !ok || !ne.Timeout() // EOF, or reset for what it did not read
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// listenGuard listens on a loopback port behind a guard with policy pol.
func listenGuard(t *testing.T, pol policy) *guardListener {
	t.Helper()
	g, err := listenGuarded("tcp://127.0.0.1:0", pol, newAdmission(16, 1<<20), quiet())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// TestGuardRefusesHandshakes: a bad greeting or READY is answered by our
// greeting at most and the connection is closed at once, never handed on; a
// good one is handed on.
func TestGuardRefusesHandshakes(t *testing.T) {
	g := listenGuard(t, shellPolicy)
	accepted := make(chan *peer, 16)
	go func() {
		for {
			c, err := g.accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	ready := readyCmd("Socket-Type", "DEALER", "Identity", "")
	bad := map[string][]byte{
		"HTTP":                       []byte("GET / HTTP/1.0\r\n\r\n"),
		"greeting cut short":         greeting[:20],
		"ZMTP 2.0":                   cat(peerGreeting(10, 1), ready),
		"mechanism PLAIN":            cat(greeting[:12], []byte("PLAIN"), greeting[17:], ready),
		"as-server 2":                cat(peerGreeting(32, 2), ready),
		"a message where READY goes": cat(greeting, zframe(0, []byte("hello"), false)),
		"size 2^62 where READY goes": cat(greeting, header9(0, 1<<62)),
		"size 2^62 command":          cat(greeting, header9(flagCommand, 1<<62)),
		"ERROR":                      cat(greeting, zframe(flagCommand, []byte("\x05ERROR\x03bad"), false)),
		"READY without metadata":     cat(greeting, readyCmd()),
		"a PUB peer":                 cat(greeting, readyCmd("Socket-Type", "PUB")),
		"property cut in its name":   cat(greeting, zframe(flagCommand, []byte("\x05READY\x0bSocket"), false)),
		"property without a size":    cat(greeting, zframe(flagCommand, []byte("\x05READY\x0bSocket-Type"), false)),
		"value longer than the rest": cat(greeting, zframe(flagCommand, []byte("\x05READY\x0bSocket-Type\x00\x00\x00\x09DEA"), false)),
		"empty property name":        cat(greeting, zframe(flagCommand, []byte("\x05READY\x00\x00\x00\x00\x00"), false)),
		"name outside name-char":     cat(greeting, readyCmd("Socket Type", "DEALER")),
	}
	for name, stream := range bad {
		got, closed := exchange(t, g.Addr().String(), stream)
		if !closed || !bytes.HasPrefix(greeting, got) {
			t.Errorf("%s: read %q, closed %v; want at most our greeting, then closed", name, got, closed)
		}
	}
	c, err := net.Dial("tcp", g.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(cat(greeting, readyCmd("socket-type", "DEALER")))
	select {
	case a := <-accepted:
		defer a.close()
		if a.conn.RemoteAddr().String() != c.LocalAddr().String() {
			t.Errorf("handed on %v, want the good peer %v (a refused one got through)", a.conn.RemoteAddr(), c.LocalAddr())
		}
		want := cat(greeting, zframe(flagCommand, readyBody("ROUTER"), false))
		got := make([]byte, len(want))
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, want) {
			t.Errorf("the good peer read %q, %v; want our greeting and READY", got, err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a good handshake was not handed on")
	}
}

// TestPeerRefusesFrame: after the handshake, a frame over the limit is
// refused from its header and the connection is closed, the messages before
// it read whole.
func TestPeerRefusesFrame(t *testing.T) {
	g := listenGuard(t, controlPolicy)
	c, err := net.Dial("tcp", g.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ready := readyCmd("Socket-Type", "DEALER")
	c.Write(cat(greeting, ready, zframe(flagMore, []byte("small"), false), zframe(0, nil, false), header9(0, 2<<20)))
	p, err := g.accept()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.read(); err != nil || len(got) != 2 || string(got[0]) != "small" || len(got[1]) != 0 {
		t.Fatalf("read %q, %v; want the message [small, \"\"]", got, err)
	}
	p.settle(false)
	_, err = p.read()
	var fe *FrameError
	if !errors.As(err, &fe) {
		t.Fatalf("reading the 2 MiB frame on control: %v; want a *FrameError", err)
	}
	p.fail(err)
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	got, _ := io.ReadAll(c)
	if want := cat(greeting, zframe(flagCommand, readyBody("ROUTER"), false)); !bytes.Equal(got, want) {
		t.Errorf("the peer read %q; want our greeting and READY, then the connection closed", got)
	}
	if g.adm.count["control"] != 0 {
		t.Errorf("control holds %d seats after the connection closed, want 0", g.adm.count["control"])
	}
}

// TestIdlePeerBlocksNobody: connections that send nothing, on shell and on
// control, delay no other client, even while a cell runs.
func TestIdlePeerBlocksNobody(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	for _, port := range []int{k.Conn().ShellPort, k.Conn().ControlPort, k.Conn().IOPubPort} {
		idle, err := net.Dial("tcp", k.Conn().endpoint(port)[len("tcp://"):])
		if err != nil {
			t.Fatal(err)
		}
		defer idle.Close()
	}
	start := time.Now()
	connected := make(chan *client, 1)
	go func() { connected <- dial(t, k.Conn(), "c2") }()
	var c2 *client
	select {
	case c2 = <-connected:
	case <-time.After(3 * time.Second):
		t.Fatal("a new client cannot connect while idle connections are open")
	}
	c.execute("sleep", true)
	time.Sleep(50 * time.Millisecond)
	c2.send(c2.control, "interrupt_request", map[string]any{})
	c2.next(c2.controlC, "interrupt_reply")
	if got := content(c.next(c.shellC, "interrupted reply")); got["status"] != "error" {
		t.Errorf("interrupted cell: %v", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a new client took %v to connect and interrupt", d)
	}
}

// TestOverLimitFrameKeepsKernel: a 2^62 frame header on shell and iopub
// closes that connection only; the kernel keeps serving.
func TestOverLimitFrameKeepsKernel(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	for _, s := range []struct {
		port int
		typ  string
	}{{k.Conn().ShellPort, "DEALER"}, {k.Conn().IOPubPort, "SUB"}} {
		stream := cat(greeting, readyCmd("Socket-Type", s.typ), header9(0, 1<<62))
		got, closed := exchange(t, k.Conn().endpoint(s.port)[len("tcp://"):], stream)
		if !closed || !bytes.HasPrefix(got, greeting) {
			t.Errorf("%s peer sending 2^62: read %q, closed %v; want the handshake, then closed", s.typ, got, closed)
		}
	}
	c.execute("echo alive", true)
	if got := content(c.next(c.shellC, "reply")); got["status"] != "ok" {
		t.Errorf("after the attack: %v", got)
	}
}

// TestReadyBody: the READY we send is one our own check and the front
// ends' accept: well formed, naming our socket type.
func TestReadyBody(t *testing.T) {
	for _, pol := range []policy{shellPolicy, controlPolicy, stdinPolicy, hbPolicy, iopubPolicy} {
		if err := checkReady(readyBody(pol.typ), []string{pol.typ}); err != nil {
			t.Errorf("%s: our READY: %v", pol.channel, err)
		}
		if err := checkReady(readyBody(pol.typ), []string{"X" + pol.typ}); err == nil {
			t.Errorf("%s: our READY passes as another socket type", pol.channel)
		}
	}
}

// TestCheckReady: READY commands as peers send them are accepted whatever
// the order of their properties and however their values end; each
// malformed one is refused with an error naming where and what.
func TestCheckReady(t *testing.T) {
	body := func(props ...string) []byte { c := readyCmd(props...); return c[headerLen(c[0]):] }
	good := [][]byte{
		body("Socket-Type", "DEALER"),
		body("socket-type", "DEALER"),
		body("Socket-Type", "DEALER", "Identity", ""),
		body("Identity", "", "Socket-Type", "DEALER"),
		body("Identity", strings.Repeat("i", 255), "Socket-Type", "REQ", "X-Other", "v"),
	}
	for _, b := range good {
		if err := checkReady(b, routerPeers); err != nil {
			t.Errorf("checkReady(%q) = %v, want nil", b, err)
		}
	}
	bad := []struct {
		body []byte
		want string
	}{
		{[]byte("\x05READ"), "first command is not READY"},
		{[]byte("\x05ERROR\x03bad"), "first command is not READY"},
		{[]byte("\x05READY"), `socket type "": want one of DEALER, REQ, ROUTER`},
		{body("Socket-Type", "PUB"), `socket type "PUB": want one of DEALER, REQ, ROUTER`},
		{[]byte("\x05READY\x0bSocket"), "READY metadata at octet 6: property cut short"},
		{append(body("Identity", ""), "\x0bSocket-Type\x00\x00\x00\x09DEA"...), "READY metadata at octet 19: property Socket-Type: value of 9 octets, 3 left"},
		{[]byte("\x05READY\x00\x00\x00\x00\x00"), "READY metadata at octet 6: property cut short"},
	}
	for _, tt := range bad {
		if err := checkReady(tt.body, routerPeers); err == nil || err.Error() != tt.want {
			t.Errorf("checkReady(%q) = %v, want %q", tt.body, err, tt.want)
		}
	}
}

// TestPropertyNameChars: a property name may hold exactly ZMTP's name-char
// set (rfc.zeromq.org/spec/23: ALPHA, DIGIT, "-", "_", ".", "+").
func TestPropertyNameChars(t *testing.T) {
	const allowed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+"
	for c := range 256 {
		b := readyCmd("Socket-Type", "DEALER", "X"+string(rune(c)), "")[2:]
		if c >= 0x80 {
			b = append(readyCmd("Socket-Type", "DEALER")[2:], 2, 'X', byte(c), 0, 0, 0, 0)
		}
		err := checkReady(b, routerPeers)
		if ok := strings.IndexByte(allowed, byte(c)) >= 0; ok != (err == nil) {
			t.Errorf("property name X%q: %v, allowed %v", byte(c), err, ok)
		}
	}
}

// TestCheckGreeting: ZMTP 3.0 and later with NULL, as client or server,
// pass; the rest are refused.
func TestCheckGreeting(t *testing.T) {
	for _, g := range [][]byte{greeting, peerGreeting(11, 1), peerGreeting(10, 4), peerGreeting(32, 1)} {
		if err := checkGreeting(g); err != nil {
			t.Errorf("checkGreeting(%q) = %v, want nil", g, err)
		}
	}
	for _, g := range [][]byte{peerGreeting(0, 0xfe), peerGreeting(9, 0x7e), peerGreeting(10, 2), peerGreeting(12, 'P'), peerGreeting(32, 2)} {
		if err := checkGreeting(g); err == nil {
			t.Errorf("checkGreeting(%q) passed", g)
		}
	}
}
