// Command fleet starts a local profile store (Pyroscope or Parca, built
// into .build/ by tests/stores/build.sh), writes to it the CPU profiles
// of a small synthetic fleet, and then either runs a command with the
// store's address in $PYROSCOPE or $PARCA, stopping the store when the
// command ends (make notebooks-stores runs notebooks/fleet.ipynb so), or
// serves until interrupted (make store-pyroscope, make store-parca).
//
// The fleet: the checkout service on two pods, one CPU profile per pod and
// minute on Tuesday 2024-05-14 from 14:00 to 15:00 UTC. At 14:35 a deploy
// makes every checkout compile its coupon rules' regular expressions
// again: regexp compilation and the garbage collector's work take over.
// The profiles are a deterministic function of the pod and the minute.
//
//	go run ./tests/stores/fleet -pyroscope .build/pyroscope/pyroscope [-addr 127.0.0.1:4040] [-- COMMAND ARGS...]
//	go run ./tests/stores/fleet -parca .build/parca/parca [-addr 127.0.0.1:7070] [-- COMMAND ARGS...]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/pprof"
	"github.com/proflens/proflens/store"
	"github.com/proflens/proflens/store/storetest"
)

// Start is when the fleet's hour begins; Deploy is when it changes.
var (
	Start  = time.Date(2024, 5, 14, 14, 0, 0, 0, time.UTC)
	Deploy = Start.Add(35 * time.Minute)
)

func main() {
	pyroscope := flag.String("pyroscope", "", "Pyroscope server binary")
	parca := flag.String("parca", "", "Parca server binary")
	addr := flag.String("addr", "", "HOST:PORT to serve on (127.0.0.1 and a free port when empty)")
	dir := flag.String("dir", "", "data directory (a temporary one when empty)")
	flag.Parse()
	if err := run(*pyroscope, *parca, *addr, *dir, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "fleet:", err)
		os.Exit(1)
	}
}

func run(pyroscope, parca, addr, dir string, command []string) error {
	if (pyroscope == "") == (parca == "") {
		return fmt.Errorf("name one store binary: -pyroscope BIN or -parca BIN")
	}
	port := 0
	if addr != "" {
		_, p, err := net.SplitHostPort(addr)
		if port, err = strconv.Atoi(p); err != nil {
			return fmt.Errorf("-addr %s: expected 127.0.0.1:PORT", addr)
		}
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "proflens-fleet-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	kind, env, bin, startStore := store.Pyroscope, "PYROSCOPE", pyroscope, storetest.StartPyroscope
	if parca != "" {
		kind, env, bin, startStore = store.Parca, "PARCA", parca, storetest.StartParca
	}
	srv, err := startStore(ctx, bin, dir, port)
	if err != nil {
		return err
	}
	defer srv.Stop()
	if err := write(ctx, kind+"://"+srv.Addr); err != nil {
		return err
	}
	if len(command) == 0 {
		fmt.Printf("%s holds the fleet's profiles at %s://%s (log: %s); Ctrl-C stops it\n", kind, kind, srv.Addr, srv.Log)
		<-ctx.Done()
		return nil
	}
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), env+"="+srv.Addr)
	return cmd.Run()
}

// write writes every pod's hour to the store at url.
func write(ctx context.Context, url string) error {
	src, err := store.ParseURL(url)
	if err != nil {
		return err
	}
	for _, pod := range []string{"checkout-1", "checkout-2"} {
		var profiles [][]byte
		for m := range 60 {
			var b bytes.Buffer
			if err := pprof.Write(&b, minute(pod, m)); err != nil {
				return err
			}
			profiles = append(profiles, b.Bytes())
		}
		labels := [][2]string{{"__name__", "process_cpu"}, {"service_name", "checkout"}, {"pod", pod}, {"region", "eu-west-1"}}
		if err := store.Push(ctx, src, labels, profiles...); err != nil {
			return err
		}
	}
	return nil
}

// paths are the fleet's stacks (root first) and their samples per minute
// before and after the deploy.
var paths = []struct {
	stack         []string
	before, after int64
}{
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "main.priceCart", "encoding/json.Unmarshal"}, 120, 118},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "main.priceCart", "main.(*Catalog).Price"}, 80, 82},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "database/sql.(*DB).QueryContext", "syscall.Syscall"}, 150, 149},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "encoding/json.Marshal"}, 60, 61},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "main.applyCoupons", "regexp.Compile", "regexp/syntax.Parse"}, 0, 210},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "main.applyCoupons", "regexp.Compile", "regexp.compileOnePass"}, 0, 90},
	{[]string{"net/http.(*conn).serve", "main.(*Server).Checkout", "main.applyCoupons", "regexp.(*Regexp).MatchString"}, 0, 40},
	{[]string{"runtime.gcBgMarkWorker", "runtime.gcDrain", "runtime.scanobject"}, 40, 160},
	{[]string{"runtime.mcall", "runtime.park_m", "runtime.schedule"}, 20, 22},
}

// minute is pod's CPU profile of minute m after Start: the paths'
// samples (10 ms each), varied a little by pod and minute.
func minute(pod string, m int) *analysis.Profile {
	cpu := analysis.ValueType{Type: "cpu", Unit: "nanoseconds"}
	b := analysis.NewBuilder("pprof", analysis.ValueType{Type: "samples", Unit: "count"}, cpu)
	at := Start.Add(time.Duration(m) * time.Minute)
	for i, path := range paths {
		n := path.before
		if !at.Before(Deploy) {
			n = path.after
		}
		if n == 0 {
			continue
		}
		n += int64((m*7+i*3+len(pod)*int(pod[len(pod)-1]))%11) - 5 // ±5, deterministic
		var frames []int32
		for _, name := range path.stack {
			frames = append(frames, b.Frame(analysis.Frame{Name: name}))
		}
		b.Add(b.Stack(frames), []int64{n, n * 10_000_000}, 0, false, "", nil)
	}
	p := b.Finish()
	p.Period, p.PeriodType, p.DefaultValue = 10_000_000, cpu, 1
	p.Start, p.Duration = at, time.Minute
	return p
}
