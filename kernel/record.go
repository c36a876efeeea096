package kernel

import (
	"context"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// Event is one thing a cell produced, as recorded by a Recorder.
type Event struct {
	Kind    string         // "stream", "display", "update", "result", "clear", "payload"
	ID      string         // a display's display id, or the one an update replaces
	Name    string         // stream name: "stdout" or "stderr"
	Text    string         // stream text
	Data    jupyter.Bundle // display and result bundles
	Meta    map[string]any
	Payload map[string]any
}

// Recorder is a jupyter.Output and jupyter.Updater that keeps every event
// in order, for tests and tools.
type Recorder struct {
	Events []Event
}

// Stream implements jupyter.Output.
func (r *Recorder) Stream(name, text string) {
	r.Events = append(r.Events, Event{Kind: "stream", Name: name, Text: text})
}

// Display implements jupyter.Output.
func (r *Recorder) Display(data jupyter.Bundle, meta map[string]any) {
	r.Events = append(r.Events, Event{Kind: "display", Data: data, Meta: meta})
}

// DisplayID implements jupyter.Updater.
func (r *Recorder) DisplayID(id string, data jupyter.Bundle, meta map[string]any) {
	r.Events = append(r.Events, Event{Kind: "display", ID: id, Data: data, Meta: meta})
}

// Update implements jupyter.Updater: the displays of id take data in place,
// as front ends do, and the update is recorded after them.
func (r *Recorder) Update(id string, data jupyter.Bundle, meta map[string]any) {
	for i := range r.Events {
		if e := &r.Events[i]; e.Kind == "display" && e.ID == id {
			e.Data, e.Meta = data, meta
		}
	}
	r.Events = append(r.Events, Event{Kind: "update", ID: id, Data: data, Meta: meta})
}

// Result implements jupyter.Output.
func (r *Recorder) Result(data jupyter.Bundle, meta map[string]any) {
	r.Events = append(r.Events, Event{Kind: "result", Data: data, Meta: meta})
}

// Clear implements jupyter.Output.
func (r *Recorder) Clear(wait bool) { r.Events = append(r.Events, Event{Kind: "clear"}) }

// Payload implements jupyter.Output.
func (r *Recorder) Payload(p map[string]any) {
	r.Events = append(r.Events, Event{Kind: "payload", Payload: p})
}

// Stdout returns everything written to stream name ("stdout" or "stderr").
func (r *Recorder) Stdout(name string) string {
	var b strings.Builder
	for _, e := range r.Events {
		if e.Kind == "stream" && e.Name == name {
			b.WriteString(e.Text)
		}
	}
	return b.String()
}

// Bundles returns the display and result bundles, in order.
func (r *Recorder) Bundles() []jupyter.Bundle {
	var out []jupyter.Bundle
	for _, e := range r.Events {
		if e.Kind == "display" || e.Kind == "result" {
			out = append(out, e.Data)
		}
	}
	return out
}

// Text returns stdout, stderr and the text/plain of every bundle, in order:
// what `proflens run` would print.
func (r *Recorder) Text() string {
	var b strings.Builder
	for _, e := range r.Events {
		switch e.Kind {
		case "stream":
			b.WriteString(e.Text)
		case "display", "result":
			s, _ := e.Data["text/plain"].(string)
			b.WriteString(s)
			if !strings.HasSuffix(s, "\n") {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// RunCell runs code in session s and records what it produced. The error
// is the cell's *jupyter.Error, or nil.
func RunCell(ctx context.Context, s *Session, code string) (*Recorder, error) {
	rec := &Recorder{}
	if err := NewInterp(s).Execute(ctx, code, rec); err != nil {
		return rec, err
	}
	return rec, nil
}
