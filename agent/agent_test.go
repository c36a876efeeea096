package agent

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

func start(t *testing.T, budget float64) *Agent {
	t.Helper()
	a, err := Start("127.0.0.1:0", budget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// get fetches path from the agent, waiting out refusals (429) as a client
// should, and returns the body and the cost the agent charged.
func get(t *testing.T, a *Agent, path string) ([]byte, float64) {
	t.Helper()
	for {
		r, err := http.Get("http://" + a.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode == http.StatusTooManyRequests {
			secs, _ := strconv.Atoi(r.Header.Get("Retry-After"))
			time.Sleep(time.Duration(secs) * time.Second)
			continue
		}
		if r.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s: %s", path, r.Status, body)
		}
		cost, err := strconv.ParseFloat(r.Header.Get(CostHeader), 64)
		if err != nil || cost < 0 {
			t.Fatalf("GET %s: %s header %q: want a cost in seconds", path, CostHeader, r.Header.Get(CostHeader))
		}
		return body, cost
	}
}

func status(t *testing.T, a *Agent) Status {
	t.Helper()
	r, err := http.Get("http://" + a.Addr() + StatusPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var s Status
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServesPprofEndpoints: the agent answers what net/http/pprof answers
// (go tool pprof's parser reads every profile), charges each answer, and
// its account is the sum of the charges.
func TestServesPprofEndpoints(t *testing.T) {
	a := start(t, 1)
	time.Sleep(100 * time.Millisecond) // credit for the first CPU window's bound
	var total float64
	for _, tt := range []struct{ path, sampleType string }{
		{"/debug/pprof/goroutine", "goroutine"},
		{"/debug/pprof/heap", "inuse_space"},
		{"/debug/pprof/allocs?seconds=1", "alloc_space"},
		{"/debug/pprof/mutex", "contentions"},
		{"/debug/pprof/block", "contentions"},
		{"/debug/pprof/profile?seconds=1", "cpu"},
	} {
		body, cost := get(t, a, tt.path)
		total += cost
		p, err := profile.Parse(bytes.NewReader(body))
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if !hasSampleType(p, tt.sampleType) {
			t.Errorf("%s: sample types %v, want %s", tt.path, p.SampleType, tt.sampleType)
		}
	}
	body, cost := get(t, a, "/debug/pprof/trace?seconds=0.2")
	total += cost
	if !bytes.HasPrefix(body, []byte("go 1.")) {
		t.Errorf("trace starts %q, want a Go execution trace", body[:min(16, len(body))])
	}
	r, err := http.Get("http://" + a.Addr() + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	index, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(index), "goroutine") {
		t.Errorf("index does not list goroutine:\n%s", index)
	}
	s := status(t, a)
	if s.Agent != "proflens" || s.Budget != 1 || s.NumCPU < 1 || s.Goroutines < 1 {
		t.Errorf("status = %+v", s)
	}
	if diff(s.Cost, total) > 1e-9*(1+total) {
		t.Errorf("status cost %g, want the sum of the charges %g", s.Cost, total)
	}
}

func hasSampleType(p *profile.Profile, typ string) bool {
	for _, st := range p.SampleType {
		if st.Type == typ {
			return true
		}
	}
	return false
}

// TestGoroutineCostGrows: a goroutine snapshot is charged for the walk of
// every stack: twenty thousand parked goroutines cost more than none.
func TestGoroutineCostGrows(t *testing.T) {
	a := start(t, 1)
	time.Sleep(10 * time.Millisecond)
	_, few := get(t, a, "/debug/pprof/goroutine")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 20000 {
		wg.Go(func() { <-stop })
	}
	defer func() { close(stop); wg.Wait() }()
	time.Sleep(time.Second) // credit for the larger prediction
	_, many := get(t, a, "/debug/pprof/goroutine")
	if !(many > few) {
		t.Errorf("goroutine snapshot cost %g s with 20000 goroutines, %g s with few: want more", many, few)
	}
}

// TestRefuses: a budget too small for a collection refuses it, with
// Retry-After when the credit will do later and 403 when it never will.
func TestRefuses(t *testing.T) {
	a := start(t, 1e-4) // 100 µs per second, 6 ms at most
	for _, tt := range []struct {
		path  string
		code  int
		retry bool
	}{
		{"/debug/pprof/heap", http.StatusTooManyRequests, true},
		{"/debug/pprof/profile?seconds=30", http.StatusForbidden, false},
	} {
		r, err := http.Get("http://" + a.Addr() + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != tt.code || (r.Header.Get("Retry-After") != "") != tt.retry || !strings.Contains(string(body), "budget of 0.01%") {
			t.Errorf("GET %s = %s, Retry-After %q, %q; want %d", tt.path, r.Status, r.Header.Get("Retry-After"), body, tt.code)
		}
	}
	if s := status(t, a); s.Refused != 2 || s.Cost != 0 {
		t.Errorf("status = %+v, want 2 refused and nothing spent", s)
	}
}

func TestStartChecksBudget(t *testing.T) {
	for _, b := range []float64{0, -0.1, 1.5} {
		if a, err := Start("127.0.0.1:0", b); err == nil {
			a.Close()
			t.Errorf("Start(budget %g) succeeded, want an error", b)
		}
	}
}

// TestCloseEndsWindows: Close ends a running CPU window at once.
func TestCloseEndsWindows(t *testing.T) {
	a, err := Start("127.0.0.1:0", 1)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if r, err := http.Get("http://" + a.Addr() + "/debug/pprof/profile?seconds=1"); err == nil {
			r.Body.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond)
	t0 := time.Now()
	a.Close()
	<-done
	if d := time.Since(t0); d > 500*time.Millisecond {
		t.Errorf("Close took %v with a CPU window running, want it ended at once", d)
	}
}

// TestCounters: the program's counters are served with their values at
// the time of asking, in the order registered, and charged; a name taken
// or unusable is an error.
func TestCounters(t *testing.T) {
	a := start(t, 1)
	var served, queue int64 = 41, 3
	if err := a.Count("requests", func() int64 { return served }); err != nil {
		t.Fatal(err)
	}
	if err := a.Gauge("queue", func() int64 { return queue }); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"requests", "", "a b", "x=1"} {
		if err := a.Count(bad, func() int64 { return 0 }); err == nil {
			t.Errorf("Count(%q) succeeded", bad)
		}
	}
	time.Sleep(10 * time.Millisecond) // credit for the first reading
	body, cost := get(t, a, CountersPath)
	var c Counters
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	want := []CounterValue{{"requests", false, 41}, {"queue", true, 3}}
	if len(c.Counters) != 2 || c.Counters[0] != want[0] || c.Counters[1] != want[1] || c.Uptime <= 0 {
		t.Errorf("counters = %+v, want %+v", c, want)
	}
	if s := status(t, a); diff(s.Cost, cost) > 1e-12 {
		t.Errorf("status cost %g, want the reading's %g", s.Cost, cost)
	}
}
