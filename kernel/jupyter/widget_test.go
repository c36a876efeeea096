package jupyter

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// widgetHandler is fakeHandler plus "widget": a cell that opens a widget
// with a little state (a binary key among them) and displays it, and
// records the events the widget receives; a custom message {"sleep": true}
// waits for an interrupt, {"panic": true} panics, any other is answered
// with a custom message and a state change.
type widgetHandler struct {
	fakeHandler
	mu     sync.Mutex
	events []WidgetEvent
	w      Model
}

func (h *widgetHandler) Execute(ctx context.Context, code string, out Output) error {
	if code != "widget" {
		return h.fakeHandler.Execute(ctx, code, out)
	}
	w := out.(WidgetOpener).OpenWidget(map[string]any{"_model_name": "AnyModel", "_model_module": "anywidget",
		"_model_module_version": ">=0.9.0", "_esm": "export default {}", "value": 1.0, "blob": []byte{0, 1, 2}}, h.event)
	h.mu.Lock()
	h.w = w
	h.mu.Unlock()
	out.Display(Bundle{"text/plain": "a widget", ViewMIME: w.View()}, nil)
	return nil
}

func (h *widgetHandler) event(ctx context.Context, ev WidgetEvent) {
	h.mu.Lock()
	h.events = append(h.events, WidgetEvent{Method: ev.Method, Content: ev.Content, Buffers: ev.Buffers})
	h.mu.Unlock()
	switch {
	case ev.Content["sleep"] == true:
		<-ctx.Done()
	case ev.Content["panic"] == true:
		panic("widget boom")
	case ev.Method == "custom":
		ev.Widget.Set(map[string]any{"value": 2.0})
		ev.Widget.Send(map[string]any{"answer": ev.Content["ask"]})
	}
}

func (h *widgetHandler) got() []WidgetEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]WidgetEvent(nil), h.events...)
}

