package store_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/store"
)

// serve starts a store whose every answer comes from h, and returns a
// query URL on it of the given kind.
func serve(t *testing.T, kind string, h http.HandlerFunc) store.Source {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	src, err := store.ParseURL(kind + "://" + strings.TrimPrefix(srv.URL, "http://") + "/" + types[kind] + `{service_name="phased"}`)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestStoreFailures: a store that is down, slow, not a store of the kind,
// answers an error or more than the limit; each gives an error that says
// what happened and what to do.
func TestStoreFailures(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close()
	slow := func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // the server notices the client leave once the body is read
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	html := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html>grafana</html>"))
	}
	internal := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"code":"internal","message":"rpc error: ingester unavailable"}`))
	}
	big := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/proto")
		w.Write(make([]byte, 5000))
	}
	endless := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/proto")
		chunk := make([]byte, 64<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	grpcTrailer := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/grpc-web+proto")
		trailer := "grpc-status: 14\r\ngrpc-message: no%20ingesters\r\n"
		w.Write(append([]byte{0x80, 0, 0, 0, byte(len(trailer))}, trailer...))
	}
	tests := []struct {
		name string
		kind string
		h    http.HandlerFunc // nil: nothing listens
		o    store.Options
		want string
	}{
		{"down", store.Pyroscope, nil, store.Options{}, "SelectMergeProfile: nothing answers at " + down + " (connection refused): is the store running?"},
		{"slow", store.Pyroscope, slow, store.Options{}, "SelectMergeProfile: no answer within 100ms (set timeout= to wait longer)"},
		{"not pyroscope", store.Pyroscope, html, store.Options{}, `the store answered "text/html", expected application/proto: is `},
		{"not parca", store.Parca, html, store.Options{}, `the store answered "text/html", expected application/grpc-web: is `},
		{"error", store.Pyroscope, internal, store.Options{}, "the store answered 500 Internal Server Error (internal): rpc error: ingester unavailable"},
		{"too big", store.Pyroscope, big, store.Options{Limit: 4096}, "the answer is longer than the 4096 bytes still allowed (set limit= to raise it)"},
		{"endless", store.Pyroscope, endless, store.Options{Limit: 1 << 20}, "the answer is longer than the 1048576 bytes still allowed (set limit= to raise it)"},
		{"endless parca", store.Parca, endless, store.Options{Limit: 1 << 20}, "the answer is longer than"},
		{"grpc error", store.Parca, grpcTrailer, store.Options{}, "Query: the store answered gRPC status 14 (unavailable): no ingesters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var src store.Source
			if tt.h == nil {
				src, _ = store.ParseURL(tt.kind + "://" + down + "/" + types[tt.kind])
			} else {
				src = serve(t, tt.kind, tt.h)
			}
			r := store.Range{From: base, To: base.Add(time.Minute)}
			timeout := 30 * time.Second // the answers come at once, however loaded the machine
			if tt.name == "slow" {
				timeout = 100 * time.Millisecond
			}
			_, err := store.Fetch(context.Background(), store.Open(src, timeout), src, r, tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), src.Store()+": ") {
				t.Errorf("err = %v, want %s: … %s", err, src.Store(), tt.want)
			}
		})
	}
}

// TestFetchRanges: bad ranges and too many steps are refused before any
// request.
func TestFetchRanges(t *testing.T) {
	src := serve(t, store.Pyroscope, func(w http.ResponseWriter, r *http.Request) { t.Error("a request was sent") })
	for _, tt := range []struct {
		r    store.Range
		o    store.Options
		want string
	}{
		{store.Range{From: base, To: base}, store.Options{}, "the range ends (to=2024-05-14T14:00:00Z) before it starts (from=2024-05-14T14:00:00Z)"},
		{store.Range{From: base, To: base.Add(time.Hour), Step: time.Millisecond}, store.Options{}, "step=1ms is shorter than the stores' resolution"},
		{store.Range{From: base, To: base.Add(time.Hour), Step: time.Second}, store.Options{}, "into 3600 steps, more than max-steps=1000"},
		{store.Range{From: base, To: base.Add(time.Hour), Step: time.Minute}, store.Options{MaxSteps: 10}, "into 60 steps, more than max-steps=10"},
	} {
		_, err := store.Fetch(context.Background(), store.Open(src, 0), src, tt.r, tt.o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Fetch(%v) = %v, want %q", tt.r, err, tt.want)
		}
	}
}

// TestPartialLimit: the byte limit counts over all steps; the step that
// passes it stops the series, and the steps before are kept.
func TestPartialLimit(t *testing.T) {
	src, _ := replay(t, store.Pyroscope)
	r := store.Range{From: base, To: base.Add(time.Minute), Step: 10 * time.Second}
	var sizes []int64
	_, err := store.Fetch(context.Background(), store.Open(src, 0), src, r, store.Options{Progress: func(_, _ int, n int64) { sizes = append(sizes, n) }})
	if err != nil || len(sizes) != 6 {
		t.Fatalf("Fetch: %v after %d steps", err, len(sizes))
	}
	p, err := store.Fetch(context.Background(), store.Open(src, 0), src, r, store.Options{Limit: sizes[3] - 1})
	var partial *store.PartialError
	if !errors.As(err, &partial) || partial.Kept != 3 || !strings.Contains(err.Error(), "set limit= to raise it") || len(p.Intervals) != 4 {
		t.Errorf("Fetch within %d bytes: %v, want a partial series of 3 steps stopped by the limit", sizes[3]-1, err)
	}
}
