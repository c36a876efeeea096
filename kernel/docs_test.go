package kernel

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/internal/golden"
)

// TestExamples runs every command's examples, in registry order, each
// command's in one fresh session, so that the documentation cannot rot.
func TestExamples(t *testing.T) {
	for _, c := range Commands() {
		t.Run(c.Name, func(t *testing.T) {
			if strings.TrimSpace(c.Summary) == "" || strings.Contains(c.Summary, "\n") {
				t.Errorf("command %s: Summary must be one non-empty line, got %q", c.Name, c.Summary)
			}
			if len(c.Examples) == 0 {
				t.Errorf("command %s has no Examples: add at least one runnable line", c.Name)
			}
			s := NewSession(t.TempDir())
			calls := false
			for i, ex := range c.Examples {
				st, err := Parse(ex)
				calls = calls || err == nil && len(st) > 0 && commandOf(st[0].Words[0]) == c
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
	for _, c := range Commands() {
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
		for _, o := range c.Options {
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

// TestHelpGolden pins the three renderings of help echo.
func TestHelpGolden(t *testing.T) {
	b := HelpBundle(Lookup("echo"))
	for _, f := range []struct{ mime, file string }{
		{"text/plain", "help_echo.txt"}, {"text/markdown", "help_echo.md"}, {"text/html", "help_echo.html"},
	} {
		golden.Check(t, filepath.Join("testdata", f.file), []byte(b[f.mime].(string)))
	}
}
