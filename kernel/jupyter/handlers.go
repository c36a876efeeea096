package jupyter

import "unicode/utf8"

// kernelInfo answers kernel_info_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#kernel-info
func (r *request) kernelInfo() {
	impl, version, banner, lang := r.k.h.Info()
	r.reply(map[string]any{
		"status": "ok", "protocol_version": ProtocolVersion,
		"implementation": impl, "implementation_version": version,
		"language_info": lang, "banner": banner,
		"help_links": []any{}, "debugger": false,
	})
}

// clampCursor keeps a code-point cursor inside code; a missing (nil) or
// out-of-range cursor means the end.
func clampCursor(code string, cursor *int) int {
	n := utf8.RuneCountInString(code)
	if cursor == nil || *cursor < 0 || *cursor > n {
		return n
	}
	return *cursor
}

// complete answers complete_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#completion
func (r *request) complete() {
	var c struct {
		Code      string `json:"code"`
		CursorPos *int   `json:"cursor_pos"`
	}
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	cur := clampCursor(c.Code, c.CursorPos)
	got := r.k.h.Complete(c.Code, cur)
	if got.Matches == nil {
		got.Matches = []string{}
	}
	if got.Metadata == nil {
		got.Metadata = map[string]any{}
	}
	if len(got.Matches) == 0 {
		got.CursorStart, got.CursorEnd = cur, cur
	}
	r.reply(map[string]any{
		"status": "ok", "matches": got.Matches, "cursor_start": got.CursorStart,
		"cursor_end": got.CursorEnd, "metadata": got.Metadata,
	})
}

// inspect answers inspect_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#introspection
func (r *request) inspect() {
	var c struct {
		Code        string `json:"code"`
		CursorPos   *int   `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	b := r.k.h.Inspect(c.Code, clampCursor(c.Code, c.CursorPos), c.DetailLevel)
	data := map[string]any{}
	for mime, v := range b {
		data[mime] = v
	}
	r.reply(map[string]any{"status": "ok", "found": len(data) > 0, "data": data, "metadata": map[string]any{}})
}

// isComplete answers is_complete_request.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#code-completeness
func (r *request) isComplete() {
	var c struct {
		Code string `json:"code"`
	}
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	status, indent := r.k.h.IsComplete(c.Code)
	content := map[string]any{"status": status}
	if status == "incomplete" {
		content["indent"] = indent
	}
	r.reply(content)
}

// interrupt answers interrupt_request (interrupt_mode "message") by
// cancelling the running execution.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#kernel-interrupt
func (r *request) interrupt() {
	r.k.Interrupt()
	r.reply(map[string]any{"status": "ok"})
}

// shutdown answers shutdown_request and stops the kernel; with restart the
// front end starts a fresh process.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#kernel-shutdown
func (r *request) shutdown() {
	var c struct {
		Restart bool `json:"restart"`
	}
	if err := r.decode(&c); err != nil {
		r.badRequest(err)
		return
	}
	content := map[string]any{"status": "ok", "restart": c.Restart}
	r.reply(content)
	r.k.publish(r.m, "shutdown_reply", content)
	r.k.mu.Lock()
	r.k.restart = c.Restart
	r.k.mu.Unlock()
	r.k.Interrupt()
	r.after = r.k.Shutdown
}
