package live

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/proflens/proflens/agent"
	"github.com/proflens/proflens/internal/bounded"
)

// Target is a program serving its profiles over HTTP: a net/http/pprof
// server, or the proflens agent (Agent not nil).
type Target struct {
	URL   string        // scheme://host:port, without a path
	Agent *agent.Status // the agent's status when attached; nil for a plain server
	// CPUs bounds how many CPUs the target's threads can use at once, for
	// the bound of a CPU window's samples: the agent says; for a plain
	// server on this machine (loopback), this machine's; elsewhere, this
	// machine's too, an assumption the governor revises upwards when a
	// window shows more samples.
	CPUs int
	// Local says the target runs on this machine (a loopback address),
	// where proflens's own work on its windows competes with it: that work
	// is then charged to the budget too.
	Local  bool
	client *http.Client
}

// Kind says what the target is, in words.
func (t *Target) Kind() string {
	if t.Agent != nil {
		return "proflens agent"
	}
	return "net/http/pprof"
}

// maxBody is the largest profile read from a target; maxIndex the largest
// answer to a probe (the agent's status, net/http/pprof's index page).
const (
	maxBody  = 256 << 20
	maxIndex = 1 << 20
)

// probeTimeout is how long the probe waits for each answer.
const probeTimeout = 10 * time.Second

// Probe finds what serves at raw ("http://host:port", "host:port", with or
// without /debug/pprof/): the agent answers its status at
// agent.StatusPath; a net/http/pprof server its index at /debug/pprof/.
// Anything else is an error saying what answered.
func Probe(ctx context.Context, raw string) (*Target, error) {
	base, err := baseURL(raw)
	if err != nil {
		return nil, err
	}
	t := &Target{URL: base, CPUs: runtime.NumCPU(), Local: loopback(base), client: &http.Client{CheckRedirect: sameHost}}
	if st, err := t.agentStatus(ctx); err == nil {
		t.Agent, t.CPUs = st, max(st.NumCPU, 1)
		return t, nil
	}
	r := t.get(ctx, "/debug/pprof/", probeTimeout, maxIndex)
	if r.err != nil {
		return nil, fmt.Errorf("%s: %w", base, r.err)
	}
	if !strings.Contains(string(r.body), "/debug/pprof/") && !strings.Contains(string(r.body), "goroutine") {
		return nil, fmt.Errorf("%s is not a pprof server: /debug/pprof/ answered %s", base, r.what)
	}
	return t, nil
}

// sameHost follows a redirect only to the host the user named: a notebook
// that attaches to one address does not reach another through it.
func sameHost(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if from := via[0].URL; req.URL.Scheme != from.Scheme || req.URL.Host != from.Host {
		return fmt.Errorf("redirected to another host (%s://%s): attach follows redirects on %s only", req.URL.Scheme, req.URL.Host, from.Host)
	}
	return nil
}

// baseURL reduces raw to scheme://host:port.
func baseURL(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http URL: write http://HOST:PORT of a program serving net/http/pprof", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// loopback says whether base names this machine by a loopback address
// or localhost.
func loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	if h := u.Hostname(); h == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

func (t *Target) agentStatus(ctx context.Context) (*agent.Status, error) {
	r := t.get(ctx, agent.StatusPath, probeTimeout, maxIndex)
	if r.err != nil {
		return nil, r.err
	}
	var st agent.Status
	if err := json.Unmarshal(r.body, &st); err != nil || st.Agent != "proflens" {
		return nil, errors.New("not the agent")
	}
	return &st, nil
}

// answer is what one request got.
type answer struct {
	body    []byte
	what    string  // the answer in words for errors: its status, type and size
	cost    float64 // the agent's Proflens-Cost, -1 from a plain server
	latency time.Duration
	err     error // a *Fault, or the context's error
}

// get asks for path and reads the whole answer, at most limit bytes, within
// timeout. Every failure is a *Fault saying what happened, except the end
// of ctx.
func (t *Target) get(ctx context.Context, path string, timeout time.Duration, limit int64) answer {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t0 := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL+path, nil)
	if err != nil {
		return answer{err: &Fault{Kind: FaultNotPprof, Msg: err.Error()}}
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return answer{err: requestFault(ctx, path, timeout, err)}
	}
	defer resp.Body.Close()
	body, err := bounded.ReadAll(resp.Body, limit, resp.ContentLength)
	a := answer{body: body, what: describe(resp, body), cost: -1, latency: time.Since(t0)}
	var tl *bounded.TooLarge
	switch {
	case errors.As(err, &tl):
		a.err = &Fault{Kind: FaultNotPprof, Msg: fmt.Sprintf("%s answered more than %d KiB", path, limit>>10)}
	case err != nil:
		a.err = requestFault(ctx, path, timeout, err)
	case resp.StatusCode != http.StatusOK:
		a.err = statusFault(path, resp, body)
	default:
		a.cost = agentCost(resp.Header.Get(agent.CostHeader))
	}
	return a
}

// requestFault classifies a failed request: the caller's end, a timeout
// (slow), or a connection that failed or broke (down).
func requestFault(ctx context.Context, path string, timeout time.Duration, err error) error {
	var ne net.Error
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return context.Canceled
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return &Fault{Kind: FaultSlow, Msg: fmt.Sprintf("no whole answer to %s within %v", path, timeout)}
	}
	return &Fault{Kind: FaultDown, Msg: fmt.Sprintf("%s: %v", path, rootCause(err))}
}

// rootCause strips the URL wrapping of an http.Client error.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// statusFault turns a non-200 answer into a fault: 429 and 403 are the
// agent's refusals, 404 an endpoint the target does not serve, others a
// server error.
func statusFault(path string, resp *http.Response, body []byte) *Fault {
	f := &Fault{Kind: FaultServer, Status: resp.StatusCode, Msg: fmt.Sprintf("%s answered %s", path, describe(resp, body))}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		f.Kind = FaultRefused
		var secs int
		fmt.Sscan(resp.Header.Get("Retry-After"), &secs)
		f.RetryAfter = time.Duration(max(secs, 1)) * time.Second
	case http.StatusForbidden:
		f.Kind = FaultNever
	case http.StatusNotFound, http.StatusBadRequest:
		f.Kind = FaultNotPprof
	}
	return f
}

// describe says what an answer is without showing what a server other than
// a profiler may hold: its status, content type and size, and, for a short
// plain-text error (net/http/pprof's own, "Could not enable CPU profiling:
// ..."), its first line.
func describe(resp *http.Response, body []byte) string {
	s := fmt.Sprintf("%s (%s, %d bytes)", resp.Status, cmp.Or(resp.Header.Get("Content-Type"), "no content type"), len(body))
	if resp.StatusCode == http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || len(body) > 200 {
		return s
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
	return fmt.Sprintf("%s: %q", s, line)
}

func agentCost(h string) float64 {
	var c float64
	if _, err := fmt.Sscan(h, &c); err != nil || !(c >= 0) {
		return -1
	}
	return c
}