// logBuffer collects a kernel's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startWidgetKernel starts a kernel serving a widgetHandler, logging to
// the returned buffer, and runs the cell "widget"; it returns the widget's
// comm id and the comm_open message.
func startWidgetKernel(t *testing.T) (*widgetHandler, *client, *logBuffer, string, *Message) {
	t.Helper()
	h := &widgetHandler{}
	logs := &logBuffer{}
	ci := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256", Key: "test-key"}
	k, err := Listen(ci, h, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	served := make(chan struct{})
	go func() { k.Serve(context.Background()); close(served) }()
	t.Cleanup(func() {
		k.Shutdown()
		<-served
	})
	c := dial(t, k.Conn(), "c1")
	id := c.execute("widget", true)
	var open *Message
	var types []string
	for _, m := range c.iopubFor(id) {
		types = append(types, m.Header.MsgType)
		if m.Header.MsgType == "comm_open" {
			open = m
		}
	}
	if want := []string{"status", "execute_input", "comm_open", "display_data", "status"}; !reflect.DeepEqual(types, want) {
		t.Fatalf("cell widget: iopub %v, want %v", types, want)
	}
	c.next(c.shellC, "execute_reply")
	return h, c, logs, content(open)["comm_id"].(string), open
}

// iopubFor returns the iopub messages parented to msgID, up to idle.
func (c *client) iopubFor(msgID string) []*Message {
	var out []*Message
	for {
		m := c.next(c.iopubC, "iopub for "+msgID)
		var p Header
		json.Unmarshal(m.Parent, &p)
		if p.MsgID != msgID {
			continue
		}
		out = append(out, m)
		if m.Header.MsgType == "status" && content(m)["execution_state"] == "idle" {
			return out
		}
	}
}

// commMsgs returns the comm_msg data sent for msgID, up to idle.
func (c *client) commMsgs(msgID string) ([]map[string]any, []*Message) {
	var data []map[string]any
	var msgs []*Message
	for _, m := range c.iopubFor(msgID) {
		if m.Header.MsgType == "comm_msg" {
			data = append(data, content(m)["data"].(map[string]any))
			msgs = append(msgs, m)
		}
	}
	return data, msgs
}

// sendBuffers sends a signed shell message with binary buffers.
func (c *client) sendBuffers(msgType string, body any, buffers ...[]byte) string {
	f, id := c.frames(msgType, body)
	if err := c.shell.SendMulti(zmq4.NewMsgFrom(append(f, buffers...)...)); err != nil {
		c.t.Fatalf("send %s: %v", msgType, err)
	}
	return id
}

func TestWidgetOpen(t *testing.T) {
	_, _, _, id, open := startWidgetKernel(t)
	got := content(open)
	data := got["data"].(map[string]any)
	state := data["state"].(map[string]any)
	if got["target_name"] != WidgetTarget || state["_model_name"] != "AnyModel" || state["value"] != 1.0 {
		t.Errorf("comm_open content = %v", got)
	}
	if _, ok := state["blob"]; ok {
		t.Errorf("comm_open state carries the binary key blob: %v", state)
	}
	if !reflect.DeepEqual(data["buffer_paths"], []any{[]any{"blob"}}) || len(open.Buffers) != 1 || !bytes.Equal(open.Buffers[0], []byte{0, 1, 2}) {
		t.Errorf("comm_open buffer_paths %v, buffers %v; want [[blob]] and [0 1 2]", data["buffer_paths"], open.Buffers)
	}
	var meta map[string]any
	json.Unmarshal(open.Metadata, &meta)
	if meta["version"] != WidgetProtocol {
		t.Errorf("comm_open metadata = %v, want version %s", meta, WidgetProtocol)
	}
	if id == "" {
		t.Error("comm_open has no comm_id")
	}
}

// TestWidgetStateRoundTrip: the state the kernel holds comes back whole on
// request_state, a front end's update is applied, echoed and handed to the
// handler, with its buffers at their paths, and the next request_state
// has it.
func TestWidgetStateRoundTrip(t *testing.T) {
	h, c, _, id, _ := startWidgetKernel(t)
	req := c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "request_state"}})
	data, msgs := c.commMsgs(req)
	if len(data) != 1 || data[0]["method"] != "update" || data[0]["state"].(map[string]any)["value"] != 1.0 ||
		len(msgs[0].Buffers) != 1 || !bytes.Equal(msgs[0].Buffers[0], []byte{0, 1, 2}) {
		t.Fatalf("request_state answered %v", data)
	}
	up := c.sendBuffers("comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update",
		"state": map[string]any{"value": 7.0, "pair": map[string]any{"b": nil}}, "buffer_paths": []any{[]any{"pair", "b"}}}}, []byte("xy"))
	data, msgs = c.commMsgs(up)
	if len(data) != 1 || data[0]["method"] != "echo_update" || data[0]["state"].(map[string]any)["value"] != 7.0 ||
		len(msgs[0].Buffers) != 0 {
		t.Errorf("update answered %v, want one echo_update of value", data)
	}
	ev := h.got()
	if len(ev) != 1 || ev[0].Method != "update" || ev[0].Content["value"] != 7.0 {
		t.Fatalf("handler got %+v, want one update of value 7", ev)
	}
	if b, _ := ev[0].Content["pair"].(map[string]any)["b"].([]byte); string(b) != "xy" {
		t.Errorf("update's buffer at [pair b] = %v, want xy", ev[0].Content["pair"])
	}
	req = c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "request_state"}})
	data, _ = c.commMsgs(req)
	if len(data) != 1 || data[0]["state"].(map[string]any)["value"] != 7.0 {
		t.Errorf("state after the update: %v", data)
	}
}

func TestWidgetCustom(t *testing.T) {
	h, c, _, id, _ := startWidgetKernel(t)
	req := c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{"ask": "x"}}})
	data, _ := c.commMsgs(req)
	if len(data) != 2 || data[0]["method"] != "update" || data[1]["method"] != "custom" ||
		data[1]["content"].(map[string]any)["answer"] != "x" {
		t.Errorf("custom answered %v, want an update then a custom message", data)
	}
	if ev := h.got(); len(ev) != 1 || ev[0].Method != "custom" || ev[0].Content["ask"] != "x" {
		t.Errorf("handler got %+v", ev)
	}
}

