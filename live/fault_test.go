package live

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime/trace"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// faulty is a proxy in front of a real target that breaks some answers:
// break_ sees each request with its number among those to the same path
// (from 1) and answers it itself when it returns true.
type faulty struct {
	mu     sync.Mutex
	seen   map[string]int
	break_ func(w http.ResponseWriter, path string, n int) bool
	proxy  *httputil.ReverseProxy
}

func newFaulty(t *testing.T, target string, break_ func(w http.ResponseWriter, path string, n int) bool) (*faulty, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	f := &faulty{seen: map[string]int{}, break_: break_, proxy: httputil.NewSingleHostReverseProxy(u)}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *faulty) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.seen[r.URL.Path]++
	n := f.seen[r.URL.Path]
	f.mu.Unlock()
	if !f.break_(w, r.URL.Path, n) {
		f.proxy.ServeHTTP(w, r)
	}
}

var fast = Plan{Budget: 0.1, Kinds: []Kind{CPU}, Window: time.Second, For: 6 * time.Second}

// TestServerError: a CPU window answered 500 (another CPU profile runs) is
// retried after 1 s, then 2 s; the windows after are collected.
func TestServerError(t *testing.T) {
	d := startDemo(t)
	_, url := newFaulty(t, d.URL, func(w http.ResponseWriter, path string, n int) bool {
		if path == "/debug/pprof/profile" && n <= 2 {
			http.Error(w, "Could not enable CPU profiling: cpu profiling already in use", http.StatusInternalServerError)
			return true
		}
		return false
	})
	p := fast
	p.For = 8 * time.Second
	rec := collect(t, context.Background(), url, p, nil)
	if !rec.noted(`cpu profiling already in use"; retrying in 1s`) || !rec.noted("retrying in 2s") || rec.count(CPU) < 1 || rec.final.Failed {
		t.Errorf("notes %q, %d windows: want two retries, then windows", rec.notes, rec.count(CPU))
	}
}

// TestSlow: an answer that does not come within the window plus the
// patience counts as slow, is dropped, and the kind retries.
func TestSlow(t *testing.T) {
	d := startDemo(t)
	_, url := newFaulty(t, d.URL, func(w http.ResponseWriter, path string, n int) bool {
		if path == "/debug/pprof/goroutine" && n == 1 {
			time.Sleep(6 * time.Second)
		}
		return false
	})
	p := fast
	p.Kinds, p.Patience, p.For = []Kind{Goroutine}, 2*time.Second, 10*time.Second // patience for a loaded machine
	rec := collect(t, context.Background(), url, p, nil)
	if !rec.noted("no whole answer to /debug/pprof/goroutine within 2s; retrying in 1s") || rec.count(Goroutine) < 1 {
		t.Errorf("notes %q, %d windows: want a slow answer, then windows", rec.notes, rec.count(Goroutine))
	}
}

// TestTargetDies: when the target dies in the middle of a window,
// collection stops with a message and the windows gathered are kept.
func TestTargetDies(t *testing.T) {
	d := startDemo(t)
	p := fast
	p.For = 20 * time.Second
	rec := collect(t, context.Background(), d.URL, p, func(w *Window) {
		if w.Seq == 0 {
			time.AfterFunc(300*time.Millisecond, func() { d.Kill() })
		}
	})
	s := rec.final
	if !s.Failed || !strings.HasPrefix(s.Stopped, "the target stopped answering: /debug/pprof/profile") || rec.count(CPU) < 1 || s.Windows != rec.count(CPU) {
		t.Errorf("status %+v with %d windows: want stopped, the target gone, the windows kept", s, len(rec.windows))
	}
	if s.Elapsed > 10*time.Second {
		t.Errorf("collection went on %v after the target died", s.Elapsed)
	}
}

// TestRedirects: attach follows a redirect on the host it was given, never
// to another host.
func TestRedirects(t *testing.T) {
	d := startDemo(t)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret /debug/pprof/") }))
	defer other.Close()
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer away.Close()
	if _, err := Probe(context.Background(), away.URL); err == nil || !strings.Contains(err.Error(), "redirected to another host") || strings.Contains(err.Error(), "secret") {
		t.Errorf("Probe(a redirect to another host) = %v, want a refusal", err)
	}
	var home *httptest.Server
	home = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/debug/pprof/" {
			http.Redirect(w, r, home.URL+"/moved/", http.StatusFound)
			return
		}
		resp, err := http.Get(d.URL + "/debug/pprof/")
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	}))
	defer home.Close()
	if _, err := Probe(context.Background(), home.URL); err != nil {
		t.Errorf("Probe(a redirect on the same host) = %v", err)
	}
}

// TestNotPprof: a server that is not a pprof server is refused by Probe;
// an answer that is not a profile stops its kind, and the others go on.
func TestNotPprof(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>hello</html>") }))
	defer srv.Close()
	_, err := Probe(context.Background(), srv.URL)
	if err == nil || !strings.Contains(err.Error(), "is not a pprof server: /debug/pprof/ answered 200 OK (text/html; charset=utf-8, 18 bytes)") || strings.Contains(err.Error(), "hello") {
		t.Errorf("Probe(a web page) = %v, want an error saying what answered, without its body", err)
	}
	d := startDemo(t)
	_, url := newFaulty(t, d.URL, func(w http.ResponseWriter, path string, n int) bool {
		if path == "/debug/pprof/goroutine" {
			io.WriteString(w, "all good")
			return true
		}
		return false
	})
	p := fast
	p.Kinds = []Kind{CPU, Goroutine}
	rec := collect(t, context.Background(), url, p, nil)
	if !rec.noted("goroutine: stopped: the answer to /debug/pprof/goroutine is not a profile") || rec.count(CPU) < 2 || rec.final.Failed {
		t.Errorf("notes %q, %d cpu windows: want goroutine stopped and cpu going on", rec.notes, rec.count(CPU))
	}
}

