package jupyter

import (
	"context"
	"errors"
	"runtime/debug"
	"sync"
)

// executeRequest is the content of execute_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#execute
type executeRequest struct {
	Code         string `json:"code"`
	Silent       bool   `json:"silent"`
	StoreHistory *bool  `json:"store_history"` // default true
	StopOnError  *bool  `json:"stop_on_error"` // default true
	AllowStdin   bool   `json:"allow_stdin"`
}

// execute runs a cell: execute_input, the handler's outputs in order, then
// execute_reply (busy and idle come from dispatch). After an error with
// stop_on_error, the execute requests that were queued when the cell failed
// are aborted, each in its own busy … idle after this cell's idle; a request
// sent after the error reply went out is served.
func (r *request) execute() {
	var c executeRequest
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	k := r.k
	store := !c.Silent && (c.StoreHistory == nil || *c.StoreHistory)
	if store {
		k.count++
	}
	if !c.Silent {
		k.publish(r.m, "execute_input", map[string]any{"code": c.Code, "execution_count": k.count})
	}
	out := &cellOutput{k: k, parent: r.m, silent: c.Silent, count: k.count, payload: []map[string]any{}}
	jerr := k.run(c.Code, out)
	out.close()
	if store {
		k.hist.add(historyEntry{line: k.count, input: c.Code, output: out.resultText()})
	}
	if jerr == nil {
		r.reply(map[string]any{"status": "ok", "execution_count": k.count, "payload": out.payload, "user_expressions": map[string]any{}})
		return
	}
	if !c.Silent {
		k.publish(r.m, "error", errorMessage(jerr))
	}
	content := errorContent(jerr)
	content["execution_count"] = k.count
	queued := len(k.shellQ)
	r.reply(content)
	if c.StopOnError == nil || *c.StopOnError {
		r.after = func() { k.abortQueued(queued) } // once this cell's idle is out, so statuses do not nest
	}
}

// run calls the handler with a cancellable context and turns its error or
// panic into a Jupyter error.
func (k *Kernel) run(code string, out *cellOutput) (jerr *Error) {
	defer func() {
		if p := recover(); p != nil {
			k.log.Error("panic in execute", "panic", p, "stack", string(debug.Stack()))
			jerr = panicError(p)
		}
	}()
	k.cancellable(func(ctx context.Context) {
		err := k.h.Execute(ctx, code, out)
		switch {
		case err == nil:
		case ctx.Err() != nil && errors.Is(err, context.Canceled):
			jerr = &Error{Name: "Interrupted", Value: "the cell was interrupted"}
		case errors.As(err, &jerr):
		default:
			jerr = &Error{Name: "Error", Value: err.Error()}
		}
	})
	return jerr
}

// abortQueued answers the execute_requests among the first n messages of
// the shell queue with status "aborted"; other requests are served as usual.
func (k *Kernel) abortQueued(n int) {
	for ; n > 0; n-- {
		m := <-k.shellQ
		if m.Header.MsgType != "execute_request" {
			k.dispatch(k.shell, m, false)
			continue
		}
		k.publishStatus(m, "busy")
		k.reply(k.shell, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.count})
		k.publishStatus(m, "idle")
	}
}

// cellOutput turns a handler's outputs into iopub messages parented to the
// execute_request. Calls after the cell finished are dropped with a log line.
type cellOutput struct {
	k       *Kernel
	parent  *Message
	silent  bool
	count   int
	mu      sync.Mutex
	closed  bool
	result  Bundle
	payload []map[string]any
}

func (o *cellOutput) emit(msgType string, content map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		o.k.log.Warn("output after the cell finished, dropped", "msg_type", msgType)
		return
	}
	if !o.silent {
		o.k.publish(o.parent, msgType, content)
	}
}

func (o *cellOutput) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
}

// Stream implements Output.
func (o *cellOutput) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	o.emit("stream", map[string]any{"name": name, "text": text})
}

// Display implements Output.
func (o *cellOutput) Display(data Bundle, metadata map[string]any) {
	o.emit("display_data", map[string]any{"data": bundle(data), "metadata": object(metadata), "transient": map[string]any{}})
}

// DisplayID implements Updater.
func (o *cellOutput) DisplayID(id string, data Bundle, metadata map[string]any) {
	o.emit("display_data", map[string]any{"data": bundle(data), "metadata": object(metadata), "transient": map[string]any{"display_id": id}})
}

// Update implements Updater.
func (o *cellOutput) Update(id string, data Bundle, metadata map[string]any) {
	o.emit("update_display_data", map[string]any{"data": bundle(data), "metadata": object(metadata), "transient": map[string]any{"display_id": id}})
}

// Result implements Output.
func (o *cellOutput) Result(data Bundle, metadata map[string]any) {
	o.mu.Lock()
	o.result = data
	o.mu.Unlock()
	o.emit("execute_result", map[string]any{"execution_count": o.count, "data": bundle(data), "metadata": object(metadata)})
}

// Clear implements Output.
func (o *cellOutput) Clear(wait bool) {
	o.emit("clear_output", map[string]any{"wait": wait})
}

// Payload implements Output.
func (o *cellOutput) Payload(p map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.closed && p != nil {
		o.payload = append(o.payload, p)
	}
}

// resultText is the text/plain of the cell's result, for history.
func (o *cellOutput) resultText() string {
	s, _ := o.result["text/plain"].(string)
	return s
}

func bundle(b Bundle) Bundle {
	if b == nil {
		return Bundle{"text/plain": ""}
	}
	return b
}

func object(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

var (
	_ Output  = (*cellOutput)(nil)
	_ Updater = (*cellOutput)(nil)
)
