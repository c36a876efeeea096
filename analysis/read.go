package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/proflens/proflens/internal/bounded"
)

// readFile reads at most max bytes of the file at path, stopping when ctx
// ends; what it holds stays within max however much the file would give
// (bounded.ReadAll). Devices are refused: a profile is a regular file or
// what a named pipe carries. A named pipe is opened without waiting for a
// writer, so that a load of a pipe nobody writes to can be interrupted (see
// openPipe).
func readFile(ctx context.Context, path string, max int64) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice) != 0 {
		return nil, fmt.Errorf("%s: a device, not a profile: load reads regular files and named pipes", path)
	}
	f, first, err := open(ctx, path)
	if err != nil {
		if u := errors.Unwrap(err); u != nil && ctx.Err() == nil {
			err = u // the cause without "open PATH", which the message gives
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.SetReadDeadline(time.Now()) }) // pipes, devices
	defer stop()
	var size int64 // a pipe: unknown
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	data, err := bounded.ReadAll(io.MultiReader(bytes.NewReader(first), ctxReader{ctx, f}), max, size)
	var tl *bounded.TooLarge
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %w", path, ctx.Err())
	case errors.As(err, &tl):
		return nil, fmt.Errorf("%s: larger than the limit of %d bytes (set limit= to raise it)", path, max)
	case err != nil:
		return nil, fmt.Errorf("%s: read: %w", path, err)
	}
	return data, nil
}

// open opens path for reading; a named pipe goes through openPipe, which
// returns the bytes it has read already.
func open(ctx context.Context, path string) (f *os.File, first []byte, err error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		return openPipe(ctx, path)
	}
	f, err = os.Open(path)
	return f, nil, err
}

// openPipe opens a named pipe for reading once a writer has written to it,
// or fails when ctx ends first. Opening a pipe for reading blocks until a
// writer comes, out of reach of any context; opening it for reading and
// writing does not (on Linux), and makes reads wait for data instead, in the
// runtime's poller, where a deadline ends them. Once the first byte has
// come, the pipe is opened again for reading only, so that the writer's end
// is the end of the file, and the first handle is closed.
func openPipe(ctx context.Context, path string) (*os.File, []byte, error) {
	rw, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	defer rw.Close()
	stop := context.AfterFunc(ctx, func() { rw.SetReadDeadline(time.Now()) })
	defer stop()
	first := make([]byte, 1)
	if _, err := rw.Read(first); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, err
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	return r, first, err
}

// ctxReader is a reader that fails with its context's error once the
// context has ended, reading at most 4 MiB at a time so that it looks at
// the context often.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p[:min(len(p), 4<<20)])
}

// capReader is a reader that fails once more than n bytes have come.
type capReader struct {
	r io.Reader
	n int64
}

func (c *capReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n -= int64(n); c.n < 0 {
		return n, fmt.Errorf("more than the limit of decompressed bytes (set limit= to raise it)")
	}
	return n, err
}