// TestClockJump: the target's clock jumps an hour forward between two CPU
// windows; the jump is noted and the windows stay in order on proflens's
// clock.
func TestClockJump(t *testing.T) {
	d := startDemo(t)
	u, _ := url.Parse(d.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	n := 0
	proxy.ModifyResponse = func(r *http.Response) error {
		mu.Lock()
		defer mu.Unlock()
		if r.Request.URL.Path != "/debug/pprof/profile" || r.StatusCode != http.StatusOK {
			return nil
		}
		if n++; n < 2 {
			return nil
		}
		p, err := profile.Parse(r.Body)
		if err != nil {
			return err
		}
		p.TimeNanos += int64(time.Hour)
		var b bytes.Buffer
		p.Write(&b)
		r.Body, r.ContentLength = io.NopCloser(&b), int64(b.Len())
		r.Header.Del("Content-Length")
		return nil
	}
	srv := httptest.NewServer(proxy)
	defer srv.Close()
	rec := collect(t, context.Background(), srv.URL, fast, nil)
	if !rec.noted("the target's clock jumped by 1h0m0s") || rec.count(CPU) < 3 {
		t.Errorf("notes %q, %d windows: want one clock jump noted", rec.notes, rec.count(CPU))
	}
	checkWindows(t, rec)
}

// TestAgentRefuses: the agent's own budget refuses what it cannot pay:
// a CPU window never (403: its kind stops), a goroutine snapshot not yet
// (429: it waits as asked, then gets it).
func TestAgentRefuses(t *testing.T) {
	d := startDemo(t, "-agent", "0.01%") // 100 µs a second, at most 6 ms
	p := fast
	p.Kinds, p.For = []Kind{CPU, Goroutine}, 8*time.Second
	rec := collect(t, context.Background(), d.URL, p, nil)
	if !rec.noted("cpu: stopped: /debug/pprof/profile?seconds=1 answered 403 Forbidden") ||
		!rec.noted("goroutine: the agent refused") || rec.count(Goroutine) < 1 {
		t.Errorf("notes %q, %d goroutine windows: want cpu stopped, goroutine refused then served", rec.notes, rec.count(Goroutine))
	}
}

// TestBrokenAnswer: an answer cut off by a connection the target closes
// while the target still serves its index, is a server's fault, not a
// target gone: the kind retries after 1 s and the run goes on.
func TestBrokenAnswer(t *testing.T) {
	d := startDemo(t)
	_, url := newFaulty(t, d.URL, func(w http.ResponseWriter, path string, n int) bool {
		if path != "/debug/pprof/goroutine" || n > 1 {
			return false
		}
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return false
		}
		c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nthe first bytes of 1000"))
		c.Close()
		return true
	})
	p := fast
	p.Kinds, p.For = []Kind{Goroutine}, 4*time.Second
	rec := collect(t, context.Background(), url, p, nil)
	if !rec.noted("goroutine: /debug/pprof/goroutine") || !rec.noted("retrying in 1s") || rec.count(Goroutine) < 1 || rec.final.Failed {
		t.Errorf("notes %q, %d windows, failed %v: want a retry, then windows", rec.notes, rec.count(Goroutine), rec.final.Failed)
	}
}

// TestIdleTrace: a trace window in which the target used no CPU (the
// execution trace holds no CPU samples) is an empty window that says so,
// not an answer that is not a profile.
func TestIdleTrace(t *testing.T) {
	var idle bytes.Buffer
	if err := trace.Start(&idle); err != nil {
		t.Skipf("cannot trace this test: %v", err)
	}
	time.Sleep(10 * time.Millisecond)
	trace.Stop()
	d := startDemo(t)
	_, url := newFaulty(t, d.URL, func(w http.ResponseWriter, path string, n int) bool {
		if path != "/debug/pprof/trace" {
			return false
		}
		w.Write(idle.Bytes())
		return true
	})
	p := fast
	p.Kinds, p.For = []Kind{CPU, Trace}, 8*time.Second
	rec := collect(t, context.Background(), url, p, nil)
	var traces int
	for _, w := range rec.windows {
		if w.Kind != Trace {
			continue
		}
		traces++
		if w.Profile == nil || len(w.Profile.Samples) != 0 || !slices.ContainsFunc(w.Profile.Comment, func(c string) bool { return strings.HasSuffix(c, "no CPU samples (the target used no CPU)") }) {
			t.Errorf("trace window %d: want an empty profile that says the target used no CPU, got %+v", w.Seq, w.Profile)
		}
	}
	if traces < 1 || rec.noted("trace: stopped") {
		t.Errorf("%d trace windows, notes %q: want idle trace windows, the kind going on", traces, rec.notes)
	}
}
