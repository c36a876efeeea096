package commands

import (
	"testing"

	"github.com/proflens/proflens/compaction"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// lang is the language the tests run: All, and the commands a test adds.
var lang = &kerneltest.Language{Base: All}

// RunForTest runs one cell in session s (a fresh one when nil) with a
// one-minute deadline (kerneltest.Language.Run).
func RunForTest(t testing.TB, s *kernel.Session, code string) (*kernel.Recorder, error) {
	t.Helper()
	return lang.Run(t, s, code)
}

// mustRun runs code in s and returns its record, failing the test on an
// error.
func mustRun(t testing.TB, s *kernel.Session, code string) *kernel.Recorder {
	t.Helper()
	rec, err := RunForTest(t, s, code)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	return rec
}

// withCommand adds c to the language for the test.
func withCommand(t *testing.T, c *kernel.Command) { lang.Add(t, c) }

// testTable returns the language with the test's own commands.
func testTable() *kernel.CommandTable { return lang.Table() }

// viewOf returns l's compacted view, failing the test on an error.
func viewOf(t testing.TB, l *kernel.Loaded) *compaction.View {
	t.Helper()
	v, err := l.CompactedView(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return v
}
