package jupyter

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
)

// request is one request being served: the message and the router to reply on.
type request struct {
	k       *Kernel
	s       *router
	m       *Message
	control bool
	after   func() // runs once idle is published (shutdown)
}

func (r *request) reply(content any) {
	r.k.reply(r.s, r.m, replyType(r.m.Header.MsgType), content)
}

func replyType(t string) string {
	if n := len(t) - len("_request"); n > 0 && t[n:] == "_request" {
		return t[:n] + "_reply"
	}
	return t + "_reply"
}

// handlers serves each request type. Unknown types get busy/idle and no
// reply, as the spec allows for anything but execute and kernel_info. It is
// filled in init because execute refers back to dispatch.
var handlers map[string]func(*request)

func init() {
	handlers = map[string]func(*request){
		"kernel_info_request": (*request).kernelInfo,
		"execute_request":     (*request).execute,
		"complete_request":    (*request).complete,
		"inspect_request":     (*request).inspect,
		"is_complete_request": (*request).isComplete,
		"history_request":     (*request).history,
		"comm_info_request":   (*request).commInfo,
		"comm_open":           (*request).commOpen,
		"comm_msg":            (*request).commMsg,
		"comm_close":          (*request).commClose,
		"interrupt_request":   (*request).interrupt,
		"shutdown_request":    (*request).shutdown,
	}
}

// queueShell puts a shell request in line for the shell goroutine.
func (k *Kernel) queueShell(m *Message) {
	select {
	case k.shellQ <- m:
	case <-k.done:
	}
}

// shellLoop serves shell requests in order, one at a time.
func (k *Kernel) shellLoop() {
	for {
		select {
		case m := <-k.shellQ:
			k.dispatch(k.shell, m, false)
		case <-k.done:
			return
		}
	}
}

// dispatch serves one request wrapped in busy … idle. A panic in a handler
// becomes an error reply and the kernel keeps serving.
func (k *Kernel) dispatch(s *router, m *Message, control bool) {
	r := &request{k: k, s: s, m: m, control: control}
	k.publishStatus(m, "busy")
	defer func() {
		k.publishStatus(m, "idle")
		if r.after != nil {
			r.after()
		}
	}()
	h, ok := handlers[m.Header.MsgType]
	if !ok || (control && m.Header.MsgType == "execute_request") {
		k.log.Warn("unhandled message type", "msg_type", m.Header.MsgType, "control", control)
		return
	}
	defer func() {
		if p := recover(); p != nil {
			k.log.Error("panic serving request", "msg_type", m.Header.MsgType, "panic", p, "stack", string(debug.Stack()))
			r.reply(errorContent(panicError(p)))
		}
	}()
	h(r)
}

// panicError turns a recovered panic into a Jupyter error.
func panicError(p any) *Error {
	return &Error{Name: "InternalError", Value: fmt.Sprintf("proflens failed internally (%v); the session is still usable, please report this", p)}
}

// errorContent is the content of an error reply: the error message's
// fields and status "error".
func errorContent(e *Error) map[string]any {
	c := errorMessage(e)
	c["status"] = "error"
	return c
}

// errorMessage is the content of an iopub error message: ename, evalue and
// traceback only, the fields of nbformat's error output, which front ends
// save as they receive it (a status there fails nbformat's validation).
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#execution-errors
func errorMessage(e *Error) map[string]any {
	tb := e.Traceback
	if tb == nil {
		tb = []string{e.Name + ": " + e.Value}
	}
	return map[string]any{"ename": e.Name, "evalue": e.Value, "traceback": tb}
}

// decode unmarshals the request content into v; bad content is reported as
// an error reply by the caller.
func (r *request) decode(v any) error {
	if err := json.Unmarshal(r.m.Content, v); err != nil {
		return fmt.Errorf("%s content: %w", r.m.Header.MsgType, err)
	}
	return nil
}

func (r *request) badRequest(err error) {
	r.k.log.Warn("bad request content", "err", err)
	r.reply(errorContent(&Error{Name: "BadRequest", Value: err.Error()}))
}
