package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/live/demo"
)

func init() {
	language = language.With(&kernel.Command{Name: "zpicture", Summary: "shows a picture (test only)",
		Run: func(c *kernel.Call) error {
			c.Picture([]byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), "a picture of nothing")
			return nil
		}})
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.plens")
	os.WriteFile(script, []byte("# a script\necho one \\\n  two\n\necho stream=stderr warn\nversion\nzpicture\n"), 0o644)
	bad := filepath.Join(dir, "bad.plens")
	os.WriteFile(bad, []byte("echo ok\n\nehco oops\necho never\n"), 0o644)
	tests := []struct {
		name           string
		args           []string
		stdin          string
		status         int
		stdout, stderr string
	}{
		{"c", []string{"-c", "echo hi\nversion"}, "", 0, "hi\nproflens 0.1.0\n", ""},
		{"repeated c", []string{"-c", "echo hi", "-c", "version", "-c", "ehco"}, "", 1, "hi\nproflens 0.1.0\n",
			"-c:3: UsageError: unknown command \"ehco\""},
		{"file", []string{script}, "", 0, "one two\nproflens 0.1.0\na picture of nothing\n", "warn\n"},
		{"stdin", []string{"-"}, "echo from stdin", 0, "from stdin\n", ""},
		{"error", []string{bad}, "", 1, "ok\n",
			bad + ":3: UsageError: unknown command \"ehco\": did you mean echo? (help lists all commands)\n"},
		{"syntax", []string{"-c", "echo ok\necho \"open"}, "", 1, "", "-c:2:6: unclosed quote: add a closing \"\n"},
		{"pager", []string{"-c", "sleep?"}, "", 0, "sleep — Wait for a while (for trying interrupts).\n", ""},
		{"none", nil, "", 2, "", "proflens run: nothing to run\nusage: proflens run [-c CMDS]... | FILE.plens | -\n"},
		{"both", []string{"-c", "echo", script}, "", 2, "", "proflens run: give either -c CMDS or one FILE\n"},
		{"missing", []string{filepath.Join(dir, "nope.plens")}, "", 2, "", "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(context.Background(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.status {
				t.Errorf("run %q = status %d, want %d (stderr %q)", tt.args, status, tt.status, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), tt.stdout) {
				t.Errorf("run %q stdout = %q, want it to start with %q", tt.args, stdout.String(), tt.stdout)
			}
			if tt.stdout == "" && stdout.Len() > 0 || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("run %q: stdout %q stderr %q, want stdout %q stderr containing %q", tt.args, stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
		})
	}
}

// TestRunVersion checks that the version command prints exactly what
// `proflens version` prints.
func TestRunVersion(t *testing.T) {
	var a, b, e bytes.Buffer
	mainArgs([]string{"version"}, &a, &e)
	run(context.Background(), []string{"-c", "version"}, nil, &b, &e)
	if a.String() != b.String() || a.Len() == 0 {
		t.Errorf("proflens version = %q, run -c version = %q", a.String(), b.String())
	}
}

// TestRunInterrupted checks that a cancelled run stops a sleep and fails.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if s := run(ctx, []string{"-c", "sleep 1m\necho never"}, nil, &stdout, &stderr); s != 1 || stdout.Len() > 0 ||
		!strings.Contains(stderr.String(), "-c:1: KeyboardInterrupt") {
		t.Errorf("interrupted run: status %d stdout %q stderr %q", s, stdout.String(), stderr.String())
	}
}

// TestMain lets the test binary act as proflens itself, so that the
// process tests below run the real main without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("PROFLENS_TEST_MAIN") == "1" || (len(os.Args) > 1 && os.Args[1] == demo.Subcommand) {
		main()
	}
	os.Exit(m.Run())
}

// proflens starts this test binary as `proflens args...`.
func proflens(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PROFLENS_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// TestRunProcess runs `proflens run` as a process: output, exit status and
// FILE:LINE errors.
func TestRunProcess(t *testing.T) {
	cmd, stdout, stderr := proflens(t, "run", "-c", "echo hi\nversion\nehco no\necho never")
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("proflens run: %v, want exit status 1", err)
	}
	if stdout.String() != "hi\nproflens 0.1.0\n" || !strings.HasPrefix(stderr.String(), "-c:3: UsageError: unknown command \"ehco\"") {
		t.Errorf("proflens run: stdout %q stderr %q", stdout, stderr)
	}
}

// TestRunSIGINT interrupts a running `proflens run` with SIGINT: the sleep
// ends at once and the run fails with the line it stopped at.
func TestRunSIGINT(t *testing.T) {
	cmd, stdout, stderr := proflens(t, "run", "-c", "echo started\nsleep 1m\necho never")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	line := make([]byte, len("started\n"))
	if _, err := r.Read(line); err != nil { // the signal handler is set once output starts
		t.Fatal(err)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	if time.Since(start) > 20*time.Second {
		t.Errorf("SIGINT took %v to stop the run", time.Since(start))
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "-c:2: KeyboardInterrupt") {
		t.Errorf("after SIGINT: %v, stderr %q, stdout %q", err, stderr, stdout)
	}
}
