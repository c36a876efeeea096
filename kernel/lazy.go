package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/proflens/proflens/kernel/jupyter"
)

// Lazy is a bundle value written only as far as the cell's budget goes: a
// view's text of millions of lines, its JSON of millions of nodes. The
// budget (budget.go) has it write into at most what is left, so one larger
// than that is never built whole; it then sends what was written, a string
// for text/ and image/ types, raw JSON for the others, or cuts it as any
// other value. Display and Result take it in a bundle; Call.Display says
// when an interrupt stopped its writing.
type Lazy struct {
	// Write writes the value to w (for a JSON type, its JSON, compact as
	// json.Marshal writes it) and stops at w's first error, which it
	// returns.
	Write func(w io.Writer) error
	// Len counts the Units of the whole value ("lines", "compacted
	// nodes"), for the note of a cut. For a text/plain value, Units are
	// its lines.
	Len  int
	Unit string
}

// errFull is the error of a write past what is left of the budget.
var errFull = errors.New("the cell's output budget is spent")

// checkBytes is how many bytes a Lazy writes between two looks at the
// context.
const checkBytes = 64 << 10

// capWriter keeps what is written, up to max bytes, and fails with errFull
// past them; it fails with ctx's error once ctx is done, looking at it
// every checkBytes.
type capWriter struct {
	ctx  context.Context
	max  int64
	b    strings.Builder
	next int64 // the size at which to look at ctx again
}

func (w *capWriter) Write(p []byte) (int, error) {
	if n := int64(w.b.Len() + len(p)); n >= w.next {
		if err := w.ctx.Err(); err != nil {
			return 0, err
		}
		w.next = n + checkBytes
	}
	if room := w.max - int64(w.b.Len()); int64(len(p)) > room {
		w.b.Write(p[:max(room, 0)])
		return int(max(room, 0)), errFull
	}
	return w.b.Write(p)
}

// build writes l into at most max bytes. It returns what was written (of a
// value cut short, its whole lines) and whether that is the whole value;
// an error only when ctx ended first.
func (l *Lazy) build(ctx context.Context, max int64) (string, bool, error) {
	w := &capWriter{ctx: ctx, max: max, next: checkBytes}
	err := l.Write(w)
	s := w.b.String()
	switch {
	case err == nil:
		return s, true, nil
	case errors.Is(err, errFull):
		return s[:strings.LastIndexByte(s, '\n')+1], false, nil
	}
	return "", false, err
}

// sent is the value of a Lazy built whole for its MIME type: the text, or
// the raw JSON.
func sent(mime, s string) any {
	if strings.HasPrefix(mime, "text/") || strings.HasPrefix(mime, "image/") {
		return s
	}
	return json.RawMessage(s)
}

// Display shows data as display_data within the cell's budget. It fails
// with the context's error, showing nothing, when an interrupt stopped the
// writing of one of its Lazy values.
func (c *Call) Display(data jupyter.Bundle) error {
	b, ok := c.Out.(budgeted)
	if !ok {
		b = withBudget(c.Out, &c.Session.Settings, c.Ctx).(budgeted)
	}
	return b.display(data, nil)
}

// budgeted is an output under a budget (budgetOutput, updaterBudget).
type budgeted interface {
	display(data jupyter.Bundle, metadata map[string]any) error
}
