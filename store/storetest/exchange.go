package storetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
)

// Exchange is one request to a store and the store's answer, recorded from
// a real server so that unit tests can pin the wire format without one.
type Exchange struct {
	Path        string `json:"path"`
	Request     []byte `json:"request"` // the body, byte for byte
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Grpc        string `json:"grpc,omitempty"`        // the Grpc-Status header, when the answer had one
	GrpcMessage string `json:"grpcMessage,omitempty"` // and its Grpc-Message
	Response    []byte `json:"response"`
}

// Recorder is a reverse proxy to a store that records every exchange.
type Recorder struct {
	mu        sync.Mutex
	Exchanges []Exchange
	proxy     *httputil.ReverseProxy
}

// NewRecorder returns a recorder in front of the store at addr (HOST:PORT).
func NewRecorder(addr string) *Recorder {
	return &Recorder{proxy: httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: addr})}
}

func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.Header.Del("Accept-Encoding") // record plain bodies, as a client that asks for no encoding gets them
	rec := httptest.NewRecorder()
	r.proxy.ServeHTTP(rec, req)
	resp := rec.Result()
	r.mu.Lock()
	r.Exchanges = append(r.Exchanges, Exchange{Path: req.URL.Path, Request: body, Status: resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"), Grpc: resp.Header.Get("Grpc-Status"),
		GrpcMessage: resp.Header.Get("Grpc-Message"), Response: rec.Body.Bytes()})
	r.mu.Unlock()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(rec.Body.Bytes())
}

// Save writes the exchanges recorded so far as JSON.
func (r *Recorder) Save(path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	data, err := json.MarshalIndent(r.Exchanges, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Replay is a fake store answering from recorded exchanges: a request
// whose path and body match one gets its answer; any other gets 404 and a
// message saying so, which fails the test that sent it.
type Replay []Exchange

// LoadReplay reads exchanges saved by Recorder.Save.
func LoadReplay(path string) (Replay, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Replay
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func (r Replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	for _, e := range r {
		if e.Path == req.URL.Path && bytes.Equal(e.Request, body) {
			w.Header().Set("Content-Type", e.ContentType)
			if e.Grpc != "" {
				w.Header().Set("Grpc-Status", e.Grpc)
				w.Header().Set("Grpc-Message", e.GrpcMessage)
			}
			w.WriteHeader(e.Status)
			w.Write(e.Response)
			return
		}
	}
	http.Error(w, fmt.Sprintf("no recorded exchange for %s with the request %x", req.URL.Path, body), http.StatusNotFound)
}
