package jfr

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// busy is the recorded program: the main thread spins in Busy.spin for
// 1.5 s of its own CPU time, allocates, and contends for a monitor that a
// second thread holds while it sleeps (long enough for the JDK's 10 ms
// threshold of the profile settings).
const busy = `import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class Busy {
    static final Object lock = new Object();
    static volatile long sink;

    static long spin(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += (i * 31L) ^ s;
        }
        return s;
    }

    public static void main(String[] args) throws Exception {
        Thread holder = new Thread(() -> {
            for (int i = 0; i < 20; i++) {
                synchronized (lock) {
                    try { Thread.sleep(30); } catch (InterruptedException e) { return; }
                }
            }
        }, "holder");
        holder.start();
        // 1.5 s of the main thread's CPU time, not of the clock, so that a
        // loaded machine gives as many execution samples as a quiet one;
        // a minute of the clock at most.
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long end = System.nanoTime() + 60_000_000_000L;
        while (cpu.getCurrentThreadCpuTime() < 1_500_000_000L && System.nanoTime() < end) {
            sink += spin(1_000_000);
            byte[] b = new byte[1 << 16];
            sink += b.length;
            synchronized (lock) { sink++; }
        }
        holder.join();
    }
}
`

// record compiles and runs busy under the flight recorder and returns the
// recording's path.
func record(t *testing.T, javac, java string) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Busy.java"), []byte(busy), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	run(javac, "Busy.java")
	rec := filepath.Join(dir, "busy.jfr")
	run(java, "-XX:StartFlightRecording=filename="+rec+",settings=profile", "Busy")
	return rec
}

// gunzipTo writes the decompressed content of a gzip file to a temporary
// file, for the JDK's tool, and returns its path.
func gunzipTo(t *testing.T, name string) string {
	gz, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "raw.jfr")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}
