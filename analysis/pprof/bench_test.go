package pprof_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/analysis/gen"
	"github.com/proflens/proflens/analysis/pprof"
)

// BenchmarkLoadGenerated loads the speed benchmark's profile (1M samples,
// ~120k stacks, 50k functions, depth 40), generated once into the temp dir.
func BenchmarkLoadGenerated(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	loop(b, func() {
		if _, err := analysis.Load(context.Background(), path, analysis.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkDecode runs the fast decoder alone on the decompressed bytes of
// BenchmarkLoadGenerated's profile: the wire reading, the tables and the
// samples, without the gzip stream.
func BenchmarkDecode(b *testing.B) {
	path, err := gen.File(os.TempDir(), gen.Default())
	if err != nil {
		b.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	loop(b, func() {
		if ok, err := pprof.Decode(data); !ok || err != nil {
			b.Fatalf("decode declined (%v)", err)
		}
	})
}

// loop runs f under b.Loop and reports, beside the wall time, the
// process's CPU time per iteration (cpu-ns/op): on a machine loaded by
// other work the wall time counts the waits for a core, the CPU time much
// less.
func loop(b *testing.B, f func()) {
	start := cpuTime()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
