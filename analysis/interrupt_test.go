package analysis_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/folded"
	"github.com/proflens/proflens/analysis/gen"
)

// mkfifo makes a named pipe in a temporary directory, skipping the test
// where the system has none.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return path
}

// returns runs f and fails the test unless f returns within a generous
// bound: the test is of liveness, not of speed.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return 20 s after its context ended", what)
	}
}

// TestLoadFIFOWithoutWriter: a load of a named pipe that nobody writes to
// ends with the context, and leaves no reader behind (a writer then finds
// the pipe without reader).
func TestLoadFIFOWithoutWriter(t *testing.T) {
	path := mkfifo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var err error
	returns(t, "Load(fifo)", func() { _, err = analysis.Load(ctx, path, analysis.LoadOptions{}) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Load(fifo) error = %v, want the context's", err)
	}
	if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("open the pipe for writing after the load: %v, want ENXIO (no reader left)", err)
		if w != nil {
			w.Close()
		}
	}
}

// TestLoadFIFO: a named pipe loads what its writer writes, to the end,
// whether the writer comes before or after the load starts.
func TestLoadFIFO(t *testing.T) {
	path := mkfifo(t)
	data := bytes.Repeat([]byte("main;work 2\nmain;idle 1\n"), 20000) // more than a pipe holds
	written := make(chan error, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			_, err = w.Write(data)
			w.Close()
		}
		written <- err
	}()
	p, err := analysis.Load(context.Background(), path, analysis.LoadOptions{})
	if err != nil || p.Total(0) != 60000 || len(p.Samples) != 40000 {
		t.Fatalf("Load(fifo) = %v, %v; want 40000 samples totalling 60000", p, err)
	}
	if err := <-written; err != nil {
		t.Fatal(err)
	}
}

// TestParseInterrupted: parsing a large input ends soon after its context
// does, with the context's error and no profile.
func TestParseInterrupted(t *testing.T) {
	var b bytes.Buffer
	for i := range 3_000_000 {
		fmt.Fprintf(&b, "main;f%d;g%d 1\n", i%5000, i%7000)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	var p *analysis.Profile
	var err error
	returns(t, "Parse", func() { p, err = analysis.Parse(ctx, "big.folded", b.Bytes(), analysis.LoadOptions{}) })
	if p != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Parse = %v, %v; want no profile and context.Canceled", p, err)
	}
}

// TestLoadGeneratedInterrupted: the 1M-sample benchmark profile (pprof,
// gzipped, streamed) stops loading with its context.
func TestLoadGeneratedInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the 1M-sample profile")
	}
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	returns(t, "Load(generated)", func() { _, err = analysis.Load(ctx, path, analysis.LoadOptions{}) })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Load(generated) error = %v, want context.Canceled", err)
	}
}

// TestNewTreeContext: a call tree is not built for an ended context, and is
// built whole otherwise.
func TestNewTreeContext(t *testing.T) {
	p := gen.Profile(gen.Config{Samples: 20000, Stacks: 5000, Functions: 2000, MeanDepth: 20, Seed: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tr, err := analysis.NewTreeContext(ctx, p); tr != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("NewTreeContext(cancelled) = %v, %v; want nil and context.Canceled", tr, err)
	}
	tr, err := analysis.NewTreeContext(context.Background(), p)
	if err != nil || tr.Len() != analysis.NewTree(p).Len() {
		t.Errorf("NewTreeContext = %v, %v; want the tree NewTree builds", tr, err)
	}
}

// TestLoadDevice: a device is refused at once, whatever its size would be.
func TestLoadDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := analysis.Load(context.Background(), "/dev/zero", analysis.LoadOptions{Limit: 1 << 30})
	if want := "load /dev/zero: a device, not a profile: load reads regular files and named pipes"; err == nil || err.Error() != want {
		t.Errorf("Load(/dev/zero) = %v, want %s", err, want)
	}
}

// TestLoadEndlessPipe: a pipe that never ends is refused once it has given
// limit= bytes, having taken no more than that from the writer.
func TestLoadEndlessPipe(t *testing.T) {
	path := mkfifo(t)
	const limit = 8 << 20
	written := make(chan int64, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			written <- -1
			return
		}
		defer f.Close()
		chunk := bytes.Repeat([]byte("main;f 1\n"), 1<<12)
		var n int64
		for {
			k, err := f.Write(chunk)
			n += int64(k)
			if err != nil {
				written <- n
				return
			}
		}
	}()
	_, err := analysis.Load(context.Background(), path, analysis.LoadOptions{Limit: limit})
	if want := fmt.Sprintf("larger than the limit of %d bytes", limit); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Load(an endless pipe) = %v, want %s", err, want)
	}
	// The writer fails once the reader has closed; what it wrote beyond the
	// limit sits in the pipe's buffer (64 KiB on Linux, up to 1 MiB).
	if n := <-written; n > limit+(1<<20)+int64(len("main;f 1\n")<<12) {
		t.Errorf("the writer got %d bytes into a load limited to %d", n, limit)
	}
}
