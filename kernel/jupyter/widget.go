package jupyter

import (
	"context"
	"fmt"
	"maps"
	"runtime/debug"
	"sort"
	"sync"
)

// WidgetProtocol is the version of the Jupyter widget messaging protocol
// the kernel speaks, sent as comm_open's metadata.
// https://github.com/jupyter-widgets/ipywidgets/blob/main/packages/schema/messages.md
const WidgetProtocol = "2.1.0"

// Widget is a Jupyter widget model the kernel created: a comm with target
// jupyter.widget and a state, a map of JSON values whose []byte values
// travel as binary buffers. The front end's model mirrors the state; the
// kernel sends every change as an update message, and serves the front
// end's messages: request_state (the whole state back), update (keys the
// front end changed, echoed back as echo_update so other front ends follow)
// and custom messages, which go to the widget's handler.
//
// Keys beginning with "_" (the model and view names, modules and versions,
// and what the widget's code is) are the kernel's: a front end's update of
// one is refused.
type Widget struct {
	k      *Kernel
	id     string
	h      WidgetHandler
	mu     sync.Mutex
	state  map[string]any
	parent *Message // the request the widget's next messages answer
}

// Model is what the language sees of a widget: its id, its view, its
// state. *Widget is the kernel's; the engine's tests use their own.
type Model interface {
	ID() string
	View() map[string]any
	Get(key string) any
	Set(changes map[string]any)
	Send(content map[string]any)
}

var _ Model = (*Widget)(nil)

// WidgetEvent is a message from a front end to a widget: a custom message
// (Method "custom", its content and buffers) or a change of state (Method
// "update", Content the keys changed, already applied). Out shows outputs
// parented to the message; it is an Updater, so a display shown by the cell
// that opened the widget can be replaced.
type WidgetEvent struct {
	Widget  Model
	Method  string
	Content map[string]any
	Buffers [][]byte
	Out     Output
}

// WidgetHandler serves a widget's events. It runs on the shell goroutine,
// one request at a time like a cell, wrapped in busy … idle; ctx is
// cancelled by an interrupt.
type WidgetHandler func(ctx context.Context, ev WidgetEvent)

// WidgetOpener is an Output that can open widgets: the cell's output given
// to Handler.Execute implements it; other Outputs need not.
type WidgetOpener interface {
	// OpenWidget opens a widget with state, parented to the cell; h serves
	// its events (nil: none). Show it with a display of ViewBundle.
	OpenWidget(state map[string]any, h WidgetHandler) Model
}

// ViewMIME is the MIME type of a widget's view in a display bundle.
const ViewMIME = "application/vnd.jupyter.widget-view+json"

// View is the value of ViewMIME that displays w.
func (w *Widget) View() map[string]any {
	return map[string]any{"model_id": w.id, "version_major": 2, "version_minor": 1}
}

// ID is the widget's comm id, also its model id.
func (w *Widget) ID() string { return w.id }

// Get returns the value of key in the widget's state.
func (w *Widget) Get(key string) any {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state[key]
}

// Set changes keys of the state and sends them to the front ends.
func (w *Widget) Set(changes map[string]any) {
	w.mu.Lock()
	maps.Copy(w.state, changes)
	parent := w.parent
	w.mu.Unlock()
	w.send(parent, "update", changes)
}

// Send sends a custom message to the front ends.
func (w *Widget) Send(content map[string]any) {
	w.mu.Lock()
	parent := w.parent
	w.mu.Unlock()
	w.k.publish(parent, "comm_msg", map[string]any{"comm_id": w.id, "data": map[string]any{"method": "custom", "content": content}})
}

// send publishes an update-like message (update, echo_update) of state.
func (w *Widget) send(parent *Message, method string, state map[string]any) {
	s, paths, buffers := splitBuffers(state)
	w.k.publishComm(parent, "comm_msg", map[string]any{"comm_id": w.id,
		"data": map[string]any{"method": method, "state": s, "buffer_paths": paths}}, nil, buffers)
}

// snapshot returns the whole state split for the wire.
func (w *Widget) snapshot() (map[string]any, [][]any, [][]byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return splitBuffers(w.state)
}

// splitBuffers takes the []byte values out of state: the JSON part, the
// paths of the buffers ([key], as the protocol's buffer_paths) and the
// buffers, in key order.
func splitBuffers(state map[string]any) (map[string]any, [][]any, [][]byte) {
	s := make(map[string]any, len(state))
	paths := [][]any{}
	var buffers [][]byte
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if b, ok := state[k].([]byte); ok {
			paths = append(paths, []any{k})
			buffers = append(buffers, b)
			continue
		}
		s[k] = state[k]
	}
	return s, paths, buffers
}

