package commands

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
)

// TestLoadLimits: the max- options reach the loader; a profile past one is
// refused with an error naming the option, and the session keeps what it
// had; a bad count is a usage error.
func TestLoadLimits(t *testing.T) {
	fib, err := filepath.Abs("../../analysis/pprof/testdata/pprof-oracle/fib.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(t.TempDir(), testTable())
	for opt, want := range map[string]string{
		"max-frames=3": "set max-frames= to raise", "max-samples=2": "set max-samples= to raise",
		"max-depth=2": "set max-depth= to raise", "max-stack-frames=5": "set max-stack-frames= to raise",
	} {
		if _, err := RunForTest(t, s, "load "+fib+" "+opt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("load fib %s: error %v, want %q", opt, err, want)
		}
	}
	if _, err := RunForTest(t, s, "load "+fib+" max-samples=NaN"); err == nil || !strings.Contains(err.Error(), "not a count") {
		t.Errorf("load max-samples=NaN: error %v, want a usage error", err)
	}
	if len(s.Names()) != 0 {
		t.Errorf("session after refused loads: %v, want empty", s.Names())
	}
	if _, err := RunForTest(t, s, "load "+fib+" max-frames=1k max-samples=1e6"); err != nil || len(s.Names()) != 1 {
		t.Errorf("load within limits: %v, profiles %v", err, s.Names())
	}
}

// TestLoadDemoLimits: a demo is loaded within the same options as a file:
// limit= and the max- options refuse it; a limit below one byte is an
// error, not the default.
func TestLoadDemoLimits(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	for _, c := range []struct{ cmd, want string }{
		{"load demo:phasedemo limit=1KiB", "larger than the limit of 1024 bytes"},
		{"load demo:phasedemo max-samples=10", "set max-samples= to raise"},
		{"load demo:profvis-toy max-frames=2", "set max-frames= to raise"},
		{"load demo:profvis-toy limit=0.9", "limit=0.9: less than one byte"},
	} {
		if _, err := RunForTest(t, s, c.cmd); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.cmd, err, c.want)
		}
	}
	if len(s.Names()) != 0 {
		t.Errorf("session after refused loads: %v, want empty", s.Names())
	}
}

// TestLoadFIFOInterrupt: an interrupt ends a load of a named pipe that
// nobody writes to, as it ends any command, and the session is as before.
func TestLoadFIFOInterrupt(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	in := kernel.New(dir, testTable())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Execute(ctx, "load pipe", &kernel.Recorder{}) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if je := (*jupyter.Error)(nil); !errors.As(err, &je) || je.Name != "KeyboardInterrupt" {
			t.Errorf("interrupted load gave %s: %s", je.Name, je.Value)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("load of a pipe without writer was not interrupted")
	}
	if names := in.Session().Names(); len(names) != 0 {
		t.Errorf("profiles after the interrupted load: %v", names)
	}
}
