package demo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Subcommand is the first argument that makes a program run the demo:
// `proflens demo-target -addr …` (cmd/proflens dispatches it to Main).
const Subcommand = "demo-target"

// Process is the demo running as a child process. Its owner calls Stop.
type Process struct {
	URL     string // http://127.0.0.1:PORT
	Server  string // what serves: "net/http/pprof" or "proflens agent, budget 1%"
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *bufio.Reader
	stderr  *tail
	stopped sync.Once
}

// startTimeout is how long Spawn waits for the demo's address.
const startTimeout = 30 * time.Second

// Spawn runs exe Subcommand -parent args… (exe is a program that serves
// Subcommand, such as the proflens binary) and waits for its address. The
// child runs in a process group of its own, so the interrupts a notebook
// sends to the kernel's group do not reach it, and it exits when its
// standard input closes, which Stop does and the death of its parent does.
func Spawn(exe string, args ...string) (*Process, error) {
	cmd := exec.Command(exe, append([]string{Subcommand, "-parent"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &Process{cmd: cmd, stderr: &tail{max: 4096}}
	cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the demo target: %w", err)
	}
	p.out = bufio.NewReader(stdout)
	if err := p.readAddress(); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// readAddress reads "listening on URL (SERVER)" within startTimeout.
func (p *Process) readAddress() error {
	line := make(chan string, 1)
	go func() {
		s, _ := p.out.ReadString('\n')
		line <- s
	}()
	var s string
	select {
	case s = <-line:
	case <-time.After(startTimeout):
		return fmt.Errorf("the demo target gave no address within %v", startTimeout)
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "listening on ")
	url, server, _ := strings.Cut(rest, " ")
	if !ok || !strings.HasPrefix(url, "http://") {
		return fmt.Errorf("the demo target did not start: %q %s", strings.TrimSpace(s), p.stderr.String())
	}
	p.URL, p.Server = url, strings.Trim(server, "()")
	return nil
}

// Wait waits for the child to exit by itself (a -work run) and returns
// what it printed after its address and its process state (CPU times).
func (p *Process) Wait() (string, *os.ProcessState, error) {
	rest, _ := io.ReadAll(p.out)
	err := p.cmd.Wait()
	if err != nil {
		err = fmt.Errorf("demo target: %w: %s", err, p.stderr.String())
	}
	return string(rest), p.cmd.ProcessState, err
}

// Stop ends the child: its standard input closes, and it is killed when it
// has not exited a few seconds later. It is safe to call more than once.
func (p *Process) Stop() {
	p.stopped.Do(func() {
		p.stdin.Close()
		done := make(chan struct{})
		go func() { io.Copy(io.Discard, p.out); p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	})
}

// Kill ends the child at once, as a crash would (for fault tests and
// demonstrations).
func (p *Process) Kill() error {
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// tail keeps the last max bytes written to it: the child's stderr.
type tail struct {
	mu  sync.Mutex
	b   bytes.Buffer
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if over := t.b.Len() - t.max; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(t.b.String())
}
