package kernel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel/jupyter"
)

// TestExamples runs every command's examples, in registry order, each
// command's in one fresh session, so that the documentation cannot rot.
func TestExamples(t *testing.T) {
	for _, c := range testTable().Commands() {
		t.Run(c.Name, func(t *testing.T) {
			if strings.TrimSpace(c.Summary) == "" || strings.Contains(c.Summary, "\n") {
				t.Errorf("command %s: Summary must be one non-empty line, got %q", c.Name, c.Summary)
			}
			if len(c.Examples) == 0 {
				t.Errorf("command %s has no Examples: add at least one runnable line", c.Name)
			}
			s := NewSession(t.TempDir(), testTable())
			calls := false
			for i, ex := range c.Examples {
				st, err := Parse(ex)
				calls = calls || err == nil && len(st) > 0 && testTable().commandOf(st[0].Words[0]) == c
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				_, err = RunCell(ctx, s, ex)
				cancel()
				if err != nil {
					t.Errorf("command %s, example %d %q: %v", c.Name, i+1, ex, err)
				}
			}
			if len(c.Examples) > 0 && !calls {
				t.Errorf("command %s: no example calls %s", c.Name, c.Name)
			}
		})
	}
}

// TestHelp checks that help lists every command and that help CMD shows
// every argument and option with its default and allowed values.
func TestHelp(t *testing.T) {
	rec, err := RunForTest(t, nil, "help")
	if err != nil {
		t.Fatal(err)
	}
	index := rec.Bundles()[0]
	for _, c := range testTable().Commands() {
		for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
			if !strings.Contains(index[mime].(string), c.Name) {
				t.Errorf("help %s does not list %s", mime, c.Name)
			}
		}
		rec, err := RunForTest(t, nil, "help "+c.Name)
		if err != nil {
			t.Fatalf("help %s: %v", c.Name, err)
		}
		plain := rec.Bundles()[0]["text/plain"].(string)
		for _, o := range c.AllOptions() {
			if !strings.Contains(plain, o.Name+"=") || !strings.Contains(plain, optionNote(o)) {
				t.Errorf("help %s does not show option %s%s", c.Name, o.Name, optionNote(o))
			}
		}
		for _, a := range c.Args {
			if !strings.Contains(plain, a.Name) {
				t.Errorf("help %s does not show argument %s", c.Name, a.Name)
			}
		}
	}
}

// TestHelpGolden pins the three renderings of help echo, help top (a
// command that reads a tree: the tree options) and the index.
func TestHelpGolden(t *testing.T) {
	for _, page := range []struct {
		name string
		b    jupyter.Bundle
	}{{"help_echo", HelpBundle(testTable().Lookup("echo"))}, {"help_top", HelpBundle(testTable().Lookup("top"))}, {"help_index", IndexBundle(testTable())}} {
		for _, f := range []struct{ mime, ext string }{{"text/plain", ".txt"}, {"text/markdown", ".md"}, {"text/html", ".html"}} {
			golden.Check(t, filepath.Join("testdata", page.name+f.ext), []byte(page.b[f.mime].(string)))
		}
	}
}

// TestHelpHTML: every help page's HTML renders the markdown: no backtick
// is left, and the index's cells align left (the classic Notebook's style
// sheet right-aligns table cells).
func TestHelpHTML(t *testing.T) {
	for _, c := range testTable().Commands() {
		if h := HelpBundle(c)["text/html"].(string); strings.Contains(h, "`") {
			t.Errorf("help %s: the HTML holds a backtick: %.200s", c.Name, h[strings.Index(h, "`"):])
		}
	}
	h := IndexBundle(testTable())["text/html"].(string)
	if strings.Contains(h, "`") || strings.Count(h, `<td style="text-align:left">`) != 2*len(testTable().Commands()) {
		t.Errorf("help index HTML: backticks or cells not aligned left:\n%s", h)
	}
	if got := inlineHTML("a `b<c>` and `d` and `e"); got != "a <code>b&lt;c&gt;</code> and <code>d</code> and `e" {
		t.Errorf("inlineHTML = %q", got)
	}
}
