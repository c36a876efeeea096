package kernel_test

import (
	"fmt"
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
		out := kernel.WithBudget(rec, &st)
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
