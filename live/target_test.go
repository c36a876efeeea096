package live

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestTargetURLs: what attach accepts as a target's address (scheme and
// host:port of an http URL, the scheme http when left out) and which
// addresses name this machine.
func TestTargetURLs(t *testing.T) {
	base := map[string]string{
		"localhost:6060":                       "http://localhost:6060",
		"http://127.0.0.1:6060/debug/pprof/":   "http://127.0.0.1:6060",
		"https://example.com:8443/x?seconds=1": "https://example.com:8443",
		"http://[::1]:6060":                    "http://[::1]:6060",
		"ftp://example.com":                    "",
		"http://":                              "",
		"http://a b":                           "",
		"file:///tmp/x":                        "",
	}
	for raw, want := range base {
		got, err := baseURL(raw)
		switch {
		case want == "" && (err == nil || !strings.Contains(err.Error(), "is not an http URL")):
			t.Errorf("baseURL(%q) = %q, %v; want an error", raw, got, err)
		case want != "" && (err != nil || got != want):
			t.Errorf("baseURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	local := map[string]bool{
		"http://localhost:6060":   true,
		"http://127.0.0.1:6060":   true,
		"http://127.9.8.7:6060":   true,
		"http://[::1]:6060":       true,
		"http://10.0.0.1:6060":    false,
		"http://example.com:6060": false,
		"http://[::2]:6060":       false,
		"http://%zz":              false,
	}
	for base, want := range local {
		if got := loopback(base); got != want {
			t.Errorf("loopback(%q) = %v, want %v", base, got, want)
		}
	}
}

// TestRedirectLimit: redirects on the target's host are followed until ten
// requests have been made; a change of scheme is another host.
func TestRedirectLimit(t *testing.T) {
	req := func(u string) *http.Request {
		r, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var via []*http.Request
	for range 9 {
		via = append(via, req("http://127.0.0.1:6060/debug/pprof/"))
	}
	if err := sameHost(req("http://127.0.0.1:6060/moved/"), via); err != nil {
		t.Errorf("a redirect on the same host after nine requests: %v", err)
	}
	via = append(via, req("http://127.0.0.1:6060/moved/"))
	if err := sameHost(req("http://127.0.0.1:6060/again/"), via); err == nil || err.Error() != "stopped after 10 redirects" {
		t.Errorf("a redirect after ten requests: %v", err)
	}
	if err := sameHost(req("https://127.0.0.1:6060/debug/pprof/"), via[:1]); err == nil || !strings.Contains(err.Error(), "redirected to another host (https://127.0.0.1:6060)") {
		t.Errorf("a redirect to https on the same host and port: %v", err)
	}
}

// TestStatusFaults: what each error status means for the collection, how
// long a refusal asks to wait (at least 1 s), and how an answer is
// described: the first line of a short plain-text error (200 bytes at
// most), never the body of anything else.
func TestStatusFaults(t *testing.T) {
	answer := func(status int, contentType, retryAfter, body string) (*http.Response, []byte) {
		rec := httptest.NewRecorder()
		if contentType != "" {
			rec.Header().Set("Content-Type", contentType)
		}
		if retryAfter != "" {
			rec.Header().Set("Retry-After", retryAfter)
		}
		rec.WriteHeader(status)
		rec.WriteString(body)
		return rec.Result(), []byte(body)
	}
	tests := []struct {
		status     int
		retryAfter string
		kind       FaultKind
		waits      time.Duration
	}{
		{http.StatusTooManyRequests, "7", FaultRefused, 7 * time.Second},
		{http.StatusTooManyRequests, "", FaultRefused, time.Second},
		{http.StatusTooManyRequests, "0", FaultRefused, time.Second},
		{http.StatusForbidden, "", FaultNever, 0},
		{http.StatusNotFound, "", FaultNotPprof, 0},
		{http.StatusBadRequest, "", FaultNotPprof, 0},
		{http.StatusInternalServerError, "", FaultServer, 0},
		{http.StatusServiceUnavailable, "3", FaultServer, 0},
	}
	for _, tc := range tests {
		resp, body := answer(tc.status, "text/plain", tc.retryAfter, "no\nmore")
		f := statusFault("/debug/pprof/heap", resp, body)
		want := fmt.Sprintf("/debug/pprof/heap answered %s (text/plain, 7 bytes): \"no\"", resp.Status)
		if f.Kind != tc.kind || f.RetryAfter != tc.waits || f.Status != tc.status || f.Msg != want {
			t.Errorf("%d with Retry-After %q: %+v, want kind %d, a wait of %v, %q", tc.status, tc.retryAfter, f, tc.kind, tc.waits, want)
		}
	}
	for n, quoted := range map[int]bool{200: true, 201: false} {
		resp, body := answer(http.StatusInternalServerError, "text/plain; charset=utf-8", "", strings.Repeat("x", n))
		if got := describe(resp, body); strings.Contains(got, `: "x`) != quoted {
			t.Errorf("a plain-text error of %d bytes: %q, quoted %v", n, got, !quoted)
		}
	}
	for _, a := range []struct {
		status int
		ctype  string
	}{{http.StatusOK, "text/plain"}, {http.StatusInternalServerError, "text/html"}, {http.StatusInternalServerError, ""}} {
		resp, body := answer(a.status, a.ctype, "", "secret")
		if got := describe(resp, body); strings.Contains(got, "secret") {
			t.Errorf("%d %q: %q shows the body", a.status, a.ctype, got)
		}
	}
}
