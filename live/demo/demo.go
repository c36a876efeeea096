// Package demo is a program with known phases that serves its profiles:
// the target of attach demo:phases, of the live tests and of the overhead
// benchmark. It runs a schedule of phases, each in a different package of
// the standard library (encoding/json, slices, crypto/sha256,
// compress/flate) or idle, each for a given wall time, over and over; each
// phase runs under the pprof label phase=NAME and inside a runtime/trace
// region of that name, so the phases' truth comes with the profiles. It
// serves net/http/pprof, or the proflens agent with -agent BUDGET, which
// then also serves two counters of the demo's own: units (of work done)
// and working (1 while it works, 0 while it idles).
//
// With -work N it serves too, but does N units of work (the phases' work
// in turn, without idling) and then prints a JSON line with its CPU time and
// exits: the benchmark's fixed amount of work.
//
// With -plain it is a plain net/http/pprof program instead, as services
// are written (import _ "net/http/pprof", http.DefaultServeMux): workers
// that take jobs from a queue, share a map under a mutex and allocate (see
// plain.go). With -surge D:N, N more goroutines start at D and stay,
// parked: a scripted condition for triggers.
package demo

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	rpprof "runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/proflens/proflens/agent"
)

// DefaultSchedule is the phases the demo runs when not told.
const DefaultSchedule = "encode:3s,sort:3s,hash:3s,idle:2s,sort:3s,compress:3s"

// Main runs the demo with its command-line arguments. Its first line on
// stdout is "listening on http://ADDR (SERVER)". It returns when -for has
// passed, the work is done, or (with -parent) its standard input closes:
// the parent that started it is gone.
func Main(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to serve the profiles on")
	budget := fs.String("agent", "", "serve through the proflens agent with this budget (e.g. 1%); net/http/pprof when empty")
	schedule := fs.String("schedule", DefaultSchedule, "phases, NAME:DURATION, comma-separated, run over and over; NAME is "+strings.Join(phaseNames(), ", ")+" or idle")
	work := fs.Int("work", 0, "do this many units of work, print the CPU time and exit")
	dur := fs.Duration("for", 0, "exit after this long (0: never)")
	parent := fs.Bool("parent", false, "exit when standard input closes")
	plain := fs.Bool("plain", false, "be a plain net/http/pprof service (DefaultServeMux) with workers, a queue and a shared map")
	surge := fs.String("surge", "", "D:N: start N more goroutines at D, parked until exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *plain && (*budget != "" || *work > 0) {
		return fmt.Errorf("-plain serves net/http/pprof and runs its own work: no -agent, no -work")
	}
	steps, err := parseSchedule(*schedule)
	if err != nil {
		return err
	}
	serveIt := serve
	if *plain {
		serveIt = servePlain
	}
	stop, err := serveIt(*addr, *budget, stdout)
	if err != nil {
		return err
	}
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if *dur > 0 {
		ctx, cancel = context.WithTimeout(ctx, *dur)
		defer cancel()
	}
	if *parent {
		go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	}
	if *surge != "" {
		if err := startSurge(ctx, *surge); err != nil {
			return err
		}
	}
	switch {
	case *work > 0:
		return report(stdout, *work, steps)
	case *plain:
		runPlain(ctx)
	default:
		run(ctx, steps)
	}
	return nil
}

// startSurge starts n parked goroutines after d ("D:N"), which end with ctx.
func startSurge(ctx context.Context, spec string) error {
	ds, ns, _ := strings.Cut(spec, ":")
	d, err1 := time.ParseDuration(ds)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || d < 0 || n < 1 {
		return fmt.Errorf("-surge %s: want D:N, such as 10s:500", spec)
	}
	time.AfterFunc(d, func() {
		for range n {
			go func() { <-ctx.Done() }()
		}
	})
	return nil
}

// serve starts the profiling server and prints where it listens.
func serve(addr, budget string, stdout io.Writer) (stop func(), err error) {
	if budget != "" {
		b, err := strconv.ParseFloat(strings.TrimSuffix(budget, "%"), 64)
		if err != nil {
			return nil, fmt.Errorf("-agent %s: want a budget such as 1%%", budget)
		}
		if strings.HasSuffix(budget, "%") {
			b /= 100
		}
		a, err := agent.Start(addr, b)
		if err != nil {
			return nil, err
		}
		a.Count("units", unitsDone.Load)
		a.Gauge("working", working.Load)
		fmt.Fprintf(stdout, "listening on http://%s (proflens agent, budget %s)\n", a.Addr(), budget)
		return func() { a.Close() }, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	fmt.Fprintf(stdout, "listening on http://%s (net/http/pprof)\n", ln.Addr())
	return func() { srv.Close() }, nil
}

// step is one phase of the schedule.
type step struct {
	name string
	d    time.Duration
}

func parseSchedule(s string) ([]step, error) {
	var out []step
	for _, part := range strings.Split(s, ",") {
		name, dur, ok := strings.Cut(part, ":")
		d, err := time.ParseDuration(dur)
		if _, known := phases[name]; !ok || err != nil || d <= 0 || (!known && name != "idle") {
			return nil, fmt.Errorf("schedule %q: want NAME:DURATION with NAME one of %s or idle", part, strings.Join(phaseNames(), ", "))
		}
		out = append(out, step{name, d})
	}
	return out, nil
}

// run runs the schedule over and over until ctx ends.
func run(ctx context.Context, steps []step) {
	for ctx.Err() == nil {
		for _, s := range steps {
			phase(ctx, s.name, func(w *worker) {
				end := time.Now().Add(s.d)
				for time.Now().Before(end) && ctx.Err() == nil {
					w.do(s.name, end)
				}
			})
		}
	}
}

// phase runs f under the label and region of the phase name.
func phase(ctx context.Context, name string, f func(*worker)) {
	rpprof.Do(ctx, rpprof.Labels("phase", name), func(ctx context.Context) {
		trace.WithRegion(ctx, name, func() { f(theWorker) })
	})
}

// report does n units of work, the phases in turn, and prints its CPU time.
func report(stdout io.Writer, n int, steps []step) error {
	var work []string
	for _, s := range steps {
		if s.name != "idle" {
			work = append(work, s.name)
		}
	}
	if len(work) == 0 {
		return fmt.Errorf("-work: the schedule has no work, only idle")
	}
	c0, t0 := cpuTime(), time.Now()
	for i := range n {
		name := work[i%len(work)]
		phase(context.Background(), name, func(w *worker) { w.unit(name) })
	}
	return json.NewEncoder(stdout).Encode(map[string]any{"units": n, "cpu_seconds": (cpuTime() - c0).Seconds(),
		"wall_seconds": time.Since(t0).Seconds()})
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