// OpenWidget implements WidgetOpener: comm_open on iopub with the state and
// the protocol version as metadata. When the kernel holds maxWidgets
// widgets, the oldest is let go: it is told so in its state (key
// "_closed"), then forgotten.
// https://github.com/jupyter-widgets/ipywidgets/blob/main/packages/schema/messages.md#instantiating-a-widget-object
func (o *cellOutput) OpenWidget(state map[string]any, h WidgetHandler) Model {
	w := &Widget{k: o.k, id: newID(), h: h, state: maps.Clone(state), parent: o.parent}
	s, paths, buffers := splitBuffers(w.state)
	content := map[string]any{"comm_id": w.id, "target_name": WidgetTarget,
		"data": map[string]any{"state": s, "buffer_paths": paths}}
	o.mu.Lock()
	if !o.silent && !o.closed {
		o.k.publishComm(o.parent, "comm_open", content, map[string]any{"version": WidgetProtocol}, buffers)
	}
	o.mu.Unlock()
	if gone := o.k.comms.add(w); gone != nil {
		o.k.log.Info("letting go of the oldest widget", "comm_id", gone.id, "limit", maxWidgets)
		gone.Set(map[string]any{"_closed": fmt.Sprintf("the kernel keeps the latest %d views and let this one go: run its cell again", maxWidgets)})
	}
	return w
}

// serveWidget serves a comm_msg to w.
// https://github.com/jupyter-widgets/ipywidgets/blob/main/packages/schema/messages.md#state-synchronization
func (r *request) serveWidget(w *Widget, data map[string]any) {
	w.mu.Lock()
	w.parent = r.m
	w.mu.Unlock()
	switch data["method"] {
	case "request_state":
		s, paths, buffers := w.snapshot()
		r.k.publishComm(r.m, "comm_msg", map[string]any{"comm_id": w.id,
			"data": map[string]any{"method": "update", "state": s, "buffer_paths": paths}}, nil, buffers)
	case "update":
		r.updateWidget(w, data)
	case "custom":
		content, ok := data["content"].(map[string]any)
		if !ok {
			r.k.log.Warn("refused widget message: custom content is not an object", "comm_id", w.id)
			return
		}
		r.widgetEvent(w, "custom", content, r.m.Buffers)
	default:
		r.k.log.Warn("refused widget message: unknown method", "comm_id", w.id, "method", fmt.Sprint(data["method"]))
	}
}

// updateWidget applies a front end's update: its state with the buffers
// put at their paths, unless a key is the kernel's or a path is bad; then
// echo_update, then the handler.
func (r *request) updateWidget(w *Widget, data map[string]any) {
	state, ok := data["state"].(map[string]any)
	if !ok {
		r.k.log.Warn("refused widget update: state is not an object", "comm_id", w.id)
		return
	}
	if err := putBuffers(state, data["buffer_paths"], r.m.Buffers); err != nil {
		r.k.log.Warn("refused widget update", "comm_id", w.id, "err", err)
		return
	}
	for key := range state {
		if len(key) == 0 || key[0] == '_' {
			r.k.log.Warn("refused widget update: the key is the kernel's", "comm_id", w.id, "key", key)
			return
		}
	}
	w.mu.Lock()
	maps.Copy(w.state, state)
	w.mu.Unlock()
	w.send(r.m, "echo_update", state)
	r.widgetEvent(w, "update", state, nil)
}

// widgetEvent calls w's handler, interruptible as a cell is; a panic is
// logged and the kernel goes on.
func (r *request) widgetEvent(w *Widget, method string, content map[string]any, buffers [][]byte) {
	if w.h == nil {
		return
	}
	out := &cellOutput{k: r.k, parent: r.m, payload: []map[string]any{}}
	defer func() {
		out.close()
		if p := recover(); p != nil {
			r.k.log.Error("panic serving a widget message", "comm_id", w.id, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	r.k.cancellable(func(ctx context.Context) {
		w.h(ctx, WidgetEvent{Widget: w, Method: method, Content: content, Buffers: buffers, Out: out})
	})
}

// putBuffers puts buffers into state at paths (the protocol's
// buffer_paths: lists of keys and indices into the state). It checks every
// path before it changes anything.
func putBuffers(state map[string]any, paths any, buffers [][]byte) error {
	ps, _ := paths.([]any)
	if paths != nil && ps == nil {
		return fmt.Errorf("buffer_paths is not a list")
	}
	if len(ps) != len(buffers) {
		return fmt.Errorf("%d buffer paths for %d buffers", len(ps), len(buffers))
	}
	for i, p := range ps {
		if err := putBuffer(state, p, buffers[i], true); err != nil {
			return fmt.Errorf("buffer path %d: %w", i, err)
		}
	}
	for i, p := range ps {
		putBuffer(state, p, buffers[i], false)
	}
	return nil
}

// putBuffer puts b at path in state, or with dry only checks that it can.
func putBuffer(state map[string]any, path any, b []byte, dry bool) error {
	elems, ok := path.([]any)
	if !ok || len(elems) == 0 {
		return fmt.Errorf("not a non-empty list")
	}
	var at any = state
	for i, e := range elems {
		last := i == len(elems)-1
		switch c := at.(type) {
		case map[string]any:
			key, ok := e.(string)
			if !ok {
				return fmt.Errorf("element %d: %v is not a key of an object", i, e)
			}
			if last {
				if !dry {
					c[key] = b
				}
				return nil
			}
			at = c[key]
		case []any:
			f, ok := e.(float64)
			j := int(f)
			if !ok || float64(j) != f || j < 0 || j >= len(c) {
				return fmt.Errorf("element %d: %v is not an index of a list of %d", i, e, len(c))
			}
			if last {
				if !dry {
					c[j] = b
				}
				return nil
			}
			at = c[j]
		default:
			return fmt.Errorf("element %d: %v leads into neither an object nor a list", i, e)
		}
	}
	return nil
}

var _ WidgetOpener = (*cellOutput)(nil)
