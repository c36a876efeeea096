package store

import (
	"context"
	"net/http"
	"time"
)

// Store answers the few questions proflens asks a profile store. Ranges
// are half-open, [from, to): a profile stamped exactly at the end of one
// step belongs to the next.
type Store interface {
	// Merge returns the merge of every profile q selects in [from, to),
	// in pprof's encoding (gzipped or not), or no bytes when none match.
	// An answer longer than max bytes is an error.
	Merge(ctx context.Context, q Query, from, to time.Time, max int64) ([]byte, error)
	// Types lists the profile types, as a query names them.
	Types(ctx context.Context, from, to time.Time) ([]string, error)
	// Labels lists the label names.
	Labels(ctx context.Context, from, to time.Time) ([]string, error)
	// Values lists the values of the label name.
	Values(ctx context.Context, name string, from, to time.Time) ([]string, error)
}

// Open returns a client of src's store. Each request waits at most
// timeout (DefaultTimeout when 0).
func Open(src Source, timeout time.Duration) Store {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := &conn{src: src, client: &http.Client{}, timeout: timeout}
	if src.Kind == Parca {
		return &parca{c}
	}
	return &pyroscope{c}
}

// listLimit bounds the answer to a listing (types, names, values).
const listLimit = 16 << 20
