package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/proflens/proflens/internal/bounded"
)

// DefaultTimeout is how long one request may take when Options set none.
const DefaultTimeout = 30 * time.Second

// conn sends requests to one store, each with its deadline, and reads
// their answers within a byte budget.
type conn struct {
	src     Source
	client  *http.Client
	timeout time.Duration
}

var errTimeout = errors.New("timeout")

// post sends body to the store's path and returns the response with its
// body, read whole unless it is longer than max bytes (an error). The
// request ends at the timeout or with ctx; errors say which, or that
// nothing answered, in words a user can act on.
func (c *conn) post(ctx context.Context, path string, header http.Header, body []byte, max int64) (*http.Response, []byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, c.timeout, errTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.src.base()+path, bytes.NewReader(body))
	if err != nil {
		return nil, nil, c.errorf(path, "%w", err)
	}
	req.Header = header
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, nil, c.reach(ctx, path, err)
	}
	defer resp.Body.Close()
	data, err := bounded.ReadAll(resp.Body, max, resp.ContentLength)
	var tl *bounded.TooLarge
	switch {
	case errors.As(err, &tl):
		return nil, nil, c.errorf(path, "the answer is longer than the %d bytes still allowed (set limit= to raise it)", max)
	case err != nil:
		return nil, nil, c.reach(ctx, path, err)
	}
	return resp, data, nil
}

// reach explains an error of sending or reading: the deadline, the
// caller's context, a store that is down, or the network's own words.
func (c *conn) reach(ctx context.Context, path string, err error) error {
	var dns *net.DNSError
	switch {
	case context.Cause(ctx) == errTimeout:
		return c.errorf(path, "no answer within %s (set timeout= to wait longer): %w", c.timeout, context.DeadlineExceeded)
	case ctx.Err() != nil:
		return c.errorf(path, "%w", context.Cause(ctx))
	case errors.Is(err, syscall.ECONNREFUSED):
		return c.errorf(path, "nothing answers at %s (connection refused): is the store running? %w", c.src.Host, syscall.ECONNREFUSED)
	case errors.As(err, &dns):
		return c.errorf(path, "unknown host %s: %w", dns.Name, err)
	}
	return c.errorf(path, "%w", err)
}

// errorf returns an error about a request: the store, the method, what
// went wrong.
func (c *conn) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", c.src.Store(), method(path), fmt.Errorf(format, args...))
}

// method is the last element of a request path (the RPC's name).
func method(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}
