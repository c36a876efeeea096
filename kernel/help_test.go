package kernel_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/commands"
	"github.com/proflens/proflens/kernel/jupyter"
)

// help runs one cell of the language (commands.All) in a fresh session.
func help(t *testing.T, code string) *kernel.Recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rec, err := kernel.RunCell(ctx, kernel.NewSession(t.TempDir(), commands.All), code)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	return rec
}

// TestHelp checks that help lists every command and that help CMD shows
// every argument and option with its default and allowed values.
func TestHelp(t *testing.T) {
	index := help(t, "help").Bundles()[0]
	for _, c := range commands.All.Commands() {
		for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
			if !strings.Contains(index[mime].(string), c.Name) {
				t.Errorf("help %s does not list %s", mime, c.Name)
			}
		}
		plain := help(t, "help "+c.Name).Bundles()[0]["text/plain"].(string)
		for _, o := range c.AllOptions() {
			if !strings.Contains(plain, o.Name+"=") || !strings.Contains(plain, kernel.OptionNote(o)) {
				t.Errorf("help %s does not show option %s%s", c.Name, o.Name, kernel.OptionNote(o))
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
	}{{"help_echo", kernel.HelpBundle(commands.All.Lookup("echo"))}, {"help_top", kernel.HelpBundle(commands.All.Lookup("top"))}, {"help_index", kernel.IndexBundle(commands.All)}} {
		for _, f := range []struct{ mime, ext string }{{"text/plain", ".txt"}, {"text/markdown", ".md"}, {"text/html", ".html"}} {
			golden.Check(t, filepath.Join("testdata", page.name+f.ext), []byte(page.b[f.mime].(string)))
		}
	}
}

// TestHelpHTML: every help page's HTML renders the markdown: no backtick
// is left, and the index's cells align left (the classic Notebook's style
// sheet right-aligns table cells).
func TestHelpHTML(t *testing.T) {
	for _, c := range commands.All.Commands() {
		if h := kernel.HelpBundle(c)["text/html"].(string); strings.Contains(h, "`") {
			t.Errorf("help %s: the HTML holds a backtick: %.200s", c.Name, h[strings.Index(h, "`"):])
		}
	}
	h := kernel.IndexBundle(commands.All)["text/html"].(string)
	if strings.Contains(h, "`") || strings.Count(h, `<td style="text-align:left">`) != 2*len(commands.All.Commands()) {
		t.Errorf("help index HTML: backticks or cells not aligned left:\n%s", h)
	}
	if got := kernel.InlineHTML("a `b<c>` and `d` and `e"); got != "a <code>b&lt;c&gt;</code> and <code>d</code> and `e" {
		t.Errorf("inlineHTML = %q", got)
	}
}
