package kernel

import (
	"encoding/json"
	"fmt"
	"html"
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
	st    *Settings
	used  int64
	noted bool // a note about a stream cut was shown
}

// withBudget returns out under the budget of st.MaxOutput; it is an
// Updater when out is one.
func withBudget(out jupyter.Output, st *Settings) jupyter.Output {
	b := &budgetOutput{Output: out, st: st}
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
		cut += b.note(n-int64(len(cut)), "") + "\n"
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

// Display shows data, cut to the budget.
func (b *budgetOutput) Display(data jupyter.Bundle, metadata map[string]any) {
	b.Output.Display(b.fit(data), metadata)
}

// Result sets the cell's result, cut to the budget.
func (b *budgetOutput) Result(data jupyter.Bundle, metadata map[string]any) {
	b.Output.Result(b.fit(data), metadata)
}

// fit returns data if it fits what is left of the budget, else the cut
// bundle; either way it counts what is sent. After a cut, the rest of the
// cell's outputs show only notes.
func (b *budgetOutput) fit(data jupyter.Bundle) jupyter.Bundle {
	total := bundleSize(data)
	left := b.left()
	if total <= left {
		b.used += total
		return data
	}
	out := jupyter.Bundle{}
	plain, _ := data["text/plain"].(string)
	h, _ := data["text/html"].(string)
	if isTable(h) {
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
	note := b.note(total-bundleSize(out), what)
	out["text/plain"] = out["text/plain"].(string) + note + "\n"
	if t, ok := out["text/html"].(string); ok {
		out["text/html"] = t + "<p>" + html.EscapeString(note) + "</p>\n"
	}
	b.used = max(b.used, b.st.MaxOutput)
	return out
}

// note says that n bytes of an output were cut (what says more) and how to
// get everything.
func (b *budgetOutput) note(n int64, what string) string {
	return fmt.Sprintf("[cut: %s of this output left out%s: a cell's outputs are limited to %s; "+
		"export NAME FILE (.json, .folded, .pprof) writes everything to a file, set max=SIZE raises the limit]",
		analysis.FormatValue(n, "bytes"), what, analysis.FormatValue(b.st.MaxOutput, "bytes"))
}

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
