// Package storetest starts real profile stores, Grafana Pyroscope and
// Parca, on 127.0.0.1 with their data in a directory, for the integration
// tests of package store and the fleet notebook (tests/stores/fleet). The
// servers are binaries built from their published Go modules into .build/
// by tests/stores/build.sh; nothing of them is linked into proflens.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Server is a store started by Start.
type Server struct {
	Addr string // 127.0.0.1:PORT of its HTTP API
	Log  string // the file its output goes to
	cmd  *exec.Cmd
	done chan error
}

// ReadyTimeout is how long Start waits for a store to say it is ready
// (Pyroscope waits 15 s after it is up before it does).
const ReadyTimeout = 3 * time.Minute

// StartPyroscope starts Pyroscope's binary bin, storing in dir, its HTTP
// API on 127.0.0.1:port (a free port when 0). Every address it would
// otherwise detect is pinned to 127.0.0.1 (the query path dials them),
// usage reports are off, and profiles of any age are accepted, so that
// tests can write them after the fact.
func StartPyroscope(ctx context.Context, bin, dir string, port int) (*Server, error) {
	ports, err := freePorts(port, 3)
	if err != nil {
		return nil, err
	}
	p := func(n int) string { return strconv.Itoa(ports[n]) }
	lo := "127.0.0.1"
	args := []string{"-target=all",
		"-server.http-listen-address=" + lo, "-server.http-listen-port=" + p(0),
		"-server.grpc-listen-address=" + lo, "-server.grpc-listen-port=" + p(1),
		"-memberlist.bind-addr=" + lo, "-memberlist.bind-port=" + p(2), "-memberlist.advertise-addr=" + lo,
		"-memberlist.advertise-port=" + p(2), "-memberlist.join=",
		"-distributor.ring.instance-addr=" + lo, "-compactor.ring.instance-addr=" + lo,
		"-query-scheduler.ring.instance-addr=" + lo, "-store-gateway.sharding-ring.instance-addr=" + lo,
		"-overrides-exporter.ring.instance-addr=" + lo, "-ingester.lifecycler.addr=" + lo,
		"-query-frontend.instance-addr=" + lo,
		"-storage.backend=filesystem", "-storage.filesystem.dir=" + filepath.Join(dir, "data-shared"),
		"-pyroscopedb.data-path=" + filepath.Join(dir, "data"),
		"-usage-stats.enabled=false", "-self-profiling.disable-push=true", "-tracing.enabled=false",
		"-validation.reject-older-than=0", "-querier.max-query-lookback=0",
	}
	return start(ctx, bin, dir, lo+":"+p(0), "/ready", args)
}

// StartParca starts Parca's binary bin, storing in memory with its
// debuginfo bucket and caches in dir, on 127.0.0.1:port (a free port when
// 0). It reaches nothing outside the machine.
func StartParca(ctx context.Context, bin, dir string, port int) (*Server, error) {
	ports, err := freePorts(port, 1)
	if err != nil {
		return nil, err
	}
	config := filepath.Join(dir, "parca.yaml")
	yaml := "object_storage:\n  bucket:\n    type: FILESYSTEM\n    config:\n      directory: " + filepath.Join(dir, "bucket") + "\n"
	if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{"--config-path=" + config, "--http-address=" + addr,
		"--storage-path=" + filepath.Join(dir, "data"), "--debuginfo-cache-dir=" + filepath.Join(dir, "dbgcache"),
		"--debuginfod-upstream-servers=127.0.0.1:1", "--profile-share-server=127.0.0.1:1"}
	return start(ctx, bin, dir, addr, "/metrics", args) // Parca has no readiness endpoint; it serves once it listens
}

// start runs bin with args, its output in dir/server.log, and waits until
// GET ready (a path) answers 200.
func start(ctx context.Context, bin, dir, addr, ready string, args []string) (*Server, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	s := &Server{Addr: addr, Log: log.Name(), cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	s.cmd.Dir, s.cmd.Stdout, s.cmd.Stderr = dir, log, log
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	if err := s.wait(ctx, "http://"+addr+ready); err != nil {
		s.Stop()
		return nil, fmt.Errorf("%s on %s: %w; its log ends:\n%s", filepath.Base(bin), addr, err, s.tail())
	}
	return s, nil
}

// wait polls url until it answers 200, the server exits, ctx ends or
// ReadyTimeout passes.
func (s *Server) wait(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, ReadyTimeout)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("exited before it was ready: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("not ready after %s: %w", ReadyTimeout, ctx.Err())
		case <-tick.C:
		}
	}
}

// Stop ends the server (interrupt, then kill after 10 s) and waits for it.
func (s *Server) Stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		s.done <- <-s.done
	}
}

// tail returns the last lines of the server's log.
func (s *Server) tail() string {
	data, _ := os.ReadFile(s.Log)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-20):], "\n")
}

// freePorts returns n ports free on 127.0.0.1 now, the first being first
// when it is not 0.
func freePorts(first, n int) ([]int, error) {
	var out []int
	for len(out) < n {
		if first != 0 && len(out) == 0 {
			out = append(out, first)
			continue
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, errors.Join(errors.New("no free port on 127.0.0.1"), err)
		}
		out = append(out, l.Addr().(*net.TCPAddr).Port)
		l.Close()
	}
	return out, nil
}