func TestCommInfoAndControl(t *testing.T) {
	_, c, _, id, _ := startWidgetKernel(t)
	for _, tt := range []struct {
		target string
		want   map[string]any
	}{
		{"", map[string]any{id: map[string]any{"target_name": WidgetTarget}}},
		{WidgetTarget, map[string]any{id: map[string]any{"target_name": WidgetTarget}}},
		{"other", map[string]any{}},
	} {
		c.send(c.shell, "comm_info_request", map[string]any{"target_name": tt.target})
		if got := content(c.next(c.shellC, "comm_info_reply"))["comms"]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("comm_info target %q = %v, want %v", tt.target, got, tt.want)
		}
	}
	open := c.send(c.shell, "comm_open", map[string]any{"comm_id": "ctl", "target_name": controlTarget, "data": map[string]any{}})
	for _, m := range c.iopubFor(open) {
		if m.Header.MsgType == "comm_close" {
			t.Fatal("the control comm was closed")
		}
	}
	req := c.send(c.shell, "comm_msg", map[string]any{"comm_id": "ctl", "data": map[string]any{"method": "request_states"}})
	data, msgs := c.commMsgs(req)
	if len(data) != 1 || data[0]["method"] != "update_states" {
		t.Fatalf("request_states answered %v", data)
	}
	w := data[0]["states"].(map[string]any)[id].(map[string]any)
	if w["model_name"] != "AnyModel" || w["model_module"] != "anywidget" || w["state"].(map[string]any)["value"] != 1.0 {
		t.Errorf("update_states for the widget = %v", w)
	}
	if !reflect.DeepEqual(data[0]["buffer_paths"], []any{[]any{id, "blob"}}) || len(msgs[0].Buffers) != 1 {
		t.Errorf("update_states buffer_paths = %v with %d buffers", data[0]["buffer_paths"], len(msgs[0].Buffers))
	}
	// Reattaching to the widget is accepted; an unknown widget is closed.
	for _, tt := range []struct {
		id     string
		closed bool
	}{{id, false}, {"no-such-widget", true}} {
		m := c.send(c.shell, "comm_open", map[string]any{"comm_id": tt.id, "target_name": WidgetTarget, "data": map[string]any{}})
		closed := false
		for _, m := range c.iopubFor(m) {
			closed = closed || m.Header.MsgType == "comm_close"
		}
		if closed != tt.closed {
			t.Errorf("comm_open of widget %s: closed %v, want %v", tt.id, closed, tt.closed)
		}
	}
}

