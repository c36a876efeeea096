package jupyter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"testing"
	"time"
)

// TestOneIdentityTwoClients: two front ends that claim one ZMQ identity
// each get the replies to their own requests and never the other's.
func TestOneIdentityTwoClients(t *testing.T) {
	k, c1 := startKernel(t, &fakeHandler{})
	c2 := dial(t, k.Conn(), "c1") // the same identities, c1-shell and c1-control
	id1, id2 := c1.execute("echo one", true), c2.execute("echo two", true)
	for _, x := range []struct {
		c  *client
		id string
	}{{c1, id1}, {c2, id2}} {
		var p Header
		json.Unmarshal(x.c.next(x.c.shellC, "its own reply").Parent, &p)
		if p.MsgID != x.id {
			t.Errorf("%s got the reply to %s, want %s", x.c.session, p.MsgID, x.id)
		}
	}
	select {
	case m := <-c1.shellC:
		t.Errorf("c1 got a second reply: %s", m.Parent)
	case m := <-c2.shellC:
		t.Errorf("c2 got a second reply: %s", m.Parent)
	case <-time.After(300 * time.Millisecond):
	}
}

// pipePeer is a peer on one end of a net.Pipe, which blocks every write
// until the other end reads.
func pipePeer(t *testing.T) (*peer, net.Conn) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	adm := newAdmission(4, 1<<20)
	tk, _ := adm.admit("shell", func() { a.Close() })
	return &peer{conn: a, fr: frameReader{r: a, f: framer{lim: shellPolicy.limits}}, adm: adm, t: tk, log: quiet()}, b
}

// TestRouteQueueFull: send never blocks on a connection that does not
// read; it may leave routeQueueBytes of replies unread beside the one being
// written, and the next resets it; later sends fail.
func TestRouteQueueFull(t *testing.T) {
	p, other := pipePeer(t)
	r := &router{routes: map[string]*route{}, done: make(chan struct{})}
	q := r.add(p)
	reply := [][]byte{q.id, make([]byte, 64<<10)}
	start := time.Now()
	if err := r.send(reply); err != nil {
		t.Fatal(err)
	}
	for taken := false; !taken; time.Sleep(time.Millisecond) { // until the writer holds the first reply, blocked
		q.mu.Lock()
		taken = len(q.out) == 0 && q.busy
		q.mu.Unlock()
	}
	for n := 1; n <= routeQueueBytes/(64<<10); n++ {
		if err := r.send(reply); err != nil {
			t.Fatalf("send %d of %d octets unread: %v", n, n*64<<10, err)
		}
	}
	want := fmt.Sprintf("%d octets of replies not read: the limit is %d", routeQueueBytes+64<<10, routeQueueBytes)
	if err := r.send(reply); err == nil || err.Error() != want {
		t.Fatalf("one reply past the limit: %v, want %q", err, want)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the sends took %v: send blocked", d)
	}
	other.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 1<<16)
	for {
		if _, err := other.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatal("the stalled connection was not closed")
			}
			break
		}
	}
	r.remove(q)
	if err := r.send(reply); err != errGone {
		t.Errorf("send to a removed connection: %v, want errGone", err)
	}
}

// TestFlushWaits: flush returns once what was queued is written, and not
// before unless its deadline passes.
func TestFlushWaits(t *testing.T) {
	p, other := pipePeer(t)
	r := &router{routes: map[string]*route{}, done: make(chan struct{})}
	q := r.add(p)
	defer r.remove(q)
	r.send([][]byte{q.id, []byte("last words")})
	start := time.Now()
	r.flush(start.Add(200 * time.Millisecond))
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("flush returned after %v with a reply unwritten", d)
	}
	go io.Copy(io.Discard, other)
	start = time.Now()
	r.flush(start.Add(5 * time.Second))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("flush took %v once the reply could be written", d)
	}
}

// TestRouteWritesInOrder: replies reach the connection in the order sent,
// routing id stripped, as ZMTP messages.
func TestRouteWritesInOrder(t *testing.T) {
	p, other := pipePeer(t)
	r := &router{routes: map[string]*route{}, done: make(chan struct{})}
	q := r.add(p)
	defer r.remove(q)
	var want bytes.Buffer
	for _, s := range []string{"first", "second", "third"} {
		if err := r.send([][]byte{q.id, []byte("<IDS|MSG>"), []byte(s)}); err != nil {
			t.Fatal(err)
		}
		writeFrames(&want, 0, [][]byte{[]byte("<IDS|MSG>"), []byte(s)})
	}
	got := make([]byte, want.Len())
	other.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(other, got); err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the connection read %q, %v; want %q", got, err, want.Bytes())
	}
}

// TestSignedClientKeepsSeat: when shell's seats fill with connections that
// never signed a message (one sent an unsigned one), they evict each other
// and never the client that signed.
func TestSignedClientKeepsSeat(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	k.adm.mu.Lock()
	k.adm.seats = 4
	k.adm.mu.Unlock()
	addr := k.Conn().endpoint(k.Conn().ShellPort)[len("tcp://"):]
	for i := range 12 {
		raw, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		raw.Write(cat(greeting, readyCmd("Socket-Type", "DEALER")))
		if i == 0 {
			raw.Write(cat(zframe(flagMore, []byte("<IDS|MSG>"), false), zframe(0, []byte("unsigned"), false)))
		}
		io.ReadFull(raw, make([]byte, greetingLen))
	}
	c.execute("echo still here", true)
	if got := content(c.next(c.shellC, "the signed client's reply")); got["status"] != "ok" {
		t.Errorf("reply = %v", got)
	}
	k.adm.mu.Lock()
	defer k.adm.mu.Unlock()
	if n := k.adm.count["shell"]; n != 4 {
		t.Errorf("shell holds %d connections, want its 4 seats", n)
	}
}
