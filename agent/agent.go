package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"sync"
	"time"
)

// StatusPath is where the agent answers its Status, which tells clients
// they talk to the agent rather than to a plain net/http/pprof server.
const StatusPath = "/debug/proflens/agent"

// CostHeader carries, on every profile the agent serves, what serving it
// cost the program: seconds of CPU and pause time, as a decimal number.
const CostHeader = "Proflens-Cost"

// Status is what the agent answers at StatusPath.
type Status struct {
	Agent      string  `json:"agent"`  // always "proflens"
	Budget     float64 `json:"budget"` // share of run time, 0.01 for 1%
	Uptime     float64 `json:"uptime_seconds"`
	Cost       float64 `json:"cost_seconds"`   // accounted since Start
	Credit     float64 `json:"credit_seconds"` // what the budget allows now
	Refused    int     `json:"refused"`        // requests refused for the budget
	GOMAXPROCS int     `json:"gomaxprocs"`
	NumCPU     int     `json:"ncpu"`
	Goroutines int     `json:"goroutines"`
}

// Agent serves the profiling endpoints within a budget. Create it with
// Start; Close stops it.
type Agent struct {
	budget float64
	start  time.Time
	ln     net.Listener
	srv    *http.Server
	served chan struct{}      // closed when the server's goroutine ends
	stop   context.CancelFunc // ends the running windows (Close)

	mu       sync.Mutex
	acct     *account
	last     map[string]float64 // per endpoint: the last measured cost, or cost per second of a window
	counters []counter          // the program's own counters, in the order registered
	pace     map[string]float64 // per endpoint: the best wall seconds per byte of its encoding (paced)
}

// Start listens on addr ("127.0.0.1:6060"; port 0 picks one) and serves
// the profiling endpoints within budget, a share of the program's run time
// (0.01 for 1%) greater than 0 and at most 1.
func Start(addr string, budget float64) (*Agent, error) {
	if !(budget > 0 && budget <= 1) {
		return nil, fmt.Errorf("agent budget %g: want a share of run time above 0 and at most 1 (0.01 for 1%%)", budget)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	a := &Agent{budget: budget, start: time.Now(), ln: ln, served: make(chan struct{}), last: map[string]float64{}, pace: map[string]float64{}}
	a.acct = newAccount(budget, a.start)
	ctx, stop := context.WithCancel(context.Background())
	a.stop = stop
	a.srv = &http.Server{Handler: a.mux(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() {
		defer close(a.served)
		a.srv.Serve(ln)
	}()
	return a, nil
}

// Addr returns the address the agent listens on.
func (a *Agent) Addr() string { return a.ln.Addr().String() }

// closeGrace is how long Close waits for answers being sent before it
// closes their connections.
const closeGrace = 5 * time.Second

// Close stops serving: running CPU and trace windows end at once, the
// answers being sent get closeGrace to finish, and Close returns once
// every handler and the server's goroutine have.
func (a *Agent) Close() error {
	a.stop()
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	err := a.srv.Shutdown(ctx)
	if err != nil {
		err = a.srv.Close()
	}
	<-a.served
	return err
}

// Status returns the agent's account and the process's shape.
func (a *Agent) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	a.acct.refill(now)
	return Status{Agent: "proflens", Budget: a.budget, Uptime: now.Sub(a.start).Seconds(), Cost: a.acct.spent,
		Credit: a.acct.credit, Refused: a.acct.refused, GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU: runtime.NumCPU(), Goroutines: goroutines()}
}

func (a *Agent) mux() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /debug/pprof/{$}", pprof.Index)
	m.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	m.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	m.HandleFunc("POST /debug/pprof/symbol", pprof.Symbol)
	m.HandleFunc("GET /debug/pprof/profile", a.serveCPU)
	m.HandleFunc("GET /debug/pprof/trace", a.serveTrace)
	m.HandleFunc("GET /debug/pprof/{name}", a.serveSnapshot) // goroutine, heap, allocs, mutex, block, threadcreate, the program's own
	m.HandleFunc("GET "+CountersPath, a.serveCounters)
	m.HandleFunc("GET "+StatusPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(a.Status())
	})
	return m
}
