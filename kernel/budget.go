package kernel

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel/jupyter"
)

// A cell's outputs have a budget, Settings.MaxOutput bytes for all its
// bundles and streams together (set max=SIZE), so that a notebook stays a
// file people can share and the kernel never sends more than it promised.
// A bundle that does not fit what is left is cut to fit: its text/plain
// and its HTML table at a row boundary, the other MIME types (JSON,
// pictures, HTML that is no table) left out; a note says what was cut and
// how to get everything (export writes to a file, set max= raises the
// budget). The note itself is always shown, once the budget is spent.

// budgetOutput is a cell's output with the session's budget applied. Every
// other method of jupyter.Output passes through.
type budgetOutput struct {
	jupyter.Output
	ctx   context.Context // the cell's: an interrupt stops the writing of a Lazy
	st    *Settings
	used  int64
	noted bool // a note about a stream cut was shown
}

// withBudget returns out under the budget of st.MaxOutput for a cell run
// under ctx; it is an Updater when out is one.
func withBudget(out jupyter.Output, st *Settings, ctx context.Context) jupyter.Output {
	b := &budgetOutput{Output: out, st: st, ctx: ctx}
	if u, ok := out.(jupyter.Updater); ok {
		return updaterBudget{b, u}
	}
	return b
}

func (b *budgetOutput) left() int64 { return max(b.st.MaxOutput-b.used, 0) }

// Stream writes text, cut at the budget; past it, streams show one note.
func (b *budgetOutput) Stream(name, text string) {
	n := int64(len(text))
	if n <= b.left() {
		b.used += n
		b.Output.Stream(name, text)
		return
	}
	cut := cutLines(text, b.left())
	b.used += int64(len(cut))
	if !b.noted {
		b.noted = true
		cut += b.note(formatBytes(n-int64(len(cut))), "") + "\n"
	}
	if cut != "" {
		b.Output.Stream(name, cut)
	}
}

// Clear clears the cell's output, and with it what the budget counted.
func (b *budgetOutput) Clear(wait bool) {
	b.used, b.noted = 0, false
	b.Output.Clear(wait)
}

// Display shows data, cut to the budget; nothing when an interrupt stopped
// the writing of a Lazy value.
func (b *budgetOutput) Display(data jupyter.Bundle, metadata map[string]any) {
	b.display(data, metadata)
}

func (b *budgetOutput) display(data jupyter.Bundle, metadata map[string]any) error {
	out, err := b.fit(data)
	if err == nil {
		b.Output.Display(out, metadata)
	}
	return err
}

// Result sets the cell's result, cut to the budget.
func (b *budgetOutput) Result(data jupyter.Bundle, metadata map[string]any) {
	if out, err := b.fit(data); err == nil {
		b.Output.Result(out, metadata)
	}
}

// piece is a value of a bundle as the budget weighs it.
type piece struct {
	v     any   // the value, or what was written of a Lazy
	size  int64 // v's size on the wire
	lazy  *Lazy // nil for a value built before it was shown
	tried bool  // the Lazy was written, whole or not
	whole bool  // v is the whole value
}

// fit returns data if it fits what is left of the budget, else the cut
// bundle; either way it counts what is sent. After a cut, the rest of the
// cell's outputs show only notes. It fails with the context's error when
// an interrupt stopped the writing of a Lazy value.
func (b *budgetOutput) fit(data jupyter.Bundle) (jupyter.Bundle, error) {
	left := b.left()
	ps, room, err := b.weigh(data, left)
	if err != nil {
		return nil, err
	}
	if room < 0 {
		return b.cut(data, ps, left), nil
	}
	b.used += left - room
	out := jupyter.Bundle{}
	for mime, p := range ps {
		out[mime] = p.v
	}
	return out, nil
}

// weigh sizes the values of data, writing its Lazy values (text/plain
// first, into all of left, then the others in order of MIME type into
// what the rest leaves), and returns what is left of left after them: below
// 0 when they do not fit. Once one does not fit, the next are not written.
func (b *budgetOutput) weigh(data jupyter.Bundle, left int64) (map[string]*piece, int64, error) {
	ps, room := map[string]*piece{}, left
	var lazies []string
	for mime, v := range data {
		if l, ok := v.(*Lazy); ok {
			ps[mime], lazies = &piece{lazy: l}, append(lazies, mime)
			continue
		}
		ps[mime] = &piece{v: v, size: valueSize(v), whole: true}
		room -= ps[mime].size
	}
	slices.SortFunc(lazies, func(x, y string) int { return cmp.Compare(plainFirst(x), plainFirst(y)) })
	for _, mime := range lazies {
		p := ps[mime]
		limit := room
		if mime == "text/plain" {
			limit = left
		}
		if limit < 0 {
			break
		}
		s, whole, err := p.lazy.build(b.ctx, limit)
		if err != nil {
			return nil, 0, err
		}
		p.v, p.size, p.tried, p.whole = sent(mime, s), int64(len(s)), true, whole
		if room -= p.size; !whole {
			return ps, min(room, -1), nil // more than the limit
		}
	}
	return ps, room, nil
}

