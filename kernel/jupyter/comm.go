package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Comm targets the kernel serves. jupyter.widget comms are opened by the
// kernel, one per widget (widget.go); a front end may open one with the id
// of a widget the kernel has, to reattach to it (a reloaded page does).
// jupyter.widget.control is opened by a front end to fetch every widget's
// state in one message. comm_open for any other target, or for a widget the
// kernel does not have, is answered with comm_close at once, as the spec
// asks.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#custom-messages
const (
	WidgetTarget  = "jupyter.widget"
	controlTarget = "jupyter.widget.control"
)

// Bounds on comms, so that memory stays bounded whatever front ends send.
const (
	maxWidgets     = 512     // widgets kept; past it the oldest is let go (widget.go)
	maxControls    = 64      // control comms open at once
	maxCommBytes   = 8 << 20 // content plus buffers of one comm message from a front end
	maxCommBuffers = 64      // buffers of one comm message
)

// comms is the kernel's table of open comms. The shell goroutine serves
// every comm message; Execute opens widgets from the same goroutine, and
// background work may update them, hence the lock.
type comms struct {
	mu       sync.Mutex
	widgets  map[string]*Widget
	order    []string // widget ids, oldest first
	controls map[string]bool
}

func newComms() *comms {
	return &comms{widgets: map[string]*Widget{}, controls: map[string]bool{}}
}

func (c *comms) widget(id string) *Widget {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.widgets[id]
}

// add records w and returns the widget it pushed out, if any.
func (c *comms) add(w *Widget) (gone *Widget) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.widgets[w.id] = w
	c.order = append(c.order, w.id)
	for len(c.order) > maxWidgets {
		id := c.order[0]
		c.order = c.order[1:]
		if old := c.widgets[id]; old != nil {
			delete(c.widgets, id)
			gone = old
		}
	}
	return gone
}

// remove forgets the comm id, widget or control.
func (c *comms) remove(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, w := c.widgets[id]
	delete(c.widgets, id)
	if w {
		c.order = deleteID(c.order, id)
	}
	ctl := c.controls[id]
	delete(c.controls, id)
	return w || ctl
}

func deleteID(ids []string, id string) []string {
	for i, x := range ids {
		if x == id {
			return append(ids[:i], ids[i+1:]...)
		}
	}
	return ids
}

// all returns the open widgets, oldest first.
func (c *comms) all() []*Widget {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Widget, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.widgets[id])
	}
	return out
}

// commContent is the content of comm_open, comm_msg and comm_close.
type commContent struct {
	CommID     string          `json:"comm_id"`
	TargetName string          `json:"target_name"`
	Data       json.RawMessage `json:"data"`
}

// commRequest decodes a comm message from a front end and checks its
// bounds; a message that fails is logged with its reason and dropped.
func (r *request) commRequest() (*commContent, map[string]any, bool) {
	if n := len(r.m.Content) + size(r.m.Buffers); n > maxCommBytes || len(r.m.Buffers) > maxCommBuffers {
		r.k.log.Warn("refused comm message: too large", "msg_type", r.m.Header.MsgType, "octets", n,
			"buffers", len(r.m.Buffers), "limit_octets", maxCommBytes, "limit_buffers", maxCommBuffers)
		return nil, nil, false
	}
	var c commContent
	if err := json.Unmarshal(r.m.Content, &c); err != nil || c.CommID == "" {
		r.k.log.Warn("refused comm message: malformed content", "msg_type", r.m.Header.MsgType, "err", errOr(err, "no comm_id"))
		return nil, nil, false
	}
	data := map[string]any{}
	if len(c.Data) > 0 && string(c.Data) != "null" {
		if err := json.Unmarshal(c.Data, &data); err != nil {
			r.k.log.Warn("refused comm message: data is not an object", "msg_type", r.m.Header.MsgType, "comm_id", c.CommID, "err", err)
			return nil, nil, false
		}
	}
	return &c, data, true
}

