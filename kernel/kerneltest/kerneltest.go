// Package kerneltest runs cells of the language for the tests of the engine
// (kernel) and of its commands (kernel/commands): a table of commands that a
// test may add its own to, and a runner with a deadline. Tests alone import
// it.
package kerneltest

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// Language is the language under test: the commands of Base, and those a
// test adds for its duration.
type Language struct {
	Base  *kernel.CommandTable
	extra []*kernel.Command
}

// Add adds c to the language until the test ends.
func (l *Language) Add(t testing.TB, c *kernel.Command) {
	t.Helper()
	l.extra = append(l.extra, c)
	t.Cleanup(func() { l.extra = slices.DeleteFunc(l.extra, func(x *kernel.Command) bool { return x == c }) })
}

// Table returns the language's commands, with the ones added.
func (l *Language) Table() *kernel.CommandTable { return l.Base.With(l.extra...) }

// Run runs one cell in session s (a fresh one of the language when nil)
// with a one-minute deadline and returns what it produced and its error (a
// *jupyter.Error or nil).
func (l *Language) Run(t testing.TB, s *kernel.Session, code string) (*kernel.Recorder, error) {
	t.Helper()
	if s == nil {
		s = kernel.NewSession(t.TempDir(), l.Table())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return kernel.RunCell(ctx, s, code)
}

// Plain is an Output that cannot update displays (as proflens run's): it
// passes everything else to R.
type Plain struct{ R *kernel.Recorder }

func (p Plain) Stream(name, text string)                   { p.R.Stream(name, text) }
func (p Plain) Display(d jupyter.Bundle, m map[string]any) { p.R.Display(d, m) }
func (p Plain) Result(d jupyter.Bundle, m map[string]any)  { p.R.Result(d, m) }
func (p Plain) Clear(wait bool)                            { p.R.Clear(wait) }
func (p Plain) Payload(x map[string]any)                   { p.R.Payload(x) }

// SVG returns the SVG of a picture bundle in any pictures mode: its
// image/svg+xml, else the SVG its text/html's <img> carries as a data URL.
func SVG(b jupyter.Bundle) (string, bool) {
	if s, ok := b["image/svg+xml"].(string); ok {
		return s, true
	}
	h, _ := b["text/html"].(string)
	_, rest, ok := strings.Cut(h, `src="data:image/svg+xml;base64,`)
	if !ok {
		return "", false
	}
	data, _, _ := strings.Cut(rest, `"`)
	svg, err := base64.StdEncoding.DecodeString(data)
	return string(svg), err == nil
}
