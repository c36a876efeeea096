package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func TestKernelInfo(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	id := c.send(c.shell, "kernel_info_request", map[string]any{})
	r := c.next(c.shellC, "kernel_info_reply")
	var p Header
	json.Unmarshal(r.Parent, &p)
	if r.Header.MsgType != "kernel_info_reply" || p.MsgID != id {
		t.Fatalf("reply %s to %s, want kernel_info_reply to %s", r.Header.MsgType, p.MsgID, id)
	}
	got := content(r)
	li, _ := got["language_info"].(map[string]any)
	if got["status"] != "ok" || got["protocol_version"] != ProtocolVersion || li["file_extension"] != ".fake" {
		t.Errorf("kernel_info_reply content = %v", got)
	}
	if _, ok := got["help_links"].([]any); !ok {
		t.Errorf("help_links = %v, want a list (never null)", got["help_links"])
	}
	if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, []string{"status:busy", "status:idle"}) {
		t.Errorf("iopub = %v, want busy, idle", types)
	}
}

func TestExecuteOrdering(t *testing.T) {
	h := &fakeHandler{}
	_, c := startKernel(t, h)
	for i, code := range []string{"echo hi", "result 42"} {
		id := c.execute(code, true)
		r := c.next(c.shellC, "execute_reply")
		got := content(r)
		if got["status"] != "ok" || got["execution_count"] != float64(i+1) {
			t.Errorf("%q: reply %v, want ok with execution_count %d", code, got, i+1)
		}
		if _, ok := got["payload"].([]any); !ok {
			t.Errorf("%q: payload = %v, want a list", code, got["payload"])
		}
		want := []string{"status:busy", "execute_input", "stream", "status:idle"}
		if i == 1 {
			want[2] = "execute_result"
		}
		if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, want) {
			t.Errorf("%q: iopub = %v, want %v", code, types, want)
		}
	}
}

func TestForgedAndReplayedNotExecuted(t *testing.T) {
	h := &fakeHandler{}
	k, c := startKernel(t, h)
	forger := *c
	forger.sign = signer{key: []byte("wrong key")}
	forger.execute("echo forged", true)
	f, _ := c.frames("execute_request", map[string]any{"code": "echo once"})
	c.shell.SendMulti(zmq4.NewMsgFrom(f...))
	c.next(c.shellC, "reply to echo once")
	c.shell.SendMulti(zmq4.NewMsgFrom(f...)) // replay of the same signed frames
	bad := [][]byte{[]byte("<IDS|MSG>"), []byte("x")}
	c.shell.SendMulti(zmq4.NewMsgFrom(bad...))
	c.execute("echo after", true)
	r := c.next(c.shellC, "reply to echo after")
	if content(r)["status"] != "ok" {
		t.Fatalf("kernel stopped serving after bad messages: %v", content(r))
	}
	if got, want := h.executed(), []string{"echo once", "echo after"}; !reflect.DeepEqual(got, want) {
		t.Errorf("executed %q, want %q (forged and replayed messages must not run)", got, want)
	}
	_ = k
}

