package agent

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/pprof"
	"runtime"
	rpprof "runtime/pprof"
	"runtime/trace"
	"strconv"
	"time"
)

// Priors: what a collection is predicted to cost before the agent has
// measured one of its kind (seconds).
const (
	priorSnapshot     = 0.002 // a heap, mutex or block snapshot
	priorPerGoroutine = 5e-6  // a goroutine snapshot, per goroutine (about 3 µs measured)
	priorEncode       = 0.005 // encoding a CPU profile at the end of a window
	priorTraceRate    = 1.0   // a trace window, per second: one core's worth
	maxTraceBytes     = 64 << 20
)

// serveSnapshot serves a named profile (goroutine, heap, allocs, mutex,
// block, threadcreate, or one the program registered) with net/http/pprof's
// own handler, run on a thread of its own so that its CPU time can be read.
func (a *Agent) serveSnapshot(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if rpprof.Lookup(name) == nil {
		http.Error(w, "Unknown profile", http.StatusNotFound)
		return
	}
	key, per := name, 1.0
	if r.FormValue("seconds") != "" {
		key += "?seconds" // a delta: two snapshots
	}
	if name == "goroutine" {
		per = float64(max(goroutines(), 1)) // predicted per goroutine
	}
	predicted := 2 * per * a.lastOr(key, priorOf(name))
	if !a.reserve(w, name, predicted) {
		return
	}
	gc := name == "heap" && r.FormValue("gc") != "" && r.FormValue("gc") != "0"
	var b buffered
	cost := onThread(gc, func() { pprof.Handler(name).ServeHTTP(&b, r) })
	a.settle(key, predicted, cost, cost/per)
	b.send(w, cost)
}

// priorOf is the prior cost of a snapshot (per goroutine for goroutine).
func priorOf(name string) float64 {
	if name == "goroutine" {
		return priorPerGoroutine
	}
	return priorSnapshot
}

// onThread runs f locked to its thread and returns the thread's CPU time
// plus the stop-the-world pauses meanwhile (GC pauses too when gc).
func onThread(gc bool, f func()) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, c0 := pauses(gc), threadCPU()
	f()
	return (threadCPU() - c0).Seconds() + pauses(gc) - p0
}

// serveCPU serves /debug/pprof/profile?seconds=N as net/http/pprof does
// (N an integer, 30 when missing or not positive), paid for at its bound:
// 100 samples per second on every CPU.
func (a *Agent) serveCPU(w http.ResponseWriter, r *http.Request) {
	sec, err := strconv.ParseInt(r.FormValue("seconds"), 10, 64)
	if err != nil || sec <= 0 {
		sec = 30
	}
	bound := float64(sec) * Hz * float64(runtime.NumCPU())
	predicted := bound*PerSample.Seconds() + 2*a.lastOr("profile", priorEncode)
	if !a.reserve(w, "CPU profile", predicted) {
		return
	}
	var b buffered
	cpu0, p0 := processCPU(), pauses(false)
	if err := rpprof.StartCPUProfile(&b.body); err != nil {
		a.settle("", predicted, 0, 0)
		http.Error(w, "Could not enable CPU profiling: "+err.Error(), http.StatusInternalServerError)
		return
	}
	wait(r.Context(), time.Duration(sec)*time.Second, nil)
	samples := math.Min(bound, Hz*(processCPU()-cpu0).Seconds())
	t := time.Now()
	rpprof.StopCPUProfile()
	encode := a.paced("profile", time.Since(t).Seconds(), float64(b.body.Len()))
	cost := samples*PerSample.Seconds() + encode + pauses(false) - p0
	a.settle("profile", predicted, cost, encode)
	b.profile("profile")
	b.send(w, cost)
}

