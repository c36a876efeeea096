package testprof

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// boundedEnv names the test that a child process started by Bounded runs.
const boundedEnv = "PROFLENS_BOUNDED_TEST"

// Bounded runs f in a child process, the test binary running this test
// alone, whose address space is capped at maxRSS plus 2 GiB (for the
// runtime's reservations), so that a test of something that could allocate
// without bound cannot take the machine. The test fails when f fails in the
// child, when the child dies (out of memory past the cap), or when the
// child's peak resident memory passes maxRSS; the peak is logged. t must be
// a top-level test.
func Bounded(t *testing.T, maxRSS int64, f func(t *testing.T)) {
	if os.Getenv(boundedEnv) == t.Name() {
		as := uint64(maxRSS + 2<<30)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
			t.Fatalf("cap the address space: %v", err)
		}
		f(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), boundedEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		t.Fatalf("run the bounded child: %v", err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("peak RSS of the child: %d MiB (bound %d MiB)", rss>>20, maxRSS>>20)
	if err != nil {
		t.Fatalf("bounded child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("bounded child did not run %s:\n%s", t.Name(), out)
	}
	if rss > maxRSS {
		t.Errorf("peak RSS %d MiB, want at most %d MiB\n%s", rss>>20, maxRSS>>20, out)
	}
}