func TestInterrupt(t *testing.T) {
	h := &fakeHandler{}
	_, c := startKernel(t, h)
	c.execute("sleep", true)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cid := c.send(c.control, "interrupt_request", map[string]any{})
	if r := c.next(c.controlC, "interrupt_reply"); content(r)["status"] != "ok" {
		t.Errorf("interrupt_reply = %v", content(r))
	}
	r := c.next(c.shellC, "execute_reply after interrupt")
	if got := content(r); got["status"] != "error" || got["ename"] != "Interrupted" {
		t.Errorf("interrupted reply = %v, want error Interrupted", got)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if types := c.iopubUntilIdle(cid); !reflect.DeepEqual(types, []string{"status:busy", "status:idle"}) {
		t.Errorf("control iopub = %v, want busy, idle", types)
	}
	c.execute("echo next", true)
	if got := content(c.next(c.shellC, "next reply")); got["status"] != "ok" {
		t.Errorf("next cell after interrupt: %v", got)
	}
}

func TestStopOnErrorAborts(t *testing.T) {
	h := &fakeHandler{}
	_, c := startKernel(t, h)
	c.execute("slowfail", true)
	c.execute("echo a", true)
	c.execute("echo b", true)
	var statuses []string
	for i := 0; i < 3; i++ {
		statuses = append(statuses, content(c.next(c.shellC, "reply"))["status"].(string))
	}
	if want := []string{"error", "aborted", "aborted"}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("statuses = %v, want %v", statuses, want)
	}
	c.execute("slowfail", false)
	c.execute("echo c", true)
	statuses = nil
	for i := 0; i < 2; i++ {
		statuses = append(statuses, content(c.next(c.shellC, "reply"))["status"].(string))
	}
	if want := []string{"error", "ok"}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("stop_on_error=false: statuses = %v, want %v", statuses, want)
	}
	if got, want := h.executed(), []string{"slowfail", "slowfail", "echo c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("executed %q, want %q", got, want)
	}
}

// TestRequestAfterErrorReplyServed: stop_on_error aborts what was queued
// when the cell failed, not a request a front end sends once it has the
// error reply (a user running the next cell at once).
func TestRequestAfterErrorReplyServed(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	for i := range 50 {
		c.execute("fail", true)
		if got := content(c.next(c.shellC, "error reply"))["status"]; got != "error" {
			t.Fatalf("round %d: failing cell: status %v", i, got)
		}
		c.execute("echo next", true)
		if got := content(c.next(c.shellC, "next reply"))["status"]; got != "ok" {
			t.Fatalf("round %d: the cell sent after the error reply: status %v, want ok", i, got)
		}
	}
}

// TestAbortedExecutesHaveStatus: an execute aborted after an error is still
// wrapped in busy … idle on iopub; front ends wait for that idle.
func TestAbortedExecutesHaveStatus(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	failed := c.execute("slowfail", true)
	aborted := []string{c.execute("echo a", true), c.execute("echo b", true)}
	for range 3 {
		c.next(c.shellC, "reply")
	}
	c.iopubUntilIdle(failed)
	for _, id := range aborted {
		if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, []string{"status:busy", "status:idle"}) {
			t.Errorf("aborted execute: iopub = %v, want busy, idle", types)
		}
	}
}

func TestPanicBecomesError(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	id := c.execute("panic", true)
	got := content(c.next(c.shellC, "reply"))
	if got["status"] != "error" || got["ename"] != "InternalError" {
		t.Errorf("panic reply = %v, want error InternalError", got)
	}
	if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, []string{"status:busy", "execute_input", "error", "status:idle"}) {
		t.Errorf("iopub = %v", types)
	}
	c.execute("echo alive", true)
	if got := content(c.next(c.shellC, "reply")); got["status"] != "ok" {
		t.Errorf("after panic: %v", got)
	}
}

