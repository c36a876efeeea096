package kernel_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

func TestTable(t *testing.T) {
	tab := &kernel.Table{
		Title:   "top",
		Columns: []string{"flat", "flat%", "name"},
		Rows: [][]any{
			{int64(1200), kernel.Cell{Text: "60.00%", Value: 0.6}, "main.work"},
			{int64(5), 2.5, "<b>&co</b>"},
			{int64(800), nil},
		},
		Note: "3 of 3 functions",
	}
	plain := "top\n" +
		"flat   flat%  name\n" +
		"1200  60.00%  main.work\n" +
		"   5    2.50  <b>&co</b>\n" +
		" 800\n" +
		"3 of 3 functions\n"
	if got := tab.Plain(); got != plain {
		t.Errorf("Plain() =\n%s\nwant\n%s", got, plain)
	}
	html := tab.HTML()
	for _, want := range []string{
		"<caption>top</caption>", `<th style="text-align:right">flat%</th>`, `<td style="text-align:right">60.00%</td>`,
		`<th style="text-align:left">name</th>`, `<td style="text-align:left">&lt;b&gt;&amp;co&lt;/b&gt;</td>`,
		"<p>3 of 3 functions</p>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML() lacks %q:\n%s", want, html)
		}
	}
	b, err := json.Marshal(tab.Bundle()["application/json"])
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"flat":1200,"flat%":0.6,"name":"main.work"},{"flat":5,"flat%":2.5,"name":"\u003cb\u003e\u0026co\u003c/b\u003e"},{"flat":800,"flat%":null,"name":null}]`
	if string(b) != wantJSON {
		t.Errorf("JSON = %s, want %s", b, wantJSON)
	}
}

// TestPictureBundle: each pictures mode sends its MIME types; the HTML's
// <img> carries the SVG whole, and alt's first line, escaped, as its alt.
func TestPictureBundle(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg"><title>x · é</title></svg>`
	alt := "a <tree> of 3 nodes\nroot [3]"
	for _, tt := range []struct {
		mode  string
		mimes []string
	}{
		{"", []string{"text/html", "text/plain"}},
		{kernel.PicturesHTML, []string{"text/html", "text/plain"}},
		{kernel.PicturesSVG, []string{"image/svg+xml", "text/plain"}},
		{kernel.PicturesBoth, []string{"image/svg+xml", "text/html", "text/plain"}},
	} {
		b := kernel.PictureBundle([]byte(svg), alt, tt.mode)
		if got := slices.Sorted(maps.Keys(b)); !slices.Equal(got, tt.mimes) {
			t.Errorf("PictureBundle(mode %q) has %v, want %v", tt.mode, got, tt.mimes)
		}
		if got, ok := kerneltest.SVG(b); !ok || got != svg || b["text/plain"] != alt {
			t.Errorf("PictureBundle(mode %q) carries SVG %q and text %q, want %q and %q", tt.mode, got, b["text/plain"], svg, alt)
		}
	}
	h := kernel.PictureHTML([]byte(svg), alt)
	if !strings.Contains(h, `alt="a &lt;tree&gt; of 3 nodes"`) || strings.Contains(h, "<svg") || !strings.Contains(h, ` onload="`) {
		t.Errorf("PictureHTML = %s, want an <img> with the escaped first line as alt and an onload handler", h)
	}
}

// FuzzLanguage checks that completion, inspection, is_complete and
// execution never panic on any text and cursor.
func FuzzLanguage(f *testing.F) {
	for _, s := range []string{"ech", "echo stream=", "help e", `echo "a`, "sleep 0\\\n", "echo?", "é ü \"x"} {
		f.Add(s, 3)
	}
	in := kernel.New(f.TempDir(), lang.Table())
	f.Fuzz(func(t *testing.T, code string, cursor int) {
		if cursor < 0 || cursor > len([]rune(code)) {
			cursor = len([]rune(code))
		}
		c := in.Complete(code, cursor)
		if c.CursorStart < 0 || c.CursorStart > c.CursorEnd || c.Matches == nil {
			t.Fatalf("Complete(%q, %d) = %+v", code, cursor, c)
		}
		in.Inspect(code, cursor, 0)
		if s, _ := in.IsComplete(code); s != "complete" && s != "incomplete" && s != "invalid" {
			t.Fatalf("IsComplete(%q) = %s", code, s)
		}
		if safeToRun(code) {
			in.Execute(t.Context(), code, &kernel.Recorder{})
		}
	})
}

// safeToRun reports whether code calls only commands without side effects
// or waits, or unknown ones (the fuzzer must not write files or load
// URLs).
func safeToRun(code string) bool {
	stmts, _ := kernel.Parse(code)
	for _, st := range stmts {
		switch name := st.Words[0].Text; name {
		case "echo", "help", "version", "clear":
		default:
			if lang.Table().Lookup(name) != nil {
				return false
			}
		}
	}
	return true
}

func TestCountOf(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{{1, "phase", "1 phase"}, {0, "phase", "0 phases"}, {4, "interval", "4 intervals"}, {2, "process", "2 processes"}, {1, "process", "1 process"}} {
		if got := kernel.CountOf(tc.n, tc.noun); got != tc.want {
			t.Errorf("CountOf(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