// TestCommRefused: comm messages that are oversized, malformed, for an
// unknown comm or a key of the kernel's are refused with a log line that
// says why, each wrapped in busy … idle, and the kernel goes on serving
// the widget.
func TestCommRefused(t *testing.T) {
	h, c, logs, id, _ := startWidgetKernel(t)
	for _, tt := range []struct {
		name    string
		msgType string
		body    any
		buffers [][]byte
		log     string
	}{
		{"oversized content", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom",
			"content": map[string]any{"x": strings.Repeat("x", maxCommBytes)}}}, nil, "too large"},
		{"oversized buffers", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{}}},
			[][]byte{make([]byte, maxCommBytes/2), make([]byte, maxCommBytes/2)}, "too large"},
		{"too many buffers", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{}}},
			make([][]byte, maxCommBuffers+1), "too large"},
		{"no comm_id", "comm_msg", map[string]any{"data": map[string]any{}}, nil, "malformed"},
		{"comm_id not a string", "comm_msg", map[string]any{"comm_id": 5}, nil, "malformed"},
		{"data not an object", "comm_msg", map[string]any{"comm_id": id, "data": "x"}, nil, "data is not an object"},
		{"unknown comm", "comm_msg", map[string]any{"comm_id": "nope", "data": map[string]any{"method": "custom", "content": map[string]any{}}}, nil, "no such comm"},
		{"unknown method", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "backbone"}}, nil, "unknown method"},
		{"custom content not an object", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": 3}}, nil, "not an object"},
		{"state not an object", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update", "state": []any{}}}, nil, "state is not an object"},
		{"kernel's key", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update", "state": map[string]any{"_esm": "alert(1)"}}}, nil, "the key is the kernel's"},
		{"buffer paths and buffers differ", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update",
			"state": map[string]any{"a": 1}, "buffer_paths": []any{[]any{"a"}, []any{"b"}}}}, [][]byte{{1}}, "2 buffer paths for 1 buffers"},
		{"bad buffer path", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update",
			"state": map[string]any{"a": []any{1}}, "buffer_paths": []any{[]any{"a", 5.0}}}}, [][]byte{{1}}, "not an index"},
		{"buffer path into a number", "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "update",
			"state": map[string]any{"a": 1}, "buffer_paths": []any{[]any{"a", "b"}}}}, [][]byte{{1}}, "neither an object nor a list"},
		{"unknown target", "comm_open", map[string]any{"comm_id": "x", "target_name": "nope", "data": map[string]any{}}, nil, "no such target"},
		{"close of an unknown comm", "comm_close", map[string]any{"comm_id": "nope", "data": map[string]any{}}, nil, "no such comm"},
	} {
		before := len(logs.String())
		req := c.sendBuffers(tt.msgType, tt.body, tt.buffers...)
		var types []string
		for _, m := range c.iopubFor(req) {
			types = append(types, m.Header.MsgType)
		}
		if tt.msgType == "comm_open" {
			types = slicesWithout(types, "comm_close")
		}
		if !reflect.DeepEqual(types, []string{"status", "status"}) {
			t.Errorf("%s: iopub %v, want busy and idle only", tt.name, types)
		}
		if got := logs.String()[before:]; !strings.Contains(got, tt.log) {
			t.Errorf("%s: log %q, want a line with %q", tt.name, got, tt.log)
		}
	}
	if ev := h.got(); len(ev) != 0 {
		t.Errorf("refused messages reached the handler: %+v", ev)
	}
	req := c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "request_state"}})
	if data, _ := c.commMsgs(req); len(data) != 1 || data[0]["state"].(map[string]any)["_esm"] != "export default {}" {
		t.Errorf("the widget after refused messages: %v", data)
	}
}

func slicesWithout(s []string, x string) []string {
	var out []string
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// TestWidgetInterruptAndPanic: an interrupt stops a widget's handler as it
// stops a cell; a panic in one is logged and the kernel serves on.
func TestWidgetInterruptAndPanic(t *testing.T) {
	h, c, logs, id, _ := startWidgetKernel(t)
	req := c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{"sleep": true}}})
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	c.send(c.control, "interrupt_request", map[string]any{})
	c.iopubFor(req)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the interrupted handler took %v to end", d)
	}
	req = c.send(c.shell, "comm_msg", map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{"panic": true}}})
	c.iopubFor(req)
	if !strings.Contains(logs.String(), "widget boom") {
		t.Error("the handler's panic was not logged")
	}
	c.execute("echo after", true)
	if got := content(c.next(c.shellC, "execute_reply")); got["status"] != "ok" {
		t.Errorf("a cell after the widget's panic: %v", got)
	}
	if n := len(h.got()); n != 2 {
		t.Errorf("handler saw %d events, want 2", n)
	}
}

// TestWidgetsBounded: past maxWidgets the oldest widget is told it was let
// go and forgotten.
func TestWidgetsBounded(t *testing.T) {
	_, c, _, first, _ := startWidgetKernel(t)
	for range maxWidgets {
		c.execute("widget", true)
		c.next(c.shellC, "execute_reply")
	}
	c.send(c.shell, "comm_info_request", map[string]any{})
	comms := content(c.next(c.shellC, "comm_info_reply"))["comms"].(map[string]any)
	if _, ok := comms[first]; ok || len(comms) != maxWidgets {
		t.Errorf("comm_info lists %d widgets, the first among them: %v; want %d without it", len(comms), ok, maxWidgets)
	}
	for {
		m := c.next(c.iopubC, "the first widget's _closed update")
		if m.Header.MsgType == "comm_msg" && content(m)["comm_id"] == first {
			if _, ok := content(m)["data"].(map[string]any)["state"].(map[string]any)["_closed"]; !ok {
				t.Errorf("update to the widget let go: %v", content(m))
			}
			return
		}
	}
}
