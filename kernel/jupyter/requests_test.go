package jupyter

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"
)

func TestHistory(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	for _, code := range []string{"result a", "echo b", "result a", "result c"} {
		c.execute(code, true)
		c.next(c.shellC, "reply")
	}
	c.send(c.shell, "execute_request", map[string]any{"code": "echo not stored", "store_history": false})
	c.next(c.shellC, "reply")
	tests := []struct {
		name string
		req  map[string]any
		want []any
	}{
		{"tail", map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true},
			[]any{[]any{1.0, 3.0, "result a"}, []any{1.0, 4.0, "result c"}}},
		{"tail output", map[string]any{"hist_access_type": "tail", "n": 1, "output": true, "raw": true},
			[]any{[]any{1.0, 4.0, []any{"result c", "c"}}}},
		{"range", map[string]any{"hist_access_type": "range", "session": 1, "start": 2, "stop": 4, "output": false, "raw": true},
			[]any{[]any{1.0, 2.0, "echo b"}, []any{1.0, 3.0, "result a"}}},
		{"search", map[string]any{"hist_access_type": "search", "pattern": "result*", "output": false, "raw": true},
			[]any{[]any{1.0, 1.0, "result a"}, []any{1.0, 3.0, "result a"}, []any{1.0, 4.0, "result c"}}},
		{"search unique n", map[string]any{"hist_access_type": "search", "pattern": "res?lt *", "unique": true, "n": 2, "output": false, "raw": true},
			[]any{[]any{1.0, 3.0, "result a"}, []any{1.0, 4.0, "result c"}}},
		{"earlier session", map[string]any{"hist_access_type": "range", "session": -1, "start": 1, "output": false, "raw": true},
			[]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.send(c.shell, "history_request", tt.req)
			got := content(c.next(c.shellC, "history_reply"))["history"]
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("history %v = %v, want %v", tt.req, got, tt.want)
			}
		})
	}
}

func TestSilent(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	id := c.send(c.shell, "execute_request", map[string]any{"code": "echo quiet", "silent": true})
	if got := content(c.next(c.shellC, "reply")); got["status"] != "ok" || got["execution_count"] != 0.0 {
		t.Errorf("silent reply = %v, want ok with execution_count 0", got)
	}
	if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, []string{"status:busy", "status:idle"}) {
		t.Errorf("silent iopub = %v, want only busy and idle", types)
	}
}

func TestSmallRequests(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	tests := []struct {
		msgType string
		req     map[string]any
		want    map[string]any
	}{
		{"complete_request", map[string]any{"code": "ec", "cursor_pos": 2},
			map[string]any{"status": "ok", "matches": []any{"echo"}, "cursor_start": 0.0, "cursor_end": 2.0, "metadata": map[string]any{}}},
		{"complete_request", map[string]any{"code": "zz", "cursor_pos": 99},
			map[string]any{"status": "ok", "matches": []any{}, "cursor_start": 2.0, "cursor_end": 2.0, "metadata": map[string]any{}}},
		{"inspect_request", map[string]any{"code": "echo", "cursor_pos": 1, "detail_level": 0},
			map[string]any{"status": "ok", "found": true, "data": map[string]any{"text/plain": "echo TEXT"}, "metadata": map[string]any{}}},
		{"inspect_request", map[string]any{"code": "nothing", "cursor_pos": 1, "detail_level": 0},
			map[string]any{"status": "ok", "found": false, "data": map[string]any{}, "metadata": map[string]any{}}},
		{"is_complete_request", map[string]any{"code": `echo \`},
			map[string]any{"status": "incomplete", "indent": ""}},
		{"is_complete_request", map[string]any{"code": "echo"}, map[string]any{"status": "complete"}},
		{"comm_info_request", map[string]any{}, map[string]any{"status": "ok", "comms": map[string]any{}}},
		{"complete_request", map[string]any{"code": 7}, nil}, // bad content: an error reply
	}
	for _, tt := range tests {
		c.send(c.shell, tt.msgType, tt.req)
		r := c.next(c.shellC, tt.msgType)
		got := content(r)
		if tt.want == nil {
			if got["status"] != "error" || got["ename"] != "BadRequest" {
				t.Errorf("%s %v = %v, want a BadRequest error reply", tt.msgType, tt.req, got)
			}
			continue
		}
		if r.Header.MsgType != replyType(tt.msgType) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v = %s %v, want %v", tt.msgType, tt.req, r.Header.MsgType, got, tt.want)
		}
	}
}

func TestCommOpenUnknownTarget(t *testing.T) {
	_, c := startKernel(t, &fakeHandler{})
	id := c.send(c.shell, "comm_open", map[string]any{"comm_id": "c-1", "target_name": "jupyter.widget", "data": map[string]any{}})
	if types := c.iopubUntilIdle(id); !reflect.DeepEqual(types, []string{"status:busy", "comm_close", "status:idle"}) {
		t.Errorf("comm_open iopub = %v, want busy, comm_close, idle", types)
	}
}

func TestIPC(t *testing.T) {
	ci := ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "kernel"), Key: "k",
		ShellPort: 1, IOPubPort: 2, StdinPort: 3, ControlPort: 4, HBPort: 5}
	k, err := Listen(ci, &fakeHandler{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("Listen ipc: %v", err)
	}
	served := make(chan struct{})
	go func() { k.Serve(context.Background()); close(served) }()
	defer func() { k.Shutdown(); <-served }()
	c := dial(t, k.Conn(), "ipc")
	c.execute("echo over ipc", true)
	if got := content(c.next(c.shellC, "reply")); got["status"] != "ok" {
		t.Errorf("ipc execute reply = %v", got)
	}
}