// serveTrace serves /debug/pprof/trace?seconds=F as net/http/pprof does (F
// a number, 1 when missing or not positive); a trace stops early at
// maxTraceBytes.
func (a *Agent) serveTrace(w http.ResponseWriter, r *http.Request) {
	sec, err := strconv.ParseFloat(r.FormValue("seconds"), 64)
	if err != nil || !(sec > 0) || math.IsInf(sec, 0) {
		sec = 1
	}
	predicted := 2 * sec * a.lastOr("trace", priorTraceRate/PerTraceByte.Seconds()) * PerTraceByte.Seconds()
	if !a.reserve(w, "trace", predicted) {
		return
	}
	lw := &limitWriter{max: maxTraceBytes, full: make(chan struct{})}
	p0, t0 := pauses(false), time.Now()
	if err := trace.Start(lw); err != nil {
		a.settle("", predicted, 0, 0)
		http.Error(w, "Could not enable tracing: "+err.Error(), http.StatusInternalServerError)
		return
	}
	wait(r.Context(), time.Duration(sec*float64(time.Second)), lw.full)
	t := time.Now()
	trace.Stop()
	n := float64(lw.b.body.Len())
	stop := a.paced("trace", time.Since(t).Seconds(), n)
	cost := n*PerTraceByte.Seconds() + stop + pauses(false) - p0
	a.settle("trace", predicted, cost, n/max(time.Since(t0).Seconds(), 1e-3))
	lw.b.profile("trace")
	lw.b.send(w, cost)
}

// wait returns after d, or when ctx ends or full is closed.
func wait(ctx context.Context, d time.Duration, full <-chan struct{}) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-full:
	}
}

// paced charges t seconds of wall time spent on units of work (bytes
// encoded) at the best pace seen under key: wall time on a busy machine is
// mostly waiting for a CPU, and it is never less than the CPU time within
// it, so the best pace bounds the work as long as the work per unit stays
// the same.
func (a *Agent) paced(key string, t, units float64) float64 {
	if units <= 0 {
		return t
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.pace[key]; !ok || t/units < r {
		a.pace[key] = t / units
	}
	return a.pace[key] * units
}

// lastOr returns the last measurement under key, or prior.
func (a *Agent) lastOr(key string, prior float64) float64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if v, ok := a.last[key]; ok {
		return v
	}
	return prior
}

// reserve pays predicted out of the account, or refuses the request: 429
// with Retry-After when the credit will do later, 403 when it never will.
func (a *Agent) reserve(w http.ResponseWriter, what string, predicted float64) bool {
	a.mu.Lock()
	ok, after, ever := a.acct.reserve(time.Now(), predicted)
	a.mu.Unlock()
	if ok {
		return true
	}
	cost := time.Duration(predicted * float64(time.Second)).Round(time.Microsecond)
	if !ever {
		http.Error(w, fmt.Sprintf("proflens agent: a %s would cost about %v of the program's time, more than a budget of %g%% allows in %v",
			what, cost, 100*a.budget, burst), http.StatusForbidden)
		return false
	}
	secs := int(math.Ceil(after.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	http.Error(w, fmt.Sprintf("proflens agent: a %s would cost about %v of the program's time; a budget of %g%% allows it in %v",
		what, cost, 100*a.budget, after.Round(time.Millisecond)), http.StatusTooManyRequests)
	return false
}

// settle books a collection's measured cost, and remembers measure under
// key for the next prediction ("" remembers nothing).
func (a *Agent) settle(key string, predicted, cost, measure float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.acct.settle(predicted, cost)
	if key != "" {
		a.last[key] = measure
	}
}

// buffered is a ResponseWriter that keeps the answer, so that its cost is
// known before the first byte is sent.
type buffered struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (b *buffered) Header() http.Header {
	if b.h == nil {
		b.h = http.Header{}
	}
	return b.h
}

func (b *buffered) WriteHeader(code int) {
	if b.code == 0 {
		b.code = code
	}
}

func (b *buffered) Write(p []byte) (int, error) { return b.body.Write(p) }

// profile sets the headers net/http/pprof sends with a binary profile.
func (b *buffered) profile(name string) {
	b.Header().Set("Content-Type", "application/octet-stream")
	b.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
}

// send writes the kept answer with its cost.
func (b *buffered) send(w http.ResponseWriter, cost float64) {
	for k, v := range b.h {
		w.Header()[k] = v
	}
	w.Header().Set(CostHeader, strconv.FormatFloat(cost, 'g', -1, 64))
	w.WriteHeader(max(b.code, http.StatusOK))
	w.Write(b.body.Bytes())
}

// limitWriter keeps a trace and closes full once it holds max bytes.
type limitWriter struct {
	b    buffered
	max  int
	full chan struct{}
}

func (l *limitWriter) Write(p []byte) (int, error) {
	n, err := l.b.body.Write(p)
	if l.b.body.Len() >= l.max && l.b.body.Len()-n < l.max {
		close(l.full)
	}
	return n, err
}