func TestTwoClients(t *testing.T) {
	k, c1 := startKernel(t, &fakeHandler{})
	c2 := dial(t, k.Conn(), "c2")
	id := c2.execute("echo from two", true)
	if got := content(c2.next(c2.shellC, "reply")); got["status"] != "ok" {
		t.Fatalf("client 2 reply = %v", got)
	}
	// Both front ends see the outputs of either.
	for _, c := range []*client{c1, c2} {
		if types := c.iopubUntilIdle(id); len(types) != 4 {
			t.Errorf("iopub = %v, want 4 messages", types)
		}
	}
	select {
	case m := <-c1.shellC:
		t.Errorf("client 1 got client 2's reply %s", m.Header.MsgType)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestShutdown(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	c.send(c.control, "shutdown_request", map[string]any{"restart": true})
	if got := content(c.next(c.controlC, "shutdown_reply")); got["status"] != "ok" || got["restart"] != true {
		t.Errorf("shutdown_reply = %v", got)
	}
	select {
	case <-k.done:
	case <-time.After(2 * time.Second):
		t.Fatal("kernel did not stop after shutdown_request")
	}
}

func TestHeartbeatWhileBusy(t *testing.T) {
	k, c := startKernel(t, &fakeHandler{})
	c.execute("sleep", true)
	defer c.send(c.control, "interrupt_request", map[string]any{})
	hb := zmq4.NewReq(context.Background())
	defer hb.Close()
	if err := hb.Dial(k.Conn().endpoint(k.Conn().HBPort)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		ping := []byte(fmt.Sprintf("ping %d", i))
		done := make(chan []byte, 1)
		go func() {
			if err := hb.Send(zmq4.NewMsg(ping)); err != nil {
				done <- nil
				return
			}
			m, err := hb.Recv()
			if err != nil || len(m.Frames) == 0 {
				done <- nil
				return
			}
			done <- m.Frames[0]
		}()
		select {
		case got := <-done:
			if string(got) != string(ping) {
				t.Errorf("heartbeat echoed %q, want %q", got, ping)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("no heartbeat while a cell runs")
		}
	}
}

// TestParentEchoedRaw: replies carry the request header byte for byte,
// unknown keys (such as 5.5's subshell_id) and spacing included.
func TestParentEchoedRaw(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	h := []byte(`{"msg_id": "raw-1", "session": "s", "username": "u", "date": "2024-01-01T00:00:00Z", "msg_type": "kernel_info_request", "version": "5.5", "subshell_id": null}`)
	f := c.sign.encode(nil, h, []byte(`{}`), []byte(`{}`), []byte(`{}`))
	c.shell.SendMulti(zmq4.NewMsgFrom(f...))
	r := c.next(c.shellC, "kernel_info_reply")
	if string(r.Parent) != string(h) {
		t.Errorf("reply parent = %s, want the request header %s", r.Parent, h)
	}
	if r.Header.Session == "s" || r.Header.Session == "" {
		t.Errorf("reply session = %q, want the kernel's own session", r.Header.Session)
	}
}

// TestErrorMessageFields: the iopub error message carries exactly the
// fields of nbformat's error output, which front ends save as received (a
// status there makes the saved notebook fail validation); the reply keeps
// its status.
func TestErrorMessageFields(t *testing.T) {
	for _, code := range []string{"fail", "panic"} {
		_, c := startKernel(t, &fakeHandler{})
		id := c.execute(code, true)
		if got := content(c.next(c.shellC, "reply")); got["status"] != "error" {
			t.Errorf("%s: reply status = %v, want error", code, got["status"])
		}
		for {
			m := c.next(c.iopubC, "the error message")
			if m.Header.MsgType != "error" {
				continue
			}
			var p Header
			json.Unmarshal(m.Parent, &p)
			got := slices.Sorted(maps.Keys(content(m)))
			if want := []string{"ename", "evalue", "traceback"}; p.MsgID != id || !slices.Equal(got, want) {
				t.Errorf("%s: error message fields = %v (parent %s), want %v (parent %s)", code, got, p.MsgID, want, id)
			}
			break
		}
	}
}

// TestDisplayUpdate: an Updater's display carries its id in
// transient.display_id, and its update is an update_display_data of the
// same id with the new data.
func TestDisplayUpdate(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	id := c.execute("progress p-1", true)
	var got []string
	for len(got) < 2 {
		m := c.next(c.iopubC, "the display and its update")
		var p Header
		json.Unmarshal(m.Parent, &p)
		if p.MsgID != id || (m.Header.MsgType != "display_data" && m.Header.MsgType != "update_display_data") {
			continue
		}
		var ct struct {
			Data      Bundle            `json:"data"`
			Transient map[string]string `json:"transient"`
		}
		json.Unmarshal(m.Content, &ct)
		got = append(got, fmt.Sprintf("%s %s %v", m.Header.MsgType, ct.Transient["display_id"], ct.Data["text/plain"]))
	}
	if want := []string{"display_data p-1 working…", "update_display_data p-1 done"}; !slices.Equal(got, want) {
		t.Errorf("iopub = %q, want %q", got, want)
	}
}
