package kernel

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel/jupyter"
)

// RunForTest runs one cell in session s (a fresh one when nil) with a
// one-minute deadline and returns what it produced and its error (a
// *jupyter.Error or nil). Tests in package kernel (and kernel_test) use it
// to check commands.
func RunForTest(t testing.TB, s *Session, code string) (*Recorder, error) {
	t.Helper()
	if s == nil {
		s = NewSession(t.TempDir(), testTable())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return RunCell(ctx, s, code)
}

// testCommands are the commands a test adds to the language (withCommand).
var testCommands []*Command

// testTable returns the language with the test's own commands.
func testTable() *CommandTable { return All.With(testCommands...) }

// svgOf returns the SVG of a picture bundle in any pictures mode: its
// image/svg+xml, else the SVG its text/html's <img> carries as a data URL.
func svgOf(b jupyter.Bundle) (string, bool) {
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

// viewOf returns l's compacted view, failing the test on an error.
func viewOf(t testing.TB, l *Loaded) *compaction.View {
	t.Helper()
	v, err := l.CompactedView(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return v
}
