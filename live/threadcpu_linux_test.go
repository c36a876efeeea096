package live

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestThreadCPU: the CPU time ThreadCPU measures, user and system time of
// the calling thread, agrees with what the kernel reports for the thread
// in /proc/thread-self/stat (fields utime and stime, in clock ticks of
// 10 ms), on work of both kinds.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ticks := func() time.Duration {
		b, err := os.ReadFile("/proc/thread-self/stat")
		if err != nil {
			t.Skip(err)
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		u, _ := strconv.Atoi(f[11]) // field 14 of the file, utime
		s, _ := strconv.Atoi(f[12]) // field 15, stime
		return time.Duration(u+s) * 10 * time.Millisecond
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skip(err)
	}
	defer zero.Close()
	buf := make([]byte, 1<<20)
	before := ticks()
	got := ThreadCPU(func() {
		for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
			zero.Read(buf) // system time: the kernel fills 1 MiB
			for i := range 1 << 17 {
				buf[i] ^= byte(i) // user time
			}
		}
	})
	want := (ticks() - before).Seconds()
	if diff := got - want; diff > 0.03 || diff < -0.03 {
		t.Errorf("ThreadCPU measured %.3f s, the kernel's counts %.3f s", got, want)
	}
}
