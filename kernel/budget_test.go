package kernel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// bigTable is a table of n rows.
func bigTable(n int) *kernel.Table {
	t := &kernel.Table{Columns: []string{"name", "flat"}, Note: "a note"}
	for i := range n {
		t.Rows = append(t.Rows, []any{fmt.Sprintf("pkg%d.Function%d", i, i), int64(i)})
	}
	return t
}

// TestBudgetCutsTables: on random tables and budgets, what a cell sends
// stays within the budget plus one note per output; a cut table keeps
// whole rows from its start in text and HTML, is still a table, drops its
// JSON, and says how to get everything.
func TestBudgetCutsTables(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		rows, limit := r.IntN(400), int64(200+r.IntN(20000))
		st := kernel.DefaultSettings()
		st.MaxOutput = limit
		rec := &kernel.Recorder{}
		out := kernel.WithBudget(rec, &st, context.Background())
		tab := bigTable(rows)
		full := tab.Bundle()
		out.Display(full, nil)
		out.Display(bigTable(3).Bundle(), nil)
		bs := rec.Bundles()
		var sent int64
		for _, b := range bs {
			sent += kernel.BundleSize(b)
		}
		if cap := limit + 2*800; sent > cap {
			t.Fatalf("rows=%d limit=%d: sent %d bytes, want at most %d", rows, limit, sent, cap)
		}
		got := bs[0]
		if kernel.BundleSize(full) <= limit {
			if kernel.BundleSize(got) != kernel.BundleSize(full) {
				t.Fatalf("rows=%d limit=%d: a table that fits was changed", rows, limit)
			}
			continue
		}
		plain := got["text/plain"].(string)
		note := plain[strings.LastIndex(strings.TrimSuffix(plain, "\n"), "\n")+1:]
		if !strings.HasPrefix(full["text/plain"].(string), strings.TrimSuffix(plain, note)) ||
			!strings.Contains(note, "export NAME FILE") || !strings.Contains(note, "set max=SIZE") || !strings.Contains(note, "application/json") {
			t.Fatalf("rows=%d limit=%d: cut text/plain\n%s\nis not a prefix of the table with a note", rows, limit, plain)
		}
		if _, ok := got["application/json"]; ok {
			t.Fatalf("rows=%d limit=%d: a cut table kept its JSON", rows, limit)
		}
		if h, ok := got["text/html"].(string); ok {
			body, _, _ := strings.Cut(h, "</tbody>\n</table>\n")
			if !strings.HasPrefix(full["text/html"].(string), body) || !strings.HasSuffix(body, "</tr>\n") || !strings.Contains(h, "<p>[cut: ") {
				t.Fatalf("rows=%d limit=%d: cut HTML\n%s\nis not whole rows of the table, closed, with the note", rows, limit, h)
			}
		}
		if second := bs[1]["text/plain"].(string); !strings.HasPrefix(second, "[cut: ") {
			t.Fatalf("rows=%d limit=%d: after the budget is spent, an output shows %q, want only the note", rows, limit, second)
		}
	}
}

// TestBudgetInCells: the budget applies to a cell's outputs together, set
// max= changes it, clear gives it back, and streams are cut too.
func TestBudgetInCells(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), lang.Table())
	rec, err := lang.Run(t, s, "load demo:profvis-toy as toy\nset max=900\nlevel 99\ntree")
	if err != nil {
		t.Fatal(err)
	}
	text := rec.Text()
	if !strings.Contains(text, "[cut: ") || !strings.Contains(text, "limited to 900B") {
		t.Errorf("with max=900, the cell shows\n%s\nwant a cut note", text)
	}
	long := "echo " + strings.Repeat("x ", 4000)
	rec, err = lang.Run(t, s, "set max=6000\n"+long+"\nclear\ntree")
	if err != nil {
		t.Fatal(err)
	}
	if b := rec.Bundles(); len(b) != 1 || strings.Contains(b[0]["text/plain"].(string), "[cut: ") {
		t.Errorf("after clear, tree was cut: %v", rec.Text())
	}
	rec, err = lang.Run(t, s, long)
	if err != nil {
		t.Fatal(err)
	}
	if out := rec.Stdout("stdout"); !strings.Contains(out, "[cut: ") || len(out) > 6000+600 {
		t.Errorf("a long echo printed %d bytes (%.80q...), want at most the budget and a note", len(out), out)
	}
}

// lazyLines is a Lazy of text/plain writing lines one at a time; it counts
// the bytes it was let write.
func lazyLines(lines []string, wrote *int) *kernel.Lazy {
	return &kernel.Lazy{Len: len(lines), Unit: "lines", Write: func(w io.Writer) error {
		for _, l := range lines {
			n, err := io.WriteString(w, l)
			*wrote += n
			if err != nil {
				return err
			}
		}
		return nil
	}}
}

// TestBudgetLazyAsEager: on random texts and budgets, a bundle of Lazy
// values shows what the same bundle built whole shows, but for the cut
// note, which counts lines instead of bytes; JSON that fits is the bytes
// of json.Marshal; and a Lazy that does not fit is let write no more than
// what was left of the budget.
func TestBudgetLazyAsEager(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		lines := make([]string, r.IntN(300))
		for i := range lines {
			lines[i] = strings.Repeat("x", r.IntN(80)) + "\n"
		}
		text := strings.Join(lines, "")
		doc := map[string]any{"lines": lines, "n": len(lines)}
		js, _ := json.Marshal(doc)
		st := kernel.DefaultSettings()
		st.MaxOutput = int64(100 + r.IntN(20000))
		eager, lazy := &kernel.Recorder{}, &kernel.Recorder{}
		kernel.WithBudget(eager, &st, context.Background()).Display(map[string]any{"text/plain": text, "application/json": doc}, nil)
		var wrote int
		kernel.WithBudget(lazy, &st, context.Background()).Display(map[string]any{
			"text/plain": lazyLines(lines, &wrote),
			"application/json": &kernel.Lazy{Len: len(lines), Unit: "lines", Write: func(w io.Writer) error {
				_, err := w.Write(js)
				return err
			}},
		}, nil)
		e, l := eager.Bundles()[0], lazy.Bundles()[0]
		if int64(len(text)+len(js)) <= st.MaxOutput {
			if l["text/plain"] != text || string(l["application/json"].(json.RawMessage)) != string(js) {
				t.Fatalf("max=%d: a lazy bundle that fits shows %v, want %v", st.MaxOutput, l, e)
			}
			continue
		}
		ep, lp := e["text/plain"].(string), l["text/plain"].(string)
		ep, lp = ep[:strings.LastIndex(ep, "[cut: ")], lp[:strings.LastIndex(lp, "[cut: ")]
		if ep != lp || l["application/json"] != nil {
			t.Fatalf("max=%d: cut lazy bundle %.200q, want %.200q and no JSON", st.MaxOutput, lp, ep)
		}
		if shown := strings.Count(lp, "\n"); len(lp) < len(text) && !strings.Contains(l["text/plain"].(string), fmt.Sprintf("[cut: %d of %d lines", len(lines)-shown, len(lines))) {
			t.Fatalf("max=%d: the note of a cut lazy text of %d lines showing %d is %q", st.MaxOutput, len(lines), shown, l["text/plain"])
		}
		if int64(wrote) > st.MaxOutput {
			t.Fatalf("max=%d: a lazy text was let write %d bytes", st.MaxOutput, wrote)
		}
	}
}