func errOr(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

// commInfo answers comm_info_request: the open comms, those of
// target_name when it is given.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#comm-info
func (r *request) commInfo() {
	var c struct {
		TargetName string `json:"target_name"`
	}
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	out := map[string]any{}
	if c.TargetName == "" || c.TargetName == WidgetTarget {
		for _, w := range r.k.comms.all() {
			out[w.id] = map[string]any{"target_name": WidgetTarget}
		}
	}
	r.reply(map[string]any{"status": "ok", "comms": out})
}

// commOpen serves a comm_open from a front end: a control comm, or a
// widget comm reattaching to a widget the kernel has; anything else is
// closed at once.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#opening-a-comm
func (r *request) commOpen() {
	c, _, ok := r.commRequest()
	if !ok {
		return
	}
	k := r.k
	switch {
	case c.TargetName == controlTarget && k.comms.openControl(c.CommID):
		return
	case c.TargetName == WidgetTarget && k.comms.widget(c.CommID) != nil:
		return
	}
	k.log.Info("closing comm: no such target or widget", "target_name", c.TargetName, "comm_id", c.CommID)
	k.publish(r.m, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
}

// openControl records a control comm unless maxControls are open.
func (c *comms) openControl(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.controls) >= maxControls && !c.controls[id] {
		return false
	}
	c.controls[id] = true
	return true
}

func (c *comms) isControl(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.controls[id]
}

// commMsg serves a comm_msg from a front end: to a widget (widget.go) or
// to a control comm. A message to a comm the kernel does not have is
// logged and dropped, as ipykernel does.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#comm-messages
func (r *request) commMsg() {
	c, data, ok := r.commRequest()
	if !ok {
		return
	}
	if w := r.k.comms.widget(c.CommID); w != nil {
		r.serveWidget(w, data)
		return
	}
	if r.k.comms.isControl(c.CommID) {
		r.serveControl(c.CommID, data)
		return
	}
	r.k.log.Warn("refused comm_msg: no such comm", "comm_id", c.CommID)
}

// commClose serves a comm_close from a front end: the kernel forgets the
// comm (a widget's state goes with it).
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#tearing-down-comms
func (r *request) commClose() {
	c, _, ok := r.commRequest()
	if !ok {
		return
	}
	if !r.k.comms.remove(c.CommID) {
		r.k.log.Warn("comm_close for no such comm", "comm_id", c.CommID)
	}
}

// serveControl answers request_states on a control comm with every
// widget's state: update_states, whose states map each widget id to its
// model name, module, module version and state, as @jupyter-widgets/
// base-manager reads it, and whose buffer_paths begin with the widget id.
func (r *request) serveControl(id string, data map[string]any) {
	if data["method"] != "request_states" {
		r.k.log.Warn("refused control comm message: unknown method", "comm_id", id, "method", fmt.Sprint(data["method"]))
		return
	}
	states := map[string]any{}
	paths := [][]any{}
	var buffers [][]byte
	for _, w := range r.k.comms.all() {
		s, p, b := w.snapshot()
		states[w.id] = map[string]any{"model_name": s["_model_name"], "model_module": s["_model_module"],
			"model_module_version": s["_model_module_version"], "state": s}
		for _, path := range p {
			paths = append(paths, append([]any{w.id}, path...))
		}
		buffers = append(buffers, b...)
	}
	r.k.publishComm(r.m, "comm_msg", map[string]any{"comm_id": id,
		"data": map[string]any{"method": "update_states", "states": states, "buffer_paths": paths}}, nil, buffers)
}

// publishComm publishes a comm message with metadata and binary buffers
// after the content frame (buffers are not signed, as the wire format has
// it).
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#the-wire-protocol
func (k *Kernel) publishComm(parent *Message, msgType string, content any, metadata map[string]any, buffers [][]byte) {
	c, err := json.Marshal(content)
	if err != nil {
		k.log.Error("marshal content", "msg_type", msgType, "err", err)
		return
	}
	meta, _ := json.Marshal(object(metadata)) // strings only
	p := emptyObject
	if parent != nil {
		p = parent.RawHeader
	}
	topic := [][]byte{[]byte("kernel." + k.session + "." + msgType)}
	o := outgoing{frames: append(k.sign.encode(topic, k.header(msgType), p, meta, c), buffers...), rank: rankOutput}
	if parent != nil && parent.Header.MsgType == "execute_request" {
		o.cell = parent
	}
	k.iopub.broadcast(o)
}

// cancellable runs f with a context that an interrupt cancels, as a cell's.
func (k *Kernel) cancellable(f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	k.mu.Lock()
	k.cancel = cancel
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
		cancel()
	}()
	f(ctx)
}