// plainFirst is the key that sorts text/plain first, then MIME types in
// order.
func plainFirst(mime string) string {
	if mime == "text/plain" {
		return ""
	}
	return mime
}

// cut returns the cut form of data: its text/plain and its HTML table cut
// at a row boundary, the other MIME types left out, and a note saying what
// was left out.
func (b *budgetOutput) cut(data jupyter.Bundle, ps map[string]*piece, left int64) jupyter.Bundle {
	out := jupyter.Bundle{}
	plain, _ := value(ps["text/plain"]).(string)
	h, _ := value(ps["text/html"]).(string)
	if isTable(h) && ps["text/html"].lazy == nil {
		out["text/plain"] = cutLines(plain, left/2)
		if t := cutTable(h, left-int64(len(out["text/plain"].(string)))); t != "" {
			out["text/html"] = t
		}
	} else {
		out["text/plain"] = cutLines(plain, left)
	}
	var dropped []string
	for mime := range data {
		if _, ok := out[mime]; !ok {
			dropped = append(dropped, mime)
		}
	}
	what := ""
	if len(dropped) > 0 {
		slices.Sort(dropped)
		what = " (all of its " + strings.Join(dropped, ", ") + ")"
	}
	note := b.note(leftOut(ps, out), what)
	out["text/plain"] = out["text/plain"].(string) + note + "\n"
	if t, ok := out["text/html"].(string); ok {
		out["text/html"] = t + "<p>" + html.EscapeString(note) + "</p>\n"
	}
	b.used = max(b.used, b.st.MaxOutput)
	return out
}

func value(p *piece) any {
	if p == nil {
		return nil
	}
	return p.v
}

// leftOut says how much of the pieces ps the cut bundle out leaves out:
// the bytes of the values whose size is known, and for a Lazy written only
// in part, its Units: those of text/plain out does not show, all of the
// others'.
func leftOut(ps map[string]*piece, out jupyter.Bundle) string {
	var parts []string
	var n int64
	for _, mime := range slices.Sorted(maps.Keys(ps)) {
		p := ps[mime]
		switch {
		case p.whole:
			if kept, ok := out[mime]; ok {
				n += p.size - valueSize(kept)
			} else {
				n += p.size
			}
		case p.tried && mime == "text/plain":
			shown := strings.Count(out[mime].(string), "\n")
			parts = append(parts, fmt.Sprintf("%d of %d %s", p.lazy.Len-shown, p.lazy.Len, p.lazy.Unit))
		case p.tried:
			parts = append(parts, fmt.Sprintf("%d %s", p.lazy.Len, p.lazy.Unit))
		}
	}
	if n > 0 || len(parts) == 0 {
		parts = append(parts, formatBytes(n))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// note says that amount of an output was cut (what says more) and how to
// get everything.
func (b *budgetOutput) note(amount, what string) string {
	return fmt.Sprintf("[cut: %s of this output left out%s: a cell's outputs are limited to %s; "+
		"export NAME FILE (.json, .folded, .pprof) writes everything to a file, set max=SIZE raises the limit]",
		amount, what, formatBytes(b.st.MaxOutput))
}

// formatBytes says n bytes as the notes of cuts do ("1.5MB").
func formatBytes(n int64) string { return analysis.FormatValue(n, "bytes") }

// valueSize is the size a bundle value has on the wire: a string's bytes,
// anything else's JSON.
func valueSize(v any) int64 {
	if s, ok := v.(string); ok {
		return int64(len(s))
	}
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return int64(len(data))
}

func bundleSize(b jupyter.Bundle) int64 {
	var n int64
	for _, v := range b {
		n += valueSize(v)
	}
	return n
}

// cutLines returns the longest prefix of s of whole lines within n bytes.
func cutLines(s string, n int64) string {
	if int64(len(s)) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], '\n')
	return s[:i+1]
}

// isTable reports whether h is one of our HTML tables (Table.HTML).
func isTable(h any) bool {
	s, _ := h.(string)
	return strings.HasPrefix(s, "<table>") && strings.Contains(s, "</tr>\n")
}

// cutTable cuts an HTML table (Table.HTML) after its last whole row within
// n bytes and closes it; "" when not even one row fits.
func cutTable(h string, n int64) string {
	const end = "</tbody>\n</table>\n"
	if int64(len(h)) <= n {
		return h
	}
	n -= int64(len(end))
	if n <= 0 {
		return ""
	}
	i := strings.LastIndex(h[:n], "</tr>\n")
	if i < 0 {
		return ""
	}
	return h[:i+len("</tr>\n")] + end
}
