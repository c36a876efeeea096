package kernel

import (
	"context"
	"testing"
	"time"
)

// RunForTest runs one cell in session s (a fresh one when nil) with a
// one-minute deadline and returns what it produced and its error (a
// *jupyter.Error or nil). Tests in package kernel (and kernel_test) use it
// to check commands.
func RunForTest(t testing.TB, s *Session, code string) (*Recorder, error) {
	t.Helper()
	if s == nil {
		s = NewSession(t.TempDir())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return RunCell(ctx, s, code)
}
