package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// fakeHandler is a tiny language for protocol tests: "echo TEXT", "fail",
// "slowfail", "sleep" (until interrupted), "panic", "result TEXT", "page",
// "progress ID" (a display under ID, then its update).
type fakeHandler struct {
	mu  sync.Mutex
	ran []string
}

func (f *fakeHandler) Info() (string, string, string, LanguageInfo) {
	return "fake", "0.0.1", "fake kernel", LanguageInfo{Name: "fake", Version: "1", Mimetype: "text/x-fake", FileExtension: ".fake"}
}

func (f *fakeHandler) Execute(ctx context.Context, code string, out Output) error {
	f.mu.Lock()
	f.ran = append(f.ran, code)
	f.mu.Unlock()
	cmd, arg, _ := strings.Cut(code, " ")
	switch cmd {
	case "echo":
		out.Stream("stdout", arg)
	case "fail":
		return &Error{Name: "UsageError", Value: "asked to fail"}
	case "slowfail":
		time.Sleep(300 * time.Millisecond)
		return fmt.Errorf("failed slowly")
	case "sleep":
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
		}
	case "panic":
		panic("boom")
	case "result":
		out.Result(Bundle{"text/plain": arg}, nil)
	case "flood":
		chunk := strings.Repeat("x", 16<<10)
		for i := 0; i < 300; i++ {
			out.Stream("stdout", chunk)
		}
	case "progress": // a display under id ARG, then its update
		u := out.(Updater)
		u.DisplayID(arg, Bundle{"text/plain": "working…"}, nil)
		u.Update(arg, Bundle{"text/plain": "done"}, nil)
	case "page":
		out.Payload(map[string]any{"source": "page", "data": map[string]any{"text/plain": "doc"}, "start": 0})
	}
	return nil
}

func (f *fakeHandler) Complete(code string, cursor int) Completion {
	if strings.HasPrefix("echo", code[:cursor]) {
		return Completion{Matches: []string{"echo"}, CursorStart: 0, CursorEnd: cursor}
	}
	return Completion{}
}

func (f *fakeHandler) Inspect(code string, cursor, detail int) Bundle {
	if strings.HasPrefix(code, "echo") {
		return Bundle{"text/plain": "echo TEXT"}
	}
	return nil
}

func (f *fakeHandler) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, `\`) {
		return "incomplete", ""
	}
	return "complete", ""
}

func (f *fakeHandler) executed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ran...)
}

// client is a front end over real zmq4 sockets on tcp loopback.
type client struct {
	t              testing.TB
	sign           signer
	session        string
	shell, control zmq4.Socket
	iopub          zmq4.Socket
	iopubC         chan *Message
	shellC         chan *Message
	controlC       chan *Message
}

func startKernel(t testing.TB, h Handler) (*Kernel, *client) {
	t.Helper()
	ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256", Key: "test-key"}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	k, err := Listen(ci, h, log)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	served := make(chan struct{})
	go func() { k.Serve(context.Background()); close(served) }()
	t.Cleanup(func() {
		k.Shutdown()
		<-served
	})
	return k, dial(t, k.Conn(), "c1")
}

func dial(t testing.TB, ci ConnectionInfo, id string) *client {
	t.Helper()
	ctx := context.Background()
	c := &client{t: t, sign: signer{key: []byte(ci.Key)}, session: "client-" + id,
		shell:   zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id+"-shell"))),
		control: zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity(id+"-control"))),
		iopub:   zmq4.NewSub(ctx),
		iopubC:  make(chan *Message, 1000), shellC: make(chan *Message, 100), controlC: make(chan *Message, 100)}
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, ci.ShellPort}, {c.control, ci.ControlPort}, {c.iopub, ci.IOPubPort}} {
		if err := d.s.Dial(ci.endpoint(d.port)); err != nil {
			t.Fatalf("dial: %v", err)
		}
	}
	c.iopub.SetOption(zmq4.OptionSubscribe, "")
	go c.recv(c.shell, c.shellC)
	go c.recv(c.control, c.controlC)
	go c.recv(c.iopub, c.iopubC)
	t.Cleanup(func() { c.shell.Close(); c.control.Close(); c.iopub.Close() })
	c.waitReady()
	return c
}

func (c *client) recv(s zmq4.Socket, ch chan *Message) {
	for {
		raw, err := s.Recv()
		if err != nil {
			return
		}
		m, err := c.sign.decode(raw.Frames)
		if err != nil {
			c.t.Errorf("kernel sent a bad message: %v", err)
			return
		}
		ch <- m
	}
}

// waitReady repeats kernel_info until iopub delivers (the slow-joiner dance
// jupyter_client does), then drains both channels.
func (c *client) waitReady() {
	for i := 0; i < 100; i++ {
		c.send(c.shell, "kernel_info_request", map[string]any{})
		select {
		case <-c.iopubC:
			time.Sleep(50 * time.Millisecond)
			c.drain()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	c.t.Fatal("kernel never became ready")
}

func (c *client) drain() {
	for {
		select {
		case <-c.iopubC:
		case <-c.shellC:
		case <-c.controlC:
		default:
			return
		}
	}
}

// frames builds a signed request; it returns the frames and the msg_id.
func (c *client) frames(msgType string, content any) ([][]byte, string) {
	id := newID()
	h, _ := json.Marshal(Header{MsgID: id, Session: c.session, Username: "test", Date: "2024-01-01T00:00:00.000000Z", MsgType: msgType, Version: "5.3"})
	b, _ := json.Marshal(content)
	return c.sign.encode(nil, h, []byte(`{}`), []byte(`{}`), b), id
}

func (c *client) send(s zmq4.Socket, msgType string, content any) string {
	f, id := c.frames(msgType, content)
	if err := s.SendMulti(zmq4.NewMsgFrom(f...)); err != nil {
		c.t.Fatalf("send %s: %v", msgType, err)
	}
	return id
}

func (c *client) execute(code string, stopOnError bool) string {
	return c.send(c.shell, "execute_request", map[string]any{"code": code, "silent": false, "store_history": true, "stop_on_error": stopOnError, "user_expressions": map[string]any{}, "allow_stdin": false})
}

func (c *client) next(ch chan *Message, what string) *Message {
	select {
	case m := <-ch:
		return m
	case <-time.After(5 * time.Second):
		c.t.Fatalf("timed out waiting for %s", what)
		return nil
	}
}

// iopubUntilIdle returns the iopub message types parented to msgID, up to idle.
func (c *client) iopubUntilIdle(msgID string) []string {
	var types []string
	for {
		m := c.next(c.iopubC, "iopub for "+msgID)
		var p Header
		json.Unmarshal(m.Parent, &p)
		if p.MsgID != msgID {
			continue
		}
		t := m.Header.MsgType
		if t == "status" {
			var s struct {
				State string `json:"execution_state"`
			}
			json.Unmarshal(m.Content, &s)
			t += ":" + s.State
		}
		types = append(types, t)
		if t == "status:idle" {
			return types
		}
	}
}

func content(m *Message) map[string]any {
	var v map[string]any
	json.Unmarshal(m.Content, &v)
	return v
}
